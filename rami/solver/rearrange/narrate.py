"""The answer: the table in move-list order, the moves explained, the referee's check."""

from __future__ import annotations

from dataclasses import replace

import rami.phrases as phrases
from rami.cards import JOKER, format_cards
from rami.melds import Meld, MeldKind, joker_cards
from rami.moves import meld_numbers
from rami.position import Position
from rami.rules import TableJoker
from rami.solver.answer import build_solution
from rami.solver.explain import explain_moves, in_number_order
from rami.solver.rearrange.slots import stood_for_types
from rami.solver.rearrange.turn import Turn
from rami.solver.solution import Move, MoveKind, Objective, Solution


def finish(position: Position, objective: Objective, min_moves: bool, turn: Turn) -> Solution:
    """The turn found, as the answer: melds in move-list order, the moves a person follows."""
    played = tuple(sorted(turn.played.elements()))
    table = in_number_order(position.table, turn.table) if played else list(position.table)
    moves = explain_moves(position.table, table, played) if played else ()
    if moves:
        moves = _joker_shifts(position, table, moves)
    if position.rules.table_joker is TableJoker.REPLACE_AND_RELAY:
        moves = _replacements_first(position, moves)
    return build_solution(
        position,
        objective,
        min_moves,
        table=table,
        played=played,
        discard=turn.discard,
        proved=turn.proved,
        bounds=turn.bounds,
        expected_moved=turn.expected_moved,
        moves=moves,
        reason=turn.message,
    )


def _joker_shifts(
    position: Position, table: list[Meld], moves: tuple[Move, ...]
) -> tuple[Move, ...]:
    """A run whose jokers all stay but stand for other cards (4S 5S 6S 7S * + 2S gives
    2S * 4S 5S 6S 7S) changes no card count, so the move list would not say it: a step sliding
    the jokers is told before the cards that need it arrive (it replays as a no-op)."""
    if not any(meld.jokers for meld in position.table):
        return moves
    numbers = meld_numbers(position.table, table)
    steps = list(moves)
    for index, meld in enumerate(table):
        number = numbers[index]
        if number > len(position.table) or meld.kind is not MeldKind.RUN or not meld.jokers:
            continue
        before = position.table[number - 1]
        if (
            before.kind is not MeldKind.RUN
            or before.jokers != meld.jokers
            or any(move.source == number and JOKER in move.cards for move in steps)
        ):
            continue
        was, now = joker_cards(before, position.rules), joker_cards(meld, position.rules)
        if was == now:
            continue
        slide = phrases.SLIDE_JOKERS if len(now) > 1 else phrases.SLIDE_JOKER
        text = slide.say(target=number, now=format_cards(now), was=format_cards(was))
        first = next((n for n, move in enumerate(steps) if move.target == number), len(steps))
        steps.insert(first, Move(MoveKind.SHIFT, (JOKER,) * len(now), number, number, text))
    return tuple(steps)


def _replacements_first(position: Position, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """Rami fou (decision 5): a joker leaves its meld by giving its place to the card it stands
    for, so the step laying that card from the hand is told first, as a replacement."""
    steps = list(moves)
    for index, move in enumerate(list(steps)):
        if move.kind is not MoveKind.MOVE or JOKER not in move.cards or move.source is None:
            continue
        original = position.table[move.source - 1] if move.source <= len(position.table) else None
        if original is None or not original.jokers:
            continue
        stood_for = set(stood_for_types(original, position.rules))
        for later in range(index + 1, len(steps)):
            step = steps[later]
            if (
                step.kind is MoveKind.ADD
                and step.source is None
                and step.target == move.source
                and len(step.cards) == 1
                and step.cards[0].index in stood_for
            ):
                text = phrases.REPLACE_JOKER.say(card=step.cards[0], target=move.source)
                steps.pop(later)
                steps.insert(steps.index(move), replace(step, kind=MoveKind.REPLACE, text=text))
                break
    return tuple(steps)
