"""The goal sentences of the shipped pack: counted words agree with their numbers ("the only
card", "1 point"), the stored text is what :func:`rami.puzzles.record.goal_text` makes, and no
sentence a player reads (goal, level-1 hint) shows a raw field name."""

from __future__ import annotations

import json
import re

import pytest

from rami.hints import make_hint
from rami.puzzles.answers import check_answer
from rami.puzzles.record import goal_text, shipped_pack, shipped_pack_text

RECORDS = [json.loads(line) for line in shipped_pack_text().splitlines() if line.strip()]
RAW = re.compile(r"cards_played|penalty_after|\bshed\s*[:=]|[{}_]")
ONE_PLURAL = re.compile(r"\b1 (cards|points)\b")


def test_the_stored_goal_text_is_made_from_the_goal() -> None:
    for record in RECORDS:
        text = record["goal"]["text"]
        assert text == goal_text(record["kind"], record["goal"]), record["id"]
        assert not ONE_PLURAL.search(text) and not RAW.search(text), (record["id"], text)
    assert any(r["goal"]["cards_played"] == 1 and r["kind"] == "empty-hand" for r in RECORDS)


@pytest.mark.parametrize(
    ("kind", "goal", "text"),
    [
        ("empty-hand", {"cards_played": 1, "penalty_after": 0}, "Play the only card of your hand."),
        ("empty-hand", {"cards_played": 4, "penalty_after": 0}, "Play all 4 cards of your hand."),
        (
            "best-score",
            {"cards_played": 2, "penalty_after": 1},
            "Your hand cannot be emptied: shed as many points as you can "
            "(the best play leaves 1 point in hand).",
        ),
        (
            "best-score",
            {"cards_played": 2, "penalty_after": 18},
            "Your hand cannot be emptied: shed as many points as you can (the best play leaves 18 "
            "points in hand).",
        ),
    ],
)
def test_goal_text(kind: str, goal: dict[str, int], text: str) -> None:
    assert goal_text(kind, goal) == text


def test_one_card_puzzles_read_well() -> None:
    from rami.solver.api import solve

    single = [p for p in shipped_pack() if len(p.position.hand) == 1][:3]
    assert single
    for puzzle in single:
        hint = make_hint(solve(puzzle.position, time_limit=5.0), 1).text
        assert not ONE_PLURAL.search(hint) and not RAW.search(hint), hint
        verdict = check_answer(puzzle, puzzle.position.table)  # nothing played
        reason = " ".join(verdict.reasons)
        assert not ONE_PLURAL.search(reason), reason
        assert "of 1 card:" in reason or "points" in reason or "point" in reason, reason
