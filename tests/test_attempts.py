"""Puzzle attempts (rami.puzzles.attempts) in SQLite, and the ratings read from them
(rami.puzzles.ratings): the rules of docs/puzzles.md, "Ratings"."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from rami.puzzles.attempts import (
    Attempt,
    AttemptDatabaseError,
    AttemptError,
    AttemptStore,
    export_lines,
)
from rami.puzzles.glicko import Rating
from rami.puzzles.ratings import (
    SOLUTION_WEIGHT,
    Outcome,
    Ratings,
    next_puzzle,
    outcome,
)

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
PUZZLE = "rc-0123456789"
PLAYER = "player-0001"


def attempt(**changes: Any) -> Attempt:
    fields: dict[str, Any] = dict(
        puzzle=PUZZLE,
        player=PLAYER,
        solved=True,
        first_check_ms=9000,
        hints=0,
        solution_shown=False,
        wrong_checks=0,
        at=T0,
    )
    fields.update(changes)
    return Attempt(**fields)


# ------------------------------------------------------------------ attempts


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"puzzle": "rc-XYZ"}, "puzzle"),
        ({"puzzle": 7}, "puzzle"),
        ({"player": "short"}, "player"),
        ({"player": "a b c d e f g h"}, "player"),
        ({"solved": 1}, "solved"),
        ({"solution_shown": "yes"}, "solution_shown"),
        ({"first_check_ms": -1}, "first_check_ms"),
        ({"first_check_ms": 1.5}, "first_check_ms"),
        ({"hints": True}, "hints"),
        ({"hints": 101}, "hints"),
        ({"wrong_checks": -2}, "wrong_checks"),
        ({"at": datetime(2026, 5, 1)}, "at"),  # no time zone
        ({"first_check_ms": None}, "solved"),  # solved without a check
        ({"first_check_ms": None, "solved": False, "wrong_checks": 2}, "wrong_checks"),
    ],
)
def test_a_bad_attempt_names_its_field(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(AttemptError) as caught:
        attempt(**changes)
    assert caught.value.loc == (field,)
    assert str(caught.value).startswith(field + ":")


def test_attempts_are_stored_numbered_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "attempts.db"
    with AttemptStore(path) as store:
        first = store.record(attempt())
        second = store.record(
            attempt(
                player="player-0002",
                solved=False,
                first_check_ms=None,
                solution_shown=True,
                at=T0 + timedelta(seconds=1.5),
            )
        )
        assert (first.id, second.id) == (1, 2)
    with AttemptStore(path, create=False) as store:
        assert store.count() == 2
        assert store.attempts() == [first, second]
        assert store.attempts(after=1) == [second]
        assert store.attempts(player=PLAYER) == [first]
        lines = [json.loads(line) for line in export_lines(store)]
    assert lines[1] == {
        "id": 2,
        "puzzle": PUZZLE,
        "player": "player-0002",
        "solved": False,
        "first_check_ms": None,
        "hints": 0,
        "solution_shown": True,
        "wrong_checks": 0,
        "at": "2026-05-01T12:00:01.500Z",
    }


def test_the_database_is_wal_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "attempts.db"
    with AttemptStore(path) as store:
        store.record(attempt())
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store._db.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000
    other = sqlite3.connect(path)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other.close()


def test_reading_needs_an_attempts_database(tmp_path: Path) -> None:
    with pytest.raises(AttemptDatabaseError, match="no attempts database"):
        AttemptStore(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some words\n" * 20)
    with pytest.raises(AttemptDatabaseError, match="not a usable attempts database"):
        AttemptStore(text)
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("CREATE TABLE other (x)").connection.close()
    with pytest.raises(AttemptDatabaseError, match="holds no attempts"):
        AttemptStore(empty, create=False)
    newer = tmp_path / "newer.db"
    sqlite3.connect(newer).execute("PRAGMA user_version = 99").connection.close()
    with pytest.raises(AttemptDatabaseError, match="newer"):
        AttemptStore(newer)
    with pytest.raises(AttemptDatabaseError, match="cannot open"):
        AttemptStore(tmp_path / "no" / "such" / "dir.db")


def _writer(path: str, worker: int, count: int) -> None:
    with AttemptStore(path) as store:
        for index in range(count):
            store.record(attempt(player=f"worker-{worker:04d}", at=T0 + timedelta(seconds=index)))


def test_processes_share_the_database(tmp_path: Path) -> None:
    path = str(tmp_path / "attempts.db")
    AttemptStore(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_writer, args=(path, worker, 40)) for worker in range(4)]
    for process in workers:
        process.start()
    for process in workers:
        process.join()
    assert [process.exitcode for process in workers] == [0, 0, 0, 0]
    with AttemptStore(path, create=False) as store:
        stored = store.attempts()
    assert [a.id for a in stored] == list(range(1, 161))
    assert Counter(a.player for a in stored) == {f"worker-{w:04d}": 40 for w in range(4)}


_ACKNOWLEDGING_WRITER = """
import sys
from datetime import UTC, datetime
from rami.puzzles.attempts import Attempt, AttemptStore
store = AttemptStore(sys.argv[1])
for index in range(1_000_000):
    done = store.record(Attempt("rc-0123456789", "killed-writer", True, 10, 0, False, 0,
                                datetime(2026, 5, 1, tzinfo=UTC)))
    print(done.id, flush=True)
"""


def test_nothing_acknowledged_is_lost_on_kill_9(tmp_path: Path) -> None:
    path = tmp_path / "attempts.db"
    with subprocess.Popen(
        [sys.executable, "-c", _ACKNOWLEDGING_WRITER, str(path)], stdout=subprocess.PIPE, text=True
    ) as writer:
        assert writer.stdout is not None
        acknowledged = [int(writer.stdout.readline()) for _ in range(200)]
        os.kill(writer.pid, signal.SIGKILL)
        acknowledged += [int(line) for line in writer.stdout.read().split()]
    assert writer.returncode == -signal.SIGKILL
    with AttemptStore(path, create=False) as store:
        stored = {a.id for a in store.attempts()}
    assert set(acknowledged) <= stored
    assert len(stored) - len(acknowledged) <= 1  # at most the one written, not yet printed


# ------------------------------------------------------------------ ratings


def test_the_rules_of_a_first_attempt() -> None:
    assert outcome(attempt()) == Outcome(1.0, 1.0)
    assert outcome(attempt(hints=2)) == Outcome(0.5, 0.5)
    assert outcome(attempt(solved=False, wrong_checks=3)) == Outcome(0.0, 1.0)
    assert outcome(attempt(solved=False, solution_shown=True)) == Outcome(0.0, SOLUTION_WEIGHT)
    assert outcome(attempt(solution_shown=True)) == Outcome(0.0, SOLUTION_WEIGHT)
    gave_up = attempt(solved=False, first_check_ms=None, solution_shown=True)
    assert outcome(gave_up) == Outcome(0.0, 0.0)
    assert outcome(attempt(solved=False, first_check_ms=None)) == Outcome(0.0, 0.0)


def test_only_first_attempts_count() -> None:
    ratings = Ratings(tiers={PUZZLE: "medium"})
    assert ratings.add(attempt(solved=False, id=1)) is True
    after_first = (ratings.player(PLAYER), ratings.puzzle(PUZZLE))
    assert ratings.add(attempt(id=2)) is False
    assert (ratings.player(PLAYER), ratings.puzzle(PUZZLE)) == after_first
    assert (ratings.attempts, ratings.first_attempts, ratings.last_id) == (2, 1, 2)
    assert ratings.player(PLAYER).rating < 1500 < ratings.puzzle(PUZZLE).rating


def test_giving_up_at_once_leaves_the_puzzle_and_costs_the_player() -> None:
    ratings = Ratings(tiers={PUZZLE: "hard"})
    ratings.add(attempt(solved=False, first_check_ms=None, solution_shown=True))
    assert ratings.puzzle(PUZZLE) == Rating(1800, 350)
    assert ratings.puzzle_games[PUZZLE] == 0
    assert ratings.player(PLAYER).rating < 1500 and ratings.player_games[PLAYER] == 1


def test_the_solution_shown_barely_moves_the_puzzle() -> None:
    full, shown = Ratings(), Ratings()
    full.add(attempt(solved=False, wrong_checks=1))
    shown.add(attempt(solved=False, wrong_checks=1, solution_shown=True))
    assert full.player(PLAYER) == shown.player(PLAYER)  # a loss either way
    moved_full = full.puzzle(PUZZLE).rating - 1500
    moved_shown = shown.puzzle(PUZZLE).rating - 1500
    assert moved_shown == pytest.approx(SOLUTION_WEIGHT * moved_full)
    assert 0 < moved_shown < moved_full


def test_ratings_summary_lists_highest_first() -> None:
    ratings = Ratings(tiers={PUZZLE: "easy"})
    ratings.add(attempt())
    ratings.add(attempt(player="player-0002", solved=False))
    summary = ratings.summary()
    assert (summary["attempts"], summary["first_attempts"]) == (2, 2)
    assert [p["id"] for p in summary["players"]] == [PLAYER, "player-0002"]
    assert summary["puzzles"][0]["games"] == 2 and summary["puzzles"][0]["tier"] == "easy"
    assert set(summary["puzzles"][0]) == {
        "id",
        "rating",
        "deviation",
        "volatility",
        "games",
        "tier",
    }


def test_next_puzzle_is_near_the_player_and_never_one_played() -> None:
    ids = [f"rc-{n:010x}" for n in range(8)]
    tiers = dict(
        zip(
            ids,
            ["easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert"],
            strict=True,
        )
    )
    ratings = Ratings(tiers=tiers)
    chosen = next_puzzle(ratings, PLAYER, ids)
    assert chosen in ids[2:4]  # a newcomer (1500) gets a medium puzzle
    assert next_puzzle(ratings, PLAYER, ids) == chosen  # same state, same answer
    ratings.add(attempt(puzzle=chosen))
    second = next_puzzle(ratings, PLAYER, ids)
    # The player (about 1660 after a win) is nearer the hard puzzles (1800) than the medium.
    assert ratings.player(PLAYER).rating > 1650
    assert second in ids[4:6]
    for puzzle in ids:
        ratings.add(attempt(puzzle=puzzle))
    assert next_puzzle(ratings, PLAYER, ids) is None
    # Players of the same rating spread over the puzzles of the band.
    fresh = Ratings(tiers=tiers)
    assert {next_puzzle(fresh, f"player-{n:04d}x", ids) for n in range(40)} == set(ids[2:4])
