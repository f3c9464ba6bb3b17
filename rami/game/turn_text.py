"""A turn told as moves at the table: what ``rami play`` prints for a bot's turn and what the
service's game log gives for every turn (``moves`` of a ``play`` event, docs/service.md).

The moves are the solver's move language (:func:`rami.solver.explain.explain_moves`, as ``rami
solve`` prints them), the melds numbered as the table lay before the turn (its melds 1..n keep
their numbers, new melds are numbered on); the discard comes last. Said of another player,
a move drops "from your hand". :func:`took` names the cards a turn took out of the melds one
player laid (:func:`owners_after` follows who laid each meld from turn to turn).
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import Card, localize_cards
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.phrasebook import say
from rami.solver.solution import Move, MoveKind


def bot_move_text(text: str, language: Language) -> str:
    """A move of the solver's language said of another player: not "from your hand"."""
    return text.replace(say("turn.from-your-hand", language), "").replace(
        say("turn.your-hand", language), say("turn.their-hand", language)
    )


def turn_moves(
    before: Sequence[Meld], after: Sequence[Meld], played: Sequence[Card]
) -> tuple[Move, ...]:
    """The moves from the table ``before`` to the table ``after`` (in any order), the cards
    ``played`` coming from the hand; melds numbered as ``before``, new ones numbered on."""
    from rami.solver.explain import explain_moves, in_number_order

    return explain_moves(before, in_number_order(before, after), tuple(sorted(played)))


def in_table_order(table: Sequence[Meld], before: Sequence[Meld]) -> tuple[Meld, ...]:
    """``table`` in the order of the table ``before`` the turn: a meld kept, grown or cut keeps
    its place, new melds come after (the numbers the moves give them)."""
    from rami.solver.explain import in_number_order

    return tuple(in_number_order(before, table))


def discard_text(card: str, language: Language) -> str:
    """The last line of a turn with a discard (``card`` in English notation)."""
    return say("turn.discard", language, card=localize_cards(card, language))


def move_texts(
    moves: Sequence[Move], discard: str | None, language: Language = ENGLISH, *, mine: bool = False
) -> list[str]:
    """The moves as sentences in ``language``, the discard last; ``mine``: said to the
    player who made them (else "from your hand" is dropped)."""
    lines = [
        move.said(language) if mine else bot_move_text(move.said(language), language)
        for move in moves
    ]
    if discard is not None:
        lines.append(discard_text(discard, language))
    return lines


def took(moves: Sequence[Move], owners: Sequence[int], seat: int) -> list[Card]:
    """The cards the moves took out of melds ``seat`` laid (moved to another meld, or cut off
    as a new one), sorted; ``owners`` gives who laid each meld of the table before the turn
    (:func:`owners_after`)."""
    return sorted(
        card
        for move in moves
        if move.kind in (MoveKind.MOVE, MoveKind.SPLIT)
        and move.source is not None
        and owners[move.source - 1] == seat
        for card in move.cards
    )


def owners_after(
    before: Sequence[Meld], after: Sequence[Meld], owners: Sequence[int], player: int
) -> list[int]:
    """Who laid each meld of ``after`` (in its order): a meld matched to one of ``before``
    (decision 7's matching, as the moves number them) keeps its owner in ``owners``; a new
    meld is ``player``'s, who made the turn."""
    from rami.moves import meld_numbers

    return [
        owners[number - 1] if number <= len(before) else player
        for number in meld_numbers(before, after)
    ]


__all__ = [
    "bot_move_text",
    "discard_text",
    "in_table_order",
    "move_texts",
    "owners_after",
    "took",
    "turn_moves",
]
