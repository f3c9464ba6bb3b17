"""``POST /bot/turn``: one bot decision from a visible state; ``GET /bot/levels``: the levels
a preset seats per table size (docs/game.md).

A router the app includes (``rami.service.app``). Stateless, as :func:`rami.game.bot_turn`: the
body is the seat's view (``View.to_json()``), the bot's level and a seed for the expert's
sampling; the answer is the action (``Action.to_json()``). The decision runs in a thread, off
the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from rami.errors import InvalidPositionError, RamiError
from rami.game.levels import LEVEL_PATTERN, lookahead_tables, offered_levels
from rami.game.presets import BudgetError, GameError
from rami.game.sampled import MAX_BUDGET

router = APIRouter()


class BotTurnRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    view: dict[str, Any] = Field(description="The seat's visible state, as View.to_json()")
    level: str = Field(
        default="beginner",
        pattern=LEVEL_PATTERN,
        description="The bot's level: beginner, novice, intermediate, confirmed, "
        f"expert, lookahead ({lookahead_tables()}), or a target Elo elo:N "
        "(docs/game.md)",
    )
    seed: int = Field(
        default=0, ge=0, lt=2**63, description="Seeds the expert's and look-ahead's sampling"
    )
    budget: int | None = Field(
        default=None,
        ge=0,
        le=MAX_BUDGET,
        description="lookahead only: its thinking budget in simulated turns (default 280, "
        "about 0.8 s on one core; 0 plays the expert's turn; docs/game.md)",
    )


class BotTurnOut(BaseModel):
    action: Literal["draw", "play", "claim"]
    source: str | None = Field(default=None, description="draw: 'stock' or 'discard'")
    table: list[Any] | None = Field(default=None, description="play: the table after the turn")
    played: list[str] | None = Field(default=None, description="play: the cards laid")
    discard: str | None = Field(default=None, description="play: the discard, if any")
    take: bool | None = Field(default=None, description="claim: take the card or not")


class TableLevelsOut(BaseModel):
    players: int = Field(description="The table's size, bots and people together")
    levels: list[str] = Field(description="The named levels a game seats at this table")


class LevelsOut(BaseModel):
    rules: str = Field(description="The preset, with its options if any")
    target_elo: bool = Field(description="Whether elo:N is read on a measured ladder here")
    tables: list[TableLevelsOut] = Field(description="Per table size the preset is played by")


def _error(
    status: int, message: str, field: str | None = None, problems: Sequence[str] | None = None
) -> Exception:
    from rami.service.errors import ApiError

    return ApiError(status, message[:500], field, problems or [])


def _decide(view_data: dict[str, Any], level: str, seed: int, budget: int | None) -> dict[str, Any]:
    from rami.game import View, bot_turn

    try:
        view = View.from_json(view_data)
    except RamiError as error:
        raise _error(422, str(error), "view") from None
    try:
        view.position().checked()
    except InvalidPositionError as error:
        raise _error(422, "the view's position is impossible", "view", error.problems) from None
    try:
        answer: dict[str, Any] = bot_turn(view, level, seed, budget).to_json()
        return answer
    except BudgetError as error:  # out of range, or for another level
        raise _error(422, str(error), "budget") from None
    except GameError as error:  # a level this table cannot seat
        raise _error(422, str(error), "level") from None
    except RamiError as error:
        raise _error(422, str(error), "view") from None


@router.post(
    "/bot/turn",
    response_model=BotTurnOut,
    response_model_exclude_none=True,
    tags=["game"],
    responses={
        status: {"model": __import__("rami.service.schemas", fromlist=["ErrorOut"]).ErrorOut}
        for status in (400, 413, 415, 422)
    },
)
async def bot_turn_endpoint(request: BotTurnRequest) -> dict[str, Any]:
    """One decision of a bot (beginner, novice, intermediate, confirmed, expert, lookahead,
    or elo:N) from a seat's visible state: a draw, a play (table after, cards played,
    discard) or a claim (as ``rami.game.bot_turn``)."""
    return await asyncio.to_thread(
        _decide, request.view, request.level, request.seed, request.budget
    )


@router.get(
    "/bot/levels",
    response_model=LevelsOut,
    tags=["game"],
    responses={422: {"model": __import__("rami.service.schemas", fromlist=["ErrorOut"]).ErrorOut}},
)
async def levels_endpoint(
    rules: Annotated[
        str, Query(description="A preset of GET /rulesets, with options if any")
    ] = "rami-chinois",
) -> dict[str, Any]:
    """The bot levels a game of ``rules`` seats, per table size (the look-ahead only where it
    was measured stronger than the expert), and whether a target Elo is offered (as
    ``rami.game.levels.offered_levels``)."""
    from rami.rules import get_ruleset

    try:
        return offered_levels(get_ruleset(rules))
    except RamiError as error:
        raise _error(422, str(error), "rules") from None
