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
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from rami.cards import Card
from rami.errors import NotationError, RamiError
from rami.game.actions import GameInternalError, IllegalActionError, card_from_json
from rami.game.game_db import GameDatabaseError
from rami.game.levels import check_level, level_note
from rami.game.presets import GameError, GameOptions
from rami.game.session import HUMAN, GameSession, NotAskedError
from rami.game.state import PHASES, PLAY
from rami.lang import Language
from rami.rules import get_ruleset
from rami.service.errors import ApiError, log, notation_error
from rami.service.game_schemas import (
    ERRORS,
    MAX_MELD_CARDS,
    ClaimRequest,
    DrawRequest,
    GameOut,
    HintOut,
    HintRequest,
    NewGameRequest,
    NextRequest,
    PlayRequest,
)
from rami.service.game_store import GameStore, database_path, open_database

router = APIRouter()

#: Seconds of solver time a hint may take.
HINT_TIME_LIMIT = 2.0

GameId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,40}$", description="The game's id")]
LangQuery = Annotated[
    Language, Query(description="The language of the events' text and moves (en or fr)")
]
SinceQuery = Annotated[
    int | None,
    Query(
        ge=0,
        description="Log entries from this one (an action: those it brought by default; a "
        "retried action answered already: the last 50)",
    ),
]


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
    notes = (level_note(level, session.rules, language) for level in session.levels)
    return {
        "id": game_id,
        **session.to_json(since, language),
        "notes": list(dict.fromkeys(filter(None, notes))),
        "decisions": session.decisions,
    }


def _check_targets(rules: str, levels: list[str]) -> None:
    """Refuse now a level the preset cannot seat (rami.game.levels.check_level: a target Elo
    with no measured ladder, the look-ahead at another table than its own), naming the bot,
    rather than at the bot's first turn."""
    try:
        ruleset = get_ruleset(rules)
    except RamiError as error:  # an unknown ruleset
        raise ApiError(422, str(error), "rules") from None
    for index, level in enumerate(levels):
        try:
            check_level(level, ruleset, 1 + len(levels))
        except GameError as error:
            raise ApiError(422, str(error), f"bots[{index}]") from None


async def _act(
    request: Request,
    game_id: str,
    act: Callable[[GameSession], None],
    field_name: str,
    language: Language,
    seen: tuple[int | None, int | None] = (None, None),
) -> dict[str, Any]:
    """Apply one answer of the person, under the game's lock and off the event loop (the bots
    that play next may ask the solver), and store it before answering; the log returned
    starts at the answer (or at ``since``). ``seen``: the client's count of decisions and its
    ``since``; a count behind the game's is a retry of an answered request, answered with the
    game as it stands and not applied again."""
    decisions, asked_since = seen
    store = _store(request)
    entry = await store.entry(game_id)
    async with entry.lock:
        await store.refresh(game_id, entry)
        session = entry.session
        if decisions is not None and decisions < session.decisions:
            return _out(game_id, session, asked_since, language)
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
        return _out(game_id, session, since if asked_since is None else asked_since, language)


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
    "responses": ERRORS,
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
    request: Request,
    game_id: GameId,
    body: DrawRequest,
    lang: LangQuery = Language.EN,
    since: SinceQuery = None,
) -> dict[str, Any]:
    """Draw from the stock or the discard pile, where the preset lets you choose."""
    seen = (body.decisions, since)
    return await _act(
        request, game_id, lambda session: session.draw(body.source), "source", lang, seen
    )


@router.post("/games/{game_id}/claim", **_ROUTE)
async def claim(
    request: Request,
    game_id: GameId,
    body: ClaimRequest,
    lang: LangQuery = Language.EN,
    since: SinceQuery = None,
) -> dict[str, Any]:
    """Rami fou: take the last discard out of turn (with a penalty card), or let it go."""
    seen = (body.decisions, since)
    return await _act(
        request, game_id, lambda session: session.claim(body.take), "take", lang, seen
    )


@router.post("/games/{game_id}/play", **_ROUTE)
async def play(
    request: Request,
    game_id: GameId,
    body: PlayRequest,
    lang: LangQuery = Language.EN,
    since: SinceQuery = None,
) -> dict[str, Any]:
    """Your turn: the table after it and the discard. The referee judges it; a refused turn is
    a 422 with its reasons in ``problems``, and nothing changes (try again)."""
    melds = _melds(body.table)
    try:
        discard = None if body.discard is None else card_from_json(body.discard, "discard")
    except NotationError as error:
        raise ApiError(422, str(error), "discard") from None
    seen = (body.decisions, since)
    return await _act(
        request, game_id, lambda session: session.play(melds, discard), "table", lang, seen
    )


@router.post("/games/{game_id}/next", **_ROUTE)
async def next_round(
    request: Request,
    game_id: GameId,
    body: NextRequest | None = None,
    lang: LangQuery = Language.EN,
    since: SinceQuery = None,
) -> dict[str, Any]:
    """Deal the next round, once a round is over."""
    seen = (None if body is None else body.decisions, since)
    return await _act(request, game_id, lambda session: session.next_round(), "phase", lang, seen)


@router.post("/games/{game_id}/hint", response_model=HintOut, tags=["game"], responses=ERRORS)
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
