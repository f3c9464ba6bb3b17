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
            "table": [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["QS", "QD", "QC"],
                      ["5C", "6C", "7C"]],
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


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PositionRequest(_Body):
    position: PositionField


class SolveRequest(_Body):
    position: PositionField
    objective: Objective = "points"
    min_moves: StrictBool = Field(True, description="Minimise the table cards moved (level 3)")
    time_limit: TimeLimit = None


class HintRequest(_Body):
    position: PositionField
    level: Annotated[StrictInt, Field(ge=1, le=3)] = Field(
        1, description="1: what is achievable, 2: the first key move, 3: the full solution"
    )
    objective: Objective = "points"
    time_limit: TimeLimit = None


class TurnRequest(_Body):
    position: PositionField
    table_after: MeldList = Field(description="The whole table after the turn")
    played: CardList = Field(description="The cards that left the hand for the table")
    discard: CardOrNull = Field(None, description="The card discarded, where the preset discards")


# ------------------------------------------------------------------ responses (documentation)


class ErrorOut(BaseModel):
    error: str = Field(description="What is wrong, in one sentence")
    field: str | None = Field(description="The request field at fault: position.table[2][1]")
    problems: list[str] = Field(default_factory=list, description="Every problem, when several")


class HealthOut(BaseModel):
    status: Literal["ok"]
    version: str


class PresetOut(BaseModel):
    name: str
    title: str


class ValidateOut(BaseModel):
    valid: bool
    problems: list[str]
    position: str = Field(description="The position in the text notation")
    rules: str
    melds: int
    table_cards: int
    hand_cards: int
    opened: bool
    hand_penalty: int


class TurnOut(BaseModel):
    legal: bool
    problems: list[str]
    hand_after: list[str]
    penalty_after: int
    cards_moved: int
    opened_after: bool


class MoveOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    kind: str
    cards: list[str]
    from_: int | None = Field(alias="from")
    to: int | None
    text: str


class SolutionOut(BaseModel):
    """``Solution.to_json()``, the same as ``rami solve --json``."""

    status: Literal["optimal", "feasible"]
    rules: str
    objective: Literal["points", "cards"]
    min_moves: bool
    table: list[Any]
    played: list[str]
    hand: list[str]
    opened: bool
    penalty_before: int
    penalty_after: int
    cards_played: int
    cards_moved: int
    moves: list[MoveOut]
    message: str
    ms: float
    bounds: dict[str, int] | None = Field(
        None, description="Proved bounds when the time limit cut the search short"
    )


class HintOut(BaseModel):
    """``Hint.to_json()`` of :mod:`rami.hints`, the same as ``rami hint --json``."""

    model_config = ConfigDict(extra="allow")

    level: int
    hint: str
