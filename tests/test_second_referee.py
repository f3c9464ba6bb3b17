"""The second referee (tests/support/second_referee.py): known answers for every rule of the
spec, in every preset, legal and illegal, and its matching against brute force.

It is judged here on its own; tests/test_referee_differential.py compares it with the primary
referee (rami.referee.validate_turn) on solver answers and their mutations.
"""

from __future__ import annotations

import ast
import random
from itertools import permutations
from pathlib import Path

import pytest
from support.second_referee import (
    Verdict,
    all_max_matchings,
    judge,
    max_weight_matching,
    meld_faults,
)

from rami.cards import Card, format_cards, parse_cards
from rami.melds import Meld, MeldKind
from rami.notation import parse_position
from rami.rules import get_ruleset


def turn(position: str, after: list[str], played: str = "", discard: str | None = None) -> Verdict:
    """Judge a turn written in notation: position, melds after, cards played, discard."""
    return judge(
        parse_position(position).checked(),
        [Meld.parse(text) for text in after],
        parse_cards(played),
        Card.parse(discard) if discard else None,
    )


def legal(verdict: Verdict) -> Verdict:
    assert verdict.legal, verdict.problems
    assert verdict.problems == ()
    return verdict


def illegal(verdict: Verdict, *words: str) -> Verdict:
    assert not verdict.legal
    assert verdict.problems
    for word in words:
        assert any(word in problem for problem in verdict.problems), (word, verdict.problems)
    assert verdict.cards_moved == 0
    return verdict


def hand(verdict: Verdict) -> str:
    return format_cards(verdict.hand_after)


def valid(text: str, rules: str) -> bool:
    return not meld_faults(Meld.parse(text), get_ruleset(rules))


# --- Independence -------------------------------------------------------------------------------


def test_imports_only_data_types():
    """The second referee imports no judging code from rami."""
    source = Path(__file__).parent / "support" / "second_referee.py"
    tree = ast.parse(source.read_text())
    allowed = {
        "rami.cards": {"JOKER", "Card", "Suit"},
        "rami.rules": {"Ruleset", "TableJoker", "GoingOut", "get_ruleset"},
        "rami.position": {"Position"},
        "rami.melds": {"Meld", "MeldKind"},
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("rami") for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rami"):
            assert node.module in allowed, node.module
            names = {alias.name for alias in node.names}
            assert names <= allowed[node.module], names - allowed[node.module]


# --- Melds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        ("7H 8H 9H", "rami-chinois", True),
        ("* 2H 3H", "rami-chinois", True),  # the joker is the low ace
        ("* AH 2H", "rami-chinois", False),  # nothing below the ace
        ("QH KH *", "rami-chinois", True),  # the joker is the high ace
        ("QH KH AH", "rami-chinois", True),
        ("QH KH AH", "rummikub", False),  # a tile run never goes above 13
        ("QH KH *", "rummikub", False),
        ("* QH KH", "rummikub", True),
        ("AH 2H 3H", "rummikub", True),
        ("KH AH 2H", "rami-chinois", False),  # never wrapping
        ("KH * 2H", "rami-chinois", False),
        ("7H 8S 9H", "rami-chinois", False),
        ("7H 9H 8H", "rami-chinois", False),  # consecutive in the order written
        ("7H 8H", "rami-chinois", False),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "rami-chinois", True),
        ("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "rami-chinois", True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", "rami-chinois", False),
        ("* * * * * * * * * * 5H * * *", "rami-chinois", False),
        ("5H * *", "rami-chinois", True),
        ("5H * *", "bfmania-51", False),  # two real cards per meld
        ("5H 6H *", "bfmania-51", True),
        ("5H * *", "cafe-rummy", False),
        ("5H 6H * *", "cafe-rummy", True),  # naturals >= jokers
        ("5H 6H * * *", "cafe-rummy", False),
        ("* * *", "rami-chinois", False),
        ("7H 7S 7D", "rami-chinois", True),
        ("7H 7S 7D 7C", "rami-chinois", True),
        ("7H 7S 7D 7C *", "rami-chinois", False),
        ("7H 7H 7D", "rami-chinois", False),  # two 7 of hearts never share a set
        ("7H 7S 8D", "rami-chinois", False),
        ("set: 7H * *", "rami-chinois", True),
        ("set: 7H * *", "bfmania-30", False),
        ("AS AH AD", "rummikub", True),
    ],
)
def test_meld_validity(text: str, rules: str, expected: bool) -> None:
    assert valid(text, rules) is expected


def test_meld_kind_is_respected():
    assert meld_faults(Meld(parse_cards("7H 7S 7D"), MeldKind.RUN), get_ruleset("rami-chinois"))
    assert meld_faults(Meld(parse_cards("7H 8H 9H"), MeldKind.SET), get_ruleset("rami-chinois"))


# --- Matching -----------------------------------------------------------------------------------


def _brute_force(weights: list[list[int]]) -> int:
    rows, cols = len(weights), len(weights[0])
    best = 0
    columns = [*range(cols), *([-1] * rows)]
    for order in set(permutations(columns, rows)):
        best = max(best, sum(weights[r][c] for r, c in enumerate(order) if c >= 0))
    return best


def test_matching_against_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        rows, cols = rng.randint(1, 4), rng.randint(1, 5)
        weights = [[rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(cols)] for _ in range(rows)]
        total, assignment = max_weight_matching(weights)
        assert total == _brute_force(weights), weights
        used = [c for c in assignment if c >= 0]
        assert len(used) == len(set(used))
        assert total == sum(weights[r][c] for r, c in enumerate(assignment) if c >= 0)
        every = all_max_matchings(weights, list(range(rows)))
        assert tuple(assignment) in every or any(
            weights[r][c] == 0 for r, c in enumerate(assignment) if c >= 0
        )
        for picked in every:
            assert sum(weights[r][c] for r, c in enumerate(picked) if c >= 0) == total


def test_all_max_matchings_lists_ties():
    assert all_max_matchings([[1, 1]], [0]) == {(0,), (1,)}
    assert all_max_matchings([[2, 1], [2, 0]], [0, 1]) == {(1, 0)}


# --- Common rules -------------------------------------------------------------------------------


def test_played_cards_must_be_in_the_hand():
    illegal(turn("7H 8H 9H / 2C / rami-chinois opened", ["7H 8H 9H TH"], "TH"), "TH")


def test_cards_must_not_appear_or_vanish():
    illegal(turn("7H 8H 9H / TH 2C / rami-chinois opened", ["7H 8H 9H TH"], ""), "appeared")
    illegal(turn("7H 8H 9H TH / 2C / rami-chinois opened", ["7H 8H 9H"], ""), "vanished")
    illegal(turn("7H 8H 9H / TH / rami-chinois opened", ["7H 8H 9H"], "TH"), "vanished")


def test_every_meld_after_must_be_valid():
    illegal(turn("7H 8H 9H / TH 2C / rami-chinois opened", ["7H 8H 9H TH 2C"], "TH 2C"))


def test_table_joker_never_returns_to_a_hand_outside_bfmania():
    for rules in ("rami-chinois", "rummikub"):
        illegal(turn(f"7H 8H 9H * / 2C / {rules} opened", ["7H 8H 9H"]), "joker")
    illegal(turn("7H 8H 9H * / 2C / rami-fou opened", ["7H 8H 9H"], "", "2C"), "joker")
    illegal(turn("5D * 7D / 6D 2C / cafe-rummy opened", ["5D 6D 7D"], "6D", "2C"), "joker")
    illegal(turn("5D * 7D / 6D 2C / rami-51 opened", ["5D 6D 7D"], "6D", "2C"))


# --- Rami chinois -------------------------------------------------------------------------------


def test_rami_chinois_pass_and_penalty():
    verdict = legal(turn("7H 8H 9H / 2C KD * / rami-chinois", ["7H 8H 9H"]))
    assert hand(verdict) == "KD 2C *"
    assert verdict.penalty_after == 62 and verdict.opened_after is False
    assert verdict.cards_moved == 0


def test_rami_chinois_never_discards():
    illegal(turn("7H 8H 9H / 2C KD / rami-chinois opened", ["7H 8H 9H"], "", "2C"), "discard")


def test_rami_chinois_full_rearrangement_and_cards_moved():
    verdict = legal(
        turn(
            "AH 2H 3H 4H 5H 6H 7H 8H 9H / 5H / rami-chinois opened",
            ["AH 2H 3H 4H 5H", "5H 6H 7H 8H 9H"],
            "5H",
        )
    )
    assert verdict.cards_moved == 4 and verdict.penalty_after == 0
    verdict = legal(
        turn(
            "7S 7H 7D / 5S 6S 5H 6H 8D 9D / rami-chinois opened",
            ["5S 6S 7S", "5H 6H 7H", "7D 8D 9D"],
            "5S 6S 5H 6H 8D 9D",
        )
    )
    assert verdict.cards_moved == 2
    # The table joker moves freely; identical copies are no move.
    verdict = legal(
        turn(
            "7S 8S 9S | 5D 6D * / 7D 7S 2C / rami-chinois opened",
            ["5D 6D 7D", "7S 8S 9S *"],
            "7D",
        )
    )
    assert verdict.cards_moved == 1
    verdict = legal(
        turn(
            "7S 8S 9S / 7S TS / rami-chinois opened",
            ["7S 8S 9S TS"],
            "TS",
        )
    )
    assert verdict.cards_moved == 0 and hand(verdict) == "7S"


def test_rami_chinois_going_out_places_the_last_card():
    verdict = legal(turn("7H 8H 9H / TH / rami-chinois opened", ["7H 8H 9H TH"], "TH"))
    assert verdict.hand_after == () and verdict.penalty_after == 0


def test_rami_chinois_opening_needs_a_pure_run():
    legal(turn("- / 5H 6H 7H * * * / rami-chinois", ["5H 6H 7H"], "5H 6H 7H"))
    illegal(
        turn("- / 5H 6H 7H * * * / rami-chinois", ["5H * *", "6H 7H *"], "5H 6H 7H * * *"),
        "pure run",
    )
    illegal(
        turn("- / 5H 6H * 9S 9D 9C / rami-chinois", ["5H 6H *", "9S 9D 9C"], "5H 6H * 9S 9D 9C"),
        "pure run",
    )
    verdict = legal(
        turn("- / 5H 6H 7H * * 2C / rami-chinois", ["5H 6H 7H", "set: 2C * *"], "5H 6H 7H * * 2C")
    )
    assert verdict.opened_after and verdict.penalty_after == 0


def test_rami_chinois_opening_turn_leaves_the_table_alone():
    """Decision 1: new melds from the hand only in the opening turn."""
    legal(turn("7H 8H 9H / TH JH QH KH / rami-chinois", ["7H 8H 9H", "TH JH QH KH"], "TH JH QH KH"))
    illegal(
        turn("7H 8H 9H / TH JH QH KH / rami-chinois", ["7H 8H 9H TH", "JH QH KH"], "TH JH QH KH"),
        "changed",
    )
    # A set written in another order is unchanged.
    legal(turn("QS QH QC / 4D 5D 6D / rami-chinois", ["QC QS QH", "4D 5D 6D"], "4D 5D 6D"))
    # Nothing played: the table stays as it is.
    illegal(turn("4H 5H 6H 7H 8H 9H / 2C / rami-chinois", ["4H 5H 6H", "7H 8H 9H"]), "changed")


def test_decision_1_flag_rearranging_in_the_opening_turn():
    flag = "rami-chinois[open_and_rearrange_same_turn=true]"
    legal(turn(f"7H 8H 9H / TH JH QH 2C / {flag}", ["7H 8H 9H TH JH QH"], "TH JH QH"))
    illegal(turn(f"7H 8H 9H / TH JH QH 2C / {flag}", ["7H 8H 9H TH"], "TH"), "opening")
    illegal(turn(f"QS QH QC / QD * 5C / {flag}", ["QS QH QC", "QD * *"], ""), "appeared")
    illegal(turn(f"QS QH QC / QD * 5C / {flag}", ["QS QH QC QD"], "QD"), "opening")
    # The played cards need only hold the opening: JD QD KD, the joker joins it or the set.
    legal(turn(f"QS QH QC / JD QD KD 3C * / {flag}", ["QS QH QC *", "JD QD KD"], "JD QD KD *"))
    legal(turn(f"QS QH QC / JD QD KD 3C * / {flag}", ["QS QH QC", "JD QD KD *"], "JD QD KD *"))
    # Nothing played: the table stays.
    illegal(turn(f"4H 5H 6H 7H 8H 9H / 2C / {flag}", ["4H 5H 6H", "7H 8H 9H"]), "changed")


def test_rummikub_opening_30_points_from_the_hand():
    legal(turn("- / TH JH QH / rummikub", ["TH JH QH"], "TH JH QH"))
    illegal(turn("- / 7H 8H 9H / rummikub", ["7H 8H 9H"], "7H 8H 9H"), "24 points")
    legal(turn("- / KH * * / rummikub", ["* * KH"], "KH * *"))  # 11 + 12 + 13
    illegal(turn("- / AH * * / rummikub", ["AH * *"], "AH * *"), "6 points")
    legal(turn("- / KH KS KD AC AS AD / rummikub", ["KH KS KD", "AC AS AD"], "KH KS KD AC AS AD"))
    illegal(turn("- / AC AS AD 9H / rummikub", ["AC AS AD"], "AC AS AD"), "3 points")
    flag = "rummikub[open_and_rearrange_same_turn=true]"
    legal(
        turn(f"7S 7H 7D / 7C KD KH KS 2S / {flag}", ["7S 7H 7D 7C", "KD KH KS"], "7C KD KH KS")
    )  # KD KH KS hold 39 points
    illegal(turn(f"7S 7H 7D / 7C KD KH 2S 3S / {flag}", ["7S 7H 7D 7C"], "7C"), "opening")


def test_rummikub_no_discard_and_penalties():
    verdict = legal(turn("7H 8H 9H / KC * / rummikub", ["7H 8H 9H"]))
    assert verdict.penalty_after == 13 + 30


# --- Rami fou -----------------------------------------------------------------------------------


FOU = "rami-fou opened"


def test_rami_fou_joker_into_a_set_of_fives_is_illegal():
    illegal(
        turn(f"5H * 7H / 5S 5D 7S 7D 2C / {FOU}", ["5S 5H 5D *", "7S 7H 7D"], "5S 5D 7S 7D", "2C"),
        "decision 5",
    )


def test_rami_fou_set_joker_turned_into_a_run_card_is_illegal():
    illegal(
        turn(f"5H 5S * / 4H 6S 7S 2C / {FOU}", ["4H 5H *", "5S 6S 7S"], "4H 6S 7S", "2C"),
        "decision 5",
    )


def test_rami_fou_freed_joker_back_into_its_own_meld_is_illegal():
    illegal(turn(f"5H 6H 7H * / 8H 2S / {FOU}", ["* 5H 6H 7H 8H"], "8H", "2S"), "decision 5")
    # The joker may stay where it is while the run grows.
    legal(turn(f"5H 6H 7H * / 8H 2S / {FOU}", ["5H 6H 7H *"], "", "8H"))


def test_rami_fou_joker_never_slides_to_another_card():
    position = f"* QC KC | * 7C 8C / 8H 8D QD 9C TC / {FOU}"
    illegal(
        turn(position, ["* QC KC", "7C * 9C TC", "8H 8D 8C"], "8H 8D 9C TC", "QD"), "decision 5"
    )
    illegal(turn(position, ["QC KC *", "* 7C 8C 9C TC"], "9C TC", "8H"), "decision 5")
    legal(turn(position, ["* QC KC", "* 7C 8C 9C TC"], "9C TC", "QD"))


def test_rami_fou_freed_joker_relaid_elsewhere_is_legal():
    verdict = legal(
        turn(f"5H * 7H / 6H 8S 8D 2C / {FOU}", ["5H 6H 7H", "8S 8D *"], "6H 8S 8D", "2C")
    )
    assert verdict.cards_moved == 1 and verdict.penalty_after == 0
    legal(turn(f"5H * 7H 8H / 9H 2C / {FOU}", ["5H * 7H 8H 9H"], "9H", "2C"))
    # The freed joker joins another existing meld.
    legal(turn(f"5H * 7H | 9S 9D 9C / 6H 2C / {FOU}", ["5H 6H 7H", "9S 9D 9C *"], "6H", "2C"))
    # Freed but never laid again: back to a hand, illegal.
    illegal(turn(f"5H * 7H / 6H 2C / {FOU}", ["5H 6H 7H"], "6H", "2C"), "joker")


def test_rami_fou_set_joker_pinned_or_freed():
    legal(turn(f"5H 5S * / 5D 2C / {FOU}", ["5H 5S 5D *"], "5D", "2C"))  # still pinned
    legal(turn(f"5H 5S * / 5D 8C 9C 2S / {FOU}", ["5H 5S 5D", "8C 9C *"], "5D 8C 9C", "2S"))
    # A joker leaves a set only for a card of a suit the set lacked.
    illegal(
        turn(f"5H 5S 5D * / 8C 9C 2S / {FOU}", ["5H 5S 5D", "8C 9C *"], "8C 9C", "2S"), "decision 5"
    )
    # The card that frees it may come from another table meld.
    legal(turn(f"5H 5S * | 5D 6D 7D 8D / 2S / {FOU}", ["5H 5S 5D", "6D 7D 8D *"], "", "2S"))
    # Two jokers, one freed card: one joker must stay.
    legal(turn(f"set: 5H * * / 5S 8C 9C 2D / {FOU}", ["5H 5S *", "8C 9C *"], "5S 8C 9C", "2D"))
    legal(
        turn(
            f"set: 5H * * / 5S 5D 8C 9C 2D / {FOU}", ["5H 5S 5D", "8C 9C * *"], "5S 5D 8C 9C", "2D"
        )
    )
    legal(turn(f"5H 5D * * / 5S 8C 9C 2D / {FOU}", ["5H 5D 5S *", "8C 9C *"], "5S 8C 9C", "2D"))
    illegal(
        turn(f"5H 5D * * / 5S 8C 9C 2D / {FOU}", ["5H 5D 5S", "8C 9C * *"], "5S 8C 9C", "2D"),
        "decision 5",
    )


def test_rami_fou_ties_between_matchings_favour_the_player():
    """5H 5S * shares one card with each meld after; the turn is legal by the matching that
    keeps the joker in a set of fives."""
    legal(turn(f"5H 5S * / 5D 6S 7S 2C / {FOU}", ["5H 5D *", "5S 6S 7S"], "5D 6S 7S", "2C"))


def test_rami_fou_joker_matching_counts_real_cards_only():
    """5H * 7H shares no real card with * * 8H, where its joker would still stand for 6H: that
    meld is not its own, so the joker left it without 6H taking its place."""
    illegal(
        turn(
            f"5H * 7H / * 8H 5D 5C 7D 7C 2S / {FOU}",
            ["5H 5D 5C", "7H 7D 7C", "* * 8H"],
            "* 8H 5D 5C 7D 7C",
            "2S",
        ),
        "decision 5",
    )
    # Its own meld may shrink around the pinned joker.
    legal(turn(f"5H * 7H 8H / 5D 5C 2S / {FOU}", ["5H 5D 5C", "* 7H 8H"], "5D 5C", "2S"))


def test_rami_fou_hand_jokers_go_anywhere():
    legal(turn(f"5H * 7H / * 9S 9D 2C / {FOU}", ["5H * 7H", "9S 9D *"], "* 9S 9D", "2C"))
    # The hand's joker takes the set; the table joker stays pinned.
    legal(turn(f"5H * 7H / * 9S 9D 2C / {FOU}", ["5H * 7H", "* 9S 9D"], "* 9S 9D", "2C"))


def test_rami_fou_cutting_a_run_does_not_move_its_joker():
    """docs/rules.md decision 5 (revised), "Cutting its run does not move it": the piece of a cut
    run that keeps the joker, standing for the same card beside real cards of that run, is its
    own meld too, whichever piece decision 7 matches to the old run. Original text 003 forbids
    only taking a joker without its card ("on peut prendre un joker si on peut l'échanger avec
    la carte qu'il remplace, mais le joker doit permettre de faire immédiatement une autre
    combinaison"); nobody takes it here."""
    position = f"3H 4H * 6H 7H 8H 9H / 6S 6D 2C / {FOU}"
    for order in permutations(["3H 4H *", "7H 8H 9H", "6S 6D 6H"]):
        verdict = legal(turn(position, list(order), "6S 6D", "2C"))
        assert verdict.penalty_after == 0 and verdict.hand_after == ()
        assert verdict.cards_moved == 4
    legal(
        turn(
            f"3H 4H * 6H 7H 8H 9H / 2H 6S 6D 2C / {FOU}",
            ["2H 3H 4H *", "7H 8H 9H", "6S 6D 6H"],
            "2H 6S 6D",
            "2C",
        )
    )
    # The piece may grow beside the old run's 7H 8H.
    legal(turn(f"3H 4H 5H * 7H 8H / 9H 2C / {FOU}", ["3H 4H 5H", "* 7H 8H 9H"], "9H", "2C"))
    # Still pinned: no slide (the joker as 2H), no run without a real card of the old run (7H
    # 8H from the hand), and its card frees it only in the piece decision 7 matches.
    illegal(turn(position, ["* 3H 4H", "7H 8H 9H", "6S 6D 6H"], "6S 6D", "2C"), "decision 5")
    illegal(
        turn(f"3H 4H 5H * / 7H 8H 2C / {FOU}", ["3H 4H 5H", "* 7H 8H"], "7H 8H", "2C"), "decision 5"
    )
    illegal(
        turn(
            f"3H 4H * 6H 7H 8H 9H / 5H 6S 6D 2C / {FOU}",
            ["3H 4H 5H", "6H 7H 8H 9H", "6S 6D *"],
            "5H 6S 6D",
            "2C",
        ),
        "decision 5",
    )


def test_rami_fou_opening_51_points_no_pure_run():
    verdict = legal(
        turn(
            "- / KS KH KD QS QH QD 2C / rami-fou",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        )
    )
    assert verdict.opened_after and verdict.penalty_after == 0
    legal(
        turn(
            "- / KS KH KD 7S 7H 7D 2C / rami-fou",
            ["KS KH KD", "7S 7H 7D"],
            "KS KH KD 7S 7H 7D",
            "2C",
        )
    )  # exactly 51
    illegal(
        turn(
            "- / KS KH KD 6S 6H 6D 2C / rami-fou",
            ["KS KH KD", "6S 6H 6D"],
            "KS KH KD 6S 6H 6D",
            "2C",
        ),
        "48 points",
    )
    # Not opened after the turn: the flat 100.
    verdict = legal(turn("7H 8H 9H / 2C 3C / rami-fou", ["7H 8H 9H"], "", "3C"))
    assert verdict.penalty_after == 100 and not verdict.opened_after
    # The opening turn leaves the table alone (decision 1).
    illegal(
        turn(
            "7H 8H 9H / KS KH KD QS QH QD TH 2C / rami-fou",
            ["7H 8H 9H TH", "KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD TH",
            "2C",
        ),
        "changed",
    )


def test_rami_fou_discard_rules():
    illegal(turn(f"7H 8H 9H / TH / {FOU}", ["7H 8H 9H TH"], "TH"), "discard")
    verdict = legal(turn(f"7H 8H 9H / TH / {FOU}", ["7H 8H 9H"], "", "TH"))
    assert verdict.hand_after == () and verdict.penalty_after == 0
    illegal(turn(f"7H 8H 9H / TH 2C / {FOU}", ["7H 8H 9H"], ""), "discard")
    illegal(turn(f"7H 8H 9H / TH 2C / {FOU}", ["7H 8H 9H TH"], "TH", "TH"), "not in the hand")


# --- Lay-off presets ----------------------------------------------------------------------------


OPENING_WITH_LAYOFF = "7H 8H 9H / 9S TS JS QD QC QH TH 2D / {}"


@pytest.mark.parametrize("rules", ["rami-51", "bfmania-51"])
def test_opening_turn_then_lay_off_51(rules: str):
    position = OPENING_WITH_LAYOFF.format(rules)
    verdict = legal(
        turn(position, ["7H 8H 9H TH", "9S TS JS", "QD QC QH"], "9S TS JS QD QC QH TH", "2D")
    )
    assert verdict.opened_after and verdict.penalty_after == 0 and verdict.cards_moved == 0
    illegal(turn(position, ["7H 8H 9H TH"], "TH", "2D"), "new meld")
    # The lay-off does not count towards the 51 points: 29 + 30 = 59 without TH, but
    # 9S TS JS with QD QC only is no opening.
    illegal(turn(position, ["7H 8H 9H TH", "9S TS JS"], "9S TS JS TH", "2D"), "points")


def test_cafe_opening_any_meld_then_lay_off():
    position = OPENING_WITH_LAYOFF.format("cafe-rummy")
    legal(turn(position, ["7H 8H 9H TH", "9S TS JS", "QD QC QH"], "9S TS JS QD QC QH TH", "2D"))
    legal(turn(position, ["7H 8H 9H TH", "QD QC QH"], "QD QC QH TH", "2D"))
    illegal(turn(position, ["7H 8H 9H TH"], "TH", "2D"), "new meld")
    legal(turn("- / 2S 2H 2D 9C / cafe-rummy", ["2S 2H 2D"], "2S 2H 2D", "9C"))


def test_rami_51_opening_needs_a_pure_run_and_51():
    illegal(
        turn(
            "- / KS KH KD QS QH QD 2C / rami-51",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        ),
        "pure run",
    )
    legal(
        turn(
            "- / QH KH AH TS TD TC 2C / rami-51",
            ["QH KH AH", "TS TD TC"],
            "QH KH AH TS TD TC",
            "2C",
        )
    )  # 31 + 30
    illegal(
        turn(
            "- / AH 2H 3H TS TD TC 2C / rami-51",
            ["AH 2H 3H", "TS TD TC"],
            "AH 2H 3H TS TD TC",
            "2C",
        ),
        "36 points",
    )
    # A run with a joker is no pure run, whatever its points.
    illegal(
        turn(
            "- / 9H TH JH * AS AD AC 2C / rami-51",
            ["9H TH JH *", "AS AD AC"],
            "9H TH JH * AS AD AC",
            "2C",
        ),
        "pure run",
    )
    verdict = legal(turn("7H 8H 9H / 2C 3C / rami-51", ["7H 8H 9H"], "", "2C"))
    assert verdict.penalty_after == 100


def test_bfmania_table_option_and_rami_30():
    illegal(
        turn(
            "- / KS KH KD QS QH QD 2C / bfmania-51",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        ),
        "pure run",
    )
    legal(
        turn(
            "- / KS KH KD QS QH QD 2C / bfmania-51[opening_pure_run=false]",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        )
    )
    legal(turn("- / KS KH * 2C / bfmania-30", ["KS KH *"], "KS KH *", "2C"))
    legal(turn("- / TH JH * 2C 5D / bfmania-30", ["TH JH *"], "TH JH *", "2C"))  # 10 10 10
    illegal(turn("- / TH JH * 2C 5D / bfmania-30", ["* TH JH"], "TH JH *", "2C"), "29 points")
    # The joker counts as the card it stands for, where it stands (the low ace counts 1).
    illegal(
        turn(
            "- / 7S 7D 7C 2H 3H * 5C / bfmania-30",
            ["7S 7D 7C", "* 2H 3H"],
            "7S 7D 7C 2H 3H *",
            "5C",
        ),
        "27 points",
    )
    legal(
        turn(
            "- / 7S 7D 7C 2H 3H * 5C / bfmania-30",
            ["7S 7D 7C", "2H 3H *"],
            "7S 7D 7C 2H 3H *",
            "5C",
        )
    )
    illegal(
        turn(
            "- / AS AD AC 2H 3H 4H 5C / rami-51",
            ["AS AD AC", "2H 3H 4H"],
            "AS AD AC 2H 3H 4H",
            "5C",
        ),
        "42 points",
    )  # aces of a set count 11
    verdict = legal(turn("- / TH JH 2C 5D / bfmania-30", [], "", "2C"))
    assert verdict.penalty_after == 10 + 10 + 5  # no flat penalty in bfmania


def test_rami_51_lay_off_only():
    legal(turn("5D 6D 7D / * 2C / rami-51 opened", ["5D 6D 7D *"], "*", "2C"))
    legal(turn("5D 6D 7D / * 2C / rami-51 opened", ["* 5D 6D 7D"], "*", "2C"))
    legal(turn("9S 9H 9D / 9C 2C / rami-51 opened", ["9S 9H 9C 9D"], "9C", "2C"))
    illegal(
        turn("4H 5H 6H 7H 8H 9H / 2C 3C / rami-51 opened", ["4H 5H 6H", "7H 8H 9H"], "", "2C"),
        "lay-offs",
    )
    illegal(turn("5D * 7D / 6D 2C / rami-51 opened", ["5D 6D 7D", "*"], "6D", "2C"))
    illegal(turn("5D * 7D / 6D 2C / rami-51 opened", ["* 5D 6D 7D"], "6D", "2C"), "lay-offs")
    legal(turn("5D * 7D / 8D 9D 2C / rami-51 opened", ["5D * 7D 8D 9D"], "8D 9D", "2C"))
    # Lay-offs before opening: illegal.
    illegal(turn("5D 6D 7D / 8D 2C / rami-51", ["5D 6D 7D 8D"], "8D", "2C"))


def test_bfmania_joker_swap_to_hand():
    verdict = legal(turn("5D * 7D / 6D 2C / bfmania-51 opened", ["5D 6D 7D"], "6D", "2C"))
    assert hand(verdict) == "*" and verdict.penalty_after == 20 and verdict.cards_moved == 1
    verdict = legal(turn("9S 9H * / 9D 2C / bfmania-30 opened", ["9S 9H 9D"], "9D", "2C"))
    assert hand(verdict) == "*"
    # The joker may also go straight out as the discard.
    verdict = legal(turn("9S 9H * / 9D 2C / bfmania-30 opened", ["9S 9H 9D"], "9D", "*"))
    assert hand(verdict) == "2C"
    # Or be laid again at once (here at the other end of its own run).
    legal(turn("5D * 7D / 6D 2C / bfmania-51 opened", ["* 5D 6D 7D"], "6D", "2C"))
    # Only the card it stands for swaps it.
    illegal(turn("9S 9H * / 9S 2C / bfmania-30 opened", ["9S 9H 9S"], "9S", "2C"))
    illegal(turn("5D * 7D 8D / 9D 2C / bfmania-51 opened", ["5D 7D 8D 9D"], "9D", "2C"))
    # A joker does not leave without a swap.
    illegal(turn("5D 6D 7D * / 2C 3C / bfmania-51 opened", ["5D 6D 7D"], "", "2C"))
    illegal(turn("9S 9H 9D * / 2C 3C / bfmania-51 opened", ["9S 9H 9D"], "", "2C"))
    # Decision 4: a player not opened swaps only once the opening melds are down.
    illegal(turn("5D * 7D / 6D 2C 3C / bfmania-51", ["5D 6D 7D"], "6D", "2C"), "new meld")
    legal(
        turn(
            "5D * 7D / 6D KS KH KD AS AD AC 2C / bfmania-30",
            ["5D 6D 7D", "KS KH KD"],
            "6D KS KH KD",
            "2C",
        )
    )


def test_bfmania_going_out_by_placing_or_discarding():
    for rules in ("bfmania-51", "bfmania-30"):
        verdict = legal(turn(f"5D 6D 7D / 8D / {rules} opened", ["5D 6D 7D 8D"], "8D"))
        assert verdict.hand_after == () and verdict.penalty_after == 0
        legal(turn(f"5D 6D 7D / 8D / {rules} opened", ["5D 6D 7D"], "", "8D"))
        illegal(turn(f"5D 6D 7D / 8D 2C / {rules} opened", ["5D 6D 7D 8D"], "8D"), "discard")


def test_cafe_swapped_joker_must_be_laid_again():
    position = "5D * 7D | 9S 9H 9C / 6D 2C 3C / cafe-rummy opened"
    verdict = legal(turn(position, ["5D 6D 7D", "9S 9H 9C *"], "6D", "2C"))
    assert verdict.cards_moved == 1
    illegal(turn(position, ["5D 6D 7D", "9S 9H 9C"], "6D", "2C"), "joker")
    legal(turn("5D * 7D / 6D 2C / cafe-rummy opened", ["5D 6D 7D *"], "6D", "2C"))
    legal(
        turn(
            "* 7D 7C / 7S 9S 9D TD QD / cafe-rummy opened discard=QD",
            ["7S 7D 7C", "9D TD *"],
            "7S 9D TD",
            "9S",
        )
    )
    # Not opened: the swap waits for the opening melds.
    illegal(turn("5D * 7D / 6D 2C 3C / cafe-rummy", ["5D 6D 7D *"], "6D", "2C"), "new meld")
    legal(
        turn(
            "5D * 7D / 6D 2C 2S 2H 3C / cafe-rummy", ["5D 6D 7D *", "2C 2S 2H"], "6D 2C 2S 2H", "3C"
        )
    )


def test_a_joker_swapped_in_the_opening_turn_never_joins_a_new_meld():
    """Decision 4 (the project's reading): in the opening turn the new melds hold no more jokers
    than the hand played; a joker swapped this turn goes on an old meld (Café) or to the hand
    (BFmania)."""
    illegal(
        turn(
            "5D * 7D / 2S 2H 2D 6D 9C TC 3C / cafe-rummy",
            ["2S 2H 2D", "5D 6D 7D", "9C TC *"],
            "2S 2H 2D 6D 9C TC",
            "3C",
        ),
        "decision 4",
    )
    illegal(
        turn("5D * 7D / 6D 9C TC 3C / cafe-rummy", ["5D 6D 7D", "9C TC *"], "6D 9C TC", "3C"),
        "decision 4",
    )
    illegal(
        turn(
            "5D * 7D / KS KH KD 6D 9C TC 3C / bfmania-30",
            ["KS KH KD", "5D 6D 7D", "9C TC *"],
            "KS KH KD 6D 9C TC",
            "3C",
        ),
        "decision 4",
    )
    illegal(
        turn("5D * 7D / KS KH 6D 9C TC 3C / bfmania-30", ["KS KH *", "5D 6D 7D"], "KS KH 6D", "3C"),
        "decision 4",
    )
    # Café Rummy: the hand's joker was discarded, so the new meld's joker is the swapped one.
    illegal(turn("* JD QD / TS TD TD * / cafe-rummy", ["TD JD QD", "TS TD *"], "TS TD TD", "*"))
    illegal(
        turn("* 2D 3D / AS AD AC * * / cafe-rummy", ["AD 2D 3D", "AS AC * *"], "AS AD AC *", "*")
    )
    # The hand's own jokers may be in the new melds, and a swapped one on an old meld.
    legal(turn("* 2D 3D / AS AD AC * * / cafe-rummy", ["AD 2D 3D *", "AS AC *"], "AS AD AC *", "*"))
    legal(
        turn("5D * 7D / 6D 9C TC * 3C / cafe-rummy", ["5D 6D 7D *", "9C TC *"], "6D 9C TC *", "3C")
    )
    # BFmania: the opening holds the hand's joker (played); the swapped joker comes to the hand
    # and is discarded. Said with no joker played, the new meld's joker came from the table.
    legal(
        turn(
            "* * 5D 5C / 5H TH TD 9C TC TC JC * / bfmania-51",
            ["5D 5C 5H *", "TH TD TC *", "9C TC JC"],
            "5H TH TD 9C TC TC JC *",
            "*",
        )
    )
    illegal(
        turn(
            "* * 5D 5C / 5H TH TD 9C TC TC JC * / bfmania-51",
            ["5D 5C 5H *", "TH TD TC *", "9C TC JC"],
            "5H TH TD 9C TC TC JC",
            "*",
        )
    )


def test_opening_does_not_depend_on_the_order_of_the_melds():
    for after in (["7H 8H 9H", "7H 8H 9H TH JH QH"], ["7H 8H 9H TH JH QH", "7H 8H 9H"]):
        legal(turn("7H 8H 9H / 7H 8H 9H TH JH QH 2C / rami-51", after, "7H 8H 9H TH JH QH", "2C"))


def test_bfmania_joker_said_to_be_played_but_not_on_the_table():
    illegal(turn("9C TC JC * / QH * / bfmania-51 opened", ["9C TC JC *"], "*", "QH"), "swapped")
    legal(turn("9C TC JC * / QH * / bfmania-51 opened", ["9C TC JC *"], "", "QH"))


def test_rami_fou_pinned_joker_keeps_its_card_across_the_ace():
    """The joker of QH KH * stands for the ace of hearts; below the 2 it still does."""
    legal(
        turn(
            "QH KH * / 2H 3H 4H 5H 6H 7H 8H 9H TH JH 2C / rami-fou opened",
            ["* 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"],
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
            "2C",
        )
    )
    legal(turn("QH KH * / JH 2C / rami-fou opened", ["JH QH KH *"], "JH", "2C"))
    illegal(turn("QH KH * / JH 2C / rami-fou opened", ["* JH QH KH"], "JH", "2C"), "decision 5")


def test_cafe_joker_discarded_only_as_the_last_card():
    illegal(turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "*"), "joker")
    legal(turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "2C"))
    legal(turn("7H 8H 9H / * / cafe-rummy opened", ["7H 8H 9H"], "", "*"))
    # Elsewhere a joker may be discarded.
    legal(turn("7H 8H 9H / * 2C / rami-51 opened", ["7H 8H 9H"], "", "*"))


def test_cafe_naturals_and_real_cards_on_lay_offs():
    legal(turn("5D 6D * / * 2C / cafe-rummy opened", ["5D 6D * *"], "*", "2C"))
    illegal(turn("5D 6D * * / * 2C / cafe-rummy opened", ["5D 6D * * *"], "*", "2C"))
    illegal(turn("- / 7H * * 2C / bfmania-51 opened", ["7H * *"], "7H * *", "2C"))


def test_cafe_going_out_discards():
    illegal(turn("5D 6D 7D / 8D / cafe-rummy opened", ["5D 6D 7D 8D"], "8D"), "discard")
    legal(turn("5D 6D 7D / 8D / cafe-rummy opened", ["5D 6D 7D"], "", "8D"))


def test_lay_off_pairs_each_meld_with_one_extending_it():
    verdict = legal(turn("JH JD * / JS 9H JC 2C / bfmania-30 opened", ["JH JD JS"], "JS", "2C"))
    assert hand(verdict) == "9H JC *"
    # Two melds after hold JD and a joker; only JH JD JS extends JH JD *, and the swapped joker
    # is laid again in the new meld.
    verdict = legal(
        turn(
            "JH JD * / JS JS 9H JD / bfmania-30 opened discard=JS",
            ["JS JD *", "JH JD JS"],
            "JS JS JD",
            "9H",
        )
    )
    assert verdict.hand_after == ()


# --- Decision 8 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["bfmania-51", "rami-51", "rami-fou", "cafe-rummy"])
def test_decision_8_taken_discard_and_its_twin(rules: str):
    position = f"7H 8H 9H / KC KC 2C / {rules} opened discard=KC"
    illegal(turn(position, ["7H 8H 9H"], "", "KC"), "decision 8")
    legal(turn(position, ["7H 8H 9H"], "", "2C"))
    illegal(turn(f"7H 8H 9H / KC 2C / {rules} opened discard=KC", ["7H 8H 9H"], "", "KC"))
    # The last card in the hand may be the taken one.
    legal(turn(f"7H 8H 9H / TH KC / {rules} opened discard=KC", ["7H 8H 9H TH"], "TH", "KC"))
