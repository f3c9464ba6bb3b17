"""The lay-off solver's answers in tests (test_layoff_seeds.py and test_layoff_rules.py): a
solution's melds as text, its penalty, cards played and discard, and cards in notation sorted as a
hand holds them."""

from __future__ import annotations

from rami.cards import Card, parse_cards
from rami.solver.api import Solution


def melds(solution: Solution) -> list[str]:
    return [str(meld) for meld in solution.table]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def result(solution: Solution) -> tuple[int, int, str | None]:
    """(penalty after the discard, cards played, the discard)."""
    discard = str(solution.discard) if solution.discard is not None else None
    return solution.penalty_after, solution.cards_played, discard
