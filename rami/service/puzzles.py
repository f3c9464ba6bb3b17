"""The puzzle endpoints: the daily puzzle and answer checks, over :mod:`rami.puzzles.record`.

The daily puzzle is what ``rami puzzle daily --json`` prints (with ``--db`` when the server
has an attempts database, :meth:`rami.service.attempts.Book.daily`): the position and the goal,
never the solution (:func:`rami.puzzles.record.public_json`, the contract of docs/puzzles.md);
``POST /puzzles/check`` judges a final table, or moves, as ``rami puzzle check ID --answer ...
--json`` does. The other puzzle endpoints (a puzzle by id, its hints, its solution when asked,
the pack by tier and theme) are in :mod:`rami.service.page`.
"""

from __future__ import annotations

import asyncio
import re
import threading
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Path, Query, Request
from pydantic import Field, StrictStr

import rami.service.schemas as schemas
from rami.errors import NotationError, UnreadableFileError
from rami.lang import Language
from rami.puzzles import answers, record
from rami.service.errors import ApiError, log, notation_error
from rami.service.inputs import MAX_CARDS, check_text_size, parse_melds_field
from rami.service.output import daily_json
from rami.service.pool import SolverPool
from rami.service.settings import Settings

if TYPE_CHECKING:
    from rami.puzzles.record import Puzzle

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
LangQuery = Annotated[
    Language, Query(description="The language of the goal and the themes' names: en or fr")
]


class CheckRequest(schemas._Body):
    id: StrictStr = Field(description="The puzzle id, e.g. from GET /puzzles/daily")
    table: schemas.MeldList | StrictStr | None = Field(
        default=None,
        description="The final table: a list of melds (as in the JSON position form), or the "
        "text form 'meld | meld | ...'",
    )
    moves: StrictStr | list[StrictStr] | None = Field(
        default=None,
        description="Or the answer as moves, in the move language of `rami solve` ('split 1 "
        "after 6H; add 6H to 4'): one per line or separated by ';', or a list of moves",
    )
    lang: Language = Field(
        default=Language.EN, description="The language of the verdict's reasons (en or fr)"
    )


class PuzzlePack:
    """The pack, read once on first use (in a thread, off the event loop: it is real work)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._puzzles: list[Puzzle] | None = None
        self._by_id: dict[str, Puzzle] = {}
        self._lock = threading.Lock()

    def load(self) -> list[Puzzle]:
        with self._lock:
            if self._puzzles is None:
                where = self.path or "the shipped packs (rami/data)"
                try:
                    puzzles = record.read_pack(self.path) if self.path else record.shipped_packs()
                except (OSError, NotationError, UnreadableFileError) as error:
                    # The details name server files: they go to the log, not to the client.
                    log.error("no puzzle pack available: %s: %s", where, error)
                    raise ApiError(
                        503, "no puzzle pack available on this server (the reason is logged)"
                    ) from None
                self._puzzles = list(puzzles)
                self._by_id = {puzzle.id: puzzle for puzzle in puzzles}
            return self._puzzles

    def find(self, puzzle_id: str) -> Puzzle:
        self.load()
        try:
            return self._by_id[puzzle_id]
        except KeyError:
            raise ApiError(404, f"no puzzle {puzzle_id!r} in the pack", "id") from None


def _day(text: str) -> date:
    if not _DATE.fullmatch(text):
        raise ApiError(422, f"date: expected YYYY-MM-DD, got {text!r}", "date")
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise ApiError(422, f"date: {error}", "date") from None


def _table(value: list[Any] | str) -> tuple[Any, ...]:
    if isinstance(value, str):
        from rami.notation import parse_table

        if "/" in value:
            raise ApiError(
                422, "table: give the final table only ('meld | meld | ...'), no '/'", "table"
            )
        check_text_size(value, "table")
        try:
            melds = parse_table(value)
        except NotationError as error:
            raise notation_error(error, "table") from None
        total = sum(len(meld) for meld in melds)
        if total > MAX_CARDS:
            raise ApiError(
                422,
                f"table holds {total} cards: two decks and the jokers make at most {MAX_CARDS}",
                "table",
            )
        return melds
    return parse_melds_field(value, "table")


def _one_answer(request: CheckRequest) -> None:
    if request.table is None and request.moves is None:
        raise ApiError(
            422, "give the answer: the final table ('table') or the moves ('moves')", "table"
        )
    if request.table is not None and request.moves is not None:
        raise ApiError(
            422, "give the final table ('table') or the moves ('moves'), not both", "moves"
        )


def _moves(puzzle: Puzzle, moves: Any) -> tuple[Any, Any]:
    from rami.puzzles.moves import answer_table

    text = "\n".join(moves) if isinstance(moves, list) else moves
    if len(text) > MAX_CARDS * 40:
        raise ApiError(422, "moves: too long for one turn", "moves")
    try:
        replayed = answer_table(puzzle.position, text)
    except NotationError as error:
        raise ApiError(422, f"moves: {error}", "moves") from None
    return replayed.table, replayed.numbers


def install_puzzle_routes(app: FastAPI, settings: Settings, pool: SolverPool) -> None:
    pack = PuzzlePack(settings.puzzle_pack)
    app.state.puzzle_pack = pack
    from rami.service.attempts import book_or_none as attempt_book
    from rami.service.attempts import router as attempt_routes

    app.include_router(attempt_routes)  # before the page's /puzzles/{id} (rami.service.page)
    errors: dict[int | str, dict[str, Any]] = {
        status: {"model": schemas.ErrorOut, "description": text}
        for status, text in (
            (404, "Unknown puzzle id"),
            (422, "Bad date, or a bad table (the field at fault is named)"),
            (
                503,
                "No puzzle pack available, the server is busy, or its attempts database "
                "is unavailable",
            ),
        )
    }

    async def daily_of(day: date, request: Request, language: Language) -> dict[str, Any]:
        puzzles = await asyncio.to_thread(pack.load)
        book = attempt_book(request)
        if book is None:
            return daily_json(day, record.daily(day, puzzles), language)
        return daily_json(day, await asyncio.to_thread(book.daily, day, puzzles), language)

    @app.get("/puzzles/daily", response_model=schemas.PuzzleOut, tags=["puzzles"], responses=errors)
    async def daily_today(request: Request, lang: LangQuery = Language.EN) -> dict[str, Any]:
        """Today's puzzle (the server's date), as ``rami puzzle daily --json`` without the
        solution; on a server with an attempts database, chosen by rating once players have
        rated enough (docs/puzzles.md, "The daily puzzle by rating")."""
        return await daily_of(date.today(), request, lang)

    @app.get(
        "/puzzles/daily/{date}",
        response_model=schemas.PuzzleOut,
        tags=["puzzles"],
        responses=errors,
    )
    async def daily_on(
        day: Annotated[str, Path(alias="date", description="YYYY-MM-DD")],
        request: Request,
        lang: LangQuery = Language.EN,
    ) -> dict[str, Any]:
        """The puzzle of a day (YYYY-MM-DD): every server without an attempts database gives
        the same one; a server with one, the puzzle it gave that day."""
        return await daily_of(_day(day), request, lang)

    @app.post(
        "/puzzles/check",
        response_model=schemas.CheckOut,
        tags=["puzzles"],
        responses={**errors, 400: {"model": schemas.ErrorOut}},
    )
    async def check(request: CheckRequest) -> dict[str, Any]:
        """Does this final table (or these moves) solve the puzzle, and is it the intended
        solution? Moves are replayed on the puzzle's table; a move that cannot be made is a 422
        naming it."""
        _one_answer(request)
        table = _table(request.table) if request.table is not None else None
        await asyncio.to_thread(pack.load)
        puzzle = pack.find(request.id)
        numbers = None
        if table is None:
            table, numbers = _moves(puzzle, request.moves)
        verdict = await pool.run(
            answers.check_answer,
            puzzle,
            table,
            numbers,
            request.lang,
            deadline=settings.deadline_slack,
        )
        return {"id": puzzle.id, **verdict.to_json()}
