"""The game record (decision 13) and its replay.

A record is one JSON object per game, self-contained: the format and version, the rules (the
ruleset string), the options, the seed, the players, and for each round the deal (every hand,
the turned card, the stock top first), every action in order, how the round ended, the scores
and the totals; then the final totals and the winners. docs/game.md shows one.

:func:`replay` plays every round again from its deal through the same engine, the recorded
actions standing in for the players: every turn is judged again by the referee, every draw must
give the recorded card, every card is accounted for after each step, and the round ends, scores
and game result must come out as recorded. The deal and the reshuffles are also checked against
the seed (``"shuffle": "sha256-streams-v1"``). Reading records and checking their shape is
:mod:`rami.game.record_io`, one round's replay :mod:`rami.game.record_round`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rami.errors import RamiError
from rami.game.match import RECORD_FORMAT, RECORD_VERSION, SHUFFLE, first_seat
from rami.game.presets import GameOptions, GameRules, check_players, game_rules
from rami.game.record_io import (
    MAX_RECORD_BYTES,
    NOT_BOTS,
    OPTIONAL_FIELDS,
    PLAYER_FIELDS,
    RECORD_FIELDS,
    ROUND_FIELDS,
    RecordError,
    check_fields,
    check_player_entries,
    decode_record,
    field_of,
    game_label,
    read_records,
    record_file,
    same,
    whole_number,
)
from rami.game.record_round import PlayWatcher, RecordedActions, replay_round, round_start
from rami.game.scoring import game_after_round
from rami.rules import Ruleset, get_ruleset

#: rami.game.record_io's and rami.game.record_round's names stay importable from here.
__all__ = [
    "MAX_RECORD_BYTES",
    "NOT_BOTS",
    "OPTIONAL_FIELDS",
    "PLAYER_FIELDS",
    "RECORD_FIELDS",
    "ROUND_FIELDS",
    "PlayWatcher",
    "RecordError",
    "RecordedActions",
    "ReplaySummary",
    "decode_record",
    "game_label",
    "read_records",
    "record_file",
    "replay",
    "same",
]


@dataclass
class ReplaySummary:
    rounds: int
    actions: int
    turns: int


def replay(record: Any, label: str = "game", on_play: PlayWatcher | None = None) -> ReplaySummary:
    """Replay one record; RecordError names the round, turn and action at fault."""
    try:
        return _replay(record, label, on_play)
    except RecordError as error:
        if not error.game:
            error = RecordError(
                error.message, game=label, round=error.round, turn=error.turn, action=error.action
            )
        raise error from None
    except RamiError as error:
        raise RecordError(str(error), game=label) from None


def _replay(record: Any, label: str, on_play: PlayWatcher | None = None) -> ReplaySummary:
    game = _read_header(record)
    players = field_of(record, "players", list)
    check_player_entries(players)
    count = len(players)
    check_players(game.rules, count, " in the record")
    whole = game.whole
    rounds = field_of(record, "rounds", list)
    active = [True] * count
    totals = [0] * count
    first = first_seat(game.seed, count) if game.seeded else None
    actions = turns = 0
    outcome = None
    for index, entry in enumerate(rounds):
        number = index + 1
        if outcome is not None:
            raise RecordError(
                f"the game was over after round {index}, yet round {number} is recorded"
            )
        if not isinstance(entry, dict):
            raise RecordError("a round is a JSON object", round=number)
        try:
            seed = game.seed if game.seeded else None
            first, dealt = round_start(game.rules, seed, entry, number, first, active)
            played = replay_round(
                game.rules,
                game.options,
                dealt,
                first,
                active,
                number,
                totals,
                entry,
                seed,
                on_play,
            )
        except RecordError as error:
            if error.round is None:
                raise RecordError(
                    error.message, round=number, turn=error.turn, action=error.action
                ) from None
            raise
        actions += len(played.events)
        turns += played.turns
        assert played.result is not None
        totals = [total + score for total, score in zip(totals, played.result.scores, strict=True)]
        if not same(entry["totals"], totals):
            raise RecordError(
                f"totals recorded {entry.get('totals')}, recomputed {totals}", round=number
            )
        outcome = game_after_round(whole, game.options, totals, active, number)
        if not same(entry["eliminated"], list(outcome.eliminated)):
            raise RecordError(
                f"eliminated recorded {entry.get('eliminated')}, recomputed "
                f"{list(outcome.eliminated)}",
                round=number,
            )
        for seat in outcome.eliminated:
            active[seat] = False
        if not outcome.over:
            outcome = None
    if outcome is None:
        raise RecordError(f"the record stops after {len(rounds)} round(s) but the game is not over")
    for key, value in (
        ("totals", totals),
        ("winners", list(outcome.winners)),
        ("losers", list(outcome.losers)),
        ("draw", outcome.draw),
        ("end", outcome.reason),
    ):
        if not same(record.get(key), value):
            raise RecordError(f"{key} recorded {record.get(key)!r}, recomputed {value!r}")
    return ReplaySummary(len(rounds), actions, turns)


@dataclass(frozen=True)
class _Header:
    """A record's rules, options and seed, checked."""

    rules: Ruleset
    whole: GameRules
    options: GameOptions
    #: The seed (0 when the record has none).
    seed: int | str
    #: The record names its shuffle: the deals and reshuffles must be the seed's.
    seeded: bool


def _read_header(record: Any) -> _Header:
    """The record's format, fields, rules, options, seed and shuffle, checked in that order."""
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object")
    if not (
        same(record.get("format"), RECORD_FORMAT) and same(record.get("version"), RECORD_VERSION)
    ):
        raise RecordError(
            f"not a {RECORD_FORMAT} record of version {RECORD_VERSION} "
            f"(format {record.get('format')!r}, version {record.get('version')!r})"
        )
    check_fields(record, RECORD_FIELDS, "record", OPTIONAL_FIELDS)
    rules = get_ruleset(field_of(record, "rules", str))
    whole = game_rules(rules)
    options = GameOptions.from_json(field_of(record, "options", dict)).resolved(rules)
    raw_seed = record.get("seed")
    if "seed" in record and (not isinstance(raw_seed, int | str) or isinstance(raw_seed, bool)):
        raise RecordError(f"seed: expected a whole number or a string, got {raw_seed!r}")
    seeded = "shuffle" in record
    if seeded and not same(record["shuffle"], SHUFFLE):
        raise RecordError(
            f"shuffle: unknown shuffle {record['shuffle']!r} (this version deals with {SHUFFLE!r})"
        )
    if seeded and "seed" not in record:
        raise RecordError(f"the record names its shuffle ({SHUFFLE!r}) but no seed")
    if "game" in record:
        whole_number(record["game"], "game")
    seed: int | str = raw_seed if isinstance(raw_seed, int | str) else 0
    return _Header(rules, whole, options, seed, seeded)
