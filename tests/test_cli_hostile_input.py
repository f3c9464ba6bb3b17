"""Hostile input at the command line: a closed standard input, JSON nested too deep (inline, in a
file, on stdin, in a batch line, an answer or a pack; the library's parsers too), and the size
bounds (devices refused, endless standard input, a file past the bound, long input never echoed
whole).

Each test asserts the exit code and the output together; the closed standard input is tried on a
real ``rami`` process.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest
from support.cli import rami
from support.cli_contract import RAMI, ROOT, bad

from rami.errors import NotationError, RamiError
from rami.notation import MAX_JSON_DEPTH, parse_position, parse_position_any
from rami.textfile import MAX_POSITION_BYTES

DEEP = "[" * 1500 + "]" * 1500
DEEP_POSITION = '{"hand": ' + DEEP + "}"


# ---------------------------------------------------------------- 1. closed standard input


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "-"],
        ["score", "-"],
        ["solve", "--batch", "-"],
        ["puzzle", "check", "rc-44022bd5db", "--answer", "-"],
    ],
    ids=["validate", "score", "batch", "puzzle-answer"],
)
def test_closed_standard_input_is_a_clear_error(args: list[str]) -> None:
    done = subprocess.run(
        f"exec {RAMI} {' '.join(args)} <&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == "error: cannot read standard input: standard input is closed\n"
    assert "Traceback" not in done.stderr


def test_closed_standard_input_under_json() -> None:
    done = subprocess.run(
        f"exec {RAMI} score --json - <&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["type"] == "UnreadableFileError"


# ---------------------------------------------------------------- 2. deep JSON


def test_deep_json_inline_file_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    want = f"JSON nested more than {MAX_JSON_DEPTH} levels deep"
    assert bad("validate", DEEP_POSITION) == f"error: {want}\n"
    # A relative name: messages cut what they quote at 80 characters, and tmp_path's length
    # depends on the runner (pytest -n adds a level).
    monkeypatch.chdir(tmp_path)
    Path("deep.json").write_text(DEEP_POSITION, encoding="utf-8")
    assert bad("validate", "deep.json") == f"error: deep.json: {want}\n"
    assert bad("score", "-", stdin=DEEP_POSITION) == f"error: <stdin>: {want}\n"
    assert bad("validate", "-", stdin=DEEP).startswith("error: <stdin>: a JSON array is not")


def test_deep_json_fails_only_its_batch_line(tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text(
        '{"hand": ["2C"]}\n' + DEEP_POSITION + "\n" + '{"hand": ["AS", "2S", "3S"]}\n',
        encoding="utf-8",
    )
    result = rami("solve", "--batch", str(path))
    assert result.exit_code == 2
    assert result.stderr == "error: 1 of 3 positions failed\n"
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3]
    assert rows[1] == {"line": 2, "error": f"JSON nested more than {MAX_JSON_DEPTH} levels deep"}
    assert rows[0]["status"] == rows[2]["status"] == "optimal"
    assert rows[2]["cards_played"] == 3


def test_deep_json_answer_and_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert bad("puzzle", "check", "rc-44022bd5db", "--answer", DEEP) == (
        f"error: answer: JSON nested more than {MAX_JSON_DEPTH} levels deep\n"
    )
    monkeypatch.chdir(tmp_path)  # a name shorter than the 80 characters a message quotes
    Path("deep.jsonl").write_text('{"id": ' + DEEP + "}\n", encoding="utf-8")
    assert bad("puzzle", "check", "deep.jsonl") == (
        f"error: 'deep.jsonl':1: JSON nested more than {MAX_JSON_DEPTH} levels deep\n"
    )


def test_library_parsers_bound_the_depth() -> None:
    with pytest.raises(NotationError, match="nested more than"):
        parse_position_any(DEEP_POSITION)
    with pytest.raises(NotationError, match="nested more than"):
        parse_position_any(DEEP)
    nested = '{"hand": ' + "[" * 30 + "]" * 30 + "}"  # deep enough to be scanned, not refused
    with pytest.raises(NotationError, match=r"hand\[0\]: expected a card string"):
        parse_position_any(nested)
    # Brackets inside strings nest nothing.
    text = '{"hand": ["' + "[" * 100 + '"]}'
    with pytest.raises(NotationError, match="unknown card"):
        parse_position_any(text)


# ---------------------------------------------------------------- 3. size bounds


def test_devices_are_refused_at_once() -> None:
    started = time.monotonic()
    assert bad("validate", "/dev/zero") == "error: cannot read '/dev/zero': not a regular file\n"
    assert time.monotonic() - started < 5


def test_endless_standard_input_stops_at_the_bound() -> None:
    done = subprocess.run(
        f"exec {RAMI} validate - < /dev/zero",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: cannot read standard input: more than 1 MiB, the most it may hold\n"
    )


def test_a_file_past_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"- / " + b"2C " * (MAX_POSITION_BYTES // 3 + 10))
    assert bad("validate", str(path)) == (
        f"error: cannot read '{path}': more than 1 MiB, the most it may hold\n"
    )


def test_a_long_input_is_never_echoed_whole(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text("- / " + "ZZ" * 400_000 + "\n", encoding="utf-8")  # one line, 800 KB
    message = bad("validate", str(path))
    assert len(message) < 400
    assert "ZZZZ..." in message
    long_word = "- / 2C / " + "x" * 5000
    assert len(bad("validate", long_word)) < 400
    result = rami("validate", "--json", "- / 2C / " + "rami-" + "y" * 5000)
    assert result.exit_code == 2
    assert len(result.stdout) < 1500


def test_messages_quote_at_most_80_characters() -> None:
    with pytest.raises(NotationError) as error:
        parse_position("- / " + "Q" * 1000)
    assert len(str(error.value)) < 250
    assert "..." in str(error.value)
    assert len(str(RamiError("x " + repr("y" * 10_000)))) < 100
