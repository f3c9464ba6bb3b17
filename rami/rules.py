"""Rulesets as frozen data: one preset per system of docs/rules.md, never a fork of the code."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rami.errors import UnknownRulesetError


class TableJoker(Enum):
    """What a joker already on the table may do (docs/rules.md, row "joker on the table")."""

    FREE = "moves freely in rearrangements, never returns to a hand"
    REPLACE_AND_RELAY = (
        "leaves its meld only when the card it stands for replaces it, and must be laid again "
        "in the same turn"
    )
    STAYS = "stays where it is"
    SWAP_TO_HAND = "swapped by the card it stands for, goes to the hand"
    SWAP_AND_RELAY = (
        "swapped by the card it stands for (after opening), must be laid again in the same turn"
    )


class GoingOut(Enum):
    PLACE = "place the last card"
    DISCARD = "discard the last card"
    PLACE_OR_DISCARD = "place or discard the last card"


@dataclass(frozen=True)
class Ruleset:
    """Every parameter that differs between presets (docs/rules.md)."""

    name: str
    title: str
    seed: str
    jokers: int
    cards_dealt: int
    discard: bool
    rearrangement: bool
    table_joker: TableJoker
    opening_points: int
    opening_pure_run: bool
    opening_any_meld: bool
    min_real_cards: int
    naturals_at_least_jokers: bool
    ace_high: bool
    joker_penalty: int
    unopened_flat_penalty: int | None
    rami_sec_flat_penalty: int | None
    going_out: GoingOut
    game_end: str
    tiles: bool = False
    #: Café Rummy: a joker is never discarded except as the last card (discarding presets only).
    joker_kept_until_last: bool = False
    #: Decision 8: the card just taken from the discard pile is not discarded this turn
    #: (discarding presets only).
    taken_discard_locked: bool = False
    open_and_rearrange_same_turn: bool = False

    def __post_init__(self) -> None:
        if not self.discard:
            for name in DISCARD_ONLY:
                if getattr(self, name):
                    raise ValueError(f"{self.name}: {name} needs a discard pile")

    @property
    def max_run_length(self) -> int:
        return 13

    @property
    def top_rank(self) -> int:
        """Highest position a run may reach: 14 is the ace above the king."""
        return 14 if self.ace_high else 13

    def card_penalty(self, rank: int) -> int:
        """Hand penalty of one card of ``rank`` (0 = joker)."""
        if rank == 0:
            return self.joker_penalty
        if self.tiles:
            return rank
        if rank == 1:
            return 11
        return min(rank, 10)

    def opening_value(self, position_rank: int) -> int:
        """Opening points of a card standing at ``position_rank`` (1..14, 14 = high ace)."""
        if self.tiles:
            return position_rank
        if position_rank == 1:
            return 1
        if position_rank == 14:
            return 11
        return min(position_rank, 10)

    @property
    def option_string(self) -> str:
        base = PRESETS[self.name]
        changed = [
            f"{field}={_format_option(getattr(self, field))}"
            for field in OPTIONS
            if getattr(self, field) != getattr(base, field)
        ]
        return self.name + (f"[{','.join(changed)}]" if changed else "")

    def __str__(self) -> str:
        return self.option_string

    def describe(self) -> dict[str, object]:
        """Every parameter as plain data (for ``rami rules --json``)."""
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name in DISCARD_ONLY and not self.discard:
                value = None  # does not apply: there is no discard pile
            out[field.name] = value.value if isinstance(value, Enum) else value
        out["name"] = self.option_string
        return out


#: Parameters about the discard, which do not apply (``None`` in :meth:`Ruleset.describe`) to
#: a preset without a discard pile.
DISCARD_ONLY = ("joker_kept_until_last", "taken_discard_locked")


def _format_option(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: Seed 001: the game ends after the round in which a player reaches the threshold.
_BFMANIA_END = (
    "at the end of the round in which a player reaches 250 (500, 1000), lowest wins; "
    "a tie at the top is a draw"
)

#: Keyword arguments every preset shares (a preset overrides some with ``{**_COMMON, ...}``).
_COMMON: dict[str, Any] = dict(
    cards_dealt=13, ace_high=True, min_real_cards=1, naturals_at_least_jokers=False
)

PRESETS: dict[str, Ruleset] = {
    preset.name: preset
    for preset in (
        Ruleset(
            name="rami-chinois",
            title="Rami chinois (rami voleur)",
            seed="000",
            jokers=4,
            discard=False,
            rearrangement=True,
            table_joker=TableJoker.FREE,
            opening_points=0,
            opening_pure_run=True,
            opening_any_meld=False,
            joker_penalty=50,
            unopened_flat_penalty=None,
            rami_sec_flat_penalty=None,
            going_out=GoingOut.PLACE,
            game_end="a player reaches 100, lowest wins",
            **_COMMON,
        ),
        Ruleset(
            name="rami-fou",
            title="Rami fou",
            seed="003",
            jokers=4,
            discard=True,
            rearrangement=True,
            table_joker=TableJoker.REPLACE_AND_RELAY,
            opening_points=51,
            opening_pure_run=False,
            opening_any_meld=False,
            joker_penalty=20,
            unopened_flat_penalty=100,
            rami_sec_flat_penalty=200,
            going_out=GoingOut.DISCARD,
            game_end="a player reaches 500, that player loses",
            taken_discard_locked=True,
            **_COMMON,
        ),
        Ruleset(
            name="rami-51",
            title="Rami 51",
            seed="004",
            jokers=4,
            discard=True,
            rearrangement=False,
            table_joker=TableJoker.STAYS,
            opening_points=51,
            opening_pure_run=True,
            opening_any_meld=False,
            joker_penalty=20,
            unopened_flat_penalty=100,
            rami_sec_flat_penalty=None,
            going_out=GoingOut.DISCARD,
            game_end="not stated by the seed (docs/rules.md): a player reaches 500, lowest wins",
            taken_discard_locked=True,
            **{**_COMMON, "cards_dealt": 14},
        ),
        Ruleset(
            name="bfmania-51",
            title="Rami 51 (BFmania)",
            seed="001",
            jokers=4,
            discard=True,
            rearrangement=False,
            table_joker=TableJoker.SWAP_TO_HAND,
            opening_points=51,
            opening_pure_run=True,
            opening_any_meld=False,
            joker_penalty=20,
            unopened_flat_penalty=None,
            rami_sec_flat_penalty=None,
            going_out=GoingOut.PLACE_OR_DISCARD,
            game_end=_BFMANIA_END,
            taken_discard_locked=True,
            **{**_COMMON, "min_real_cards": 2},
        ),
        Ruleset(
            name="bfmania-30",
            title="Rami 30 (BFmania)",
            seed="001",
            jokers=4,
            discard=True,
            rearrangement=False,
            table_joker=TableJoker.SWAP_TO_HAND,
            opening_points=30,
            opening_pure_run=False,
            opening_any_meld=False,
            joker_penalty=20,
            unopened_flat_penalty=None,
            rami_sec_flat_penalty=None,
            going_out=GoingOut.PLACE_OR_DISCARD,
            game_end=_BFMANIA_END,
            taken_discard_locked=True,
            **{**_COMMON, "min_real_cards": 2},
        ),
        Ruleset(
            name="cafe-rummy",
            title="Café Rummy",
            seed="002",
            jokers=6,
            discard=True,
            rearrangement=False,
            table_joker=TableJoker.SWAP_AND_RELAY,
            opening_points=0,
            opening_pure_run=False,
            opening_any_meld=True,
            joker_penalty=25,
            unopened_flat_penalty=None,
            rami_sec_flat_penalty=None,
            going_out=GoingOut.DISCARD,
            game_end=(
                "a convention fixed in advance: a number of rounds, or a points ceiling, "
                "e.g. 500, at which a player is eliminated"
            ),
            joker_kept_until_last=True,
            taken_discard_locked=True,
            **{**_COMMON, "min_real_cards": 2, "naturals_at_least_jokers": True},
        ),
        Ruleset(
            name="rummikub",
            title="Rummikub (tiles written as cards)",
            seed="docs/rules.md",
            jokers=2,
            discard=False,
            rearrangement=True,
            table_joker=TableJoker.FREE,
            opening_points=30,
            opening_pure_run=False,
            opening_any_meld=False,
            joker_penalty=30,
            unopened_flat_penalty=None,
            rami_sec_flat_penalty=None,
            going_out=GoingOut.PLACE,
            game_end=(
                "a number of rounds agreed in advance (default 1); each round the others "
                "score minus their tiles left (joker 30), the winner plus their total"
            ),
            tiles=True,
            **{**_COMMON, "cards_dealt": 14, "ace_high": False},
        ),
    )
}

DEFAULT_RULES = PRESETS["rami-chinois"]

#: Fields a preset name may override, e.g. ``rami-chinois[jokers=0]``.
OPTIONS: dict[str, type] = {
    "jokers": int,
    "opening_pure_run": bool,
    "open_and_rearrange_same_turn": bool,
}

_NAME_RE = re.compile(r"([a-z0-9-]+)(?:\[(.*)\])?")


def _parse_option_value(name: str, raw: str, kind: type) -> object:
    if kind is bool:
        lowered = raw.strip().lower()
        if lowered in ("true", "yes", "1"):
            return True
        if lowered in ("false", "no", "0"):
            return False
        raise UnknownRulesetError(f"option {name!r} takes true or false, got {raw!r}")
    try:
        return int(raw)
    except ValueError:
        raise UnknownRulesetError(f"option {name!r} takes a whole number, got {raw!r}") from None


def get_ruleset(spec: str | Ruleset) -> Ruleset:
    """Look a preset up by name, with optional overrides: ``rami-chinois[jokers=0]``."""
    if isinstance(spec, Ruleset):
        return spec
    match = _NAME_RE.fullmatch(spec.strip().lower())
    if match is None or match.group(1) not in PRESETS:
        raise UnknownRulesetError(f"unknown ruleset {spec!r}; known presets: {', '.join(PRESETS)}")
    preset = PRESETS[match.group(1)]
    if not match.group(2):
        return preset
    changes: dict[str, Any] = {}
    for item in match.group(2).split(","):
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or name not in OPTIONS:
            raise UnknownRulesetError(
                f"unknown option {item.strip()!r} in {spec!r}; options: {', '.join(OPTIONS)}"
            )
        if name in changes:
            raise UnknownRulesetError(f"option {name!r} is given twice in {spec!r}")
        changes[name] = _parse_option_value(name, raw, OPTIONS[name])
    jokers = changes.get("jokers", preset.jokers)
    allowed_jokers = {"rami-chinois": (0, 4)}.get(preset.name, (preset.jokers,))
    if jokers not in allowed_jokers:
        raise UnknownRulesetError(
            f"{preset.name} is played with {' or '.join(map(str, allowed_jokers))} jokers, "
            f"not {jokers!r}"
        )
    if "opening_pure_run" in changes and preset.name != "bfmania-51":
        raise UnknownRulesetError("option 'opening_pure_run' is a table option of bfmania-51 only")
    return dataclasses.replace(preset, **changes)
