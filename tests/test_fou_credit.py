"""Rami fou's credit on cards kept (rami/solver/rearrange/credit.py, docs/solver.md "Rami fou's
two matchings"): the pinned slot model's count of cards kept is an upper bound of decision 7's
for every legal turn (decisions 5 and 7), and tight where the tests below say so.

The bound is checked against the exhaustive rami fou reference (support.fou_reference, judged by
the second referee): the reference's best turn is a legal turn, so the model, its cards played
and discard fixed to that turn's, must keep at least as many cards as that turn keeps. Both
pinned models are checked: without matching cuts and with every original's.
"""

from __future__ import annotations

from collections import Counter

import pytest
from ortools.sat.python import cp_model
from support.fou import sample
from support.fou_reference import fou_reference_solve

from rami import parse_position, solve
from rami.cards import JOKER, Card
from rami.position import Position
from rami.solver.api import Status
from rami.solver.cpsat import pinned_solver
from rami.solver.rearrange.model import StageModel


def least_moved(position: Position, played: Counter[Card], discard: Card, cut: bool) -> int:
    """The pinned model's bound on cards moved for a turn playing ``played`` and discarding
    ``discard``."""
    stage = StageModel(position, with_slots=True, opening=False, pinned=True, matching_cuts=cut)
    model = stage.model
    for t, var in enumerate(stage.play):
        if not isinstance(var, int):
            model.add(var == played[Card(t)])
    if not isinstance(stage.play_jokers, int):
        model.add(stage.play_jokers == played[JOKER])
    model.add(stage.discard[discard] == 1)
    if cut:
        stage.add_matching_cuts(set(range(len(position.table))))
    model.maximize(stage.kept)
    solver = pinned_solver(30.0)
    assert solver.solve(model) == cp_model.OPTIMAL
    return position.table_size - round(solver.objective_value)


def bound_holds(position: Position) -> list[tuple[int, int]]:
    """(bound, reference) for both models, asserting bound <= the reference's cards moved."""
    reference = fou_reference_solve(position, "points")
    assert reference.cards_moved is not None
    played = Counter(reference.played)
    found = []
    for cut in (False, True):
        bound = least_moved(position, played, reference.discard, cut)
        assert bound <= reference.cards_moved, (str(position), cut, bound, reference)
        found.append((bound, reference.cards_moved))
    return found


#: The credit is needed and exact: pins judge ``8C 9C TC JC`` (9C took the joker's place), cards
#: moved count ``QC KC *`` (2 moved, the slots alone say 3).
TIGHT = "* TC JC QC KC / QH 4D 8C 9C / rami-fou opened"


def test_the_credit_is_tight_where_the_matchings_differ():
    found = bound_holds(parse_position(TIGHT))
    assert found == [(2, 2), (2, 2)]


@pytest.mark.parametrize(
    "text",
    [
        # Duplicates: a card of the original in its slot and its twin in another meld.
        "4D * 6D 7D 8D | 5D 6D 7D 8D / 6S 3D JD * * / rami-fou opened",
        "3C 4C 5C * 7C | 5C 6C 7C / 6C 8C 2H / rami-fou opened",
        "7S 8S * TS | 8S 9S TS / 9S JS 2D / rami-fou opened",
        "5H * 7H 8H | 7H 8H 9H / 6H 9H 2C * / rami-fou opened",
    ],
)
def test_the_bound_holds_with_duplicate_cards(text):
    bound_holds(parse_position(text))


@pytest.mark.parametrize("seed", range(2))
def test_the_bound_holds_on_random_positions(seed):
    """Positions with table jokers of the rami fou sample: the bound never passes the
    reference's cards moved, and is reached on most."""
    checked = reached = 0
    for position in sample(3000 + seed, 60):
        if not position.opened or not any(meld.jokers for meld in position.table):
            continue
        for bound, moved in bound_holds(position):
            checked += 1
            reached += bound == moved
    assert checked >= 20 and reached >= checked * 3 // 4


@pytest.mark.parametrize(
    "text, moved",
    [
        # rami-fou-020[11] and rami-fou-060[13]: their bound stayed one card below the answer.
        (
            "7C 8C 9C TC | 9S TS JS * KS AS | 3C 4C 5C * 7C | 7S 8S 9S TS JS / 6S 7S AH 2H 5H 8H JH"
            " KH 6D 9D KD 3C 5C 6C 9C * * / rami-fou opened",
            6,
        ),
        (
            "7D 8D 9D TD JD QD KD AD | 3S 3D 3C | 2H 3H 4H 5H 6H 7H | 2H 3H 4H | 9H TH JH QH KH AH"
            " | AS 2S 3S 4S | 4S 4D 4C | * 4D 5D 6D 7D | 6S 6H 6D | QC KC AC | QS QH QC"
            " | 5S 5H 5D 5C | 9S 9H 9D 9C | 7S 8S 9S TS JS / 2S 7S JS TH 2D QD 5C 7C TC TC *"
            " / rami-fou opened",
            8,
        ),
    ],
)
def test_suite_positions_once_unproved_are_proved(text, moved):
    solution = solve(parse_position(text), time_limit=30.0, wall_clock=False)
    assert solution.status is Status.OPTIMAL, solution.bounds
    assert solution.cards_moved == moved
