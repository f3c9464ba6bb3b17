"""Puzzle attempts and ratings over HTTP: ``POST /puzzles/attempts``, ``GET /puzzles/next`` and
``GET /puzzles/ratings`` (docs/puzzles.md, "Ratings"; docs/service.md).

A router :func:`rami.service.puzzles.install_puzzle_routes` includes (before the routes of
:mod:`rami.service.page`, whose ``/puzzles/{id}`` would otherwise take ``/puzzles/next``).
The library decides: :class:`rami.puzzles.attempts.AttemptStore` keeps the attempts,
:mod:`rami.puzzles.ratings` rates them and picks the next puzzle; this module reads requests
and writes answers.

The database is the file named by ``RAMI_SERVICE_DB`` (``rami serve --db FILE`` sets it),
opened by each worker on first use; a server without one records nothing and answers these
endpoints 503. Each worker keeps the ratings folded so far and reads only the attempts stored
since (by any worker) before answering. :meth:`Book.daily` gives the daily puzzle with the
database (:mod:`rami.puzzles.daily`), for ``GET /puzzles/daily`` of :mod:`rami.service.puzzles`.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from pydantic import Field, StrictBool, StrictInt, StrictStr

import rami.service.schemas as schemas
from rami.puzzles.attempts import (
    PLAYER_ID,
    Attempt,
    AttemptDatabaseError,
    AttemptError,
    AttemptStore,
)
from rami.puzzles.daily import daily_with
from rami.puzzles.ratings import Ratings, next_puzzle
from rami.service.errors import ApiError, log

if TYPE_CHECKING:
    from rami.puzzles.record import Puzzle

#: The environment variable naming the attempts database (empty or unset: none).
DB_ENV = "RAMI_SERVICE_DB"

router = APIRouter()
T = TypeVar("T")

Player = Annotated[
    str,
    Query(
        pattern=f"^{PLAYER_ID.pattern}$",
        description="The player's id (8 to 64 letters, digits, - or _)",
    ),
]


class AttemptRequest(schemas._Body):
    puzzle: StrictStr = Field(description="The puzzle id")
    player: StrictStr = Field(
        description="The player's random id (8 to 64 letters, digits, '-' or '_'), kept by the page"
    )
    solved: StrictBool = Field(description="The puzzle was solved")
    first_check_ms: StrictInt | None = Field(
        description="Milliseconds from the puzzle shown to the first answer checked (null: "
        "never checked)"
    )
    hints: StrictInt = Field(0, description="Hints asked for")
    solution_shown: StrictBool = Field(False, description="The solution was shown")
    wrong_checks: StrictInt = Field(0, description="Answers checked and found wrong")


class RatingOut(schemas._Out):
    id: str
    rating: float
    deviation: float = Field(description="Glicko-2 rating deviation (RD)")
    volatility: float
    games: int = Field(description="Rated attempts (first attempts that moved it)")


class PuzzleRatingOut(RatingOut):
    tier: str | None = Field(
        description="The puzzle's tier (its rating before any attempt "
        "when the model of human solvers has none)"
    )


class AttemptOut(schemas._Out):
    id: int = Field(description="The attempt's number in the database")
    puzzle: str
    player: str
    solved: bool
    first_check_ms: int | None
    hints: int
    solution_shown: bool
    wrong_checks: int
    at: str = Field(description="When the server recorded it (UTC)")
    rated: bool = Field(description="The player's first attempt at the puzzle: the one rated")
    player_rating: RatingOut
    puzzle_rating: PuzzleRatingOut


class RatingsOut(schemas._Out):
    recording: bool = Field(
        description="The server keeps attempts (false: it has no "
        "database, and everything else is empty)"
    )
    attempts: int
    first_attempts: int
    puzzles: list[PuzzleRatingOut] = Field(description="Highest rating first")
    players: list[RatingOut] = Field(description="Highest rating first")


class NextOut(schemas._Out):
    player: RatingOut
    puzzle: PuzzleRatingOut
    kind: str
    rules: str
    themes: list[str]


class Book:
    """A worker's view of the attempts database: the store, opened on first use, and the
    ratings folded over what it has read so far."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._store: AttemptStore | None = None
        self._ratings: Ratings | None = None
        self._lock = threading.Lock()

    def _open(self) -> AttemptStore:
        if self._store is None:
            try:
                self._store = AttemptStore(self.path)
            except AttemptDatabaseError as error:
                log.error("attempts database unusable: %s", error)
                raise ApiError(
                    503, "the attempts database is unavailable (the reason is logged)"
                ) from None
        return self._store

    def record(self, attempt: Attempt) -> Attempt:
        with self._lock:
            try:
                return self._open().record(attempt)
            except AttemptDatabaseError as error:
                log.error("attempt not recorded: %s", error)
                raise ApiError(
                    503, "the attempt could not be recorded (the reason is logged)"
                ) from None

    def read(self, tiers: dict[str, str], answer: Callable[[Ratings], T]) -> T:
        """``answer`` of the ratings, with every attempt stored so far (by any worker) read
        first; under the book's lock (the ratings change as attempts are read)."""
        with self._lock:
            store = self._open()
            if self._ratings is None:
                self._ratings = Ratings(tiers=tiers)
            try:
                self._ratings.add_all(store.attempts(after=self._ratings.last_id))
            except AttemptDatabaseError as error:
                log.error("attempts not read: %s", error)
                raise ApiError(
                    503, "the attempts database is unavailable (the reason is logged)"
                ) from None
            try:
                return answer(self._ratings)
            except AttemptDatabaseError as error:
                log.error("attempts database not used: %s", error)
                raise ApiError(
                    503, "the attempts database is unavailable (the reason is logged)"
                ) from None

    def daily(self, day: date, puzzles: list[Puzzle]) -> Puzzle:
        """The daily puzzle of ``day`` by :func:`rami.puzzles.daily.daily_with` (today is the
        server's date)."""
        tiers = {puzzle.id: puzzle.tier for puzzle in puzzles}
        return self.read(
            tiers, lambda ratings: daily_with(day, date.today(), puzzles, self._open(), ratings)
        )


def use_database(app: Any, path: str | None) -> None:
    """Give the app this attempts database (None: none), whatever ``RAMI_SERVICE_DB`` says."""
    app.state.attempt_book = Book(path) if path else False


def checked_database(path: str) -> str:
    """The database's absolute path, once it opens (made if new): what ``rami serve --db``
    checks before it starts; SystemExit with the reason when it cannot be used."""
    try:
        AttemptStore(path).close()
    except AttemptDatabaseError as error:
        raise SystemExit(f"error: --db: {error}") from None
    return os.path.abspath(path)


def book_or_none(request: Request) -> Book | None:
    """The worker's book, made on first use from ``RAMI_SERVICE_DB``; None without one."""
    state = request.app.state
    book = getattr(state, "attempt_book", None)
    if book is None:
        path = os.environ.get(DB_ENV, "").strip()
        book = state.attempt_book = Book(path) if path else False
    return book if isinstance(book, Book) else None


def book_of(request: Request) -> Book:
    """The worker's book; 503 on a server without a database."""
    book = book_or_none(request)
    if book is None:
        raise ApiError(
            503,
            "this server keeps no attempts (it was started without "
            "--db): nothing is recorded and nothing is rated",
        )
    return book


async def _pack(request: Request) -> Any:
    pack = getattr(request.app.state, "puzzle_pack", None)
    if pack is None:
        raise ApiError(503, "the puzzle endpoints are not available on this server")
    await asyncio.to_thread(pack.load)
    return pack


def _tiers(pack: Any) -> dict[str, str]:
    return {puzzle.id: puzzle.tier for puzzle in pack.load()}


def _find(pack: Any, puzzle_id: str, field: str) -> Any:
    try:
        return pack.find(puzzle_id)
    except ApiError:
        raise ApiError(404, f"no puzzle {puzzle_id!r} in the pack", field) from None


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.ErrorOut, "description": text}
    for status, text in (
        (400, "Malformed JSON"),
        (404, "Unknown puzzle id, or no puzzle left to offer"),
        (413, "Request body too large"),
        (415, "Body not sent as application/json"),
        (422, "Bad input (the field at fault is named)"),
        (503, "No attempts database on this server (nothing recorded), or it is unavailable"),
    )
}


@router.post(
    "/puzzles/attempts",
    response_model=AttemptOut,
    status_code=201,
    tags=["puzzles"],
    responses=_ERRORS,
)
async def record_attempt(body: AttemptRequest, request: Request) -> dict[str, Any]:
    """Record one attempt at a puzzle (the page sends one when the player leaves it: solved,
    given up, or moved on). The player's first attempt at a puzzle is the one rated; the answer
    has the ratings after it."""
    try:
        attempt = Attempt(
            body.puzzle,
            body.player,
            body.solved,
            body.first_check_ms,
            body.hints,
            body.solution_shown,
            body.wrong_checks,
            datetime.now(UTC),
        )
    except AttemptError as error:
        field = str(error.loc[0]) if error.loc else None
        raise ApiError(422, str(error), field) from None
    book = book_of(request)
    pack = await _pack(request)
    _find(pack, attempt.puzzle, "puzzle")
    stored = await asyncio.to_thread(book.record, attempt)

    def answer(ratings: Ratings) -> dict[str, Any]:
        return {
            **stored.to_json(),
            "rated": ratings.first_attempt(stored.player, stored.puzzle) == stored.id,
            "player_rating": ratings.player_json(stored.player),
            "puzzle_rating": ratings.puzzle_json(stored.puzzle),
        }

    return await asyncio.to_thread(book.read, _tiers(pack), answer)


@router.get("/puzzles/next", response_model=NextOut, tags=["puzzles"], responses=_ERRORS)
async def offer_next(request: Request, player: Player) -> dict[str, Any]:
    """A puzzle for the player, near their rating, that they have not attempted (the same
    attempts give the same puzzle): docs/puzzles.md, "The next puzzle"."""
    book = book_of(request)
    pack = await _pack(request)
    ids = [puzzle.id for puzzle in pack.load()]

    def answer(ratings: Ratings) -> dict[str, Any] | None:
        chosen = next_puzzle(ratings, player, ids)
        if chosen is None:
            return None
        return {"player": ratings.player_json(player), "puzzle": ratings.puzzle_json(chosen)}

    offer = await asyncio.to_thread(book.read, _tiers(pack), answer)
    if offer is None:
        raise ApiError(404, "this player has attempted every puzzle of the pack", "player")
    puzzle = pack.find(offer["puzzle"]["id"])
    return {
        **offer,
        "kind": puzzle.kind,
        "rules": puzzle.position.rules.option_string,
        "themes": list(puzzle.themes),
    }


@router.get("/puzzles/ratings", response_model=RatingsOut, tags=["puzzles"], responses=_ERRORS)
async def list_ratings(
    request: Request,
    player: Annotated[
        str | None,
        Query(pattern=f"^{PLAYER_ID.pattern}$", description="Only this player (rated or not)"),
    ] = None,
    puzzle: Annotated[str | None, Query(description="Only this puzzle (rated or not)")] = None,
    limit: Annotated[
        int,
        Query(
            ge=1,
            le=10_000,
            description="At most this many puzzles and this many players, highest first",
        ),
    ] = 100,
) -> dict[str, Any]:
    """Ratings from first attempts (as ``rami puzzle ratings --json``): the counts, and the
    rated puzzles and players, highest first; or the one player and/or puzzle asked for. On a
    server without a database, ``recording`` is false and the rest empty (what the page asks
    before it reports attempts)."""
    book = book_or_none(request)
    if book is None:
        return {
            "recording": False,
            "attempts": 0,
            "first_attempts": 0,
            "puzzles": [],
            "players": [],
        }
    pack = await _pack(request)
    if puzzle is not None:
        _find(pack, puzzle, "puzzle")

    def answer(ratings: Ratings) -> dict[str, Any]:
        if player is None and puzzle is None:
            return ratings.summary(limit)
        return {
            "attempts": ratings.attempts,
            "first_attempts": ratings.first_attempts,
            "players": [] if player is None else [ratings.player_json(player)],
            "puzzles": [] if puzzle is None else [ratings.puzzle_json(puzzle)],
        }

    result: dict[str, Any] = await asyncio.to_thread(book.read, _tiers(pack), answer)
    return {"recording": True, **result}
