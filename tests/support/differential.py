"""The two referees on one turn, for the differential tests (tests/test_referee_differential_*.py):
rami.referee.validate_turn and tests/support/second_referee.judge must agree on legal, and where
both say legal, on the hand penalty after the turn and the cards moved (decision 7)."""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import Card, format_cards
from rami.melds import Meld
from rami.notation import format_table
from rami.position import Position
from rami.referee import validate_turn
from support.second_referee import judge


def describe(
    position: Position, table: Sequence[Meld], played: Sequence[Card], discard: Card | None
) -> str:
    return (
        f"position: {position}\n  after:    {format_table(list(table))}\n"
        f"  played:   {format_cards(played) or '-'}   discard: {discard or '-'}"
    )


def compare(
    position: Position, table: Sequence[Meld], played: Sequence[Card], discard: Card | None
) -> str | None:
    """Both referees on one turn: None when they agree, else a description."""
    primary = validate_turn(position, table, played, discard)
    second = judge(position, table, played, discard)
    same = primary.legal == second.legal
    if same and primary.legal:
        same = (primary.penalty_after, primary.cards_moved, primary.hand_after) == (
            second.penalty_after,
            second.cards_moved,
            second.hand_after,
        )
    if same:
        return None
    return (
        describe(position, table, played, discard)
        + f"\n  primary:  legal={primary.legal} penalty={primary.penalty_after} "
        f"moved={primary.cards_moved} hand={format_cards(primary.hand_after) or '-'} "
        f"{list(primary.problems)}"
        + f"\n  second:   legal={second.legal} penalty={second.penalty_after} "
        f"moved={second.cards_moved} hand={format_cards(second.hand_after) or '-'} "
        f"{list(second.problems)}"
    )
