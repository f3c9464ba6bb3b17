"""Games against bots kept in an embedded SQLite database (the standard library's ``sqlite3``):
what ``rami serve`` keeps of each game of ``/games`` (docs/service.md, "Games").

A game is its record: the preset, the bots' levels, the seed, the options, and the journal of
:class:`rami.game.session.GameSession` (every action applied, the bots' and the person's), in
steps: step 0 is what the bots played before the person's first decision, step ``n`` the
person's ``n``-th decision and the bots' actions that followed it. ``GameSession(...,
journal=...)`` rebuilds the game from it.

Tables ``games`` (one row a game, with ``decisions``, the number of its last step) and
``game_steps``; their format is the row ``games`` of ``rami_formats`` (the file may also hold
the puzzle attempts of :mod:`rami.puzzles.attempts`, which has its own table and version). The
file is written in WAL mode with ``synchronous=FULL``: a step :meth:`GameDatabase.append` has
returned is on disk, whatever happens to the process next (``kill -9`` included). Several
processes share the file: a write takes the database lock at once (``BEGIN IMMEDIATE``, waiting
up to :data:`BUSY_TIMEOUT` seconds), and a step is written only if the game's last step is the
one before it (:class:`StaleGameError` otherwise: another process answered first).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rami.errors import RamiError, UnreadableFileError, quote

#: Seconds a write waits for another process's write to finish.
BUSY_TIMEOUT = 10.0
#: The format of the game tables (row "games" of rami_formats).
SCHEMA_VERSION = 1
#: Decisions of the person a game may hold: a round of rami 51 takes some 50 (106 in two rounds
#: against a beginner), a game of 100 rounds (the most POST /games deals) some 5,000.
MAX_DECISIONS = 20_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rami_formats (part TEXT PRIMARY KEY, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    levels TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    decisions INTEGER NOT NULL CHECK (decisions >= 0),
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_steps (
    game TEXT NOT NULL REFERENCES games (id),
    number INTEGER NOT NULL CHECK (number >= 0),
    actions TEXT NOT NULL,
    PRIMARY KEY (game, number)
) WITHOUT ROWID;
"""


class GameDatabaseError(UnreadableFileError):
    """A file that is not a games database, or a database that cannot be used now."""


class StaleGameError(RamiError):
    """A step written after another process wrote the game's next step (``decisions`` is the
    game's count of decisions now)."""

    def __init__(self, game_id: str, decisions: int) -> None:
        super().__init__(f"game {game_id!r} has moved on: {decisions} decisions stored")
        self.decisions = decisions


class GameTooLongError(RamiError):
    """A game that has reached :data:`MAX_DECISIONS`."""


@dataclass(frozen=True)
class GameRecord:
    """What a game is made again from: ``GameSession(rules, levels, seed, options,
    journal=journal)`` with ``options`` read by :class:`rami.game.presets.GameOptions`."""

    id: str
    rules: str
    levels: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    decisions: int
    journal: tuple[dict[str, Any], ...]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class GameDatabase:
    """The games database at ``path`` (made if new). One connection, shared by the threads of
    a process under a lock; every other process opens its own. :meth:`close` it when done."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise GameDatabaseError(f"cannot open {quote(str(path))}: {error}") from None
        try:
            self._prepare()
        except sqlite3.Error as error:
            self._db.close()
            raise GameDatabaseError(
                f"{quote(str(path))} is not a usable games database: {error}"
            ) from None
        except GameDatabaseError:
            self._db.close()
            raise

    def _prepare(self) -> None:
        db = self._db
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
        if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        with self._transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            row = db.execute("SELECT version FROM rami_formats WHERE part = 'games'").fetchone()
            if row is None:
                db.execute("INSERT INTO rami_formats VALUES ('games', ?)", (SCHEMA_VERSION,))
            elif row[0] > SCHEMA_VERSION:
                raise GameDatabaseError(
                    f"{quote(str(self.path))}: games database format {row[0]}, newer than "
                    f"this rami reads ({SCHEMA_VERSION})"
                )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _write(self, what: str, work: Any) -> Any:
        with self._lock:
            try:
                with self._transaction():
                    return work(self._db)
            except sqlite3.Error as error:
                raise GameDatabaseError(
                    f"cannot {what} in {quote(str(self.path))}: {error}"
                ) from None

    def create(
        self,
        game_id: str,
        rules: str,
        levels: Sequence[str],
        seed: int,
        options: dict[str, Any],
        opening: Sequence[dict[str, Any]],
    ) -> None:
        """Store a new game and its step 0 (the bots' actions before the person's first
        decision); on disk when this returns."""
        now = _now()

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
                (game_id, rules, json.dumps(list(levels)), seed, json.dumps(options), now, now),
            )
            db.execute(
                "INSERT INTO game_steps VALUES (?, 0, ?)",
                (game_id, json.dumps(list(opening), separators=(",", ":"))),
            )

        self._write("store a game", work)

    def append(self, game_id: str, number: int, actions: Sequence[dict[str, Any]]) -> None:
        """Store step ``number`` (the person's decision and the bots' actions after it), if the
        game's last step is ``number - 1``: else :class:`StaleGameError` and nothing changes.
        On disk when this returns."""
        if number > MAX_DECISIONS:
            raise GameTooLongError(f"a game holds at most {MAX_DECISIONS} decisions")

        def work(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT decisions FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None or row[0] != number - 1:
                raise StaleGameError(game_id, -1 if row is None else row[0])
            db.execute(
                "INSERT INTO game_steps VALUES (?, ?, ?)",
                (game_id, number, json.dumps(list(actions), separators=(",", ":"))),
            )
            db.execute(
                "UPDATE games SET decisions = ?, updated = ? WHERE id = ?",
                (number, _now(), game_id),
            )

        self._write("store a decision", work)

    def _read(self, query: str, arguments: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(query, arguments).fetchall()
            except sqlite3.Error as error:
                raise GameDatabaseError(f"cannot read {quote(str(self.path))}: {error}") from None

    def decisions(self, game_id: str) -> int | None:
        """The game's count of decisions stored (None: no such game)."""
        rows = self._read("SELECT decisions FROM games WHERE id = ?", (game_id,))
        return int(rows[0][0]) if rows else None

    def load(self, game_id: str) -> GameRecord | None:
        """The game's record (None: no such game), read in one transaction."""
        with self._lock:
            try:
                self._db.execute("BEGIN")
                try:
                    game = self._db.execute(
                        "SELECT rules, levels, seed, options, decisions FROM games WHERE id = ?",
                        (game_id,),
                    ).fetchone()
                    steps = self._db.execute(
                        "SELECT actions FROM game_steps WHERE game = ? ORDER BY number", (game_id,)
                    ).fetchall()
                finally:
                    self._db.execute("COMMIT")
            except sqlite3.Error as error:
                raise GameDatabaseError(f"cannot read {quote(str(self.path))}: {error}") from None
        if game is None:
            return None
        rules, levels, seed, options, decisions = game
        if len(steps) != decisions + 1:
            raise GameDatabaseError(
                f"game {game_id!r}: {len(steps)} steps stored for {decisions} decisions"
            )
        journal = tuple(entry for (actions,) in steps for entry in json.loads(actions))
        return GameRecord(
            game_id,
            rules,
            tuple(json.loads(levels)),
            int(seed),
            json.loads(options),
            int(decisions),
            journal,
        )

    def count(self) -> int:
        """Games stored."""
        return int(self._read("SELECT COUNT(*) FROM games", ())[0][0])


__all__ = [
    "BUSY_TIMEOUT",
    "MAX_DECISIONS",
    "SCHEMA_VERSION",
    "GameDatabase",
    "GameDatabaseError",
    "GameRecord",
    "GameTooLongError",
    "StaleGameError",
]
