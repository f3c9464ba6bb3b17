"""Puzzle attempts, kept in an embedded SQLite database (the standard library's ``sqlite3``).

An :class:`Attempt` is one player's try at one puzzle, as the page reports it: solved or not,
milliseconds to the first check, hints used, whether the solution was shown, wrong checks, and
when (given by the caller). A player is a random id the page keeps (nothing personal).

The database (:class:`AttemptStore`) is one table, written in WAL mode with
``synchronous=FULL``: an attempt :meth:`AttemptStore.record` has returned is on disk, whatever
happens to the process next (``kill -9`` included). Several processes may share the file:
writes take the database lock at once (``BEGIN IMMEDIATE``) and wait up to
:data:`BUSY_TIMEOUT` seconds for another writer. Attempts are numbered in the order they were
stored; :mod:`rami.puzzles.ratings` reads them in that order.

A second table keeps the daily puzzle of each day served with the database
(:mod:`rami.puzzles.daily`): written once per day, the first writer wins
(:meth:`AttemptStore.claim_daily`), so every process and every later request gives that day's
puzzle as it was first given. It is made on opening a database that lacks it (the format
number stays: a rami that does not know the table reads the attempts as before).
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from rami.errors import RamiError, UnreadableFileError, quote

#: A puzzle id (as in the packs) and a player id (random, kept by the page).
PUZZLE_ID = re.compile(r"rc-[0-9a-f]{10}")
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
#: Bounds on the numbers of an attempt: a week in milliseconds, hints, wrong checks.
MAX_MS = 7 * 24 * 3600 * 1000
MAX_HINTS = 100
MAX_WRONG_CHECKS = 10_000
#: Seconds a write waits for another process's write to finish.
BUSY_TIMEOUT = 10.0
#: The database format (``PRAGMA user_version``).
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    puzzle TEXT NOT NULL,
    player TEXT NOT NULL,
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    first_check_ms INTEGER CHECK (first_check_ms IS NULL OR first_check_ms >= 0),
    hints INTEGER NOT NULL CHECK (hints >= 0),
    solution_shown INTEGER NOT NULL CHECK (solution_shown IN (0, 1)),
    wrong_checks INTEGER NOT NULL CHECK (wrong_checks >= 0),
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_player ON attempts (player, puzzle);
"""
_DAILY_SCHEMA = """
CREATE TABLE IF NOT EXISTS daily (
    day TEXT PRIMARY KEY,
    puzzle TEXT NOT NULL
)"""
_COLUMNS = (
    "id",
    "puzzle",
    "player",
    "solved",
    "first_check_ms",
    "hints",
    "solution_shown",
    "wrong_checks",
    "at",
)


class AttemptError(RamiError):
    """An attempt that cannot be recorded as given (``loc`` names the field at fault)."""


class AttemptDatabaseError(UnreadableFileError):
    """A file that is not an attempts database, or a database that cannot be used."""


def _timestamp(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _count(value: Any, field: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise AttemptError(f"{field}: a whole number from 0 to {most}, got {value!r}", loc=(field,))
    return value


@dataclass(frozen=True)
class Attempt:
    """One try at a puzzle. ``first_check_ms`` is None when the player never checked an answer;
    ``id`` is the number the database gave it (None before it is recorded)."""

    puzzle: str
    player: str
    solved: bool
    first_check_ms: int | None
    hints: int
    solution_shown: bool
    wrong_checks: int
    at: datetime
    id: int | None = None

    def __post_init__(self) -> None:
        for field, pattern, what in (
            ("puzzle", PUZZLE_ID, "a puzzle id such as rc-0123456789"),
            ("player", PLAYER_ID, "8 to 64 letters, digits, '-' or '_'"),
        ):
            value = getattr(self, field)
            if not isinstance(value, str) or not pattern.fullmatch(value):
                shown = quote(value) if isinstance(value, str) else repr(value)
                raise AttemptError(f"{field}: expected {what}, got {shown}", loc=(field,))
        for field in ("solved", "solution_shown"):
            if not isinstance(getattr(self, field), bool):
                raise AttemptError(f"{field}: true or false", loc=(field,))
        if self.first_check_ms is not None:
            _count(self.first_check_ms, "first_check_ms", MAX_MS)
        _count(self.hints, "hints", MAX_HINTS)
        _count(self.wrong_checks, "wrong_checks", MAX_WRONG_CHECKS)
        if not isinstance(self.at, datetime) or self.at.tzinfo is None:
            raise AttemptError("at: a date and time with its time zone", loc=("at",))
        if self.first_check_ms is None and (self.solved or self.wrong_checks):
            field = "solved" if self.solved else "wrong_checks"
            raise AttemptError(
                f"{field}: an attempt without a check (first_check_ms null) is "
                "neither solved nor has wrong checks",
                loc=(field,),
            )

    @property
    def checked(self) -> bool:
        """The player checked an answer at least once."""
        return self.first_check_ms is not None

    def to_json(self) -> dict[str, Any]:
        """The JSON line of ``rami puzzle attempts``."""
        return {
            "id": self.id,
            "puzzle": self.puzzle,
            "player": self.player,
            "solved": self.solved,
            "first_check_ms": self.first_check_ms,
            "hints": self.hints,
            "solution_shown": self.solution_shown,
            "wrong_checks": self.wrong_checks,
            "at": _timestamp(self.at),
        }

    @classmethod
    def _from_row(cls, row: tuple[Any, ...]) -> Attempt:
        data = dict(zip(_COLUMNS, row, strict=True))
        return cls(
            data["puzzle"],
            data["player"],
            bool(data["solved"]),
            data["first_check_ms"],
            data["hints"],
            bool(data["solution_shown"]),
            data["wrong_checks"],
            datetime.fromisoformat(data["at"]),
            data["id"],
        )


class AttemptStore:
    """The attempts database at ``path``. ``create=False`` opens an existing database only
    (what reading commands want: a mistyped name is an error, not a new empty file).

    One connection, shared by the threads of a process under a lock; every other process opens
    its own. Use it as a context manager, or :meth:`close` it.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise AttemptDatabaseError(f"no attempts database {quote(str(path))}")
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise AttemptDatabaseError(f"cannot open {quote(str(path))}: {error}") from None
        try:
            self._prepare(create)
        except sqlite3.Error as error:
            self._db.close()
            raise AttemptDatabaseError(
                f"{quote(str(path))} is not a usable attempts database: {error}"
            ) from None
        except AttemptDatabaseError:
            self._db.close()
            raise

    def _prepare(self, create: bool) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise AttemptDatabaseError(
                f"{quote(str(self.path))}: attempts database format {version}, newer than this "
                f"rami reads ({SCHEMA_VERSION})"
            )
        has_table = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'attempts'"
        ).fetchone()
        if not has_table and not create:
            raise AttemptDatabaseError(f"{quote(str(self.path))} holds no attempts")
        if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        has_daily = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'daily'"
        ).fetchone()
        if not has_table or not has_daily:
            db.execute("BEGIN IMMEDIATE")
            try:
                statements = [] if has_table else _SCHEMA.split(";")
                for statement in [*statements, _DAILY_SCHEMA]:
                    if statement.strip():
                        db.execute(statement)
                if not has_table:
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def __enter__(self) -> AttemptStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (``BEGIN IMMEDIATE``: a writer waits for the
        others up to the busy timeout), committed when the block ends, rolled back if it
        fails; a database error is an :class:`AttemptDatabaseError`."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                    self._db.execute("COMMIT")
                except BaseException:
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise AttemptDatabaseError(
                    f"cannot record in {quote(str(self.path))}: {error}"
                ) from None

    def record(self, attempt: Attempt) -> Attempt:
        """Store the attempt; returned with its id once it is on disk."""
        values = (
            attempt.puzzle,
            attempt.player,
            int(attempt.solved),
            attempt.first_check_ms,
            attempt.hints,
            int(attempt.solution_shown),
            attempt.wrong_checks,
            _timestamp(attempt.at),
        )
        with self._writing() as db:
            cursor = db.execute(
                "INSERT INTO attempts (puzzle, player, solved, first_check_ms, hints, "
                "solution_shown, wrong_checks, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                values,
            )
        return replace(attempt, id=cursor.lastrowid)

    def attempts(self, *, after: int = 0, player: str | None = None) -> list[Attempt]:
        """The attempts stored after number ``after`` (all by default), in the order they were
        stored; only ``player``'s when given."""
        query = f"SELECT {', '.join(_COLUMNS)} FROM attempts WHERE id > ?"
        arguments: tuple[Any, ...] = (after,)
        if player is not None:
            query += " AND player = ?"
            arguments += (player,)
        with self._lock:
            try:
                rows = self._db.execute(query + " ORDER BY id", arguments).fetchall()
            except sqlite3.Error as error:
                raise AttemptDatabaseError(
                    f"cannot read {quote(str(self.path))}: {error}"
                ) from None
        return [Attempt._from_row(row) for row in rows]

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM attempts").fetchone()[0])

    def dailies(self) -> dict[date, str]:
        """The daily puzzle of every day stored, by day."""
        with self._lock:
            try:
                rows = self._db.execute("SELECT day, puzzle FROM daily ORDER BY day").fetchall()
            except sqlite3.Error as error:
                raise AttemptDatabaseError(
                    f"cannot read {quote(str(self.path))}: {error}"
                ) from None
        return {date.fromisoformat(day): str(puzzle) for day, puzzle in rows}

    def claim_daily(self, day: date, puzzle: str) -> str:
        """Store ``puzzle`` as the daily puzzle of ``day`` unless a puzzle is stored for that
        day already; the puzzle stored, either way (the first writer wins, whatever process)."""
        with self._writing() as db:
            db.execute(
                "INSERT OR IGNORE INTO daily (day, puzzle) VALUES (?, ?)", (day.isoformat(), puzzle)
            )
            stored = db.execute(
                "SELECT puzzle FROM daily WHERE day = ?", (day.isoformat(),)
            ).fetchone()[0]
        return str(stored)


def export_lines(store: AttemptStore) -> Iterator[str]:
    """Every attempt as a JSON line (``rami puzzle attempts``), in the order stored."""
    for attempt in store.attempts():
        yield json.dumps(attempt.to_json(), ensure_ascii=False)
