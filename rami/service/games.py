"""``/games``: a game against bots held by the server, played one request at a time (the page's
game mode, docs/page.md and docs/service.md).

A router the app includes (``rami.service.app``). The game is a
:class:`rami.game.session.GameSession` kept in this worker's memory under a random id: the
library deals, runs the bots and judges every turn of the person (seat 0) with the referee;
this module only reads the requests and writes what seat 0 sees. The other hands and the stock
never leave the server (a bot's stock draw is logged without its card), so the page cannot
show them, however it is changed.

Games are bounded: at most ``RAMI_SERVICE_MAX_GAMES`` (default 64) per worker, the one left
longest unused dropped to make room; a game unused for ``RAMI_SERVICE_GAME_TTL`` seconds (default
1800) is dropped. With ``--workers`` above 1 a game lives in the worker that created it, so the
game mode wants one worker (or sticky sessions).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr, StringConstraints

from rami.errors import NotationError, RamiError
from rami.game.actions import GameInternalError, IllegalActionError, card_from_json
from rami.game.levels import LEVEL_PATTERN, check_level, level_note
from rami.game.presets import GameError, GameOptions
from rami.game.session import GameSession, NotAskedError
from rami.rules import get_ruleset
from rami.service.errors import ApiError, log, notation_error

router = APIRouter()

#: Games kept at once per worker, and seconds a game may stay unused.
MAX_GAMES = int(os.environ.get("RAMI_SERVICE_MAX_GAMES", "64"))
GAME_TTL = float(os.environ.get("RAMI_SERVICE_GAME_TTL", "1800"))
#: A meld list the page sends: at most this many melds of at most this many cards.
MAX_MELDS = 60
MAX_MELD_CARDS = 30

#: A named level or a target Elo (rami.game.levels).
Level = Annotated[str, StringConstraints(pattern=LEVEL_PATTERN)]
GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,40}$", description="The game's id")]

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": __import__("rami.service.schemas", fromlist=["ErrorOut"]).ErrorOut,
             "description": text}
    for status, text in (
        (400, "Malformed JSON"),
        (404, "No such game (never made, or dropped: unused too long, or to make room)"),
        (409, "Not what the game asks now (a draw while a play is asked, say)"),
        (413, "Request body too large"),
        (415, "Body not sent as application/json"),
        (422, "Bad input, or a turn the referee refuses: `problems` gives its reasons"),
    )
}


# ------------------------------------------------------------------------------ bodies


class NewGameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: StrictStr = Field(default="rami-chinois", description="A preset of GET /rulesets")
    bots: list[Level] = Field(default=["beginner"], min_length=1, max_length=5,
                              description="One level per bot; you are seat 0, the bots 1, 2... "
                                          "A level is named, or a target Elo elo:N (only for "
                                          "a preset whose levels were measured: else a 422)")
    seed: int | None = Field(default=None, ge=0, lt=2**53,
                             description="The game's seed (the same seed deals the same game); "
                                         "a random one when left out")
    target: int | None = Field(default=None, ge=1, le=100_000,
                               description="The points that end the game (the preset's default)")
    max_rounds: int | None = Field(default=None, ge=1, le=100,
                                   description="End the game after this many rounds at most")


class DrawRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source: Literal["stock", "discard"]


class ClaimRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    take: bool


class PlayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: list[list[StrictStr]] = Field(
        max_length=MAX_MELDS,
        description="The melds after your turn, as card lists: the table's melds first, in "
                    "their order (an emptied one as []), then your new melds")
    discard: StrictStr | None = Field(default=None, description="The card you discard")


class PlayerOut(BaseModel):
    seat: int
    name: str
    level: str


class GameOut(BaseModel):
    id: str = Field(description="The game's id, for the other /games requests")
    rules: str
    title: str
    seed: int
    players: list[PlayerOut]
    phase: str = Field(description="What you are asked: draw, play, claim, round-over, "
                                   "game-over")
    to_move: int | None
    discard_rule: bool = Field(description="Does a turn end with a discard under this preset")
    going_out: str
    view: dict[str, Any] = Field(description="Your visible state (rami.game.View.to_json): your "
                                             "hand, the table, the discard pile, the others' "
                                             "hand sizes, the stock's size")
    rounds: list[dict[str, Any]] = Field(description="Each round played: reason, winners, the "
                                                     "hands laid down, scores, totals")
    totals: list[int]
    result: dict[str, Any] | None = Field(description="When the game is over: totals, winners")
    events: list[dict[str, Any]] = Field(description="The game as the table saw it, from "
                                                     "?since= (the last 50 by default)")
    event_count: int
    notes: list[str] = Field(description="What to know about the levels seated, in this preset "
                                         "(rami.game.levels.level_note: the expert of a preset "
                                         "without discards keeps its melds in the hand, say), "
                                         "one per note, in seat order; empty when none")


# ------------------------------------------------------------------------------ the store


@dataclass
class _Entry:
    session: GameSession
    used: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class GameStore:
    """The games of this worker: bounded in number, dropped when unused too long."""

    def __init__(self, max_games: int = MAX_GAMES, ttl: float = GAME_TTL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_games = max(1, max_games)
        self.ttl = ttl
        self.clock = clock
        self.games: OrderedDict[str, _Entry] = OrderedDict()

    def _expire(self) -> None:
        now = self.clock()
        for game_id in [key for key, entry in self.games.items() if now - entry.used > self.ttl]:
            del self.games[game_id]

    def add(self, session: GameSession) -> str:
        self._expire()
        while len(self.games) >= self.max_games:
            dropped, _ = self.games.popitem(last=False)
            log.info("game %s dropped to make room", dropped)
        game_id = secrets.token_urlsafe(12)
        self.games[game_id] = _Entry(session, self.clock())
        return game_id

    def get(self, game_id: str) -> _Entry:
        self._expire()
        entry = self.games.get(game_id)
        if entry is None:
            raise ApiError(404, f"no game {game_id!r}: it was never made, or it was dropped "
                                f"(unused for {self.ttl:g} s, or to make room)", "id")
        entry.used = self.clock()
        self.games.move_to_end(game_id)
        return entry


def _store(request: Request) -> GameStore:
    store = getattr(request.app.state, "games", None)
    if store is None:
        store = request.app.state.games = GameStore()
    return store


def _out(game_id: str, session: GameSession, since: int | None = None) -> dict[str, Any]:
    notes = (level_note(level, session.rules) for level in session.levels)
    return {"id": game_id, **session.to_json(since),
            "notes": list(dict.fromkeys(filter(None, notes)))}


def _check_targets(rules: str, levels: list[str]) -> None:
    """Refuse now a level the preset cannot seat (rami.game.levels.check_level: a target Elo
    with no measured ladder), naming the bot, rather than at the bot's first turn."""
    try:
        ruleset = get_ruleset(rules)
    except RamiError as error:  # an unknown ruleset
        raise ApiError(422, str(error), "rules") from None
    for index, level in enumerate(levels):
        try:
            check_level(level, ruleset)
        except GameError as error:
            raise ApiError(422, str(error), f"bots[{index}]") from None


async def _act(request: Request, game_id: str, act: Callable[[GameSession], None],
               field_name: str) -> dict[str, Any]:
    """Apply one answer of the person, under the game's lock and off the event loop (the bots
    that play next may ask the solver); the log returned starts at the answer."""
    entry = _store(request).get(game_id)
    async with entry.lock:
        session = entry.session
        since = len(session.log)
        try:
            await asyncio.to_thread(act, session)
        except IllegalActionError as error:
            status = 409 if isinstance(error, NotAskedError) else 422
            message = ("not now" if status == 409 else "the referee refuses this turn") + \
                ": " + "; ".join(error.problems)
            raise ApiError(status, message, field_name, error.problems) from None
        except GameInternalError as error:
            log.error("game %s: %s", game_id, error)
            raise ApiError(500, "internal game error (a bug, logged on the server)") from None
        except NotationError as error:
            raise notation_error(error, "") from None
        return _out(game_id, session, since)


# ------------------------------------------------------------------------------ endpoints


@router.post("/games", response_model=GameOut, tags=["game"], responses=_ERRORS)
async def new_game(request: Request, body: NewGameRequest) -> dict[str, Any]:
    """Start a game: you (seat 0) against one bot per level, dealt from the seed. The answer is
    what you see, up to your first decision (the bots that play before you have played)."""
    _check_targets(body.rules, body.bots)
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    options = GameOptions(target=body.target,
                          **({"max_rounds": body.max_rounds} if body.max_rounds else {}))
    try:
        session = await asyncio.to_thread(GameSession, body.rules, body.bots, seed, options)
    except GameError as error:
        raise ApiError(422, str(error), "bots" if "players" in str(error) else "target") \
            from None
    except RamiError as error:  # an unknown ruleset
        raise ApiError(422, str(error), "rules") from None
    game_id = _store(request).add(session)
    return _out(game_id, session, 0)


@router.get("/games/{game_id}", response_model=GameOut, tags=["game"], responses=_ERRORS)
async def get_game(
    request: Request, game_id: GameId,
    since: Annotated[int | None, Query(ge=0, description="Log entries from this one")] = None,
) -> dict[str, Any]:
    """The game as you see it now."""
    entry = _store(request).get(game_id)
    async with entry.lock:
        return _out(game_id, entry.session, since)


@router.post("/games/{game_id}/draw", response_model=GameOut, tags=["game"], responses=_ERRORS)
async def draw(request: Request, game_id: GameId, body: DrawRequest) -> dict[str, Any]:
    """Draw from the stock or the discard pile, where the preset lets you choose."""
    return await _act(request, game_id, lambda session: session.draw(body.source), "source")


@router.post("/games/{game_id}/claim", response_model=GameOut, tags=["game"], responses=_ERRORS)
async def claim(request: Request, game_id: GameId, body: ClaimRequest) -> dict[str, Any]:
    """Rami fou: take the last discard out of turn (with a penalty card), or let it go."""
    return await _act(request, game_id, lambda session: session.claim(body.take), "take")


@router.post("/games/{game_id}/play", response_model=GameOut, tags=["game"], responses=_ERRORS)
async def play(request: Request, game_id: GameId, body: PlayRequest) -> dict[str, Any]:
    """Your turn: the table after it and the discard. The referee judges it; a refused turn is
    a 422 with its reasons in ``problems``, and nothing changes (try again)."""
    melds = []
    for index, meld in enumerate(body.table):
        if len(meld) > MAX_MELD_CARDS:
            raise ApiError(422, f"table[{index}]: at most {MAX_MELD_CARDS} cards in a meld",
                           f"table[{index}]")
        try:
            melds.append([card_from_json(card, f"table[{index}][{at}]")
                          for at, card in enumerate(meld)])
        except NotationError as error:
            raise ApiError(422, str(error), f"table[{index}]") from None
    try:
        discard = None if body.discard is None else card_from_json(body.discard, "discard")
    except NotationError as error:
        raise ApiError(422, str(error), "discard") from None
    return await _act(request, game_id, lambda session: session.play(melds, discard), "table")


@router.post("/games/{game_id}/next", response_model=GameOut, tags=["game"], responses=_ERRORS)
async def next_round(request: Request, game_id: GameId) -> dict[str, Any]:
    """Deal the next round, once a round is over."""
    return await _act(request, game_id, lambda session: session.next_round(), "phase")
