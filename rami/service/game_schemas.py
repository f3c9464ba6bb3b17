"""The bodies and answers of ``/games`` (:mod:`rami.service.games`): what the page sends and
what it is answered, as the OpenAPI schema documents them (docs/service.md, "Games").
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, StringConstraints

from rami.game.levels import LEVEL_PATTERN
from rami.lang import Language
from rami.service.schemas import ErrorOut

#: A meld list the page sends: at most this many melds of at most this many cards.
MAX_MELDS = 60
MAX_MELD_CARDS = 30

#: A named level or a target Elo (rami.game.levels).
Level = Annotated[str, StringConstraints(pattern=LEVEL_PATTERN)]

#: The count of your decisions the client has seen (GameOut.decisions). A request whose count is
#: behind the game's was answered already (a retry after a lost answer): it is not applied
#: again, and the answer is the game as it stands.
Decisions = Annotated[
    int | None,
    Field(
        ge=0,
        description="The game's `decisions` as you last saw it: a request behind the game is "
        "not applied again (a retry after a lost answer) and is answered with the game as it "
        "stands",
    ),
]

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut, "description": text}
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


class NewGameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: StrictStr = Field(default="rami-chinois", description="A preset of GET /rulesets")
    bots: list[Level] = Field(
        default=["beginner"],
        min_length=1,
        max_length=5,
        description="One level per bot; you are seat 0, the bots 1, 2... "
        "A level is named, or a target Elo elo:N on the preset's measured ladder "
        "(docs/game.md, Levels)",
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
    decisions: Decisions = None


class ClaimRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    take: bool
    decisions: Decisions = None


class PlayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: list[list[StrictStr]] = Field(
        max_length=MAX_MELDS,
        description="The melds after your turn, as card lists: the table's melds first, in "
        "their order (an emptied one as []), then your new melds",
    )
    discard: StrictStr | None = Field(default=None, description="The card you discard")
    decisions: Decisions = None


class NextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    decisions: Decisions = None


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
    decisions: int = Field(
        description="Your answers applied so far (draws, claims, plays, next rounds): send it "
        "back with the next action so that a retried request is not applied twice"
    )
    notes: list[str] = Field(
        description="What to know about the levels seated, in this preset "
        "(rami.game.levels.level_note: the expert of a preset "
        "without discards keeps its melds in the hand, say), "
        "one per note, in seat order; empty when none"
    )
