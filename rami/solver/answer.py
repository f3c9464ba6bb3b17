"""One builder of :class:`Solution` for every backend: the referee's verdict, the honest status,
the closing discard and the one-line summary.

Every backend ends here, so every answer is checked by the referee (:mod:`rami.referee`) the same
way before it leaves: a rejection is a solver bug, never an answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import rami.phrases as phrases
from rami.cards import JOKER, Card
from rami.errors import IllegalTurnError, SolverBugError
from rami.melds import Meld
from rami.position import Position, hand_penalty
from rami.referee import TurnVerdict, validate_turn
from rami.solver.solution import Move, MoveKind, Objective, Solution, Status


def refereed(
    position: Position,
    table: Sequence[Meld],
    played: Sequence[Card],
    discard: Card | None = None,
) -> TurnVerdict:
    """The independent referee's verdict on a solver's answer; a rejection is a solver bug."""
    verdict = validate_turn(position, table, played, discard)
    if not verdict.legal:
        raise SolverBugError(
            f"the referee rejects the solver's answer for {position}: "
            f"{'; '.join(verdict.problems)} (table {' | '.join(map(str, table))}, "
            f"played {' '.join(map(str, played)) or '-'}, discard {discard})"
        )
    return verdict


def costliest_discard(position: Position) -> Card | None:
    """The card to discard after playing nothing: the costliest one the rules let go
    (decision 8: the card just taken, either copy, only as the last one; Café: a joker only as
    the last one). None when no card may go. A player left unopened under a flat penalty
    scores the same whatever goes: a joker is then kept, as the most useful card for opening
    later."""
    rules = position.rules
    hand = Counter(position.hand)
    last = len(position.hand) == 1
    allowed = [
        card
        for card in hand
        if last
        or not (card == position.taken_discard or (card.is_joker and rules.joker_kept_until_last))
    ]
    if not allowed:
        return None
    flat = not position.opened and rules.unopened_flat_penalty is not None
    return max(
        allowed,
        key=lambda card: (not (flat and card.is_joker), rules.card_penalty(card.rank), card.index),
    )


def honest_status(
    proved: bool, verdict: TurnVerdict, model_moved: int | None, bounds: dict[str, int]
) -> Status:
    """OPTIMAL only when the search proved it and, where the model counted the cards moved,
    the referee's exact matching counts the same (else the model's count goes in ``bounds``)."""
    if model_moved is not None and verdict.cards_moved != model_moved:
        bounds["cards_moved_model"] = model_moved
        return Status.FEASIBLE
    return Status.OPTIMAL if proved else Status.FEASIBLE


def why_nothing(position: Position) -> str:
    """Why a turn plays no card."""
    return phrases.why_nothing(position)


def discard_move(discard: Card, hand_after: Sequence[Card]) -> Move:
    said = phrases.DISCARD if hand_after else phrases.DISCARD_GOING_OUT
    return Move(MoveKind.DISCARD, (discard,), None, None, said.say(card=discard))


def build_solution(
    position: Position,
    objective: Objective,
    min_moves: bool,
    *,
    table: Sequence[Meld],
    played: tuple[Card, ...],
    discard: Card | None,
    proved: bool,
    bounds: dict[str, int],
    expected_moved: int | None,
    moves: tuple[Move, ...],
    reason: str | None = None,
) -> Solution:
    """The answer, refereed: the referee's hand, penalty, cards moved and opening stand; the
    status is optimal only where the search proved it and the model's count of cards moved
    agrees with the referee's (see :func:`honest_status`)."""
    bounds = dict(bounds)
    verdict = refereed(position, table, played, discard)
    status = honest_status(proved, verdict, expected_moved, bounds)
    hand, penalty_after = verdict.hand_after, verdict.penalty_after
    opened = verdict.opened_after
    if discard is not None:
        moves = (*moves, discard_move(discard, hand))
    return Solution(
        status=status,
        position=position,
        table=tuple(table),
        played=played,
        hand=hand,
        penalty_before=hand_penalty(position.hand, position.rules, position.opened),
        penalty_after=penalty_after,
        cards_moved=verdict.cards_moved,
        moves=moves,
        opened=opened,
        objective=objective,
        min_moves=min_moves,
        bounds=bounds,
        message=phrases.turn_note(
            position, played, hand, penalty_after, opened, discard, reason or None
        ),
        discard=discard,
        reason=reason or "",
    )


def no_legal_turn(position: Position) -> IllegalTurnError:
    """The error for a hand that has no legal turn: every card it may discard is locked."""
    rules = position.rules
    reasons = [
        f"no legal turn exists: {rules.name} ends every turn with a discard, and no card "
        "of this hand may be discarded"
    ]
    if position.taken_discard is not None:
        reasons.append(
            f"{position.taken_discard} was just taken from the discard pile (decision 8)"
        )
    if rules.joker_kept_until_last and JOKER in position.hand:
        reasons.append(f"{rules.name} never discards a joker except as the last card")
    return IllegalTurnError(reasons)
