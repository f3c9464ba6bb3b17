"""``POST /review`` (a turn played, graded against the best) and ``POST /alternatives`` (the K
best turns with distinct signatures): a router the app includes (:mod:`rami.service.app`).

The library decides (:func:`rami.review.review`, :func:`rami.solver.alternatives.solve_top`);
the work runs in a solver process, like ``/solve``, under the request's time limit (capped to
the server maximum, the limit used in the ``X-Rami-Time-Limit`` header).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import Field, StrictBool, StrictInt

import rami.service.schemas as schemas
from rami.lang import Language
from rami.position import Position
from rami.service.inputs import (
    checked_position,
    parse_card_field,
    parse_cards_field,
    parse_melds_field,
)

router = APIRouter()

TIME_LIMIT_HEADER = "X-Rami-Time-Limit"
GradeName = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


class ReviewRequest(schemas._Body):
    position: schemas.PositionField
    table_after: schemas.MeldList = Field(description="The whole table after the turn")
    played: schemas.CardList | None = Field(
        None, description="The cards laid from the hand (null: read from the two tables)"
    )
    discard: schemas.CardOrNull = Field(None, description="The card that ended the turn")
    objective: schemas.Objective = "points"
    time_limit: schemas.TimeLimit = None
    lang: schemas.Lang = "en"


class AlternativesRequest(schemas._Body):
    position: schemas.PositionField
    top: Annotated[StrictInt, Field(ge=1, le=50)] = Field(
        3, description="How many answers: the K best turns with distinct signatures"
    )
    objective: schemas.Objective = "points"
    min_moves: StrictBool = Field(True, description="Minimise the table cards moved (level 3)")
    time_limit: schemas.TimeLimit = None
    lang: schemas.Lang = "en"


class TurnPlayedOut(schemas._Out):
    played: list[str]
    discard: str | None
    penalty_after: int | None = Field(description="Penalty left (null for an illegal turn)")
    cards_played: int
    cards_moved: int | None
    opened_after: bool | None
    moves: list[schemas.MoveOut] = Field(description="The turn as moves (empty if illegal)")


class ReviewOut(schemas._Out):
    legal: bool
    problems: list[str] = Field(description="Every reason the referee refuses the turn")
    grade: GradeName | None = Field(description="By points lost against the best (null if illegal)")
    points_lost: int | None = Field(description="Penalty left beyond the best turn's")
    turn: TurnPlayedOut
    best: schemas.SolutionOut
    missed: schemas.MoveOut | None = Field(
        description="The best turn's key move that the turn played lacks"
    )
    grades: dict[str, int] = Field(
        description="Most points lost for each grade (beyond the last: blunder)"
    )


class RankedSolutionOut(schemas.SolutionOut):
    rank: int
    signature: str = Field(
        description="The answer's signature (cuts, order, copies and "
        "where jokers stand do not count)"
    )


class AlternativesOut(schemas._Out):
    top: int
    found: int
    exhausted: bool = Field(description="Fewer than top distinct answers exist: all listed")
    stopped: bool = Field(description="The time limit ended the search first")
    message: str
    ms: float
    solutions: list[RankedSolutionOut]


def review_job(
    position: Position,
    table: Any,
    played: Any,
    discard: Any,
    objective: str,
    time_limit: float,
    language: str = "en",
) -> dict[str, Any]:
    """In a solver process: the review as the service sends it."""
    from rami.review import review

    result = review(position, table, played, discard, objective=objective, time_limit=time_limit)
    return result.to_json(Language(language))


def alternatives_job(
    position: Position,
    top: int,
    objective: str,
    min_moves: bool,
    time_limit: float,
    language: str = "en",
) -> dict[str, Any]:
    from rami.solver.alternatives import solve_top

    found = solve_top(
        position, top, objective=objective, min_moves=min_moves, time_limit=time_limit
    )
    return found.to_json(Language(language))


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.ErrorOut} for status in (400, 413, 415, 422, 503)
}


@router.post("/review", response_model=ReviewOut, tags=["referee"], responses=_ERRORS)
async def review_endpoint(
    body: ReviewRequest, request: Request, response: Response
) -> dict[str, Any]:
    """Review a turn played (as ``rami review --json``): legal or the referee's reasons, the
    comparison with the best turn at every level, the key move missed, and a grade."""
    settings, pool = request.app.state.settings, request.app.state.pool
    language = Language(body.lang)
    position = checked_position(body.position, language=language)
    table = parse_melds_field(body.table_after, "table_after", language)
    played = None if body.played is None else parse_cards_field(body.played, "played", language)
    discard = None if body.discard is None else parse_card_field(body.discard, "discard", language)
    time_limit = settings.time_limit(body.time_limit)
    data: dict[str, Any] = await pool.run(
        review_job,
        position,
        table,
        played,
        discard,
        body.objective,
        time_limit,
        body.lang,
        deadline=settings.deadline(time_limit),
    )
    response.headers[TIME_LIMIT_HEADER] = f"{time_limit:g}"
    return data


@router.post("/alternatives", response_model=AlternativesOut, tags=["solver"], responses=_ERRORS)
async def alternatives_endpoint(
    body: AlternativesRequest, request: Request, response: Response
) -> dict[str, Any]:
    """The ``top`` best turns with distinct signatures, best first (as ``rami solve --top K
    --json``); fewer when fewer exist (``exhausted``). The time limit covers the whole search."""
    settings, pool = request.app.state.settings, request.app.state.pool
    position = checked_position(body.position, language=Language(body.lang))
    time_limit = settings.time_limit(body.time_limit)
    data: dict[str, Any] = await pool.run(
        alternatives_job,
        position,
        body.top,
        body.objective,
        body.min_moves,
        time_limit,
        body.lang,
        deadline=settings.deadline(time_limit),
    )
    response.headers[TIME_LIMIT_HEADER] = f"{time_limit:g}"
    return data
