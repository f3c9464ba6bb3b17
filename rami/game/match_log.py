"""A match's log: every finished pair kept as it ends, so that a long match survives its end.

``rami match --log FILE`` writes FILE as JSON lines: first ``{"match": Match.to_json()}``,
then one line per finished pair (:func:`rami.game.paired.play_pair`'s result, with
``elapsed``, the match's wall seconds when it ended). Run again with the same FILE and the
same match (the number of pairs may grow), the logged pairs are taken as played and the match
goes on from the first pair not logged: a pair is a function of the match and its index, so
the report is the one an unbroken run gives, as long as the engine is the same version. A last
line cut short (the process killed while writing it) is dropped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any, TypedDict

from rami.game.presets import GameError


class PairResult(TypedDict):
    """One deal played at every rotation (:func:`rami.game.paired.play_pair`)."""

    index: int
    scores: list[float]  # the candidate's share of the others beaten, per rotation
    error: str | None
    turns: int
    ms: float
    times: dict[str, list[float]]  # per level, its moves' milliseconds
    fallbacks: list[dict[str, Any]]
    fed: int
    avoided: int
    moves: dict[str, int]


class LoggedPair(PairResult):
    """A pair as its log line keeps it: with the match's wall seconds when it ended."""

    elapsed: float


#: The keys of a logged pair.
PAIR_KEYS = LoggedPair.__required_keys__


def _header(match: Any) -> dict[str, Any]:
    plain = match.to_json()
    plain.pop("pairs")  # a log may be extended with more pairs
    return {"match": plain}


def read_log(path: Path, match: Any) -> tuple[list[dict[str, Any]], int]:
    """The pairs logged in ``path`` for ``match`` (none if the file is absent or empty), and
    the byte length of its whole lines (what a resumed run keeps). Refuses a file that logs
    another match or is not a match log, naming the line."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], 0
    except OSError as error:
        raise GameError(f"cannot read the match log {path}: {error.strerror}") from None
    if not data:
        return [], 0
    lines = data.split(b"\n")
    whole = lines[:-1]  # the text after the last newline is a line cut short, or nothing
    if not whole:
        raise GameError(f"{path} is not a match log: its first line is not whole")
    header = _line(path, whole[0], 1)
    if header != _header(match):
        raise GameError(f"{path} logs another match: {_differences(header, _header(match))}")
    pairs: list[dict[str, Any]] = []
    for number, raw in enumerate(whole[1:], start=2):
        pair = _line(path, raw, number)
        if set(pair) != PAIR_KEYS or pair["index"] != len(pairs):
            raise GameError(f"{path}, line {number}: not the log of pair {len(pairs)}")
        pairs.append(pair)
    return pairs[: match.pairs], sum(len(raw) + 1 for raw in whole)


def _differences(header: dict[str, Any], wanted: dict[str, Any]) -> str:
    """What differs between a log's match and this one, in words."""
    theirs, ours = header.get("match"), wanted["match"]
    if not isinstance(theirs, dict):
        return "its first line is not a match"
    fields = [key for key in ours if theirs.get(key) != ours[key]]
    fields += [key for key in theirs if key not in ours]
    return "; ".join(
        f"its {key} is {json.dumps(theirs.get(key))}, not {json.dumps(ours.get(key))}"
        for key in fields
    )


def _line(path: Path, raw: bytes, number: int) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise GameError(f"{path}, line {number}: not a JSON line of a match log") from None
    if not isinstance(value, dict):
        raise GameError(f"{path}, line {number}: not a JSON object")
    return value


class MatchLog:
    """The log being written: the header if the file was empty, then each pair as it ends
    (flushed, so that a killed run loses at most the pair it was playing)."""

    def __init__(self, path: Path, match: Any, keep: int) -> None:
        self.path = path
        try:
            self.file: IO[str] = open(path, "a+", encoding="utf-8")  # noqa: SIM115
            self.file.truncate(keep)  # drop a line cut short
        except OSError as error:
            raise GameError(f"cannot write the match log {path}: {error.strerror}") from None
        if keep == 0:
            self._write(_header(match))

    def pair(self, result: dict[str, Any]) -> None:
        self._write(result)

    def _write(self, value: dict[str, Any]) -> None:
        self.file.write(json.dumps(value, separators=(",", ":")) + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()
