"""Puzzles at the command line (``rami puzzle``): generate, check a pack and answers, daily and
show; their JSON carries no solution unless asked; find and hint by puzzle id, show by theme and
tier."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from support.puzzles import DAILY_2025_06_01, DEMO, cooked_puzzle, pack_file, runner

from rami.cli.puzzle import puzzle_app
from rami.notation import parse_table
from rami.puzzles.record import Puzzle, daily, shipped_pack


def test_cli_generate_writes_and_refuses_to_overwrite(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    args = ["generate", "--count", "1", "--seed", "9", "--out", str(out), "--max-attempts", "200"]
    result = runner().invoke(puzzle_app, args)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["id"].startswith("rc-")
    again = runner().invoke(puzzle_app, args)
    assert again.exit_code == 2
    assert "exists" in again.output and "--force" in again.output
    assert out.read_text().splitlines() == lines
    forced = runner().invoke(puzzle_app, [*args, "--force"])
    assert forced.exit_code == 0
    assert out.read_text().splitlines() == lines  # same seed, same puzzle


def test_cli_generate_bad_options(tmp_path: Path) -> None:
    out = str(tmp_path / "p.jsonl")
    bad_jokers = runner().invoke(puzzle_app, ["generate", "--jokers", "3", "--out", out])
    assert bad_jokers.exit_code == 2 and "0 or 4" in bad_jokers.output
    bad_tier = runner().invoke(puzzle_app, ["generate", "--tier", "legendary", "--out", out])
    assert bad_tier.exit_code == 2
    assert not Path(out).exists()
    missing_out = runner().invoke(puzzle_app, ["generate"])
    assert missing_out.exit_code == 2


def test_cli_check_pack_and_answers(tmp_path: Path) -> None:
    pack = pack_file(tmp_path, DEMO)
    ok = runner().invoke(puzzle_app, ["check", str(pack)])
    assert ok.exit_code == 0, ok.output
    assert "all sound" in ok.output
    puzzle_id = json.loads(pack.read_text())["id"]
    solved = runner().invoke(
        puzzle_app,
        ["check", str(pack), "--answer", "3H 4H 5H 6H | 6H 7H 8H 9H | 6C 7C 8C | 5S 5D 5C"],
    )
    assert solved.exit_code == 0 and "Solved" in solved.output and "intended" in solved.output
    short = runner().invoke(
        puzzle_app, ["check", str(pack), "--answer", "3H 4H 5H 6H | 6H 7H 8H 9H | 5C 6C 7C 8C"]
    )
    assert short.exit_code == 1 and "Not solved" in short.output
    garbled = runner().invoke(puzzle_app, ["check", str(pack), "--answer", "3H 4H XX"])
    assert garbled.exit_code == 2 and "error:" in garbled.output
    as_json = runner().invoke(
        puzzle_app,
        [
            "check",
            str(pack),
            "--id",
            puzzle_id,
            "--json",
            "--answer",
            "3H 4H 5H 6H 7H 8H 9H | 5C 6C 7C",
        ],
    )
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["solved"] is False


def test_cli_check_reports_a_cooked_puzzle(tmp_path: Path) -> None:
    path = tmp_path / "cooked.jsonl"
    path.write_text(json.dumps(cooked_puzzle().record) + "\n")
    result = runner().invoke(puzzle_app, ["check", str(path)])
    assert result.exit_code == 1
    assert "FAIL cooked" in result.output and "cooked:" in result.output


def test_cli_bad_inputs() -> None:
    missing = runner().invoke(puzzle_app, ["check", "no-such-pack.jsonl"])
    assert missing.exit_code == 2 and "neither a puzzle file" in missing.output
    assert "Traceback" not in missing.output
    bad_date = runner().invoke(puzzle_app, ["daily", "--date", "2025-13-01"])
    assert bad_date.exit_code == 2 and "--date" in bad_date.output
    loose = runner().invoke(puzzle_app, ["daily", "--date", "1 June"])
    assert loose.exit_code == 2


def test_cli_daily_and_show() -> None:
    text = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01"])
    assert text.exit_code == 0
    assert text.output.startswith("Daily puzzle, 2025-06-01\nPuzzle " + DAILY_2025_06_01)
    assert "Solution" not in text.output
    as_json = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01", "--json"])
    data = json.loads(as_json.output)
    assert data["id"] == DAILY_2025_06_01 and data["date"] == "2025-06-01"
    shown = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01, "--solution"])
    assert shown.exit_code == 0
    assert "Solution:" in shown.output and "\x1b[" not in shown.output  # plain when piped
    checked = runner().invoke(puzzle_app, ["check", DAILY_2025_06_01])
    assert checked.exit_code == 0, checked.output


# ---------------------------------------------------------------------------- spoiler-free JSON


def _spoilers(puzzle: Puzzle) -> list[str]:
    """Texts that give the answer away: the final table's melds and the signature."""
    melds = [str(meld) for meld in puzzle.solution if meld not in puzzle.position.table]
    return [*melds, puzzle.record["signature"]]


def _values(data):
    """Every string and every list of strings in a JSON value."""
    if isinstance(data, dict):
        for value in data.values():
            yield from _values(value)
    elif isinstance(data, list):
        if all(isinstance(item, str) for item in data):
            yield tuple(data)
        for item in data:
            yield from _values(item)
    elif isinstance(data, str):
        yield data


def assert_spoiler_free(data: dict, puzzle: Puzzle) -> None:
    """No solution table, signature, moves, difficulty details or seed; and none of the
    solution's final-table melds anywhere in the payload, as a string or as a list of cards."""
    assert not {"solution", "signature", "moves", "difficulty", "seed", "numbers"} & set(data)
    text = json.dumps(data)
    found = set(_values(data))
    for spoiler in _spoilers(puzzle):
        assert spoiler not in found and json.dumps(spoiler) not in text, spoiler
    for meld in puzzle.solution:
        if meld in puzzle.position.table:
            continue
        cards = tuple(str(card) for card in meld.cards)
        assert cards not in found and json.dumps(list(cards)) not in text, cards
        assert not any(isinstance(v, tuple) and sorted(v) == sorted(cards) for v in found)


def test_public_json_is_the_contract() -> None:
    from rami.puzzles.record import PUBLIC_GOAL, public_json

    puzzle = daily(date(2025, 6, 1))
    data = public_json(puzzle)
    assert list(data) == ["id", "kind", "rules", "position", "goal", "tier", "themes"]
    assert set(data["goal"]) == set(PUBLIC_GOAL)
    assert data["themes"] == list(puzzle.themes) and data["tier"] == puzzle.tier
    assert_spoiler_free(data, puzzle)
    rated = Puzzle.from_record({**puzzle.record, "rating": 1500})
    assert public_json(rated)["rating"] == 1500


def test_daily_and_show_json_carry_no_solution() -> None:
    for day in ("2025-06-01", "2026-01-15", "2026-12-01"):
        result = runner().invoke(puzzle_app, ["daily", "--date", day, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data["date"] == day
        assert_spoiler_free(
            {k: v for k, v in data.items() if k != "date"}, daily(date.fromisoformat(day))
        )
    shown = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01, "--json"])
    assert_spoiler_free(json.loads(shown.output), daily(date(2025, 6, 1)))
    text = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01"])
    assert "Difficulty" not in text.output and "Moves" not in text.output


def test_solution_only_when_asked() -> None:
    puzzle = daily(date(2025, 6, 1))
    full = runner().invoke(puzzle_app, ["daily", "--date", "2025-06-01", "--json", "--solution"])
    data = json.loads(full.output)
    assert data["signature"] == puzzle.record["signature"]
    assert data["difficulty"] == puzzle.record["difficulty"]
    assert sorted(map(str, parse_table(" | ".join(" ".join(m) for m in data["solution"])))) == (
        sorted(map(str, puzzle.solution))
    )
    assert data["numbers"] == [1, 2, 3]
    assert [m["text"] for m in data["moves"]] == [
        "move 7C from meld 2 to meld 3",
        "add TH from your hand to meld 1",
        "add 6C 8C from your hand to meld 3",
    ]
    text = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01, "--solution"])
    assert "Difficulty: score 3" in text.output and "Moves:" in text.output


# ---------------------------------------------------------------------------- ids and themes


def test_find_and_hint_by_puzzle_id() -> None:
    from rami.cli.main import app
    from rami.errors import NotationError
    from rami.puzzles.record import find

    assert find(DAILY_2025_06_01) is daily(date(2025, 6, 1))
    with pytest.raises(NotationError, match="no puzzle 'rc-0000000000'"):
        find("rc-0000000000")
    hint = runner().invoke(app, ["hint", DAILY_2025_06_01, "--level", "1"])
    assert hint.exit_code == 0, hint.output
    assert hint.output.strip() == "You can play all 3 cards."
    key = runner().invoke(app, ["hint", DAILY_2025_06_01, "--level", "2"])
    assert key.output.strip() == "Key move: move 7C from meld 2 to meld 3"
    unknown = runner().invoke(app, ["hint", "rc-0000000000"])
    assert unknown.exit_code == 2 and "no puzzle 'rc-0000000000'" in unknown.output


def test_show_by_theme_and_tier() -> None:
    from rami.puzzles.record import select

    joker_swaps = select(shipped_pack(), theme="joker-swap")
    assert joker_swaps and all("joker-swap" in p.themes for p in joker_swaps)
    result = runner().invoke(
        puzzle_app, ["show", "--theme", "split-run", "--tier", "easy", "--json"]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    expected = select(shipped_pack(), tier="easy", theme="split-run")
    assert [d["id"] for d in lines] == [p.id for p in expected] and lines
    for data in lines:
        assert "split-run" in data["themes"] and data["tier"] == "easy"
        assert "solution" not in data
    unknown = runner().invoke(puzzle_app, ["show", "--theme", "castling"])
    assert unknown.exit_code == 2 and "unknown theme 'castling'" in unknown.output
    assert "joker-swap" in unknown.output
    text = runner().invoke(puzzle_app, ["show", DAILY_2025_06_01])
    assert "Themes: " + ", ".join(daily(date(2025, 6, 1)).themes) in text.output
