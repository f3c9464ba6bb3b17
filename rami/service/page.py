"""The puzzle page (``GET /``) and what it asks the service: cards as SVG, the pack's puzzles by
tier and theme, a puzzle by id, its hints and, when asked, its solution (docs/page.md).

A router the app includes (``rami.service.app``): the page is static HTML, JS and CSS shipped in
``rami/service/static`` (no build step, nothing loaded from another host); the cards are drawn
by :mod:`rami.svg` on the server. Every puzzle answer here is spoiler-free
(:func:`rami.puzzles.record.public_json`) except ``GET /puzzles/{id}/solution``.
"""

from __future__ import annotations

import asyncio
import mimetypes
import re
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import Field

from rami.errors import NotationError
from rami.lang import Language
from rami.puzzles import record
from rami.puzzles.themes import THEMES
from rami.puzzles.words import theme_name, theme_sentence
from rami.service.output import puzzle_json
from rami.service.schemas import ErrorOut, _Out

STATIC = Path(__file__).resolve().parent / "static"
#: Cards are drawn this wide (pixels) unless the page asks for another size.
CARD_SIZE = 96
#: A day: cards never change for a given version of rami.
CARD_CACHE = "public, max-age=86400"
_CARD_NAME = re.compile(r"(?:10|[2-9TJQKA])[SHDC]|joker", re.I)

router = APIRouter()

Tier = Literal["easy", "medium", "hard", "expert"]


#: The answer to a name or an id that names nothing (an unknown card, puzzle or file).
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorOut}}
#: What the routes that read the pack may answer besides 200 (the pack: rami.service.puzzles).
_NO_PACK: dict[int | str, dict[str, Any]] = {
    503: {
        "model": ErrorOut,
        "description": "No puzzle pack available on this server, or (a hint) the server is busy",
    },
}
#: ... and those of a puzzle id: malformed (not rc- and 10 hex digits), or in no puzzle of the
#: pack. A request's validation error has the service's shape (ErrorOut), not FastAPI's.
_BY_ID: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No puzzle of this id in the pack"},
    422: {
        "model": ErrorOut,
        "description": "A malformed puzzle id, or a bad query parameter "
        "(the field at fault is named)",
    },
    **_NO_PACK,
}

#: A puzzle id in a path. The pattern is what makes ``/puzzles/{puzzle_id}`` unambiguous:
#: ``/puzzles/themes`` (and ``daily``, ``next``, ``ratings``) are other operations, and an
#: unconstrained string would document them as puzzle ids (the long service fuzz found it).
PuzzleId = Annotated[
    str,
    PathParam(
        pattern=f"^{record.PUZZLE_ID.pattern}$",
        description="A puzzle id: rc- and 10 hex digits",
        examples=["rc-b5304c3325"],
    ),
]


#: The language of a puzzle's texts (its goal, its themes' names, the solution's moves).
LangQuery = Annotated[
    Language, Query(description="The language of the texts: en (the default) or fr")
]


class ThemeOut(_Out):
    """A theme of docs/puzzles.md, with how many puzzles of the pack have it."""

    name: str = Field(description="The theme (split-run, joker-swap, ...)")
    title: str = Field(description="The theme as a player reads it, in the language asked")
    description: str = Field(
        description="What the solution does, in one sentence, in the language asked"
    )
    count: int = Field(description="Puzzles of the pack with this theme")


def _error(status: int, message: str, field: str | None = None) -> Exception:
    from rami.service.errors import ApiError

    return ApiError(status, message, field)


# ------------------------------------------------------------------------------ the page


@router.get("/", include_in_schema=False)
async def page() -> FileResponse:
    """The puzzle page."""
    return FileResponse(
        STATIC / "index.html", media_type="text/html", headers={"Cache-Control": "no-cache"}
    )


@router.get("/static/{name}", include_in_schema=False)
async def static_file(name: str) -> FileResponse:
    """A file of the page (no sub-folders, nothing outside ``rami/service/static``)."""
    path = STATIC / name
    if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
        raise _error(404, f"no static file {name!r}", "name")
    media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if name.endswith(".js"):
        media_type = "text/javascript"
    return FileResponse(path, media_type=media_type, headers={"Cache-Control": "no-cache"})


@router.get(
    "/svg/cards/{name}.svg",
    tags=["pictures"],
    responses={200: {"content": {"image/svg+xml": {}}}, **_NOT_FOUND},
)
async def card_svg(
    name: Annotated[str, PathParam(description="A card (7H, TH or 10H, QS...) or joker")],
    four_color: Annotated[bool, Query(description="Diamonds blue, clubs green")] = False,
    size: Annotated[int, Query(ge=16, le=400, description="Card width in pixels")] = CARD_SIZE,
    lang: Annotated[
        Language,
        Query(description="The court's letters and the card's name: en (J Q K), fr (V D R)"),
    ] = Language.EN,
) -> Response:
    """One card drawn by :func:`rami.svg.card` (what the page shows), in ``lang``."""
    from rami.svg import card

    if not _CARD_NAME.fullmatch(name):
        raise _error(404, f"no card {name!r}: give a card such as 7H, TH or QS, or joker", "name")
    text = "*" if name.lower() == "joker" else name.upper()
    return Response(
        card(text, size=size, four_color=four_color, language=lang),
        media_type="image/svg+xml",
        headers={"Cache-Control": CARD_CACHE},
    )


# ------------------------------------------------------------------------------ puzzles


async def _pack(request: Request) -> list[record.Puzzle]:
    pack = getattr(request.app.state, "puzzle_pack", None)
    if pack is None:
        raise _error(503, "the puzzle endpoints are not available on this server")
    return await asyncio.to_thread(pack.load)  # read once, then kept


async def _puzzle(request: Request, puzzle_id: str) -> record.Puzzle:
    await _pack(request)
    puzzle: record.Puzzle = request.app.state.puzzle_pack.find(puzzle_id)
    return puzzle


def _summary(puzzle: record.Puzzle) -> dict[str, Any]:
    return {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "rules": puzzle.position.rules.option_string,
        "tier": puzzle.tier,
        "themes": list(puzzle.themes),
    }


@router.get(
    "/puzzles",
    tags=["puzzles"],
    responses={422: {"model": ErrorOut, "description": "An unknown tier or theme"}, **_NO_PACK},
)
async def list_puzzles(
    request: Request,
    tier: Annotated[Tier | None, Query(description="Only this tier")] = None,
    theme: Annotated[str | None, Query(description="Only puzzles with this theme")] = None,
) -> dict[str, Any]:
    """The pack's puzzles (ids, kinds, tiers, themes: no position, no solution), in pack order,
    of a tier and/or with a theme."""
    puzzles = await _pack(request)
    try:
        chosen = record.select(puzzles, tier=tier, theme=theme or None)
    except NotationError as error:
        raise _error(422, str(error), "theme") from None
    return {"count": len(chosen), "puzzles": [_summary(puzzle) for puzzle in chosen]}


@router.get("/puzzles/themes", tags=["puzzles"], response_model=list[ThemeOut], responses=_NO_PACK)
async def list_themes(request: Request, lang: LangQuery = Language.EN) -> list[dict[str, Any]]:
    """Every theme, what it means, and how many puzzles of the pack have it."""
    puzzles = await _pack(request)
    counts = Counter(theme for puzzle in puzzles for theme in puzzle.themes)
    return [
        {
            "name": name,
            "title": theme_name(name, lang),
            "description": theme_sentence(name, lang),
            "count": counts[name],
        }
        for name in THEMES
    ]


@router.get("/puzzles/{puzzle_id}", tags=["puzzles"], responses=_BY_ID)
async def get_puzzle(
    request: Request, puzzle_id: PuzzleId, lang: LangQuery = Language.EN
) -> dict[str, Any]:
    """A puzzle of the pack: its position and goal, no solution (docs/puzzles.md); the goal's
    text and the themes' names in ``lang``."""
    return puzzle_json(await _puzzle(request, puzzle_id), lang)


@router.get("/puzzles/{puzzle_id}/solution", tags=["puzzles"], responses=_BY_ID)
async def get_solution(
    request: Request, puzzle_id: PuzzleId, lang: LangQuery = Language.EN
) -> dict[str, Any]:
    """The answer, when asked: the final table with its meld numbers, the moves that reach it
    (what the page plays step by step; their ``text`` in ``lang``), the signature and the
    difficulty details."""
    puzzle = await _puzzle(request, puzzle_id)
    return await asyncio.to_thread(record.solution_json, puzzle, lang)


@router.get("/puzzles/{puzzle_id}/hint", tags=["puzzles"], responses=_BY_ID)
async def get_hint(
    request: Request,
    puzzle_id: PuzzleId,
    level: Annotated[
        int,
        Query(
            ge=1, le=3, description="1 what is achievable, 2 the first key move, 3 the whole turn"
        ),
    ] = 1,
    lang: Annotated[Language, Query(description="The language of the hint's text")] = Language.EN,
) -> JSONResponse:
    """A hint for the puzzle's position, as ``rami hint PUZZLE-ID --level N --lang L`` gives
    it."""
    from rami.hints import make_hint

    puzzle = await _puzzle(request, puzzle_id)
    settings = request.app.state.settings
    time_limit = settings.time_limit(None)
    solution = await request.app.state.pool.run(  # in a solver process: it must pickle
        _solve, puzzle.position, time_limit, deadline=settings.deadline(time_limit)
    )
    return JSONResponse({"id": puzzle.id, **make_hint(solution, level, lang).to_json()})


def _solve(position: Any, time_limit: float) -> Any:
    from rami.solver.api import solve

    return solve(position, time_limit=time_limit)
