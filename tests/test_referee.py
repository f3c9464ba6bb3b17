"""The turn referee (rami.referee.validate_turn): legal turns, and every kind of illegal turn with
its reason (docs/rules.md presets rows, decisions 1, 4, 5, 7 and 8)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rami.cards import JOKER, Card, Suit, format_cards, parse_cards
from rami.errors import NotationError
from rami.melds import Meld, MeldKind, is_pure_run, meld_problems, opening_points
from rami.notation import parse_position, parse_table
from rami.position import Position
from rami.referee import TurnVerdict, validate_turn
from rami.referee.opening import opening_problems_from_cards
from rami.rules import get_ruleset


def turn(
    position: str, after: list[str], played: str = "", discard: str | None = None
) -> TurnVerdict:
    """Judge a turn written in notation: position text, melds after, cards played, discard."""
    return validate_turn(
        Position.parse(position).checked(),
        [Meld.parse(text) for text in after],
        parse_cards(played),
        Card.parse(discard) if discard else None,
    )


def legal(verdict: TurnVerdict) -> TurnVerdict:
    assert verdict.legal, verdict.problems
    assert verdict.problems == ()
    return verdict


def illegal(verdict: TurnVerdict, *reasons: str) -> TurnVerdict:
    assert not verdict.legal
    for reason in reasons:
        assert any(reason in problem for problem in verdict.problems), (reason, verdict.problems)
    return verdict


def hand(verdict: TurnVerdict) -> str:
    return format_cards(verdict.hand_after)


# --- Legal turns ------------------------------------------------------------------------------


def test_rami_chinois_pass_is_legal():
    """Seed 000: laying is optional; the player may draw and pass."""
    verdict = legal(turn("7H 8H 9H / 2C KD", ["7H 8H 9H"]))
    assert hand(verdict) == "KD 2C"
    assert verdict.penalty_after == 12 and verdict.opened_after is False
    assert verdict.cards_moved == 0


def test_rami_chinois_full_rearrangement_after_opening():
    """docs/rules.md presets rami-chinois: full rearrangement of any meld after opening; decision 7
    counts the cards moved."""
    verdict = legal(
        turn(
            "5H 6H 7H 8H | 7S 7D 7C 7H / 5S 6S KD / rami-chinois opened",
            ["5H 6H 7H 8H", "7D 7C 7H", "5S 6S 7S"],
            "5S 6S",
        )
    )
    assert verdict.cards_moved == 1  # the 7S left its set
    assert hand(verdict) == "KD" and verdict.penalty_after == 10


def test_decision_7_cards_moved_in_the_verdict():
    """docs/rules.md decision 7: splitting a 9-card run into 5 + 4 moves 4 cards."""
    verdict = legal(
        turn(
            "AH 2H 3H 4H 5H 6H 7H 8H 9H / 5S / rami-chinois opened",
            ["AH 2H 3H 4H 5H", "6H 7H 8H 9H"],
        )
    )
    assert verdict.cards_moved == 4
    extension = legal(turn("7H 8H 9H / TH 2C / opened", ["7H 8H 9H TH"], "TH"))
    assert extension.cards_moved == 0


def test_rami_chinois_going_out_places_the_last_card():
    """docs/rules.md presets rami-chinois: going out = place the last card (no discard)."""
    verdict = legal(turn("7H 8H 9H / TH / opened", ["7H 8H 9H TH"], "TH"))
    assert verdict.hand_after == () and verdict.penalty_after == 0


def test_rami_chinois_opening_with_a_pure_run_and_other_melds():
    """docs/rules.md presets rami-chinois: opening >= 1 pure run, no points; other melds may
    join."""
    verdict = legal(turn("- / 2S 3S 4S KD KC * 9H", ["2S 3S 4S", "KD KC *"], "2S 3S 4S KD KC *"))
    assert verdict.opened_after is True
    assert hand(verdict) == "9H" and verdict.penalty_after == 9


def test_rami_chinois_table_joker_moves_freely():
    """docs/rules.md presets rami-chinois: a table joker moves freely in rearrangements."""
    legal(turn("5D * 7D / 8S 9S 6D / opened", ["5D 6D 7D", "8S 9S *"], "6D 8S 9S"))


def test_identical_copies_placed_differently_are_no_move():
    """docs/rules.md common: swapping the two 7 of hearts is never a move."""
    verdict = legal(turn("5H 6H 7H | 7H 7S 7D / 2C / opened", ["5H 6H 7H", "7S 7H 7D"]))
    assert verdict.cards_moved == 0


# --- Cards that appear or vanish, invalid melds ------------------------------------------------


def test_card_appearing_from_nowhere_is_illegal():
    """Referee: a card appeared on the table from neither the table nor the hand."""
    illegal(
        turn("7H 8H 9H / 2C / opened", ["7H 8H 9H TH"]),
        "1 card appeared on the table from nowhere: TH",
    )


def test_card_vanishing_from_the_table_is_illegal():
    """Referee: a table card vanished (docs/rules.md: the table stays on the table)."""
    illegal(
        turn("7H 8H 9H TH / 2C / opened", ["7H 8H 9H"]),
        "1 card vanished from the table: TH",
    )


def test_played_card_must_be_in_the_hand_and_on_the_table():
    """Referee: cards played come from the hand and end on the table."""
    illegal(
        turn("7H 8H 9H / 2C / opened", ["7H 8H 9H TH"], "TH"),
        "TH is played 1 time but the hand holds 0",
    )
    illegal(turn("7H 8H 9H / TH 2C / opened", ["7H 8H 9H"], "TH"), "vanished from the table: TH")
    illegal(
        turn("7H 8H 9H / * 2C / opened", ["7H 8H 9H"], "*"),
        "1 joker said to be played is not on the table",
    )


def test_invalid_meld_after_the_turn_is_illegal():
    """docs/rules.md common: the table must hold valid melds at the end of the turn."""
    illegal(
        turn("7H 8H 9H TH / 2C / opened", ["7H 8H", "9H TH"]),
        "meld 1 after the turn: meld 7H 8H has 2 cards: a meld needs at least 3",
        "meld 2 after the turn: meld 9H TH has 2 cards",
    )
    illegal(
        turn("QH KH AH / 2C / opened", ["KH AH QH"]),
        "meld 1 after the turn: run KH AH QH is not consecutive: AH then QH",
    )
    illegal(
        turn("- / KH AH 2H 5C / opened", ["KH AH 2H"], "KH AH 2H"),
        "meld 1 after the turn: K-A-2 wraps around",
    )


# --- Table jokers -------------------------------------------------------------------------------


def test_rami_chinois_table_joker_never_returns_to_a_hand():
    """docs/rules.md presets rami-chinois: a table joker never returns to a hand, even when the card
    it stands for is brought."""
    verdict = illegal(
        turn("5D * 7D / 6D 2C / rami-chinois opened", ["5D 6D 7D"], "6D"),
        "1 table joker went back to a hand: under rami-chinois a joker on the table moves "
        "freely in rearrangements, never returns to a hand",
    )
    assert JOKER not in verdict.hand_after


def test_bfmania_joker_swap_to_hand_is_legal_after_opening():
    """docs/rules.md presets BFmania: joker swapped by the card it stands for, goes to the hand."""
    verdict = legal(turn("5D * 7D / 6D 2C KS / bfmania-51 opened", ["5D 6D 7D"], "6D", "KS"))
    assert hand(verdict) == "2C *" and verdict.penalty_after == 22
    set_swap = legal(turn("9S 9H * / 9D 2C 3C / bfmania-30 opened", ["9S 9H 9D"], "9D", "3C"))
    assert hand(set_swap) == "2C *"
    legal(turn("5D * 7D / 6D 2C / bfmania-51 opened", ["5D 6D 7D"], "6D", "*"))


def test_bfmania_joker_swap_needs_the_card_it_stands_for():
    """docs/rules.md presets BFmania: the joker is swapped by the card it stands for only."""
    illegal(
        turn("5D * 7D / 8D 2C KS / bfmania-51 opened", ["5D 7D 8D"], "8D", "KS"),
        "meld 1 after the turn",
    )
    illegal(
        turn("5D * 7D 8D / 9D 2C KS / bfmania-51 opened", ["5D 7D 8D 9D"], "9D", "KS"),
        "meld 1 after the turn",
    )


def test_decision_4_no_joker_swap_before_opening():
    """docs/rules.md decision 4: before opening a player can neither lay off nor swap a joker."""
    illegal(
        turn("5D * 7D / 6D 2C KS / bfmania-51", ["5D 6D 7D"], "6D", "KS"),
        "opening counts 0 points: bfmania-51 needs at least 51",
        "meld 1 (5D * 7D) changed before the player opened: before opening a player lays off "
        "or swaps a joker only once the opening melds are down",
    )


@pytest.mark.parametrize("rules", ["rami-51", "bfmania-51", "bfmania-30", "cafe-rummy"])
def test_decision_4_the_opener_lays_off_once_the_opening_melds_are_down(rules):
    """Decision 4 (revised), seed 004: "Si le joueur a déjà ouvert (ou peut poser au moins 51
    points avec une suite franche), il peut poser des combinaisons valides ou ajouter des
    cartes aux combinaisons déjà présentes sur la table"."""
    position = "7H 8H 9H / 9S TS JS QD QC QH TH 2D / " + rules
    verdict = legal(
        turn(position, ["7H 8H 9H TH", "9S TS JS", "QD QC QH"], "9S TS JS QD QC QH TH", "2D")
    )
    assert verdict.opened_after and verdict.penalty_after == 0
    # The lay-off does not count towards the opening: 9S TS JS (29) + TH is not 51.
    if rules in ("rami-51", "bfmania-51"):
        illegal(
            turn(position, ["7H 8H 9H TH", "9S TS JS"], "9S TS JS TH", "2D"),
            "opening counts 29 points",
        )
    # Without the opening melds, no lay-off.
    illegal(
        turn(position, ["7H 8H 9H TH"], "TH", "2D"),
        "meld 1 (7H 8H 9H) changed before the player opened",
    )


def test_decision_4_the_opening_melds_come_from_the_hand():
    """Decision 4: a joker swapped out this turn cannot be part of the opening melds; the new
    melds hold no more jokers than the hand did."""
    illegal(
        turn(
            "5D * 7D / 6D 9S TS JS QD QC 2C / bfmania-51",
            ["5D 6D 7D", "9S TS JS", "QD QC *"],
            "6D 9S TS JS QD QC",
            "2C",
        ),
        "the new melds hold 1 joker but 0 came from the hand",
    )


def test_rami_51_joker_stays():
    """docs/rules.md presets rami-51: the joker on the table stays."""
    illegal(
        turn("5D * 7D / 6D 2C KS / rami-51 opened", ["5D 6D 7D"], "6D", "KS"),
        "went back to a hand: under rami-51 a joker on the table stays where it is",
    )
    illegal(
        turn("5D * 7D / 6D 8S 9S KS / rami-51 opened", ["5D 6D 7D", "8S 9S *"], "6D 8S 9S", "KS"),
        "meld 1 (5D * 7D) was rearranged: rami-51 allows only lay-offs",
    )


def test_cafe_joker_swapped_must_be_laid_again_the_same_turn():
    """docs/rules.md presets cafe-rummy: joker swapped (after opening), laid again in the same
    turn."""
    legal(
        turn(
            "5D * 7D | 9S 9H 9C / 6D 2C 3C / cafe-rummy opened",
            ["5D 6D 7D", "9S 9H 9C *"],
            "6D",
            "2C",
        )
    )
    illegal(
        turn("5D * 7D / 6D 2C 3C / cafe-rummy opened", ["5D 6D 7D"], "6D", "2C"),
        "went back to a hand: under cafe-rummy",
    )
    illegal(
        turn("5D * 7D / 6D 2C 3C / cafe-rummy", ["5D 6D 7D"], "6D", "2C"),
        "changed before the player opened",
    )


def test_cafe_recovered_joker_is_not_the_final_discard():
    """Seed 002: a joker just recovered from the table cannot serve as the final discard."""
    illegal(
        turn("5D * 7D / 6D / cafe-rummy opened", ["5D 6D 7D"], "6D", "*"),
        "went back to a hand",
    )


def test_rami_fou_joker_pinned_unless_replaced():
    """docs/rules.md presets rami-fou / decision 5: a table joker leaves its meld only when the card
    it stands for replaces it, and must be laid again in the same turn."""
    legal(
        turn("5D * 7D / 6D 8S 9S KC / rami-fou opened", ["5D 6D 7D", "8S 9S *"], "6D 8S 9S", "KC")
    )
    # Replaced, but not laid again: it may not go to the hand.
    illegal(
        turn("5D * 7D / 6D 2C KC / rami-fou opened", ["5D 6D 7D"], "6D", "KC"),
        "1 table joker went back to a hand: under rami-fou",
    )
    # A set's joker leaves without a missing suit taking its place.
    illegal(
        turn("7S 7H 7D * / 8C 9C 2C / rami-fou opened", ["7S 7H 7D", "8C 9C *"], "8C 9C", "2C"),
        "meld 1: a joker left its meld without the card it stands for",
    )


def test_rami_fou_joker_moved_without_its_card_is_illegal():
    """docs/rules.md decision 5: a table joker may change meld only when the card it stands for is
    played in its place in that turn."""
    position = "TD JD QD * / 8S 9S 2C 3C / rami-fou opened"
    # The joker (KD) leaves for 8S 9S *, and no KD takes its place: illegal.
    illegal(
        turn(position, ["TD JD QD", "8S 9S *"], "8S 9S", "2C"),
        "meld 1: a joker left its meld without the card it stands for taking its place",
    )
    # The same in rami-chinois is fine: jokers move freely there.
    legal(turn("TD JD QD * / 8S 9S 2C 3C / rami-chinois opened", ["TD JD QD", "8S 9S *"], "8S 9S"))


def test_rami_fou_joker_replaced_by_its_card_may_move():
    """docs/rules.md presets rami-fou / decision 5: replaced by its card (run or missing suit of a
    set),
    the joker may join another meld."""
    legal(
        turn(
            "TD JD QD * / KD 8S 9S 2C / rami-fou opened",
            ["TD JD QD KD", "8S 9S *"],
            "KD 8S 9S",
            "2C",
        )
    )
    legal(
        turn(
            "7S 7H * / 7D 8C 9C 2C / rami-fou opened",
            ["7S 7H 7D", "8C 9C *"],
            "7D 8C 9C",
            "2C",
        )
    )


CUT = "3H 4H * 6H 7H 8H 9H / 6S 6D 2C / rami-fou opened"


def test_rami_fou_cutting_a_run_does_not_move_its_joker():
    """docs/rules.md decision 5 (revised), "Cutting its run does not move it": where a run holding
    a pinned joker is cut into pieces, the piece that keeps the joker, standing for the same card
    beside real cards of that run, is its own meld too, whichever piece decision 7 matches to the
    old run. Seed 003 forbids only taking a joker without its card ("on peut prendre un joker si
    on peut l'échanger avec la carte qu'il remplace, mais le joker doit permettre de faire
    immédiatement une autre combinaison"); nobody takes it here. 7H 8H 9H holds three real cards
    of the old run and 3H 4H * two, yet the turn is legal, in any order of the melds."""
    after = ["3H 4H *", "7H 8H 9H", "6S 6D 6H"]
    for order in permutations(after):
        verdict = legal(turn(CUT, list(order), "6S 6D", "2C"))
        assert verdict.penalty_after == 0 and verdict.hand_after == ()
        assert verdict.cards_moved == 4  # decision 7: 3H 4H * or 7H 8H 9H leaves the old run
    # Three real cards on the joker's side (decision 7 matches that piece): legal before too.
    legal(
        turn(
            "3H 4H * 6H 7H 8H 9H / 2H 6S 6D 2C / rami-fou opened",
            ["2H 3H 4H *", "7H 8H 9H", "6S 6D 6H"],
            "2H 6S 6D",
            "2C",
        )
    )


def test_rami_fou_a_cut_run_still_pins_its_joker():
    """docs/rules.md decision 5 (revised): in its piece the joker still stands for the same card;
    it does not slide, and a run holding no real card of its old run is no piece of it."""
    # Slid: * 3H 4H makes the joker the 2H.
    illegal(turn(CUT, ["* 3H 4H", "7H 8H 9H", "6S 6D 6H"], "6S 6D", "2C"), "decision 5")
    # Still the 6H, but beside 7H 8H from the hand only: the joker left its run.
    illegal(
        turn("3H 4H 5H * / 7H 8H 2C / rami-fou opened", ["3H 4H 5H", "* 7H 8H"], "7H 8H", "2C"),
        "decision 5",
    )
    # Beside the old run's 7H 8H, the piece may grow (9H from the hand), though 3H 4H 5H is the
    # piece decision 7 matches to the old run.
    legal(
        turn("3H 4H 5H * 7H 8H / 9H 2C / rami-fou opened", ["3H 4H 5H", "* 7H 8H 9H"], "9H", "2C")
    )
    # Its card still frees it only in the piece decision 7 matches: 5H in 3H 4H 5H does not.
    illegal(
        turn(
            "3H 4H * 6H 7H 8H 9H / 5H 6S 6D 2C / rami-fou opened",
            ["3H 4H 5H", "6H 7H 8H 9H", "6S 6D *"],
            "5H 6S 6D",
            "2C",
        ),
        "decision 5",
    )


# --- Opening requirements (presets row "opening requirement", decisions 2-4) -------------------


def test_rami_chinois_opening_needs_a_pure_run():
    """docs/rules.md presets rami-chinois: opening >= 1 pure run (3+ cards, no joker)."""
    illegal(
        turn("- / 2S * 4S KD KC KH", ["2S * 4S", "KD KC KH"], "2S * 4S KD KC KH"),
        "opening needs a pure run",
    )
    legal(turn("- / 2S 3S 4S 5S", ["2S 3S 4S 5S"], "2S 3S 4S 5S"))  # a 4-card pure run qualifies


def test_rami_51_opening_needs_51_points_with_a_pure_run():
    """docs/rules.md presets rami-51: >= 51 points incl. a pure run (decision 2 counting)."""
    position = "- / QH KH AH TS TD TC 2C / rami-51"
    legal(turn(position, ["QH KH AH", "TS TD TC"], "QH KH AH TS TD TC", "2C"))  # 31 + 30
    illegal(
        turn(
            "- / AH 2H 3H TS TD TC 2C / rami-51",
            ["AH 2H 3H", "TS TD TC"],
            "AH 2H 3H TS TD TC",
            "2C",
        ),
        "opening counts 36 points: rami-51 needs at least 51",
    )
    illegal(
        turn(
            "- / QH * AH TS TD TC 2C / rami-51", ["QH * AH", "TS TD TC"], "QH * AH TS TD TC", "2C"
        ),
        "opening needs a pure run",
    )


def test_bfmania_51_seed_example_59_points():
    """Seed 001: 9-10-J of hearts (29) with a set of queens (30) make 59: the opening is legal."""
    position = "- / 9H TH JH QS QD QC 2C 5D / bfmania-51"
    legal(turn(position, ["9H TH JH", "QS QD QC"], "9H TH JH QS QD QC", "2C"))
    illegal(turn(position, ["9H TH JH"], "9H TH JH", "2C"), "opening counts 29 points")


def test_bfmania_51_table_option_without_pure_run():
    """docs/rules.md presets bfmania-51 (table option: without a pure run, only the 51 points)."""
    play = (["QS QD QC", "KS KD *"], "QS QD QC KS KD *", "2C")
    illegal(turn("- / QS QD QC KS KD * 2C 3C / bfmania-51", *play), "opening needs a pure run")
    legal(turn("- / QS QD QC KS KD * 2C 3C / bfmania-51[opening_pure_run=false]", *play))


def test_bfmania_30_opening():
    """Seed 001, rami 30: 30 points without pure run; three kings, joker included, suffice."""
    legal(turn("- / KS KH * 2C 3C / bfmania-30", ["KS KH *"], "KS KH *", "2C"))
    illegal(
        turn("- / 9S 9H * 2C 3C / bfmania-30", ["9S 9H *"], "9S 9H *", "2C"),
        "opening counts 27 points: bfmania-30 needs at least 30",
    )


def test_rami_fou_opening_51_points_no_pure_run_needed():
    """docs/rules.md presets rami-fou: >= 51 points (joker counts as the card it stands for)."""
    legal(
        turn(
            "- / QS QD * KS KD KC 2C / rami-fou", ["QS QD *", "KS KD KC"], "QS QD * KS KD KC", "2C"
        )
    )
    illegal(
        turn("- / QS QD * 2C 3C / rami-fou", ["QS QD *"], "QS QD *", "2C"),
        "opening counts 30 points: rami-fou needs at least 51",
    )


def test_cafe_opening_any_one_valid_meld():
    """docs/rules.md presets cafe-rummy: opening = any one valid meld, even a set of 2s."""
    legal(turn("- / 2S 2H 2D 9C KC / cafe-rummy", ["2S 2H 2D"], "2S 2H 2D", "9C"))


def test_rummikub_opening_30_points_from_the_hand():
    """docs/rules.md rummikub: first meld >= 30 points from the hand (tiles at face value)."""
    legal(turn("- / JH QH KH 2C / rummikub", ["JH QH KH"], "JH QH KH"))  # 11 + 12 + 13
    illegal(
        turn("- / 8H 9H TH 2C / rummikub", ["8H 9H TH"], "8H 9H TH"),
        "opening counts 27 points: rummikub needs at least 30",
    )


def test_decision_2_ace_and_joker_count_where_they_stand():
    """docs/rules.md decision 2: ace 1 in A-2-3, 11 in Q-K-A or a set; a joker as its card."""
    base = "- / {} 9S 9H 9D 2C / rami-51"
    # Q-K-A (31) + 9 9 9 (27) = 58 >= 51.
    legal(turn(base.format("QH KH AH"), ["QH KH AH", "9S 9H 9D"], "QH KH AH 9S 9H 9D", "2C"))
    # A-2-3 (6) + 27 = 33 < 51.
    illegal(
        turn(base.format("AH 2H 3H"), ["AH 2H 3H", "9S 9H 9D"], "AH 2H 3H 9S 9H 9D", "2C"),
        "opening counts 33 points",
    )
    # Pure run J-Q-K (30) + set of aces with a joker (33) = 63.
    legal(
        turn("- / JH QH KH AS AD * 2C / rami-51", ["JH QH KH", "AS AD *"], "JH QH KH AS AD *", "2C")
    )


def test_decision_4_no_rearranging_before_opening():
    """docs/rules.md decisions 1 and 4: the opening player lays new melds from the hand only."""
    illegal(
        turn("4S 5S 6S 7S / 2S 3S KD", ["2S 3S 4S", "5S 6S 7S"], "2S 3S"),
        "meld 1 (4S 5S 6S 7S) changed before the player opened",
    )


def test_decision_4_no_lay_off_before_opening():
    """docs/rules.md decision 4: before opening a player can not lay off (every preset)."""
    illegal(
        turn("7H 8H 9H / 2S 3S 4S TH", ["2S 3S 4S", "7H 8H 9H TH"], "2S 3S 4S TH"),
        "meld 1 (7H 8H 9H) changed before the player opened",
    )
    # Once the opening melds are down, the lay-off is legal (decision 4, revised).
    legal(
        turn(
            "7H 8H 9H / QH KH AH TS TD TC TH 2C / rami-51",
            ["QH KH AH", "TS TD TC", "7H 8H 9H TH"],
            "QH KH AH TS TD TC TH",
            "2C",
        )
    )
    illegal(
        turn("7H 8H 9H / TH 2C / rami-51", ["7H 8H 9H TH"], "TH", "2C"),
        "meld 1 (7H 8H 9H) changed before the player opened",
    )


def test_set_written_in_another_order_is_unchanged():
    """docs/rules.md decisions 1 and 4: a set written in another card order is not a change before
    opening."""
    legal(turn("QS QD QC / 2S 3S 4S", ["QD QS QC", "2S 3S 4S"], "2S 3S 4S"))


def test_rami_51_lay_off_only_after_opening():
    """docs/rules.md presets rami-51: no rearrangement after opening, lay off only."""
    legal(
        turn(
            "7H 8H 9H | QS QD QC / TH QH 2C / rami-51 opened",
            ["7H 8H 9H TH", "QS QD QC QH"],
            "TH QH",
            "2C",
        )
    )
    illegal(
        turn("AH 2H 3H 4H 5H 6H / 2C 3C / rami-51 opened", ["AH 2H 3H", "4H 5H 6H"], "", "2C"),
        "meld 1 (AH 2H 3H 4H 5H 6H) was rearranged: rami-51 allows only lay-offs",
    )
    illegal(
        turn("AH 2H 3H 4H 5H 6H / 2C 3C / bfmania-51 opened", ["AH 2H 3H", "4H 5H 6H"], "", "2C"),
        "was rearranged: bfmania-51 allows only lay-offs and joker swaps",
    )


# --- Decision 1 flag: rearranging in the opening turn ------------------------------------------


def test_decision_1_flag_allows_rearranging_in_the_opening_turn():
    """docs/rules.md decision 1: a ruleset flag allows rearranging in the same turn as opening."""
    after = ["2S 3S 4S 5S 6S 7S", "QH KH AH"]
    played = "2S 3S 4S"
    without = "5S 6S 7S / 2S 3S 4S QH KH AH / rami-chinois"
    illegal(turn(without, after, played + " QH KH AH"), "changed before the player opened")
    flag = "5S 6S 7S / 2S 3S 4S QH KH AH / rami-chinois[open_and_rearrange_same_turn=true]"
    verdict = legal(turn(flag, after, played + " QH KH AH"))
    assert verdict.opened_after and verdict.cards_moved == 0
    # The opening itself is still required: no pure run among the cards played.
    illegal(
        turn(
            "5S 6S 7S / 2S * 4S / rami-chinois[open_and_rearrange_same_turn=true]",
            ["2S * 4S 5S 6S 7S"],
            "2S * 4S",
        ),
        "opening needs a pure run",
    )


def test_decision_1_flag_needs_an_opening_to_rearrange():
    """docs/rules.md decision 1 flag: rearranging without laying anything is still rearranging
    before
    opening."""
    illegal(
        turn(
            "7H 8H 9H TH | JH QH KH / 5D / rami-chinois[open_and_rearrange_same_turn=true]",
            ["7H 8H 9H", "TH JH QH KH"],
        ),
        "changed before the player opened",
    )


def test_decision_1_flag_opening_points_come_from_the_hand():
    """docs/rules.md rummikub: first meld >= 30 points from the hand, even when merged at once."""
    rules = "rummikub[open_and_rearrange_same_turn=true]"
    # JH QH KH (36) from the hand, laid and merged into the table run at once.
    legal(turn(f"8H 9H TH / JH QH KH 2C / {rules}", ["8H 9H TH JH QH KH"], "JH QH KH"))
    # 8H 9H TH on the table do not count for the opening: the hand gives JH QH only.
    illegal(
        turn(f"8H 9H TH / JH QH 2C / {rules}", ["8H 9H TH JH QH"], "JH QH"),
        "the cards played do not make 30 opening points: rummikub needs at least 30",
    )
    illegal(
        turn(
            "4D 5D 6D / KS KD KC 6S 2C / rami-fou[open_and_rearrange_same_turn=true]",
            ["4D 5D 6D", "KS KD KC"],
            "KS KD KC",
            "2C",
        ),
        "the cards played do not make 51 opening points",
    )


# --- Discards (presets rows "discard pile", "going out"; decision 8) ---------------------------


def test_rami_chinois_never_discards():
    """docs/rules.md presets rami-chinois: no discard pile, never discard."""
    illegal(
        turn("7H 8H 9H / 2C KD / opened", ["7H 8H 9H"], "", "2C"),
        "rami-chinois has no discard: a turn never ends by discarding",
    )


def test_discarding_preset_needs_a_discard():
    """docs/rules.md presets: discard pile yes: every turn ends with a discard."""
    for rules in ("rami-fou", "rami-51", "bfmania-51", "cafe-rummy"):
        illegal(
            turn(f"7H 8H 9H / 2C KD / {rules} opened", ["7H 8H 9H"]),
            f"{rules} ends every turn with a discard; none was given",
        )
    verdict = legal(turn("7H 8H 9H / 2C KD / rami-fou opened", ["7H 8H 9H"], "", "KD"))
    assert hand(verdict) == "2C" and verdict.penalty_after == 2


def test_discard_must_be_in_the_hand():
    """docs/rules.md presets row "discard pile": the discard comes from the hand left after the
    turn."""
    illegal(
        turn("7H 8H 9H / TH KD / rami-51 opened", ["7H 8H 9H TH"], "TH", "TH"),
        "the discard TH is not left in the hand",
    )


@pytest.mark.parametrize("rules", ["rami-fou", "rami-51", "cafe-rummy"])
def test_going_out_by_discarding_the_last_card(rules):
    """docs/rules.md presets: going out = discard the last card (rami-fou, rami-51, Café)."""
    verdict = legal(turn(f"7H 8H 9H / TH KD / {rules} opened", ["7H 8H 9H TH"], "TH", "KD"))
    assert verdict.hand_after == () and verdict.penalty_after == 0
    illegal(
        turn(f"7H 8H 9H / TH / {rules} opened", ["7H 8H 9H TH"], "TH"),
        "ends every turn with a discard; none was given",
    )


@pytest.mark.parametrize("rules", ["bfmania-51", "bfmania-30"])
def test_bfmania_going_out_by_placing_or_discarding(rules):
    """docs/rules.md presets BFmania: going out = place or discard the last card."""
    legal(turn(f"7H 8H 9H / TH / {rules} opened", ["7H 8H 9H TH"], "TH"))
    legal(turn(f"7H 8H 9H / TH KD / {rules} opened", ["7H 8H 9H TH"], "TH", "KD"))


def test_decision_8_taken_discard_not_discarded_unless_last_card():
    """docs/rules.md decision 8: the card just taken from the discard pile may not be discarded in
    the same turn unless it is the last card in the hand (every discarding preset)."""
    for rules in ("rami-fou", "rami-51", "bfmania-51", "bfmania-30", "cafe-rummy"):
        illegal(
            turn(f"7H 8H 9H / KD 2C / {rules} opened discard=KD", ["7H 8H 9H"], "", "KD"),
            "KD was just taken from the discard pile: neither copy may be discarded",
        )
        legal(turn(f"7H 8H 9H / KD 2C / {rules} opened discard=KD", ["7H 8H 9H"], "", "2C"))
        legal(turn(f"7H 8H 9H / KD TH / {rules} opened discard=KD", ["7H 8H 9H TH"], "TH", "KD"))
    # Two identical copies: the lock covers the twin, since copies are interchangeable (decision
    # 8, revised: "holding the twin of the card taken does not allow discarding that card type").
    illegal(
        turn("7H 8H 9H / KD KD 2C / rami-51 opened discard=KD", ["7H 8H 9H"], "", "KD"),
        "neither copy may be discarded",
    )
    illegal(turn("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC", ["7H 8H 9H"], "", "KC"))
    legal(turn("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC", ["7H 8H 9H"], "", "2C"))


def test_cafe_joker_discarded_only_as_the_last_card():
    """docs/rules.md presets cafe-rummy: a joker is never discarded except as the last card."""
    illegal(
        turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "*"),
        "cafe-rummy never discards a joker except as the last card",
    )
    legal(turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "2C"))
    legal(turn("6D 7D 8D / * 9D / cafe-rummy opened", ["6D 7D 8D 9D"], "9D", "*"))
    # Other presets may discard a joker at any time.
    legal(turn("7H 8H 9H / * 2C / rami-51 opened", ["7H 8H 9H"], "", "*"))


# --- Penalties after the turn -----------------------------------------------------------------


def test_penalty_after_counts_the_preset_values_and_flat_100():
    """docs/rules.md presets: hand penalty values; rami-fou / rami-51 unopened: flat 100."""
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / rami-fou", ["7H 8H 9H"], "", "2C"))
    assert verdict.opened_after is False and verdict.penalty_after == 100
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / rami-fou opened", ["7H 8H 9H"], "", "2C"))
    assert verdict.penalty_after == 10 + 20 + 11
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / rami-chinois", ["7H 8H 9H"]))
    assert verdict.penalty_after == 2 + 10 + 50 + 11
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / cafe-rummy", ["7H 8H 9H"], "", "2C"))
    assert verdict.penalty_after == 10 + 25 + 11


# --- The opening with rearrangement: exact search against brute force --------------------------


def best_from_played(cards: tuple[Card, ...], rules) -> tuple[bool, bool, int, int]:
    """Brute force: over every packing of disjoint groups of the cards, each group laid out in
    every order as a run or a set: (any meld, a pure run, most points, most points with a pure
    run, -1 when there is none)."""
    layouts: dict[tuple[Card, ...], list[tuple[int, bool]]] = {}

    def options(group: tuple[Card, ...]) -> list[tuple[int, bool]]:
        if group not in layouts:
            found = set()
            for order in set(permutations(group)):
                for kind in MeldKind:
                    meld = Meld(order, kind)
                    if not meld_problems(meld, rules):
                        found.add((opening_points(meld, rules), is_pure_run(meld)))
            layouts[group] = sorted(found)
        return layouts[group]

    results: set[tuple[bool, bool, int]] = set()

    def walk(remaining: tuple[Card, ...], melds: int, pure: bool, points: int) -> None:
        results.add((melds > 0, pure, points))
        reals = [card for card in remaining if not card.is_joker]
        if not reals:
            return
        first = min(reals)
        rest = list(remaining)
        rest.remove(first)
        walk(tuple(rest), melds, pure, points)  # `first` stays out of the opening
        for size in range(2, len(rest) + 1):
            for others in set(combinations(rest, size)):
                left = list(rest)
                for card in others:
                    left.remove(card)
                for group_points, group_pure in options(tuple(sorted((first, *others)))):
                    walk(tuple(left), melds + 1, pure or group_pure, points + group_points)

    walk(tuple(sorted(cards)), 0, False, 0)
    any_meld = any(flag for flag, _, _ in results)
    pure_run = any(pure for _, pure, _ in results)
    best = max(points for _, _, points in results)
    best_pure = max((points for _, pure, points in results if pure), default=-1)
    return any_meld, pure_run, best, best_pure


HIGH = (9, 10, 11, 12, 13, 1)  # runs of these ranks may use the high ace


@st.composite
def played_cards(draw) -> list[Card]:
    """Cards likely to hold melds (short runs and sets of high cards, some jokers) plus a few
    low cards that fit nothing, so that leaving cards out of the opening matters."""
    cards: list[Card] = []
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            suit = draw(st.sampled_from([Suit.SPADES, Suit.HEARTS]))
            start = draw(st.integers(0, len(HIGH) - 3))
            group = [Card.of(rank, suit) for rank in HIGH[start : start + 3]]
        else:
            rank = draw(st.sampled_from(HIGH))
            group = [Card.of(rank, suit) for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)]
        if draw(st.booleans()):
            group[draw(st.integers(0, 2))] = JOKER
        cards.extend(group)
    noise = st.sampled_from([Card.of(rank, suit) for rank in (2, 5, 9, 12, 1) for suit in Suit])
    cards.extend(draw(st.lists(noise | st.just(JOKER), max_size=6 - len(cards))))
    return cards


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(["rami-fou", "rummikub", "rami-chinois", "rami-51", "cafe-rummy"]),
    played_cards(),
)
def test_property_same_turn_opening_matches_brute_force(name, cards):
    """Decision 1 flag: whether the cards played hold an opening (a pure run; enough points;
    both; any meld) is decided exactly, checked against a brute force."""
    rules = get_ruleset(f"{name}[open_and_rearrange_same_turn=true]")
    counts = Counter(cards)
    assume(counts[JOKER] <= rules.jokers and all(n <= 2 for n in counts.values()))
    any_meld, pure_run, best, best_pure = best_from_played(tuple(cards), rules)
    if rules.opening_any_meld:
        expected = any_meld
    elif rules.opening_pure_run and rules.opening_points:
        expected = best_pure >= rules.opening_points
    elif rules.opening_pure_run:
        expected = pure_run
    else:
        expected = best >= rules.opening_points
    problems = opening_problems_from_cards(counts, rules)
    assert (not problems) is expected, (format_cards(sorted(cards)), problems, best, best_pure)


def test_same_turn_opening_known_answers():
    """docs/rules.md decision 1 flag + presets opening requirement: known answers of the exact
    opening
    search (rami-51: 51 points incl. a pure run)."""
    rules = get_ruleset("rami-51[open_and_rearrange_same_turn=true]")
    assert opening_problems_from_cards(Counter(parse_cards("QH KH AH QS QD *")), rules) == []
    # 2S (the first card in order) fits no meld and stays out; 8S too.
    chinois = get_ruleset("rami-chinois[open_and_rearrange_same_turn=true]")
    assert opening_problems_from_cards(Counter(parse_cards("2S 8S QH KH AH")), chinois) == []
    fou = get_ruleset("rami-fou[open_and_rearrange_same_turn=true]")
    assert opening_problems_from_cards(Counter(parse_cards("2S AS AH AD KS KH KD")), fou) == []
    assert opening_problems_from_cards(Counter(parse_cards("QH KH * QS QD *")), rules) == [
        "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)",
        "the cards played do not make 51 opening points with a pure run: rami-51 needs at least 51",
    ]


def test_lay_off_presets_pair_each_meld_with_the_one_that_extends_it():
    """docs/rules.md bfmania row: a swap keeps the meld; the referee must find the meld that extends
    it even when another meld after shares as many cards with it."""
    position = parse_position("JH JD * / JS JS 9H JD / bfmania-30 opened discard=JS")
    verdict = validate_turn(
        position, parse_table("JS JD * | JH JD JS"), parse_cards("JS JS JD"), Card.parse("9H")
    )
    assert verdict.legal, verdict.problems
    assert verdict.penalty_after == 0


def test_validate_turn_takes_plain_lists_and_text():
    """The Python API: melds as Meld objects, text or lists of cards; cards as Card or text."""
    position = Position.parse("7H 8H 9H / TH 2C / rami-chinois opened")
    for table, played in (
        ([Meld.parse("7H 8H 9H TH")], [Card.parse("TH")]),
        (["7H 8H 9H TH"], ["TH"]),
        ([["7H", "8H", "9H", "TH"]], "TH"),
        ([[Card.parse(text) for text in ("7H", "8H", "9H", "TH")]], ("TH",)),
    ):
        verdict = validate_turn(position, table, played)
        assert verdict.legal and verdict.hand_after == (Card.parse("2C"),), (table, played)
    with pytest.raises(NotationError, match="8X"):
        validate_turn(position, ["7H 8X"], [])
