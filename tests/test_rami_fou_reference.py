"""Rami fou turns: the solver against the exhaustive rami fou reference.

docs/rules.md presets rami-fou: full rearrangement, but a table joker leaves its meld only when the
card it stands for takes its place and is laid again in the same turn (decision 5); the turn
ends with a discard (decisions 6 and 8; going out is discarding the last card); 51 opening
points without a pure run; jokers 20 in the hand; not opened: flat 100.

Every level (penalty after the discard, cards played, cards moved) is compared with
:mod:`support.fou_reference`, which lists every table and asks the referee, on regressions, cut
runs (decision 5 revised) and random positions; the solver must prove each answer optimal. The
pin verdict does not depend on the order of the melds. ``make test-slow`` runs a larger sample.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.fou import RULES, sample, solved, tables
from support.fou_reference import _partitions, fou_reference_solve

import rami.solver.rearrange.pinned as pinned
from rami import parse_position, solve
from rami.referee import unpinned_jokers, validate_turn
from rami.solver.api import Status
from rami.solver.cpsat import Clock
from rami.solver.rearrange.stages import Turn

#: Positions that once tripped the pinned model (a slot that is not the referee's match).
REGRESSIONS = [
    "AS * AD AC | 8S * 8D 8C | QD KD AD / 2S JS QH 7D / rami-fou opened",
    "5S 5D 5C | 4S 5S 6S 7S * / 2S 4H 5C 9C / rami-fou opened",
    "* QH * AH | JD QD KD * / QS 5H AD 8C / rami-fou opened",
    "AS * 3S * * | 4S 5S 6S / 9D 7C * / rami-fou opened",
    "4H 5H 6H 7H 8H * | 2H 3H 4H 5H / 4S 4S 7D 8D 4C * / rami-fou opened",
    "* 2D 3D | 2S * * 5S | QS * QC / 3S 3H 4D 5C / rami-fou opened",
    "8H 9H * JH / 7H 6D * / rami-fou opened",
    # Pins judge 8C 9C TC JC (9C took the joker's place), the cards moved QC KC * (3 kept).
    "* TC JC QC KC / QH 4D 8C 9C / rami-fou opened",
    # A real TD in a set (TS TH TD *) must not stop the TD joker staying in its run: 8D frees
    # the other joker, which joins the set; 1 card moved (the pinned model once said 3).
    "TS TH TD | 7D * 9D * JD / 4D 8D 8C / rami-fou opened",
]


def agree(text_or_position, objective: str, min_moves: bool) -> bool:
    """The answer has the reference's values and is legal; True when it is also proved.

    An unproved answer must say so with bounds the reference's values meet: where pins hold
    the slots to one matching and the cards moved count another, the cards-moved bound is a
    relaxation that some positions with several table jokers do not reach (docs/solver.md).
    """
    position = (
        parse_position(text_or_position) if isinstance(text_or_position, str) else text_or_position
    )
    reference = fou_reference_solve(position, objective, min_moves=min_moves)
    solution = solve(position, objective=objective, min_moves=min_moves)
    context = f"{position} ({objective}, min_moves={min_moves})"
    assert solution.penalty_after == reference.penalty_after, context
    assert solution.cards_played == reference.cards_played, context
    if min_moves:
        assert solution.cards_moved == reference.cards_moved, context
    verdict = validate_turn(position, solution.table, solution.played, solution.discard)
    assert verdict.legal, (context, verdict.problems)
    proved = solution.status is Status.OPTIMAL
    if not proved:
        assert solution.status is Status.FEASIBLE, context
        assert set(solution.bounds) == {"cards_moved_at_least"}, (context, solution.bounds)
        assert solution.bounds["cards_moved_at_least"] < reference.cards_moved, context
    return proved


#: Regressions whose cards-moved bound stays below the answer (see agree).
UNPROVED_REGRESSIONS = {"* 2D 3D | 2S * * 5S | QS * QC / 3S 3H 4D 5C / rami-fou opened"}


@pytest.mark.parametrize("text", REGRESSIONS)
@pytest.mark.parametrize("objective", ["points", "cards"])
@pytest.mark.parametrize("min_moves", [True, False])
def test_regressions_agree_with_the_reference(text, objective, min_moves):
    proved = agree(text, objective, min_moves)
    assert proved or (min_moves and text in UNPROVED_REGRESSIONS)


# --- Decision 5 (revised): cutting a run does not move its joker --------------------------------
# docs/rules.md decision 5, "Cutting its run does not move it": where a run holding a pinned joker
# is cut into pieces, the piece that keeps the joker, standing for the same card beside real cards
# of that run, is its own meld too, whichever piece decision 7 matches to the old run. Original
# text 003 forbids only taking a joker without its card ("on peut prendre un joker si on peut
# l'échanger avec la carte qu'il remplace, mais le joker doit permettre de faire immédiatement une
# autre combinaison"); nobody takes it here.

CUT_RUNS = [
    "3H 4H * 6H 7H 8H 9H / 6S 6D 2C / rami-fou opened",
    "5H * 7H 8H 9H TH JH / 8S 8D 2C / rami-fou opened",
    "AD * 3D 4D 5D 6D 7D | 9S 9H 9C / 4S 4C 2H / rami-fou opened",
    "3H 4H * 6H 7H 8H 9H / 6S 6D 5C 5D 2C / rami-fou opened",
]


def test_the_piece_keeping_the_joker_is_its_own_meld_too():
    """The rule's example: 6H leaves the run for 6S 6D, and 3H 4H * keeps the joker although
    7H 8H 9H holds more real cards of the old run; 2C discarded, nothing left. (Before the
    revision 3H 4H * was refused, and the answer discarded 6D keeping the run whole: 8 left.)"""
    solution = solved(CUT_RUNS[0])
    assert solution.status is Status.OPTIMAL
    assert solution.penalty_after == 0 and solution.hand == ()
    assert str(solution.discard) == "2C"
    assert sorted(tables(solution)) == ["3H 4H *", "6S 6H 6D", "7H 8H 9H"]
    assert solution.cards_moved == 4  # decision 7: one piece leaves the old run
    longer = solved(CUT_RUNS[1])
    assert sorted(tables(longer)) == ["5H * 7H", "8S 8H 8D", "9H TH JH"]
    assert longer.penalty_after == 0 and longer.status is Status.OPTIMAL


def test_the_pinned_model_keeps_a_joker_in_a_piece():
    """The pinned slot model itself (pinned._pinned_stages, not the free relaxation's answer that
    the referee happens to accept) lays the piece keeping the joker, proved, with the cards moved
    of decision 7 as its bound."""
    position = parse_position(CUT_RUNS[0])
    empty = Turn([], Counter(), None, False, {})
    for min_moves in (True, False):
        found = pinned._pinned_stages(
            position,
            "points",
            min_moves,
            20.0,
            Clock(None, wall_clock=False),
            empty,
            None,
            None,
            set(),
            whole=False,
            cut=False,
        )
        assert found.play_proved and found.turn is not None
        assert sorted(str(meld) for meld in found.turn.table) == ["3H 4H *", "6S 6H 6D", "7H 8H 9H"]
        assert found.least_moved == (4 if min_moves else None)


@pytest.mark.parametrize("text", CUT_RUNS)
@pytest.mark.parametrize("objective", ["points", "cards"])
@pytest.mark.parametrize("min_moves", [True, False])
def test_cut_runs_agree_with_the_reference(text, objective, min_moves):
    assert agree(text, objective, min_moves)


def unproved_answers(seed: int, count: int) -> int:
    """How many of the sample's answers (both objectives, with and without the cards-moved
    level) agree with the reference unproved; every one must agree (see agree)."""
    proved = [
        agree(position, objective, min_moves)
        for position in sample(seed, count)
        for objective in ("points", "cards")
        for min_moves in (True, False)
    ]
    return proved.count(False)


@pytest.mark.parametrize("chunk", range(4))
def test_random_positions_agree_with_the_reference(chunk):
    """40 positions (about a third with 4 jokers), each for both objectives, with and without
    the cards-moved level; at most 2 of the 160 answers of a chunk unproved."""
    assert unproved_answers(1000 + chunk, 40) <= 2


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_many_random_positions_agree_with_the_reference(chunk):
    assert unproved_answers(5000 + chunk, 150) <= 6


def test_pin_verdict_does_not_depend_on_meld_order():
    """Decision 5 judged on the matching of decision 7: listing the melds after the turn in
    another order never changes the verdict (ties between matchings go to the player)."""
    rng = random.Random(77)
    checked = 0
    for position in sample(77, 300):
        if not position.opened or not any(meld.jokers for meld in position.table):
            continue
        for table in _partitions(position.table_cards + Counter(position.hand[:2]), RULES):
            verdicts = set()
            for _ in range(3):
                shuffled = list(table)
                rng.shuffle(shuffled)
                verdicts.add(bool(unpinned_jokers(position, shuffled)))
            assert len(verdicts) == 1, (str(position), [str(meld) for meld in table])
            checked += 1
    assert checked > 200
