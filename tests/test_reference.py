"""The exhaustive reference solver: hand-checked answers, the referee, and a naive brute force.

Sections cite docs/rules.md. Every expected triple is
(penalty_after, cards_played, cards_moved) and was worked out by hand; each answer is also
checked by the independent referee (``validate_turn``).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from support.reference import MAX_CARDS, ReferenceResult, reference_solve

from rami.cards import Card
from rami.errors import UnsupportedError
from rami.generate import small_position
from rami.matching import cards_moved
from rami.melds import Meld, MeldKind, arrange, is_pure_run, meld_problems, opening_points
from rami.position import Position, hand_penalty
from rami.referee import validate_turn
from rami.rules import get_ruleset


def solve(text: str, objective: str = "points") -> ReferenceResult:
    position = Position.parse(text)
    result = reference_solve(position, objective)
    verdict = validate_turn(position, result.table, result.played)
    assert verdict.legal, (text, [str(m) for m in result.table], verdict.problems)
    assert verdict.penalty_after == result.penalty_after
    assert verdict.cards_moved == result.cards_moved
    assert verdict.opened_after == result.opened_after
    assert len(result.played) == result.cards_played
    return result


def levels(result: ReferenceResult) -> tuple[int, int, int]:
    return result.penalty_after, result.cards_played, result.cards_moved


def table_text(result: ReferenceResult) -> set[str]:
    """The final table as a set of melds, each written in card order (suits S H D C, A..K)."""
    return {" ".join(str(card) for card in sorted(meld.cards)) for meld in result.table}


# --- Cards moved (docs/rules.md decision 7) ------------------------------------------------


def test_extending_a_meld_moves_nothing_rules_59() -> None:
    assert levels(solve("7H 8H 9H / TH / rami-chinois opened")) == (0, 1, 0)


def test_splitting_a_nine_card_run_into_5_and_4_moves_4_rules_59() -> None:
    # 5H can only be played by cutting A..9H into A-5 and 5-9: the old meld keeps 5, 4 move.
    result = solve("AH 2H 3H 4H 5H 6H 7H 8H 9H / 5H / rami-chinois opened")
    assert levels(result) == (0, 1, 4)
    assert sorted(len(meld) for meld in result.table) == [5, 5]


def test_cutting_a_run_around_a_new_set_rules_57() -> None:
    # 5S 5D take 5H out of A..9H: pieces A-4 and 6-9; the old run keeps 4, so 5 cards move.
    result = solve("AH 2H 3H 4H 5H 6H 7H 8H 9H / 5S 5D / rami-chinois opened")
    assert levels(result) == (0, 2, 5)


def test_a_set_broken_into_three_runs_moves_2_not_3_rules_57() -> None:
    # 7S 7H 7D become 5S-7S, 5H-7H, 7D-9D; the set is matched to one run and keeps one card.
    result = solve("7S 7H 7D / 5S 6S 5H 6H 8D 9D / rami-chinois opened")
    assert levels(result) == (0, 6, 2)
    assert table_text(result) == {"5S 6S 7S", "5H 6H 7H", "7D 8D 9D"}


def test_identical_copies_are_never_a_move_rules_19() -> None:
    # The new 7S 8S 9S could be "swapped" with the table's copies: still 0 moves.
    assert levels(solve("7S 8S 9S | 5D 6D 7D / 7S 8S 9S TS / rami-chinois opened")) == (0, 4, 0)
    assert levels(solve("7H 8H 9H | 7H 8H 9H / TH / rami-chinois opened")) == (0, 1, 0)


def test_fewest_moves_over_every_play_of_the_best_level_rules_52() -> None:
    # Leaving one 10-point card is best (3 played). QS QC * as a new set moves nothing; the
    # other play of the same level, QS KH * (QH KH * and QS QD QC), would move one card.
    result = solve("QH QD QC / QS KH QC * / rami-chinois opened")
    assert levels(result) == (10, 3, 0)
    assert sorted(map(str, result.played)) == ["*", "QC", "QS"]


# --- Runs: the ace, no wrapping (docs/rules.md "Common to every preset") ---------------------


def test_q_k_a_run_rules_12() -> None:
    assert levels(solve("QH KH AH / JH / rami-chinois opened")) == (0, 1, 0)


def test_ace_moves_from_a_low_run_to_q_k_a_rules_12() -> None:
    # AH leaves A-4 (2-4 stays legal) to make QH KH AH: one card moved.
    result = solve("AH 2H 3H 4H / QH KH / rami-chinois opened")
    assert levels(result) == (0, 2, 1)
    assert table_text(result) == {"2H 3H 4H", "AH QH KH"}


def test_rummikub_has_no_ace_high_rules_37() -> None:
    # The 1 never follows the 13: QH KH stay in hand (12 + 13 points).
    assert levels(solve("AH 2H 3H 4H / QH KH / rummikub opened")) == (25, 0, 0)
    assert levels(solve("JH QH KH / AH / rummikub opened")) == (1, 0, 0)


def test_no_wrapping_k_a_2_rules_13() -> None:
    # K-A-2 is illegal, and KH QH alone make no meld: nothing is played.
    assert levels(solve("AH 2H 3H / KH QH / rami-chinois opened")) == (20, 0, 0)


def test_longest_run_is_13_cards_rules_14() -> None:
    # A..K is 13 cards: the second ace cannot go above the king (never both ends).
    table = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    result = solve(f"{table} / AS / rami-chinois opened")
    # AS is played only by cutting A..K into A..J (11 cards kept) and QS KS AS: 2 cards move.
    assert levels(result) == (0, 1, 2)
    assert table_text(result) == {"AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", "AS QS KS"}


# --- Jokers (docs/rules.md "Common to every preset", "The presets") ------------------------


def test_a_joker_that_must_move_rules_31() -> None:
    # 7C completes the carré, so the table joker must leave the set: it goes to 9C TC JC.
    result = solve("7S 7H 7D * | 9C TC JC / 7C / rami-chinois opened")
    assert levels(result) == (0, 1, 1)
    assert table_text(result) == {"7S 7H 7D 7C", "9C TC JC *"}


def test_table_joker_moves_to_a_new_set_rules_31() -> None:
    # 2S 3S 4S is pure; 5D 5H need the joker, which moves out of the run (1 card moved).
    result = solve("2S 3S * / 4S 5D 5H / rami-chinois opened")
    assert levels(result) == (0, 3, 1)


def test_jokers_alone_never_make_a_meld_rules_30() -> None:
    # At least one real card per meld: three jokers in hand stay there (3 x 50).
    assert levels(solve("7H 8H 9H / * * * / rami-chinois opened")) == (0, 3, 0)
    assert levels(solve("- / * * * / rami-chinois opened")) == (150, 0, 0)


def test_joker_played_anywhere_rules_17() -> None:
    assert levels(solve("5S 5H * | 9D TD JD / * / rami-chinois opened")) == (0, 1, 0)


# --- Opening (docs/rules.md "The presets", decisions 1-4) ---------------------------------


def test_opening_needs_a_pure_run_rules_29() -> None:
    result = solve("- / 7H 8H 9H KS KD KC / rami-chinois")
    assert levels(result) == (0, 6, 0)
    assert result.opened_after


def test_no_pure_run_no_opening_rules_47() -> None:
    # 7H 8H * is a run with a joker, not a tierce franche: nothing may be laid.
    result = solve("- / 7H 8H * KS KD KC / rami-chinois")
    assert levels(result) == (7 + 8 + 50 + 30, 0, 0)
    assert not result.opened_after


def test_a_four_card_pure_run_opens_rules_47() -> None:
    assert levels(solve("- / 4C 5C 6C 7C / rami-chinois")) == (0, 4, 0)


def test_opening_with_a_pure_run_and_a_joker_set_rules_29() -> None:
    assert levels(solve("- / 2D 3D 4D 9S 9H * / rami-chinois")) == (0, 6, 0)


def test_before_opening_nothing_is_laid_off_rules_43() -> None:
    # Not opened: 7H 8H 9H opens, but 3H cannot go onto the table's run (decisions 1 and 4).
    result = solve("4H 5H 6H / 7H 8H 9H 3H / rami-chinois")
    assert levels(result) == (3, 3, 0)
    # Once opened, everything goes.
    assert levels(solve("4H 5H 6H / 7H 8H 9H 3H / rami-chinois opened")) == (0, 4, 0)


def test_before_opening_7h_8h_cannot_extend_rules_48() -> None:
    assert levels(solve("4H 5H 6H / 7H 8H / rami-chinois")) == (15, 0, 0)


def test_rummikub_opening_needs_30_points_rules_37() -> None:
    # 7 + 8 + 9 (the joker placed as the 9) = 24 < 30: nothing.
    assert levels(solve("- / 7H 8H * / rummikub")) == (7 + 8 + 30, 0, 0)
    # 7 + 8 + 9 + 10 = 34.
    assert levels(solve("- / 7H 8H 9H TH / rummikub")) == (0, 4, 0)


def test_rummikub_joker_placed_for_the_most_points_rules_46() -> None:
    # 9 10 J = 30 with the joker above (8 9 10 would be 27): it opens.
    result = solve("- / 9H TH * / rummikub")
    assert levels(result) == (0, 3, 0)
    # K * * is worth 39 as a set (J Q K as a run is 33); A * * at most 6: no opening.
    assert levels(solve("- / KH * * / rummikub")) == (0, 3, 0)
    assert levels(solve("- / AH * * / rummikub")) == (1 + 60, 0, 0)


def test_rummikub_opening_over_several_melds_rules_37() -> None:
    # 5 5 5 (15) + 4 5 6 (15) = 30 exactly.
    assert levels(solve("- / 5S 5H 5D 4C 5C 6C / rummikub")) == (0, 6, 0)
    # KS KD * (39) opens; 7H 8H stay (15 points left).
    assert levels(solve("- / 7H 8H * KS KD / rummikub")) == (15, 3, 0)


def test_rummikub_opening_ignores_the_table_rules_37() -> None:
    # 7H 8H 9H (24) could extend the table, but the first meld counts hand tiles only.
    assert levels(solve("TH JH QH / 7H 8H 9H / rummikub")) == (24, 0, 0)


# --- Objectives (docs/rules.md decision 6) ------------------------------------------------


def test_points_and_cards_objectives_disagree_rules_52() -> None:
    # Points: AS leaves A-4 for AS AH AD (22 points played, 1 moved), 2H 3H stay (5).
    # Cards: AH 2H 3H (3 cards, nothing moved), AD stays (11).
    text = "AS 2S 3S 4S / AH AD 2H 3H / rami-chinois opened"
    assert levels(solve(text, "points")) == (5, 2, 1)
    assert levels(solve(text, "cards")) == (11, 3, 0)


def test_objectives_disagree_over_one_table_joker_rules_54() -> None:
    # One table joker (spare in 5S 6S 7S *) serves either AD, in the set AH AD * (AH leaves
    # A-4H, which stays legal as 2H-4H), or 2C 3C, in the run 2C 3C *.
    text = "AH 2H 3H 4H | 5S 6S 7S * / AD 2C 3C / rami-chinois opened"
    # Points: the ace (11) goes, 2C 3C stay (5 left); AH and the joker moved.
    assert levels(solve(text, "points")) == (5, 1, 2)
    # Cards: two cards beat one; AD stays (11 left); only the joker moved.
    assert levels(solve(text, "cards")) == (11, 2, 1)


def test_not_opened_both_objectives_agree_rules_29() -> None:
    text = "- / 2C 3C 4C KD / rami-chinois"
    assert levels(solve(text, "points")) == (10, 3, 0)
    assert levels(solve(text, "cards")) == (10, 3, 0)


# --- Rejections ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "7H 8H 9H / TH / rami-fou opened",
        "7H 8H 9H / TH / rami-51 opened",
        "7H 8H 9H / TH / cafe-rummy opened",
    ],
)
def test_unsupported_rules_are_refused(text: str) -> None:
    with pytest.raises(UnsupportedError):
        reference_solve(Position.parse(text))


def test_flag_lets_the_opener_rearrange():
    """docs/rules.md decision 1 flag: with it, the opener's 4S may join the table's run, the played
    cards holding the pure run 7H 8H 9H; without it, 4S stays in the hand."""
    text = "5S 6S 7S / 7H 8H 9H 4S 2C / rami-chinois{} "
    flagged = reference_solve(Position.parse(text.format("[open_and_rearrange_same_turn=true]")))
    assert (flagged.penalty_after, flagged.cards_played, flagged.cards_moved) == (2, 4, 0)
    plain = reference_solve(Position.parse(text.format("")))
    assert (plain.penalty_after, plain.cards_played) == (6, 3)


def test_too_large_is_refused_not_left_running() -> None:
    table = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS | AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    position = Position.parse(f"{table} / 2D / rami-chinois opened")
    assert sum(len(m) for m in position.table) + len(position.hand) > MAX_CARDS
    with pytest.raises(UnsupportedError, match="too large"):
        reference_solve(position)


def test_unknown_objective_is_refused() -> None:
    with pytest.raises(UnsupportedError):
        reference_solve(Position.parse("7H 8H 9H / TH / rami-chinois opened"), "moves")


# --- A naive brute force over physical cards, for tiny positions ---------------------------


def _blocks(cards: list[Card], rules) -> list[list[Meld]]:
    """Every split of ``cards`` (physical, a list) into legal melds, by brute force."""
    if not cards:
        return [[]]
    first, rest = cards[0], cards[1:]
    splits = []
    seen = set()
    for size in range(2, min(len(rest), 12) + 1):
        for companions in itertools.combinations(range(len(rest)), size):
            group = [first] + [rest[i] for i in companions]
            key = tuple(sorted(group))
            others = [card for i, card in enumerate(rest) if i not in companions]
            if (key, tuple(sorted(others))) in seen:
                continue
            seen.add((key, tuple(sorted(others))))
            meld = arrange(group, rules)
            if meld is None:
                continue
            for tail in _blocks(others, rules):
                splits.append([meld, *tail])
    return splits


def _best_layout_points(meld: Meld, rules) -> int:
    best = -1
    for order in set(itertools.permutations(meld.cards)):
        for kind in MeldKind:
            laid = Meld(order, kind)
            if not meld_problems(laid, rules):
                best = max(best, opening_points(laid, rules))
    return best


def _opens(melds: list[Meld], rules) -> bool:
    if rules.opening_pure_run and not any(is_pure_run(meld) for meld in melds):
        return False
    return sum(_best_layout_points(meld, rules) for meld in melds) >= rules.opening_points


def naive(position: Position, objective: str) -> tuple[int, int, int]:
    rules = position.rules
    hand = list(position.hand)
    table_cards = [card for meld in position.table for card in meld.cards]
    best = None
    plays = {
        tuple(sorted(c)) for n in range(len(hand) + 1) for c in itertools.combinations(hand, n)
    }
    for play in plays:
        left = Counter(hand) - Counter(play)
        if position.opened:
            finals = [list(s) for s in _blocks(table_cards + list(play), rules)]
        else:
            if not play:
                finals = [list(position.table)]
            else:
                finals = [
                    list(position.table) + s for s in _blocks(list(play), rules) if _opens(s, rules)
                ]
        opened_after = position.opened or bool(play)
        penalty = hand_penalty(left.elements(), rules, opened_after)
        for final in finals:
            moved = cards_moved(position.table, final)
            key = (
                (penalty, -len(play), moved)
                if objective == "points"
                else (-len(play), penalty, moved)
            )
            if best is None or key < best:
                best = key
    assert best is not None
    if objective == "points":
        return best[0], -best[1], best[2]
    return best[1], -best[0], best[2]


@pytest.mark.parametrize("rules_name", ["rami-chinois", "rami-chinois[jokers=0]", "rummikub"])
def test_reference_matches_naive_brute_force_on_tiny_positions(rules_name: str) -> None:
    rules = get_ruleset(rules_name)
    rng = random.Random(f"naive {rules_name}")
    checked = 0
    while checked < 60:
        position = small_position(rng, rules, max_jokers=2)
        size = sum(len(m) for m in position.table) + len(position.hand)
        if size > 9:
            continue
        checked += 1
        for objective in ("points", "cards"):
            result = reference_solve(position, objective)
            assert levels(result) == naive(position, objective), (str(position), objective)
            verdict = validate_turn(position, result.table, result.played)
            assert verdict.legal, (str(position), verdict.problems)


@pytest.mark.parametrize("rules_name", ["rami-chinois", "rami-chinois[jokers=0]", "rummikub"])
def test_reference_answers_pass_the_referee(rules_name: str) -> None:
    rules = get_ruleset(rules_name)
    rng = random.Random(f"referee {rules_name}")
    for _ in range(150):
        position = small_position(rng, rules)
        for objective in ("points", "cards"):
            result = reference_solve(position, objective)
            verdict = validate_turn(position, result.table, result.played)
            assert verdict.legal, (str(position), verdict.problems)
            assert verdict.penalty_after == result.penalty_after
            assert verdict.cards_moved == result.cards_moved
            assert result.played == tuple(sorted(result.played))
