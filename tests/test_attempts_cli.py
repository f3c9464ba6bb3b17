"""``rami puzzle attempts`` and ``rami puzzle ratings`` (rami.cli.puzzle_ratings): the database
read back as JSON lines and as ratings; bad input a clear error and exit code 2, never a
traceback."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from rami.cli.main import app
from rami.puzzles.attempts import Attempt, AttemptStore
from rami.puzzles.ratings import Ratings

EASY = "rc-b5304c3325"
T0 = datetime(2026, 5, 1, tzinfo=UTC)


def rami(*args: str) -> Result:
    result = CliRunner().invoke(app, list(args), prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "attempts.db"
    with AttemptStore(path) as store:
        store.record(Attempt(EASY, "cli-player-1", True, 4000, 0, False, 0, T0))
        store.record(
            Attempt(EASY, "cli-player-2", False, 9000, 1, True, 3, T0 + timedelta(minutes=1))
        )
        store.record(
            Attempt(EASY, "cli-player-1", True, 1000, 0, False, 0, T0 + timedelta(minutes=2))
        )
    return path


def test_attempts_are_exported_as_json_lines(database: Path) -> None:
    result = rami("puzzle", "attempts", "--db", str(database))
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["id"] for line in lines] == [1, 2, 3]
    assert lines[1] == {
        "id": 2,
        "puzzle": EASY,
        "player": "cli-player-2",
        "solved": False,
        "first_check_ms": 9000,
        "hints": 1,
        "solution_shown": True,
        "wrong_checks": 3,
        "at": "2026-05-01T00:01:00.000Z",
    }
    only = rami("puzzle", "attempts", "--db", str(database), "--player", "cli-player-2")
    assert [json.loads(line)["id"] for line in only.stdout.splitlines()] == [2]


def test_ratings_as_json_are_the_librarys(database: Path) -> None:
    result = rami("puzzle", "ratings", "--db", str(database), "--json")
    assert result.exit_code == 0
    with AttemptStore(database, create=False) as store:
        expected = Ratings(tiers={EASY: "easy"}).add_all(store.attempts()).summary(20)
    assert json.loads(result.stdout) == expected
    assert (expected["attempts"], expected["first_attempts"]) == (3, 2)
    assert [p["id"] for p in expected["players"]] == ["cli-player-1", "cli-player-2"]


def test_ratings_as_text(database: Path) -> None:
    result = rami("puzzle", "ratings", "--db", str(database))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "3 attempts, 2 first attempts (rated)"
    assert lines[1] == "Puzzles (1 rated, highest first):"
    assert lines[2].split()[0] == EASY and "easy" in lines[2] and lines[2].endswith("2 games")
    assert lines[3] == "Players (2, highest first):"
    assert lines[4].split()[0] == "cli-player-1" and lines[5].split()[0] == "cli-player-2"
    newcomer = rami("puzzle", "ratings", "--db", str(database), "--player", "cli-newcomer")
    assert newcomer.stdout.splitlines()[-2:] == [
        "Player:",
        "  cli-newcomer   1500.0 ± 350.0  0 games",
    ]


@pytest.mark.parametrize("command", ["attempts", "ratings"])
def test_a_missing_or_foreign_database_is_bad_input(tmp_path: Path, command: str) -> None:
    missing = rami("puzzle", command, "--db", str(tmp_path / "missing.db"))
    assert missing.exit_code == 2 and missing.stdout == ""
    assert missing.stderr.startswith("error: no attempts database")
    assert not (tmp_path / "missing.db").exists()
    foreign = tmp_path / "notes.db"
    foreign.write_text("some words, not a database\n" * 10)
    result = rami("puzzle", command, "--db", str(foreign))
    assert result.exit_code == 2 and "not a usable attempts database" in result.stderr


def test_ratings_json_error(tmp_path: Path, database: Path) -> None:
    result = rami("puzzle", "ratings", "--db", str(tmp_path / "missing.db"), "--json")
    assert result.exit_code == 2
    error = json.loads(result.stdout)
    assert error["exit_code"] == 2 and error["error"]["type"] == "AttemptDatabaseError"
    bad_pack = rami(
        "puzzle", "ratings", "--db", str(database), "--pack", str(tmp_path / "none.jsonl"), "--json"
    )
    assert bad_pack.exit_code == 2 and json.loads(bad_pack.stdout)["exit_code"] == 2


def test_serve_refuses_a_database_it_cannot_open(tmp_path: Path) -> None:
    """`rami serve --db FILE` checks the file before it starts: a clear error, no server."""
    (tmp_path / "foreign.db").write_text("not a database at all " * 100)
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "foreign.db")])
    assert result.exit_code != 0
    assert "--db" in (result.output + str(result.exception or ""))
    assert "Traceback" not in result.output
