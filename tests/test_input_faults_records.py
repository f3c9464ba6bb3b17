"""Bad game records once let through: a replay strict on every field (and the levels it knows are
the game's), records of any size (read one line at a time, the whole-file cap, a record over its
cap, bad lines named).

Each gets a clear, specific error (JSON under ``--json``) and a non-zero exit, never a traceback,
a hang or a wrong answer.
"""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.cli import rami

from rami import textfile
from rami.cli import inputs
from rami.cli.inputs import CliError
from rami.errors import InputTooLargeError, RamiError
from rami.game import GameOptions, make_bot, play_game
from rami.game.levels import LEVELS
from rami.game.record import MAX_RECORD_BYTES, RecordError, read_records, record_file, replay
from rami.textfile import split_lines

# ------------------------------------------------------------------ 7: replay strict on every field


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """One short game (one round between beginners), as its JSON record."""
    played = play_game(
        "rami-chinois",
        [make_bot("beginner", 1), make_bot("beginner", 2)],
        seed=5,
        options=GameOptions(max_rounds=1),
        game=0,
    )
    return json.loads(json.dumps(played))


def _changed(record: dict[str, Any], change: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(record))
    change(copy)
    return copy


def _first_draw(record: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in record["rounds"][0]["actions"] if "draw" in e)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda r: r["players"][0].update(level="grandmaster"),
            "players[0].level: unknown level 'grandmaster'",
        ),
        (lambda r: r["players"][1].update(level=None), "players[1].level: unknown level None"),
        (lambda r: r["players"][0].update(rating=1500), "players[0]: unknown field 'rating'"),
        (lambda r: r["players"][0].pop("name"), "players[0]: missing field 'name'"),
        (lambda r: r["players"].__delitem__(slice(1, None)), "players, not 1 in the record"),
        (lambda r: r.update(comment="hi"), "record: unknown field 'comment'"),
        (lambda r: r.pop("end"), "record: missing field 'end'"),
        (lambda r: r.update(end="target" if r["end"] != "target" else "rounds"), "end recorded"),
        (lambda r: r.update(version=True), "not a rami-game record of version 1"),
        (lambda r: r.update(shuffle="mt19937"), "shuffle: unknown shuffle 'mt19937'"),
        (lambda r: r.update(seed=True), "seed: expected a whole number or a string"),
        (lambda r: r.pop("seed"), "names its shuffle"),
        (lambda r: r.update(game=-1), "game: expected a whole number >= 0"),
        (lambda r: r.update(draw=0), "draw recorded"),
        (lambda r: r["rounds"][0].update(note="x"), "round 1: the round: unknown field 'note'"),
        (lambda r: r["rounds"][0].pop("hands"), "round 1: the round: missing field 'hands'"),
        (lambda r: r["rounds"][0].pop("eliminated"), "missing field 'eliminated'"),
        (lambda r: r["rounds"][0].update(number=2), "number: the round is number 1"),
        (lambda r: r["rounds"][0]["deal"].update(extra=1), "deal: not as rami writes it"),
        (
            lambda r: r["rounds"][0]["deal"]["stock"].__setitem__(
                0, r["rounds"][0]["deal"]["stock"][0].lower()
            ),
            "deal: not as rami writes it",
        ),
        (lambda r: r["rounds"][0]["end"].update(rami_sec=0), "the round ends"),
        (lambda r: _first_draw(r).update(seat=bool(_first_draw(r)["seat"])), "the engine gives"),
        (lambda r: _first_draw(r).update(note=1), "the engine gives"),
    ],
)
def test_replay_refuses_every_field_it_does_not_know(
    record: dict[str, Any], change: Any, reason: str
) -> None:
    assert replay(record).rounds == 1
    with pytest.raises(RecordError) as caught:
        replay(_changed(record, change), "line 1 (game 0)")
    assert reason in str(caught.value)


def test_the_known_levels_are_the_game_levels(record: dict[str, Any]) -> None:
    """Named from rami.game.levels (a level added there is known here too)."""
    for level in (*LEVELS, "human", "player"):
        replay(_changed(record, lambda r, level=level: r["players"][0].update(level=level)))
    with pytest.raises(RecordError) as caught:
        replay(_changed(record, lambda r: r["players"][0].update(level="grandmaster")))
    assert all(level in str(caught.value) for level in LEVELS)


def test_rami_replay_does_not_call_a_grandmaster_clean(
    record: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(
        json.dumps(record)
        + "\n"
        + json.dumps(_changed(record, lambda r: r["players"][1].update(level="grandmaster")))
        + "\n"
    )
    result = rami("replay", str(path))
    assert result.exit_code == 1, result.output
    assert "1 of 2 record(s) do not replay" in result.stderr
    assert "line 2 (game 0): players[1].level: unknown level 'grandmaster'" in result.stderr


# ------------------------------------------------------------------ 1: records of any size


class _CountingStream(io.BytesIO):
    """A stream that counts its reads."""

    reads = 0

    def read(self, size: int | None = -1) -> bytes:
        self.reads += 1
        return super().read(size)


def test_records_are_read_one_line_at_a_time(record: dict[str, Any]) -> None:
    line = json.dumps(record).encode() + b"\n"
    stream = _CountingStream(line * 100)
    lines = split_lines(stream, "'games.jsonl'", max_line_bytes=len(line))
    first = next(read_records(lines))
    assert first == (1, record)
    # One record in hand: only the chunks up to its end were read, not the whole input.
    assert stream.reads <= len(line) // textfile._CHUNK + 2 < 100


def test_a_records_file_past_the_whole_file_cap_is_read_whole(
    record: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 36: 420 Café Rummy games (78.9 MB) were over the 64 MiB cap of a file. The cap is
    per record now: the whole-file cap, lowered here to 64 KiB, no longer applies."""
    monkeypatch.setattr(textfile, "MAX_FILE_BYTES", 64 << 10)
    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 64 << 10)
    line = json.dumps(record) + "\n"
    copies = (256 << 10) // len(line) + 1
    path = tmp_path / "games.jsonl"
    path.write_text(line * copies + "\n", encoding="utf-8")
    assert path.stat().st_size > 4 * (64 << 10)
    with pytest.raises(CliError, match="more than 65536 bytes"):  # read whole: refused
        inputs.read_text(str(path), limit=textfile.MAX_FILE_BYTES)
    numbers = [number for number, read in record_file(path) if read == record]
    assert numbers == list(range(1, copies + 1))
    # The same through the CLI's reader, from the file and from standard input.
    cli_lines = inputs.text_lines(str(path), max_line_bytes=MAX_RECORD_BYTES)
    assert sum(1 for _ in read_records(cli_lines)) == copies
    with path.open("rb") as handle:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(handle, encoding="utf-8"))
        stdin = inputs.text_lines("-", max_line_bytes=MAX_RECORD_BYTES)
        assert sum(1 for _ in read_records(stdin)) == copies


def test_a_record_over_its_cap_is_refused_naming_the_line(
    record: dict[str, Any], tmp_path: Path
) -> None:
    small = json.dumps(record)
    big = json.dumps({**record, "players": record["players"] * 50})
    path = tmp_path / "games.jsonl"
    path.write_text(f"{small}\n{small}\n{big}\n{small}\n", encoding="utf-8")
    records = record_file(path, max_record_bytes=len(small) + 10)
    assert [number for number, _ in itertools.islice(records, 2)] == [1, 2]
    # The path itself may be cut in the message (a quoted piece longer than MAX_QUOTE).
    with pytest.raises(
        InputTooLargeError,
        match=(
            f"cannot read '.*': line 3 is longer than {len(small) + 10} bytes, the most one "
            "line may hold"
        ),
    ):
        next(records)
    with pytest.raises(CliError, match="line 3 is longer than"):
        list(inputs.text_lines(str(path), max_line_bytes=len(small) + 10))


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b'{"format": "rami-game"\n', "line 1: malformed JSON at column 23"),
        (b'\n\n{"a": 1, "a": 2}\n', "line 3: duplicate key 'a'"),
        (b"[" * 100 + b"]" * 100 + b"\n", "line 1: JSON nested more than 32 levels deep"),
        (b'{"a": 1}\n\xff\n', "line 2 is not UTF-8 text (byte 0xFF, the line's byte 1)"),
    ],
)
def test_bad_record_lines_are_named(data: bytes, error: str, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(data)
    with pytest.raises(RamiError, match=re.escape(error)):
        list(record_file(path))
