"""Request and response bodies: what FastAPI validates and what the OpenAPI document shows.

Positions are taken as raw JSON and parsed by :mod:`rami.notation` (so its messages, which name
the field at fault, reach the client); their schema here is documentation only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    WithJsonSchema,
)

CARD_SCHEMA: dict[str, Any] = {
    "type": "string",
    "description": "A card: rank (A 2-9 T/10 J Q K) and suit (S H D C or ♠ ♥ ♦ ♣), or * (joker)",
    "examples": ["7H", "TD", "*"],
}
MELD_SCHEMA: dict[str, Any] = {
    "description": (
        "A meld: its cards in order (jokers where they stand), the same as one string, or "
        '{"kind": "set", "cards": [...]} where the kind cannot be inferred'
    ),
    "anyOf": [
        {"type": "array", "items": CARD_SCHEMA, "minItems": 1},
        {"type": "string", "examples": ["7H 8H 9H", "set: 7H * *"]},
        {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "enum": ["run", "set"]},
                "cards": {"type": "array", "items": CARD_SCHEMA, "minItems": 1},
            },
            "required": ["kind", "cards"],
            "additionalProperties": False,
        },
    ],
}
POSITION_SCHEMA: dict[str, Any] = {
    "title": "Position",
    "description": (
        "A position in the JSON form of docs/notation.md (or the one-line text notation as a "
        "string, e.g. '7H 8H 9H | QS QD QC / TH JS / rami-chinois opened')"
    ),
    "anyOf": [
        {
            "type": "object",
            "properties": {
                "rules": {"type": "string", "default": "rami-chinois"},
                "table": {"type": "array", "items": MELD_SCHEMA, "default": []},
                "hand": {"type": "array", "items": CARD_SCHEMA, "default": []},
                "opened": {"type": "boolean", "default": False},
                "taken_discard": {"anyOf": [CARD_SCHEMA, {"type": "null"}]},
            },
            "additionalProperties": False,
        },
        {"type": "string"},
    ],
    "examples": [
        {
            "rules": "rami-chinois",
            "table": [
                ["3H", "4H", "5H", "6H", "7H", "8H", "9H"],
                ["QS", "QD", "QC"],
                ["5C", "6C", "7C"],
            ],
            "hand": ["6H", "QH", "8C", "5D", "5S", "KD"],
            "opened": True,
        }
    ],
}

PositionField = Annotated[Any, WithJsonSchema(POSITION_SCHEMA)]
MeldList = Annotated[list[Any], WithJsonSchema({"type": "array", "items": MELD_SCHEMA})]
CardList = Annotated[list[Any], WithJsonSchema({"type": "array", "items": CARD_SCHEMA})]
CardOrNull = Annotated[Any, WithJsonSchema({"anyOf": [CARD_SCHEMA, {"type": "null"}]})]
TimeLimit = Annotated[
    StrictFloat | None,
    Field(
        gt=0,
        allow_inf_nan=False,
        description="Seconds the solver may search (capped to the server maximum; "
        "default: the server default)",
    ),
]
Objective = Annotated[
    Literal["points", "cards"],
    Field(description="What comes first: least hand penalty ('points') or most cards played"),
]


Lang = Annotated[
    Literal["en", "fr"],
    Field(
        description="The cards' notation in the request and the language of the texts in "
        "the answer: 'en' (KH, TD) or 'fr' (R♥ or RC, 10♦ or 10K). Card codes in "
        "the answer are the contract's (KH) whatever the language"
    ),
]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PositionRequest(_Body):
    position: PositionField
    lang: Lang = "en"


class SolveRequest(_Body):
    position: PositionField
    objective: Objective = "points"
    min_moves: StrictBool = Field(True, description="Minimise the table cards moved (level 3)")
    time_limit: TimeLimit = None
    lang: Lang = "en"


class HintRequest(_Body):
    position: PositionField
    level: Annotated[StrictInt, Field(ge=1, le=3)] = Field(
        1, description="1: what is achievable, 2: the first key move, 3: the full solution"
    )
    objective: Objective = "points"
    time_limit: TimeLimit = None
    lang: Lang = "en"


class TurnRequest(_Body):
    position: PositionField
    table_after: MeldList = Field(description="The whole table after the turn")
    played: CardList = Field(description="The cards that left the hand for the table")
    discard: CardOrNull = Field(None, description="The card discarded, where the preset discards")
    lang: Lang = "en"


# ------------------------------------------------------------------ responses
#
# What the service sends, exactly: every endpoint declares one of these as its response model,
# so /openapi.json describes every field, and every field is always present (null where it does
# not apply). Unknown keys are dropped at run time (never a 500), and tests check that the
# library's JSON has no key these models lack.


class _Out(BaseModel):
    model_config = ConfigDict(
        extra="ignore",
        json_schema_extra={"additionalProperties": False},
        json_schema_serialization_defaults_required=True,
    )


class ErrorOut(_Out):
    error: str = Field(description="What is wrong, in one sentence (at most 500 characters)")
    field: str | None = Field(description="The request field at fault: position.table[2][1]")
    problems: list[str] = Field(
        description="Every problem, when several (an impossible position); else empty"
    )


class HealthOut(_Out):
    status: Literal["ok"]
    version: str


class PresetOut(_Out):
    name: str
    title: str


class RulesetOut(_Out):
    """Every parameter of a ruleset (``Ruleset.describe()``, as ``rami rules --json``)."""

    name: str = Field(description="The preset and its changed options: rami-chinois[jokers=0]")
    title: str
    seed: str
    jokers: int
    cards_dealt: int
    discard: bool
    rearrangement: bool
    table_joker: str
    opening_points: int
    opening_pure_run: bool
    opening_any_meld: bool
    min_real_cards: int
    naturals_at_least_jokers: bool
    ace_high: bool
    joker_penalty: int
    unopened_flat_penalty: int | None
    rami_sec_flat_penalty: int | None
    going_out: str
    game_end: str
    tiles: bool
    joker_kept_until_last: bool | None = Field(description="null without a discard pile")
    taken_discard_locked: bool | None = Field(description="null without a discard pile")
    open_and_rearrange_same_turn: bool


class ValidateOut(_Out):
    valid: bool
    problems: list[str]
    position: str = Field(description="The position in the text notation")
    rules: str
    melds: int
    table_cards: int
    hand_cards: int
    opened: bool
    hand_penalty: int


class TurnOut(_Out):
    legal: bool
    problems: list[str]
    hand_after: list[str]
    penalty_after: int
    cards_moved: int
    opened_after: bool


class MeldOut(_Out):
    """A meld as the service sends it: always this one shape."""

    kind: Literal["run", "set"]
    cards: list[str] = Field(description="Its cards in order, jokers where they stand")


class MoveOut(_Out):
    model_config = ConfigDict(populate_by_name=True)

    kind: str = Field(description="split, move, add, lay, replace, discard, ...")
    cards: list[str]
    from_: int | None = Field(alias="from", description="Meld number the cards leave, or null")
    to: int | None = Field(description="Meld number the cards join, or null")
    text: str


class SolutionOut(_Out):
    """A solution: the data of ``rami solve --json``, melds as ``{"kind", "cards"}``."""

    status: Literal["optimal", "feasible"]
    rules: str
    objective: Literal["points", "cards"]
    min_moves: bool
    table: list[MeldOut] = Field(description="The whole table after the turn")
    played: list[str]
    hand: list[str]
    opened: bool
    penalty_before: int
    penalty_after: int
    cards_played: int
    cards_moved: int
    moves: list[MoveOut]
    discard: str | None = Field(description="The card discarded, for presets that discard")
    message: str
    ms: float
    bounds: dict[str, int] | None = Field(
        description="Proved bounds when the time limit cut the search short, else null"
    )
    stopped_by_clock: bool = Field(
        description="The wall clock of the time limit (a loaded machine), not the solver's "
        "deterministic limit, ended the search: such an answer may differ between runs"
    )


class HintLevel1Out(_Out):
    level: Literal[1]
    hint: str
    can_open: bool
    cards_in_hand: int
    cards_played: int
    cards_left: int
    goes_out: bool
    penalty_before: int
    penalty_after: int
    points_shed: int


class HintLevel2Out(_Out):
    level: Literal[2]
    hint: str
    move: MoveOut | None = Field(description="The key move (null when nothing can be played)")
    move_number: int | None
    moves_total: int


class HintLevel3Out(_Out):
    level: Literal[3]
    hint: str = Field(description="The whole solution as rami solve prints it")
    solution: SolutionOut


HintOut = Annotated[HintLevel1Out | HintLevel2Out | HintLevel3Out, Field(discriminator="level")]


class PositionOut(_Out):
    """A position in the JSON form of docs/notation.md, melds as ``{"kind", "cards"}``."""

    rules: str
    table: list[MeldOut]
    hand: list[str]
    opened: bool
    taken_discard: str | None


class GoalOut(_Out):
    kind: Literal["empty-hand", "best-score"]
    penalty_after: int = Field(description="The penalty the best play leaves in hand")
    cards_played: int | None = Field(description="Cards the best play lays")
    shed: int | None = Field(description="Points the best play sheds")
    text: str


class PuzzleOut(_Out):
    """A puzzle as players see it (docs/puzzles.md, the puzzle JSON contract): no solution,
    no signature, no difficulty details."""

    date: str = Field(description="The day of the daily puzzle")
    id: str
    kind: Literal["empty-hand", "best-score"]
    rules: str
    position: PositionOut
    goal: GoalOut
    tier: str
    themes: list[str] = Field(description="What the solution does (split-run, ...)")
    theme_names: list[str] = Field(
        description="The themes as a player reads them, in the language asked (in English the "
        "tags themselves)"
    )


class CheckOut(_Out):
    id: str
    solved: bool
    intended: bool
    legal: bool
    reasons: list[str]
    penalty_after: int | None
    cards_played: int | None
