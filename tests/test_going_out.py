"""Rami fou's fast path (rami/solver/rearrange/going_out.py): going out with nothing moved.

docs/rules.md decision 6: a rami fou turn ends with a discard, so laying every card but one and
discarding that one leaves no penalty and plays the most cards a turn can; with no table card
moved (decision 7) no turn does better at any level. The turn is found by the in-place search
under free jokers, so the referee must judge it under decision 5's pins: a turn only free
jokers allow is not used. The answers are checked against the exhaustive rami fou reference
(tests/support/fou_reference.py, which asks the referee of every table) and by both referees.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from support.checks import checked_solve
from support.fou_reference import MAX_CARDS, fou_reference_solve

import rami.solver.rearrange.going_out as going_out
import rami.solver.rearrange.stages as stages
from rami import parse_position, solve
from rami.generate import medium_position, small_position
from rami.melds import Meld, MeldKind
from rami.position import Position
from rami.rules import TableJoker, get_ruleset
from rami.solver.api import Status
from rami.solver.in_place import lay_whole_hand
from rami.solver.rearrange.going_out import go_out_in_place

RULES = get_ruleset("rami-fou")


def test_goes_out_laying_all_but_the_discard():
    """5H and 8C go down where they fit; 9D, the one card with no place, is the discard."""
    text = "2H 3H 4H | 5C 6C 7C / 5H 8C 9D / rami-fou opened"
    found = go_out_in_place(parse_position(text))
    assert found is not None
    assert str(found.discard) == "9D"
    assert sorted(map(str, found.played)) == ["5H", "8C"]
    solution = checked_solve(text)
    assert solution.hand == () and solution.penalty_after == 0
    assert solution.cards_moved == 0 and str(solution.discard) == "9D"


def test_the_costliest_card_goes_when_every_card_has_a_place():
    """Each card of 5H 8C KH fits one place; among equals, keeping back the king (10 points) is
    tried first, and any going-out turn is optimal at every level."""
    text = "2H 3H 4H | 5C 6C 7C | JH QH KH / 5H 8C KH / rami-fou opened"
    found = go_out_in_place(parse_position(text))
    assert found is not None and str(found.discard) == "KH"
    solution = checked_solve(text)
    assert solution.hand == () and solution.cards_moved == 0


def test_a_turn_only_free_jokers_allow_is_not_used():
    """Under free jokers 2S goes down in place by sliding the joker of 4S 5S 6S 7S * to the 3S;
    decision 5 forbids the slide, so the fast path finds nothing and the models answer: 2S
    stays in the hand and 9C is discarded (as in test_rami_fou_known.py)."""
    position = parse_position("4S 5S 6S 7S * / 2S 9C / rami-fou opened")
    free_rules = replace(
        RULES, discard=False, table_joker=TableJoker.FREE, taken_discard_locked=False
    )
    free = replace(position, rules=free_rules, hand=(position.hand[0],))
    assert str(free.hand[0]) == "2S"
    assert lay_whole_hand(free).table is not None, "the free search finds the slide"
    assert go_out_in_place(position) is None
    solution = checked_solve(str(position))
    assert solution.played == () and str(solution.discard) == "9C"


def test_the_card_with_fewest_places_is_kept_back_first(monkeypatch):
    """5H 5H QC: QC fits two places (9C TC JC and QD QH QS), each 5H one, the end of 2H 3H 4H,
    where only one of them can go. Holding back a 5H is the first try, and the only one that
    goes out (QC first would leave both 5H for one place)."""
    monkeypatch.setattr(going_out, "TRIES", 1)
    position = parse_position("2H 3H 4H | 9C TC JC | QD QH QS / 5H 5H QC / rami-fou opened")
    found = going_out.go_out_in_place(position)
    assert found is not None and str(found.discard) == "5H"
    assert sorted(map(str, found.played)) == ["5H", "QC"]


@pytest.mark.parametrize(
    "text",
    [
        "2H 3H 4H / 5H 9D / rami-chinois opened",  # no discard: the rami chinois fast path's job
        "2H 3H 4H / 5H 9D / rami-fou",  # not opened: the opening turn lays new melds only
        "2H 3H 4H / 9D / rami-fou opened",  # one card: nothing to lay, it is the discard
        "2H 3H 4H / 5H 9D 9S / rami-fou opened",  # two cards with no place: no going out
    ],
)
def test_declines_where_it_does_not_apply(text):
    assert go_out_in_place(parse_position(text)) is None


def going_out_position(rng: random.Random) -> Position | None:
    """A small rami fou position that may go out in place: the end cards of some runs and the
    fourth cards of some sets are taken off the table into the hand, with one card more."""
    maker = medium_position if rng.random() < 0.4 else small_position
    base = maker(rng, RULES, opened=True, max_jokers=4)
    table: list[Meld] = []
    hand: list = list(base.hand[:1])
    for meld in base.table:
        cards = list(meld.cards)
        end = cards[-1] if rng.random() < 0.5 else cards[0]
        if len(cards) >= 4 and not end.is_joker and rng.random() < 0.7:
            cards.remove(end)
            hand.append(end)
        table.append(
            Meld(tuple(cards), meld.kind)
            if meld.kind is MeldKind.SET
            else Meld(tuple(cards), MeldKind.RUN)
        )
    if len(hand) < 2:
        return None
    position = Position(tuple(table), tuple(hand), opened=True, rules=RULES)
    size = sum(len(meld) for meld in table) + len(hand)
    if position.problems() or size > MAX_CARDS:
        return None
    return position


def test_random_going_out_positions_agree_with_the_reference(monkeypatch):
    """Positions built to go out in place: where the fast path answers, the answer has the
    exhaustive reference's values at every level (both objectives), is legal by both
    referees, proved, and has the same values as the models give without the fast path."""
    rng = random.Random(20261202)
    fired = tried = 0
    while tried < 60:
        position = going_out_position(rng)
        if position is None:
            continue
        tried += 1
        found = go_out_in_place(position)
        if found is None:
            continue
        fired += 1
        assert Counter(found.played) + Counter([found.discard]) == Counter(position.hand)
        for objective in ("points", "cards"):
            reference = fou_reference_solve(position, objective, min_moves=True)
            solution = checked_solve(str(position), objective=objective)
            context = f"{position} ({objective})"
            assert solution.status is Status.OPTIMAL, context
            assert (
                (solution.penalty_after, solution.cards_played, solution.cards_moved)
                == (reference.penalty_after, reference.cards_played, reference.cards_moved)
                == (0, len(position.hand) - 1, 0)
            ), context
            with monkeypatch.context() as patched:
                patched.setattr(stages, "go_out_in_place", lambda position: None)
                modelled = solve(position, objective=objective)
            assert (modelled.penalty_after, modelled.cards_played, modelled.cards_moved) == (
                solution.penalty_after,
                solution.cards_played,
                solution.cards_moved,
            ), context
    assert fired >= 25, f"the fast path answered only {fired} of {tried} positions"
