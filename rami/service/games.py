"""``/games``: a game against bots held by the server, played one request at a time (the page's
game mode, docs/page.md and docs/service.md).

A router the app includes (``rami.service.app``). The game is a
:class:`rami.game.session.GameSession`: the library deals, runs the bots and judges every turn
of the person (seat 0) with the referee; this module only reads the requests and writes what
seat 0 sees, in the language asked (``lang``). The other hands and the stock never leave the
server (a bot's stock draw is logged without its card), so the page cannot show them, however
it is changed.

Games are kept by :mod:`rami.service.game_store`: their records in a SQLite database (a
decision is answered once it is stored), live sessions in a bounded cache of each worker; any
worker answers for any game. ``POST /games/{id}/hint`` answers with
:func:`rami.game.advice.advise` and never changes the game.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr, StringConstraints

from rami.cards import Card
from rami.errors import NotationError, RamiError
from rami.game.actions import GameInternalError, IllegalActionError, card_from_json
from rami.game.game_db import GameDatabaseError
from rami.game.levels import LEVEL_PATTERN, check_level, level_note
from rami.game.presets import GameError, GameOptions
from rami.game.session import HUMAN, GameSession, NotAskedError
from rami.game.state import PHASES, PLAY
from rami.lang import Language
from rami.rules import get_ruleset
from rami.service.errors import ApiError, log, notation_error
from rami.service.game_store import GameStore, database_path, open_database

router = APIRouter()

#: A meld list the page sends: at most this many melds of at most this many cards.
MAX_MELDS = 60
MAX_MELD_CARDS = 30
#: Seconds of solver time a hint may take.
HINT_TIME_LIMIT = 2.0

#: A named level or a target Elo (rami.game.levels).
Level = Annotated[str, StringConstraints(pattern=LEVEL_PATTERN)]
GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,40}$", description="The game's id")]
LangQuery = Annotated[
    Language, Query(description="The language of the events' text and moves (en or fr)")
]

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {
        "model": __import__("rami.service.schemas", fromlist=["ErrorOut"]).ErrorOut,
        "description": text,
    }
    for status, text in (
        (400, "Malformed JSON"),
        (
            404,
            "No such game (never made; on a server without a games database, also one "
            "dropped: unused too long, or to make room)",
        ),
        (
            409,
            "Not what the game asks now (a draw while a play is asked, say), or another "
            "request on the game answered first (ask for the game again)",
        ),
        (413, "Request body too large"),
        (415, "Body not sent as application/json"),
        (422, "Bad input, or a turn the referee refuses: `problems` gives its reasons"),
        (503, "The games database is unavailable (nothing changed)"),
    )
}


# ------------------------------------------------------------------------------ bodies


class NewGameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: StrictStr = Field(default="rami-chinois", description="A preset of GET /rulesets")
    bots: list[Level] = Field(
        default=["beginner"],
        min_length=1,
        max_length=5,
        description="One level per bot; you are seat 0, the bots 1, 2... "
        "A level is named, or a target Elo elo:N (only for "
        "a preset whose levels were measured: else a 422)",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**53,
        description="The game's seed (the same seed deals the same game); "
        "a random one when left out",
    )
    target: int | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="The points that end the game (the preset's default)",
    )
    max_rounds: int | None = Field(
        default=None, ge=1, le=100, description="End the game after this many rounds at most"
    )
    lang: Language = Field(
        default=Language.EN, description="The language of the events' text and moves (en or fr)"
    )


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
        "their order (an emptied one as []), then your new melds",
    )
    discard: StrictStr | None = Field(default=None, description="The card you discard")


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Literal[1, 2, 3] = Field(
        default=3, description="1: a nudge, 2: the key move, 3: the whole turn"
    )
    table: list[list[StrictStr]] | None = Field(
        default=None,
        max_length=MAX_MELDS,
        description="Your working table at the play, numbered as for /play (the table's melds "
        "first, an emptied one as []); the hint starts from it when it is valid",
    )
    lang: Language = Field(default=Language.EN, description="The language of text and moves")


class HintOut(BaseModel):
    game: str = Field(description="The game's id")
    phase: Literal["draw", "claim", "play"] = Field(description="The decision advised")
    text: str = Field(description="The advice in plain words, in the language asked")
    draw: Literal["stock", "discard"] | None = Field(description="At the draw: where to draw")
    claim: bool | None = Field(description="At a claim: take (true) or pass (false)")
    table: list[list[str]] | None = Field(
        description="At the play: the table after the advised turn (level 3)"
    )
    discard: str | None = Field(description="At the play: the card to discard")
    moves: list[str] = Field(
        description="The advised turn as moves, melds numbered as the table stands"
    )


class PlayerOut(BaseModel):
    seat: int
    name: str
    level: str


class EventOut(BaseModel):
    """One entry of the game's log; the fields besides kind, round and text are those of its
    kind."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["deal", "draw", "claim", "play", "reshuffle", "round-over", "game-over"]
    round: int
    text: str = Field(description="The entry in words, in the language asked")
    seat: int | None = Field(default=None, description="Who (deal: who plays first)")
    source: Literal["stock", "discard"] | None = Field(default=None, description="draw")
    card: str | None = Field(
        default=None,
        description="draw: the card, when seen (yours, or from the discard pile); claim: the card",
    )
    penalty: str | None = Field(default=None, description="claim: your penalty card")
    played: list[str] | None = Field(default=None, description="play: the cards laid from the hand")
    discard: str | None = Field(default=None, description="play: the card discarded")
    table: list[list[str]] | None = Field(
        default=None, description="play: the table after the turn (null: the table did not change)"
    )
    took: list[str] | None = Field(
        default=None,
        description="play: the cards a bot's turn "
        "took out of melds you laid (moved to another meld, or cut "
        "off as a new one); [] on your turns",
    )
    hand_size: int | None = Field(default=None, description="play: the player's cards left")
    moves: list[str] | None = Field(
        default=None,
        description="play: the turn as moves in the "
        "solver's move language, melds numbered as the table was "
        "before the turn (new melds numbered on), the discard last",
    )
    stock_size: int | None = Field(default=None, description="reshuffle: the new stock's size")


class GameOut(BaseModel):
    id: str = Field(description="The game's id, for the other /games requests")
    rules: str
    title: str
    seed: int
    players: list[PlayerOut]
    phase: str = Field(description="What you are asked: draw, play, claim, round-over, game-over")
    to_move: int | None
    discard_rule: bool = Field(description="Does a turn end with a discard under this preset")
    going_out: str
    view: dict[str, Any] = Field(
        description="Your visible state (rami.game.View.to_json): your "
        "hand, the table, the discard pile, the others' "
        "hand sizes, the stock's size"
    )
    rounds: list[dict[str, Any]] = Field(
        description="Each round played: reason, winners, the hands laid down, scores, totals"
    )
    totals: list[int]
    result: dict[str, Any] | None = Field(description="When the game is over: totals, winners")
    events: list[EventOut] = Field(
        description="The game as the table saw it, from ?since= (the last 50 by default)"
    )
    event_count: int
    notes: list[str] = Field(
        description="What to know about the levels seated, in this preset "
        "(rami.game.levels.level_note: the expert of a preset "
        "without discards keeps its melds in the hand, say), "
        "one per note, in seat order; empty when none"
    )


# ------------------------------------------------------------------------------ the store


def _store(request: Request) -> GameStore:
    """The worker's games, opened on first use (mod:`rami.service.game_store`)."""
    store = getattr(request.app.state, "games", None)
    if store is None:
        try:
            database = open_database(database_path())
        except GameDatabaseError as error:
            log.error("games database: %s", error)
            raise ApiError(
                503, "the games database is unavailable (the reason is logged)"
            ) from None
        store = request.app.state.games = GameStore(database)
    return store


def _out(
    game_id: str, session: GameSession, since: int | None = None, language: Language = Language.EN
) -> dict[str, Any]:
    notes = (level_note(level, session.rules) for level in session.levels)
    return {
        "id": game_id,
        **session.to_json(since, language),
        "notes": list(dict.fromkeys(filter(None, notes))),
    }


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


async def _act(
    request: Request,
    game_id: str,
    act: Callable[[GameSession], None],
    field_name: str,
    language: Language,
) -> dict[str, Any]:
    """Apply one answer of the person, under the game's lock and off the event loop (the bots
    that play next may ask the solver), and store it before answering; the log returned
    starts at the answer."""
    store = _store(request)
    entry = await store.entry(game_id)
    async with entry.lock:
        await store.refresh(game_id, entry)
        session = entry.session
        since, start = len(session.log), len(session.journal)
        try:
            await asyncio.to_thread(act, session)
        except IllegalActionError as error:
            status = 409 if isinstance(error, NotAskedError) else 422
            message = (
                ("not now" if status == 409 else "the referee refuses this turn")
                + ": "
                + "; ".join(error.problems)
            )
            raise ApiError(status, message, field_name, error.problems) from None
        except GameInternalError as error:
            log.error("game %s: %s", game_id, error)
            if store.database is not None:
                store.drop(game_id)  # ahead of its record: rebuilt when asked again
            raise ApiError(500, "internal game error (a bug, logged on the server)") from None
        except NotationError as error:
            raise notation_error(error, "") from None
        await store.commit(game_id, entry, start)
        return _out(game_id, session, since, language)


def _melds(table: list[list[str]]) -> list[list[Card]]:
    """The page's melds as card lists (422 naming the meld at fault)."""
    melds = []
    for index, meld in enumerate(table):
        if len(meld) > MAX_MELD_CARDS:
            raise ApiError(
                422, f"table[{index}]: at most {MAX_MELD_CARDS} cards in a meld", f"table[{index}]"
            )
        try:
            melds.append(
                [card_from_json(card, f"table[{index}][{at}]") for at, card in enumerate(meld)]
            )
        except NotationError as error:
            raise ApiError(422, str(error), f"table[{index}]") from None
    return melds


# ------------------------------------------------------------------------------ endpoints

#: Every game endpoint answers a GameOut; an event carries the fields of its kind only.
_ROUTE: dict[str, Any] = {
    "response_model": GameOut,
    "tags": ["game"],
    "responses": _ERRORS,
    "response_model_exclude_unset": True,
}


@router.post("/games", **_ROUTE)
async def new_game(request: Request, body: NewGameRequest) -> dict[str, Any]:
    """Start a game: you (seat 0) against one bot per level, dealt from the seed. The answer is
    what you see, up to your first decision (the bots that play before you have played)."""
    _check_targets(body.rules, body.bots)
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    options = GameOptions(
        target=body.target, **({"max_rounds": body.max_rounds} if body.max_rounds else {})
    )
    try:
        session = await asyncio.to_thread(GameSession, body.rules, body.bots, seed, options)
    except GameError as error:
        raise ApiError(422, str(error), "bots" if "players" in str(error) else "target") from None
    except RamiError as error:  # an unknown ruleset
        raise ApiError(422, str(error), "rules") from None
    game_id = await _store(request).create(session, body.rules)
    return _out(game_id, session, 0, body.lang)


@router.get("/games/{game_id}", **_ROUTE)
async def get_game(
    request: Request,
    game_id: GameId,
    since: Annotated[int | None, Query(ge=0, description="Log entries from this one")] = None,
    lang: LangQuery = Language.EN,
) -> dict[str, Any]:
    """The game as you see it now."""
    store = _store(request)
    entry = await store.entry(game_id)
    async with entry.lock:
        await store.refresh(game_id, entry)
        return _out(game_id, entry.session, since, lang)


@router.post("/games/{game_id}/draw", **_ROUTE)
async def draw(
    request: Request, game_id: GameId, body: DrawRequest, lang: LangQuery = Language.EN
) -> dict[str, Any]:
    """Draw from the stock or the discard pile, where the preset lets you choose."""
    return await _act(request, game_id, lambda session: session.draw(body.source), "source", lang)


@router.post("/games/{game_id}/claim", **_ROUTE)
async def claim(
    request: Request, game_id: GameId, body: ClaimRequest, lang: LangQuery = Language.EN
) -> dict[str, Any]:
    """Rami fou: take the last discard out of turn (with a penalty card), or let it go."""
    return await _act(request, game_id, lambda session: session.claim(body.take), "take", lang)


@router.post("/games/{game_id}/play", **_ROUTE)
async def play(
    request: Request, game_id: GameId, body: PlayRequest, lang: LangQuery = Language.EN
) -> dict[str, Any]:
    """Your turn: the table after it and the discard. The referee judges it; a refused turn is
    a 422 with its reasons in ``problems``, and nothing changes (try again)."""
    melds = _melds(body.table)
    try:
        discard = None if body.discard is None else card_from_json(body.discard, "discard")
    except NotationError as error:
        raise ApiError(422, str(error), "discard") from None
    return await _act(request, game_id, lambda session: session.play(melds, discard), "table", lang)


@router.post("/games/{game_id}/next", **_ROUTE)
async def next_round(
    request: Request, game_id: GameId, lang: LangQuery = Language.EN
) -> dict[str, Any]:
    """Deal the next round, once a round is over."""
    return await _act(request, game_id, lambda session: session.next_round(), "phase", lang)


@router.post("/games/{game_id}/hint", response_model=HintOut, tags=["game"], responses=_ERRORS)
async def hint(request: Request, game_id: GameId, body: HintRequest) -> dict[str, Any]:
    """Advice for the decision the game asks of you now (rami.game.advice: the expert bot's
    choice, in plain words and as moves), from your working table when you send it and it is
    valid. It never changes the game."""
    melds = None if body.table is None else _melds(body.table)
    store = _store(request)
    entry = await store.entry(game_id)
    async with entry.lock:
        await store.refresh(game_id, entry)
        session = entry.session
        if session.phase not in PHASES or session.round.to_move != HUMAN:
            raise ApiError(
                409, f"no hint: the game asks no decision of you now ({session.phase})", "phase"
            )
        view = session.round.view(HUMAN)
        working = session.laid_out(melds) if melds is not None and view.phase == PLAY else None
    from rami.game.advice import advise

    advice = await asyncio.to_thread(
        advise,
        view,
        level=body.level,
        language=body.lang,
        working=working,
        time_limit=HINT_TIME_LIMIT,
    )
    return {**advice.to_json(), "game": game_id}
