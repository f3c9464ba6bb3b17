"""Reading game records (decision 13): one JSON object a line, decoded one line at a time within
a bound, and the checks of their shape that come before any replay (the fields of a record, a
round and a player, whole numbers, JSON equality that tells the kinds apart).

Split from :mod:`rami.game.record`, which replays records and imports its names from here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rami.errors import NotationError, RamiError
from rami.notation import (
    MAX_JSON_DEPTH,
    DuplicateKeyError,
    duplicate_key_message,
    duplicate_key_path,
    json_depth,
    unique_keys,
)
from rami.textfile import file_lines


class RecordError(RamiError):
    """A record that does not replay: the game, round and turn at fault, and why."""

    def __init__(
        self,
        message: str,
        *,
        game: str = "",
        round: int | None = None,
        turn: int | None = None,
        action: int | None = None,
    ) -> None:
        self.game, self.round, self.turn, self.action = game, round, turn, action
        where = [
            part
            for part in (
                game,
                f"round {round}" if round is not None else "",
                f"turn {turn}" if turn is not None else "",
                f"action {action}" if action is not None else "",
            )
            if part
        ]
        self.message = message
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


def game_label(record: Any, line: int | None = None) -> str:
    label = f"line {line}" if line is not None else "game"
    if isinstance(record, dict) and isinstance(record.get("game"), int):
        label += f" (game {record['game']})"
    return label


#: Bytes one record (one line) may take. Records are read one line at a time, whatever the
#: size of the file (420 Café Rummy games make some 80 MB, about 0.2 MB a game): the bound is
#: on each record, some 50 times the longest game seen.
MAX_RECORD_BYTES = 16 << 20


def read_records(source: str | Iterable[tuple[int, str]]) -> Iterator[tuple[int, Any]]:
    """(line number, decoded JSON) for each non-blank line of ``source``: a whole text, or
    numbered lines as they are read (:func:`record_file`, ``rami.cli.inputs.text_lines``),
    decoded one at a time. NotationError naming the line for malformed JSON, JSON nested
    deeper than a record can be, or an object that gives a key twice."""
    lines = enumerate(source.splitlines(), start=1) if isinstance(source, str) else source
    for number, line in lines:
        if line.strip():
            yield number, decode_record(line, number)


def decode_record(line: str, number: int) -> Any:
    """One line's JSON (NotationError ``line N: ...``, never a RecursionError)."""
    if json_depth(line) > MAX_JSON_DEPTH:
        raise NotationError(f"line {number}: JSON nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(line, object_pairs_hook=unique_keys)
    except DuplicateKeyError as error:
        loc = duplicate_key_path(line)
        raise NotationError(f"line {number}: {duplicate_key_message(error.key, loc)}") from None
    except json.JSONDecodeError as error:
        raise NotationError(
            f"line {number}: malformed JSON at column {error.colno}: {error.msg}"
        ) from None
    except (ValueError, RecursionError) as error:  # a number of more than 4,300 digits
        raise NotationError(f"line {number}: malformed JSON: {error}") from None


def record_file(
    path: str | Path, *, max_record_bytes: int = MAX_RECORD_BYTES
) -> Iterator[tuple[int, Any]]:
    """The records of a JSON-lines file, read and decoded one line at a time (the memory held
    is one record whatever the file's size); UnreadableFileError naming the file (and the
    line: InputTooLargeError for a line over ``max_record_bytes``), NotationError as
    :func:`read_records`."""
    return read_records(file_lines(path, max_line_bytes=max_record_bytes))


#: The fields of a record (the optional ones too), of each round, of a deal and of a player:
#: replay refuses any other, and any missing (docs/game.md, "The record").
RECORD_FIELDS = frozenset(
    {
        "format",
        "version",
        "rules",
        "options",
        "seed",
        "shuffle",
        "game",
        "players",
        "rounds",
        "totals",
        "winners",
        "losers",
        "draw",
        "end",
    }
)
OPTIONAL_FIELDS = frozenset({"seed", "shuffle", "game"})
ROUND_FIELDS = frozenset(
    {
        "number",
        "first",
        "active",
        "deal",
        "actions",
        "end",
        "hands",
        "scores",
        "totals",
        "eliminated",
    }
)
PLAYER_FIELDS = frozenset({"name", "level"})
#: Levels of a seat no bot played: a person (``rami play``), or a player ``play_game`` was
#: given no level for. Every other level is a bot's (:data:`rami.game.levels.LEVELS`).
NOT_BOTS = ("human", "player")


def check_fields(
    data: dict[str, Any], known: frozenset[str], what: str, optional: frozenset[str] = frozenset()
) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise RecordError(
            f"{what}: unknown field{'s' if len(unknown) > 1 else ''} "
            f"{', '.join(map(repr, unknown))}"
        )
    missing = sorted(known - optional - set(data))
    if missing:
        raise RecordError(
            f"{what}: missing field{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(repr, missing))}"
        )


def field_of(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{key}: expected {kind.__name__}, got {value!r}")
    return value


def whole_number(value: Any, what: str, *, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise RecordError(f"{what}: expected a whole number >= {low}, got {value!r}")
    return value


def same(mine: Any, theirs: Any) -> bool:
    """JSON equality that tells the kinds apart: ``true`` is not ``1``, ``1.0`` is not ``1``
    (Python's ``==`` says they are), and an array is a list or a tuple."""
    if (
        isinstance(mine, bool)
        or isinstance(theirs, bool)
        or isinstance(mine, float)
        or (isinstance(theirs, float))
    ):
        return type(mine) is type(theirs) and mine == theirs
    if isinstance(mine, list | tuple):
        return (
            isinstance(theirs, list | tuple)
            and len(mine) == len(theirs)
            and all(same(a, b) for a, b in zip(mine, theirs, strict=True))
        )
    if isinstance(mine, dict):
        return (
            isinstance(theirs, dict)
            and mine.keys() == theirs.keys()
            and all(same(value, theirs[key]) for key, value in mine.items())
        )
    if isinstance(theirs, list | tuple | dict):
        return False
    return bool(mine == theirs)


def check_player_entries(players: list[Any]) -> None:
    """Each of a record's ``players`` an object with a name and a known level (or a seat no
    bot played)."""
    from rami.game.levels import LEVELS, is_level

    for seat, player in enumerate(players):
        what = f"players[{seat}]"
        if not isinstance(player, dict):
            raise RecordError(f"{what}: expected an object, got {player!r}")
        check_fields(player, PLAYER_FIELDS, what)
        if not isinstance(player["name"], str):
            raise RecordError(f"{what}.name: expected a string, got {player['name']!r}")
        level = player["level"]
        if not isinstance(level, str) or not (is_level(level) or level in NOT_BOTS):
            raise RecordError(
                f"{what}.level: unknown level {level!r}: the levels are {', '.join(LEVELS)} "
                f"(or {' or '.join(NOT_BOTS)} for a seat no bot played)"
            )


def brief(event: Any) -> str:
    text = json.dumps(event)
    return text if len(text) < 120 else text[:117] + "..."
