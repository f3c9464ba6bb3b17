"""Turns for the second referee's own tests (tests/test_second_referee_*.py): a turn written in
notation, judged by :func:`support.second_referee.judge`, and its verdict checked legal or
illegal with its reasons."""

from __future__ import annotations

from rami.cards import Card, format_cards, parse_cards
from rami.melds import Meld
from rami.notation import parse_position
from support.second_referee import Verdict, judge


def turn(position: str, after: list[str], played: str = "", discard: str | None = None) -> Verdict:
    """Judge a turn written in notation: position, melds after, cards played, discard."""
    return judge(
        parse_position(position).checked(),
        [Meld.parse(text) for text in after],
        parse_cards(played),
        Card.parse(discard) if discard else None,
    )


def legal(verdict: Verdict) -> Verdict:
    assert verdict.legal, verdict.problems
    assert verdict.problems == ()
    return verdict


def illegal(verdict: Verdict, *words: str) -> Verdict:
    assert not verdict.legal
    assert verdict.problems
    for word in words:
        assert any(word in problem for problem in verdict.problems), (word, verdict.problems)
    assert verdict.cards_moved == 0
    return verdict


def hand(verdict: Verdict) -> str:
    return format_cards(verdict.hand_after)
