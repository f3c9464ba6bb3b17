"""Rami fou turns: known answers of the solver.

docs/rules.md presets rami-fou: full rearrangement, but a table joker leaves its meld only when the
card it stands for takes its place and is laid again in the same turn (decision 5); the turn
ends with a discard (decisions 6 and 8; going out is discarding the last card); 51 opening
points without a pure run; jokers 20 in the hand; not opened: flat 100.

The pinned joker, freed by its card or a missing suit, never sliding; going out, the taken
discard, jokers in the hand, the opening; the tie of matchings to the player; the same answer
twice; max-play's turn laid in place where it can.
"""

from __future__ import annotations

from collections import Counter

from support.fou import solved, tables

import rami.solver.rearrange.pinned as pinned
from rami import parse_position, solve
from rami.cards import parse_cards
from rami.melds import Meld
from rami.referee import validate_turn
from rami.solver.api import Status
from rami.solver.rearrange.going_out import lay_in_place


def test_table_joker_stays_pinned_without_its_card():
    """Decision 5: rami chinois would take the joker from 5H 6H 7H * for 9C 9D *; rami fou may
    not, so nothing is played and the costliest card is discarded."""
    free = solve(parse_position("5H 6H 7H * / 9C 9D 2S / rami-chinois opened"))
    assert free.penalty_after == 2
    solution = solved("5H 6H 7H * / 9C 9D 2S / rami-fou opened")
    assert solution.status is Status.OPTIMAL
    assert solution.played == () and str(solution.discard) in ("9C", "9D")
    assert solution.penalty_after == 11
    assert tables(solution) == ["5H 6H 7H *"]


def test_joker_freed_by_its_card_is_laid_again():
    """Decision 5: 8H takes the joker's place in 5H 6H 7H *; the joker makes 9C 9D * at once."""
    solution = solved("5H 6H 7H * / 8H 9C 9D 2S / rami-fou opened")
    assert solution.status is Status.OPTIMAL
    assert sorted(tables(solution)) == ["5H 6H 7H 8H", "9D 9C *"]
    assert str(solution.discard) == "2S" and solution.penalty_after == 0
    assert solution.cards_moved == 1  # the joker


def test_set_joker_freed_by_a_missing_suit():
    """Decision 5 for a set: the joker of 7S 7H * stands for a missing suit; 7D takes it."""
    solution = solved("7S 7H * / 7D 4C 5C 2S / rami-fou opened")
    assert sorted(tables(solution)) == ["4C 5C *", "7S 7H 7D"]
    assert solution.penalty_after == 0


def test_joker_never_slides_inside_its_own_meld():
    """Decision 5 (revised): until it is freed a table joker keeps standing for the same card;
    it does not slide to stand for another card of its run. The joker of 4S 5S 6S 7S * is the
    8S: it may not become the 3S that 2S needs."""
    solution = solved("4S 5S 6S 7S * / 2S 9C / rami-fou opened")
    assert tables(solution) == ["4S 5S 6S 7S *"]
    assert solution.played == () and str(solution.discard) == "9C"
    assert solution.penalty_after == 2
    slid = validate_turn(
        parse_position("4S 5S 6S 7S * / 2S 9C / rami-fou opened"),
        [Meld.parse("2S * 4S 5S 6S 7S")],
        parse_position("- / 2S / rami-fou").hand,
        parse_position("- / 9C / rami-fou").hand[0],
    )
    assert not slid.legal and "decision 5" in slid.problems[0]


def test_going_out_is_discarding_the_last_card():
    """docs/rules.md rami-fou: going out = discard the last card, so one card stays for it."""
    solution = solved("5H 6H 7H / 8H 3C / rami-fou opened")
    assert solution.played == (parse_position("- / 8H / rami-fou").hand[0],)
    assert str(solution.discard) == "3C" and solution.hand == ()
    assert solution.moves[-1].text == "discard 3C: your hand is empty, you go out"
    # A hand that could meld whole still keeps one card back for the discard.
    whole = solved("5H 6H 7H / 8H 9H TH / rami-fou opened")
    assert len(whole.played) == 2 and whole.hand == () and whole.discard is not None


def test_taken_discard_is_kept_unless_last():
    """Decision 8: the card just taken from the discard pile is not discarded this turn, unless
    it is the last card."""
    kept = solved("5H 6H 7H / 2S KS / rami-fou opened discard=KS")
    assert str(kept.discard) == "2S" and kept.penalty_after == 10
    last = solved("5H 6H 7H / KS / rami-fou opened discard=KS")
    assert str(last.discard) == "KS" and last.penalty_after == 0


def test_jokers_left_in_hand_cost_20():
    """docs/rules.md rami-fou: a joker left in the hand counts 20."""
    solution = solved("5H 6H 7H / * 2S 3D / rami-fou opened")
    # The joker is played (5H 6H 7H *): cheaper than keeping it; 3D is discarded.
    assert solution.penalty_after == 2
    assert str(solution.discard) == "3D"


def test_opening_counts_51_points_without_a_pure_run():
    """docs/rules.md rami-fou: the opening needs 51 points (decision 2), no pure run."""
    solution = solved("- / KS KH KD QS QH QD 2C / rami-fou")
    assert solution.opened and sorted(tables(solution)) == ["KS KH KD", "QS QH QD"]
    assert str(solution.discard) == "2C" and solution.penalty_after == 0
    short = solved("- / KS KH KD 5S 6S 7S 2C / rami-fou")  # 30 + 18 = 48 points
    assert not short.opened and short.played == ()
    assert short.penalty_after == 100  # flat, not opened


def test_player_who_cannot_open_keeps_the_joker():
    """docs/rules.md rami-fou: not opened, the hand counts a flat 100 whatever is discarded
    (decision 6 ties): the advice keeps the joker and lets the costliest other card go."""
    solution = solved("- / KS KH 5S 6S * 2C / rami-fou")  # KS KH * makes 30 of the 51
    assert solution.played == () and solution.penalty_after == 100
    assert str(solution.discard) in ("KS", "KH")


def test_a_joker_never_counts_as_the_card_that_keeps_its_meld():
    """Decision 5 (revised) with decision 7: 8H 9H * JH shares two cards with 7H 8H 9H and,
    counting the joker, two with JH * *; a joker never keeps its meld matched to it, so its own
    meld is 7H 8H 9H (two real cards against one), and the TH joker left it without its card.
    The verdict is the same whatever the order the melds are listed in."""
    position = parse_position("8H 9H * JH / 7H 6D * / rami-fou opened")
    after = [Meld.parse("7H 8H 9H"), Meld.parse("JH * *")]
    played = parse_position("- / 7H * / rami-fou").hand
    discard = parse_position("- / 6D / rami-fou").hand[0]
    for order in (after, after[::-1]):
        verdict = validate_turn(position, order, played, discard)
        assert not verdict.legal and "decision 5" in verdict.problems[0]


def test_a_tie_of_matchings_goes_to_the_player():
    """Decision 5 with decision 7: 5H * 7H 8H split into 5H * 7H and 8H 9H TH (TH, 9H from
    the hand) leaves two real cards of the old meld in the first piece and one in the second:
    the joker's own meld is the first piece, where it still stands for 6H. Listed either way,
    the verdict is the same."""
    position = parse_position("5H * 7H 8H / 9H TH 2C / rami-fou opened")
    after = [Meld.parse("5H * 7H"), Meld.parse("8H 9H TH")]
    played = parse_position("- / 9H TH / rami-fou").hand
    discard = parse_position("- / 2C / rami-fou").hand[0]
    for order in (after, after[::-1]):
        verdict = validate_turn(position, order, played, discard)
        assert verdict.legal, verdict.problems
    # 4H 5H * 7H | 8H 9H TH: the pieces share 2 and 1 real cards, wherever the joker is.
    tie = parse_position("4H 5H * 7H 8H 9H / 6H 2C / rami-fou opened")
    split = [Meld.parse("4H 5H 6H"), Meld.parse("7H 8H 9H")]
    verdict = validate_turn(
        tie,
        split,
        parse_position("- / 6H / rami-fou").hand,
        parse_position("- / 2C / rami-fou").hand[0],
    )
    assert not verdict.legal  # the joker vanished: 6H freed it, but it is nowhere


def test_same_input_same_answer():
    text = (
        "3S 3H 3D 3C | * JH QH KH | 5H * 7H | 4S 5S 6S 7S / AH 5H KH AD 2D AC 3C 4C "
        "/ rami-fou opened"
    )
    first = solved(text)
    second = solved(text)
    assert first.to_json() | {"ms": 0} == second.to_json() | {"ms": 0}


def test_max_play_lays_the_free_turn_in_place_where_it_can(monkeypatch):
    """Max-play (decision 6 without its last level): where the free relaxation's best turn
    breaks a pin (decision 5) but its cards go down with no table card moved, that table keeps
    every pin and is the answer, proved, before any pinned model runs."""
    position = parse_position(
        "QH KH * | QH QD QC | TD JD * KD | 8C 9C TC / 2S 9S KS 3H AD 3D 7D 9C / rami-fou opened"
    )
    solution = solve(position, min_moves=False)
    assert solution.status is Status.OPTIMAL
    assert solution.cards_moved == 0
    monkeypatch.setattr(pinned, "lay_in_place", lambda *args: None)
    through_the_models = solve(position, min_moves=False)
    assert (through_the_models.penalty_after, through_the_models.cards_played) == (
        solution.penalty_after,
        solution.cards_played,
    )
    assert through_the_models.cards_moved > 0


def test_laying_in_place_may_keep_back_another_card():
    """The free turn of rami-fou-020[19] lays * 7H 9D AH and discards 8D, breaking a pin; laid
    with nothing moved, 8D goes down and 7H is discarded instead: the same cards leave the hand
    and as many go down, so the turn is worth as much (decision 6), and it keeps every pin."""
    position = parse_position(
        "5S 6S 7S * 9S | TH JH QH KH | 6D 7D 8D | TH JH QH KH | 7C 8C 9C TC"
        " / 6S AH 7H 8D 9D 3C * / rami-fou opened"
    )
    played = Counter(parse_cards("* 7H 9D AH"))
    found = lay_in_place(position, played, parse_cards("8D")[0])
    assert found is not None
    assert Counter(found.played) == Counter(parse_cards("* 8D 9D AH"))
    assert found.discard == parse_cards("7H")[0]
    verdict = validate_turn(position, found.table, found.played, found.discard)
    assert verdict.legal and verdict.cards_moved == 0
    solution = solve(position, min_moves=False)
    assert solution.status is Status.OPTIMAL and solution.cards_moved == 0
    assert solution.penalty_after == verdict.penalty_after
