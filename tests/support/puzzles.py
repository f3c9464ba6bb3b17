"""Puzzles in tests (tests/test_puzzles_*.py): a sound and a cooked position, the cooked one as a
hand-written record, a pack file of positions, the daily puzzle of 2025-06-01 and the puzzle
CLI's runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rami import parse_position
from rami.notation import position_to_json
from rami.puzzles.evaluate import evaluate
from rami.puzzles.record import Puzzle, make_record

#: Sound, 4 cards: the 6H splits the heart run, the 8C frees the 5C for a set of fives.
DEMO = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H 5D 8C / rami-chinois[jokers=0] opened"
#: Cooked: 6H 6C take the 6S and/or the 6D from the ends of the runs (three different sets).
COOKED = "3S 4S 5S 6S | 6D 7D 8D 9D / 6H 6C / rami-chinois[jokers=0] opened"


def runner() -> CliRunner:
    return CliRunner()


def cooked_puzzle() -> Puzzle:
    """A hand-written record of the cooked position, intended solution: the 4-card set."""
    position = parse_position(COOKED)
    record = {
        "id": "cooked",
        "kind": "empty-hand",
        "rules": position.rules.option_string,
        "position": position_to_json(position),
        "goal": {"kind": "empty-hand", "penalty_after": 0, "cards_played": 2, "shed": 12},
        "solution": [["3S", "4S", "5S"], ["7D", "8D", "9D"], ["6S", "6H", "6D", "6C"]],
        "difficulty": {
            "cards_moved": 2,
            "melds_broken": 2,
            "greedy_fails": True,
            "near_solutions": 0,
            "jokers_involved": 0,
            "cards_played": 2,
            "hand_cards": 2,
            "table_cards": 8,
            "table_melds": 2,
        },
    }
    return Puzzle.from_record(record)


DAILY_2025_06_01 = "rc-b5304c3325"


def pack_file(tmp_path: Path, *texts: str) -> Path:
    path = tmp_path / "pack.jsonl"
    records = []
    for text in texts:
        evaluation = evaluate(parse_position(text))
        records.append(make_record(evaluation, seed=0, profile="test"))
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path
