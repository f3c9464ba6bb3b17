"""The turn solver for the presets that never rearrange the table: rami 51, BFmania 51/30 and
Café Rummy (docs/rules.md presets table, decisions 2-4, 6-8).

The table cannot be rearranged, so a turn is small: each meld already on the table may only grow
(cards laid off at either end of a run, missing suits added to a set) and, where the preset
allows it, give up jokers to the real card they stand for; the rest of the play is new melds
from the hand; one card is kept back for the discard. The problem is solved *exactly* with one
CP-SAT model per turn (one worker, fixed seed, deterministic time limit), the project's
optimiser; the models hold a few hundred variables and are proved optimal in milliseconds.

Model (all counts over the 52 card types; jokers are one pooled count):

* Old run: one boolean per place it may grow into at each end (contiguous from the end, 13
  cards at most), a boolean "real card" per such place (else a joker fills it), and one boolean
  per joker it holds: "swapped", the real card it stands for from the hand taking its place.
* Old set: one boolean per missing suit the hand holds, and its final number of jokers
  (it keeps at least ``jokers - suits added`` of them where swaps are allowed, all of them
  otherwise; 4 cards at most).
* New melds: every run window (suit, first place, last place, 3..13 cards) and every set size
  (rank, 3 or 4) has an integer number of copies and, per place, how many of its copies hold a
  real card there. The real cards are dealt round the copies in turn, so every copy gets at
  least ``total // copies`` of them: "each copy holds >= q real cards" is exactly
  ``total >= q * copies`` (q: at least one real card, ``min_real_cards``, and for Café Rummy
  as many naturals as jokers). The same dealing keeps a set's suits distinct.
* Jokers: the jokers laid (on new melds, on run ends, in sets) minus the jokers swapped out is
  the net count of jokers that leave the hand. It may not exceed the hand's jokers; BFmania
  lets it go below zero (swapped jokers go to the hand), Café Rummy does not (a swapped joker
  must be laid again in the same turn), rami 51 never swaps.
* Discard: one boolean per card type left in the hand (and the joker), exactly one of them set,
  except that BFmania may instead go out by placing its last card. The card just taken from the
  discard pile (decision 8) and, in Café Rummy, a joker may be discarded only as the last card.
* Objective (decision 6), folded into one exact integer since every level is bounded: least
  hand penalty after the discard, then most cards played (swapped by ``objective="cards"``),
  then fewest table cards moved. Growing a meld moves nothing (decision 7); a swapped joker
  that does not end in its own meld is one card moved, so the count is
  ``max(0, jokers swapped out - jokers laid on it)`` per meld; the referee's exact matching
  (rami.matching) is compared with it on every answer and the status is downgraded if they
  ever differ.

A player who has not opened either passes (discards only) or opens: new melds from the hand
meeting the preset's requirement (decision 2 points, each window counted with the cards its
jokers stand for; a pure run where asked; any one meld in Café Rummy), holding no more jokers
than the hand did. Once they are down the player has opened and may lay off and swap in the same
turn (decision 4); those cards do not count towards the opening. Rami fou's opening turn lays new
melds only (decision 1). Opening and passing are solved and compared on the objective, with rami
51's flat 100 for a player still not opened.

Every answer is checked by :func:`rami.referee.validate_turn` before it is returned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import rami.phrases as phrases
from rami.cards import JOKER, Card
from rami.errors import SolverBugError, UnsupportedError
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position, hand_penalty
from rami.rules import GoingOut, TableJoker
from rami.solver.answer import build_solution, costliest_discard, no_legal_turn
from rami.solver.cpsat import Clock, layoff_solver
from rami.solver.explain import explain_moves, in_number_order
from rami.solver.layoff.model import TurnModel
from rami.solver.layoff.parts import SWAPPING, type_at
from rami.solver.layoff.read import Answer, read_answer
from rami.solver.solution import Move, MoveKind, Objective, Solution


def refusal(position: Position) -> str | None:
    """What this backend cannot solve for ``position`` (None: it can)."""
    rules = position.rules
    if not rules.rearrangement and rules.table_joker not in (TableJoker.STAYS, *SWAPPING):
        return f"the joker rule of {rules.name} is not implemented in the solver"
    if not rules.discard:  # pragma: no cover - the router sends no such position here
        return f"the lay-off solver handles presets that discard, not {rules.option_string}"
    if rules.open_and_rearrange_same_turn and not position.opened:
        return (
            "opening and laying off (or rearranging) in the same turn "
            "(open_and_rearrange_same_turn) is not solved for presets that discard"
        )
    return None


@dataclass
class _Outcome:
    answer: Answer
    proved: bool
    bounds: dict[str, int] = field(default_factory=dict)


class _TimedOut(Exception):
    """CP-SAT found no solution within the time limit (none proved impossible either)."""


def _run_model(
    position: Position,
    *,
    opening: bool,
    objective: Objective,
    min_moves: bool,
    clock: Clock,
) -> _Outcome | None:
    """Solve one model; None when it has no solution (proved by CP-SAT)."""
    from ortools.sat.python import cp_model

    turn = TurnModel(position, opening=opening, objective=objective, min_moves=min_moves)
    clock.lap("build_ms")
    solver = clock.stage(layoff_solver)
    status = solver.solve(turn.model)
    clock.lap("search_ms", solver)
    if status == cp_model.OPTIMAL:
        return _Outcome(read_answer(turn, solver), True)
    if status == cp_model.FEASIBLE:
        return _Outcome(read_answer(turn, solver), False, turn.bounds(solver.best_objective_bound))
    if status == cp_model.INFEASIBLE:
        return None
    raise _TimedOut


def _pass(position: Position) -> Answer | None:
    """Lay nothing and discard the costliest card the rules let go (None: no legal discard)."""
    discard = costliest_discard(position)
    if discard is None:
        if not position.hand and position.rules.going_out is GoingOut.PLACE_OR_DISCARD:
            return Answer(list(position.table), (), None, [])
        return None
    return Answer(list(position.table), (), discard, [])


def _opening_key(position: Position, answer: Answer, objective: Objective) -> tuple[int, ...]:
    """Decision 6 levels of a turn of a player not opened yet (BFmania's swapped jokers come to
    the hand; the table moves nothing either way)."""
    hand = Counter(position.hand) - Counter(answer.played)
    jokers_before = sum(meld.jokers for meld in position.table)
    jokers_after = sum(meld.jokers for meld in answer.table)
    hand[JOKER] += jokers_before + Counter(answer.played)[JOKER] - jokers_after
    if answer.discard is not None:
        hand[answer.discard] -= 1
    penalty = hand_penalty((+hand).elements(), position.rules, bool(answer.played))
    played = len(answer.played)
    return (penalty, -played) if objective is Objective.POINTS else (-played, penalty)


def solve_position(
    position: Position,
    objective: Objective,
    *,
    min_moves: bool,
    time_limit: float,
    wall_clock: bool = True,
    spent: float = 0.0,
) -> Solution:
    """Best turn of the player to move for a preset without rearrangement (see the module)."""
    clock = Clock(
        time_limit,
        wall_clock=wall_clock,
        cards=position.table_size + len(position.hand),
        spent=spent,
    )
    fallback = _pass(position)
    try:
        outcome = _run_model(
            position,
            opening=not position.opened,
            objective=objective,
            min_moves=min_moves,
            clock=clock,
        )
    except _TimedOut:
        if fallback is None:
            raise UnsupportedError(
                f"no legal turn found within the time limit ({time_limit} s)"
            ) from None
        outcome = _Outcome(fallback, False)
    if outcome is None:
        # Proved: no turn of the model's kind (for an opened player: no legal turn at all).
        if fallback is None or position.opened:
            raise no_legal_turn(position)
        outcome = _Outcome(fallback, True)
    elif (
        not position.opened
        and fallback is not None
        and (
            _opening_key(position, fallback, objective)
            < _opening_key(position, outcome.answer, objective)
        )
    ):
        # Not opening is better: only where opening leaves more than a flat penalty.
        outcome = _Outcome(fallback, outcome.proved, outcome.bounds)
    answer = outcome.answer
    table = in_number_order(position.table, answer.table)
    return clock.stamp(
        build_solution(
            position,
            objective,
            min_moves,
            table=table,
            played=answer.played,
            discard=answer.discard,
            proved=outcome.proved,
            bounds=outcome.bounds,
            expected_moved=answer.moved if min_moves else None,
            moves=_moves(position, answer, table),
        )
    )


def _moves(position: Position, answer: Answer, table: list[Meld]) -> tuple[Move, ...]:
    """Swaps first (each joker's card in its place), then lay-offs and new melds; in an opening
    turn the new melds come first. The rest is :func:`explain_moves` from the table with the
    swaps done."""
    rules = position.rules
    moves: list[Move] = []
    before = list(position.table)
    for number, card in answer.swaps:
        meld = before[number - 1]
        if meld.kind is MeldKind.RUN:
            places = stands_for(meld, rules)
            cards = tuple(
                card if c.is_joker and Card(type_at(card.index // 13, p)) == card else c
                for p, c in zip(places, meld.cards, strict=True)
            )
        else:
            reals = [*meld.real_cards, card]
            cards = (*reals, *(JOKER,) * (meld.jokers - 1))
        before[number - 1] = Meld(cards, meld.kind)
        swap = (
            phrases.SWAP_TO_HAND
            if rules.table_joker is TableJoker.SWAP_TO_HAND
            else phrases.SWAP_AND_RELAY
        )
        moves.append(Move(MoveKind.SWAP, (card,), None, number, swap.say(card=card, target=number)))
    after_counts: Counter[Card] = Counter()
    for meld in table:
        after_counts.update(meld.cards)
    before_counts: Counter[Card] = Counter()
    for meld in before:
        before_counts.update(meld.cards)
    rest = after_counts - before_counts
    if before_counts - after_counts:
        raise SolverBugError("a table card vanished from the solver's table")
    moves.extend(explain_moves(before, table, tuple(sorted(rest.elements()))))
    if not position.opened:
        # Decision 4: the opening melds go down first; lay-offs and swaps follow them.
        moves.sort(key=lambda move: move.kind is not MoveKind.LAY)
    return tuple(moves)
