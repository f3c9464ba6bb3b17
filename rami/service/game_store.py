"""Where ``/games`` keeps its games: their records in a SQLite database (every worker finds every
game, and a game outlives the server), the live sessions in a bounded cache of this worker.

The database (:class:`rami.game.game_db.GameDatabase`) is, in this order:

* the file ``RAMI_SERVICE_GAMES_DB`` names (``memory``: none, the games live in the memory of
  the worker that dealt them, as a server without a database had it);
* the file of ``RAMI_SERVICE_DB`` (``rami serve --db FILE``), beside the puzzle attempts;
* ``$XDG_STATE_HOME/rami/rami.db`` (``~/.local/state/rami/rami.db`` without XDG_STATE_HOME),
  made when first used; where it cannot be made, memory only, with an error logged.

A decision is answered only once its step is on disk (:meth:`GameStore.commit`). The cache
holds at most ``RAMI_SERVICE_MAX_GAMES`` sessions (default 64) and drops a session unused for
``RAMI_SERVICE_GAME_TTL`` seconds (default 1800); with a database these bound the cache only (a
dropped game is rebuilt from its record when next asked for), without one they bound the games.
A cached session whose count of decisions is behind its record's (another worker answered) is
rebuilt before it answers.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rami.game.game_db import (
    GameDatabase,
    GameDatabaseError,
    GameTooLongError,
    StaleGameError,
)
from rami.game.presets import GameOptions
from rami.game.session import GameSession, ReplayError
from rami.service.errors import ApiError, log

#: Sessions cached at once per worker, and seconds a cached session may stay unused.
MAX_GAMES = int(os.environ.get("RAMI_SERVICE_MAX_GAMES", "64"))
GAME_TTL = float(os.environ.get("RAMI_SERVICE_GAME_TTL", "1800"))
#: The environment variable naming the games database ("memory": none).
GAMES_DB_ENV = "RAMI_SERVICE_GAMES_DB"
MEMORY = "memory"


def default_database() -> Path:
    """``$XDG_STATE_HOME/rami/rami.db``, or ``~/.local/state/rami/rami.db``."""
    state = os.environ.get("XDG_STATE_HOME", "").strip()
    base = Path(state) if state and os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "rami" / "rami.db"


def database_path() -> str | None:
    """The games database this worker uses (None: memory only); see the module's docstring."""
    named = os.environ.get(GAMES_DB_ENV, "").strip()
    if named:
        return None if named == MEMORY else named
    attempts = os.environ.get("RAMI_SERVICE_DB", "").strip()
    return attempts or str(default_database())


def open_database(path: str | None) -> GameDatabase | None:
    """The database at ``path`` (None: memory only). The default file is made with its folder;
    where it cannot be, memory only (logged). A file named by the environment that cannot be
    used is a :class:`GameDatabaseError`."""
    if path is None:
        return None
    named = bool(
        os.environ.get(GAMES_DB_ENV, "").strip() or os.environ.get("RAMI_SERVICE_DB", "").strip()
    )
    try:
        if not named:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return GameDatabase(path)
    except (OSError, GameDatabaseError) as error:
        if named:
            raise GameDatabaseError(str(error)) from None
        log.error(
            "games kept in memory only: the default database %s cannot be used: %s", path, error
        )
        return None


def options_json(options: GameOptions) -> dict[str, Any]:
    return {"target": options.target, "max_rounds": options.max_rounds}


def session_of(
    rules: str, levels: list[str], seed: int, options: dict[str, Any], journal: Any = ()
) -> GameSession:
    kept = {"max_rounds": options["max_rounds"]} if options.get("max_rounds") else {}
    return GameSession(
        rules, levels, seed, GameOptions(target=options.get("target"), **kept), journal=journal
    )


@dataclass
class Entry:
    session: GameSession
    used: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class GameStore:
    """This worker's games: the database (None: memory only) and the cache of live sessions,
    bounded in number, dropped when unused too long."""

    def __init__(
        self,
        database: GameDatabase | None = None,
        max_games: int = MAX_GAMES,
        ttl: float = GAME_TTL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.database = database
        self.max_games = max(1, max_games)
        self.ttl = ttl
        self.clock = clock
        self.games: OrderedDict[str, Entry] = OrderedDict()
        self._loading = asyncio.Lock()

    def _expire(self) -> None:
        now = self.clock()
        for game_id in [key for key, entry in self.games.items() if now - entry.used > self.ttl]:
            del self.games[game_id]

    def _cache(self, game_id: str, session: GameSession) -> Entry:
        self._expire()
        while len(self.games) >= self.max_games:
            dropped, _ = self.games.popitem(last=False)
            log.info("game %s dropped from the cache to make room", dropped)
        entry = self.games[game_id] = Entry(session, self.clock())
        return entry

    def add(self, session: GameSession) -> str:
        """Cache a new session (memory only: nothing stored); its new id."""
        game_id = secrets.token_urlsafe(12)
        self._cache(game_id, session)
        return game_id

    async def create(self, session: GameSession, rules: str) -> str:
        """Store a new game (on disk when this returns) and cache it; its id."""
        game_id = secrets.token_urlsafe(12)
        if self.database is not None:
            await asyncio.to_thread(
                self._guarded,
                self.database.create,
                game_id,
                rules,
                list(session.levels),
                session.seed,
                options_json(session.options),
                list(session.journal),
            )
        self._cache(game_id, session)
        return game_id

    def _guarded(self, work: Callable[..., Any], *args: Any) -> Any:
        try:
            return work(*args)
        except GameDatabaseError as error:
            log.error("games database: %s", error)
            raise ApiError(
                503, "the games database is unavailable (the reason is logged)"
            ) from None

    def _missing(self, game_id: str) -> ApiError:
        if self.database is None:
            return ApiError(
                404,
                f"no game {game_id!r}: it was never made, or it was dropped "
                f"(unused for {self.ttl:g} s, or to make room)",
                "id",
            )
        return ApiError(404, f"no game {game_id!r}", "id")

    def get(self, game_id: str) -> Entry:
        """The cached entry (memory only: 404 when not cached)."""
        self._expire()
        entry = self.games.get(game_id)
        if entry is None:
            raise self._missing(game_id)
        entry.used = self.clock()
        self.games.move_to_end(game_id)
        return entry

    def _rebuilt(self, game_id: str) -> GameSession:
        assert self.database is not None
        record = self._guarded(self.database.load, game_id)
        if record is None:
            raise self._missing(game_id)
        try:
            return session_of(
                record.rules, list(record.levels), record.seed, record.options, record.journal
            )
        except ReplayError as error:
            log.error("game %s does not replay: %s", game_id, error)
            raise ApiError(500, "internal game error (a bug, logged on the server)") from None

    async def entry(self, game_id: str) -> Entry:
        """The game's entry, rebuilt from its record on a cache miss (404: no such game).
        Take its lock, then :meth:`refresh` it."""
        if self.database is None:
            return self.get(game_id)
        self._expire()
        if game_id not in self.games:
            async with self._loading:
                if game_id not in self.games:
                    session = await asyncio.to_thread(self._rebuilt, game_id)
                    self._cache(game_id, session)
        return self.get(game_id)

    async def refresh(self, game_id: str, entry: Entry) -> None:
        """Under the entry's lock: rebuild the session if another worker has stored a
        decision it has not seen."""
        if self.database is None:
            return
        stored = await asyncio.to_thread(self._guarded, self.database.decisions, game_id)
        if stored is None:
            raise self._missing(game_id)
        if stored != entry.session.decisions:
            entry.session = await asyncio.to_thread(self._rebuilt, game_id)

    async def commit(self, game_id: str, entry: Entry, start: int) -> None:
        """Under the entry's lock, after a decision: store its step (the journal from
        ``start``) before the answer. Another worker's step stored first is a 409; the
        cached session is dropped on any failure (it is ahead of its record)."""
        if self.database is None:
            return
        session = entry.session
        try:
            await asyncio.to_thread(
                self.database.append, game_id, session.decisions, session.journal[start:]
            )
        except StaleGameError:
            self.drop(game_id)
            raise ApiError(
                409,
                "another request changed this game first: ask for it again "
                "(GET) and answer what it asks now",
                "id",
            ) from None
        except GameTooLongError as error:
            self.drop(game_id)
            raise ApiError(409, f"{error}: start a new game", "id") from None
        except GameDatabaseError as error:
            self.drop(game_id)
            log.error("games database: %s", error)
            raise ApiError(
                503, "the decision could not be stored (the reason is logged); nothing changed"
            ) from None

    def drop(self, game_id: str) -> None:
        self.games.pop(game_id, None)


__all__ = [
    "GAMES_DB_ENV",
    "MEMORY",
    "Entry",
    "GameStore",
    "database_path",
    "default_database",
    "open_database",
    "session_of",
]
