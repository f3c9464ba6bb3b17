"""Turns for the turn referee's tests (test_referee_legal.py, _jokers, _opening, _same_turn and
_discards): a turn written in notation, judged by rami.referee.validate_turn, and its verdict
checked legal or illegal with its reasons."""

from __future__ import annotations

from rami.cards import Card, format_cards, parse_cards
from rami.melds import Meld
from rami.position import Position
from rami.referee import TurnVerdict, validate_turn


def turn(
    position: str, after: list[str], played: str = "", discard: str | None = None
) -> TurnVerdict:
    """Judge a turn written in notation: position text, melds after, cards played, discard."""
    return validate_turn(
        Position.parse(position).checked(),
        [Meld.parse(text) for text in after],
        parse_cards(played),
        Card.parse(discard) if discard else None,
    )


def legal(verdict: TurnVerdict) -> TurnVerdict:
    assert verdict.legal, verdict.problems
    assert verdict.problems == ()
    return verdict


def illegal(verdict: TurnVerdict, *reasons: str) -> TurnVerdict:
    assert not verdict.legal
    for reason in reasons:
        assert any(reason in problem for problem in verdict.problems), (reason, verdict.problems)
    return verdict


def hand(verdict: TurnVerdict) -> str:
    return format_cards(verdict.hand_after)
