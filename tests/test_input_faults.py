"""Bad input once let through: each gets a clear, specific error (JSON under ``--json``) and a
non-zero exit, never a traceback, a hang or a wrong answer."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import math
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from rami import textfile
from rami.cli import inputs
from rami.cli.batch import solve_task
from rami.cli.inputs import CliError
from rami.cli.main import app
from rami.errors import InputTooLargeError, NotationError, RamiError, UnknownRulesetError
from rami.game import GameOptions, make_bot, play_game
from rami.game.levels import LEVELS
from rami.game.record import MAX_RECORD_BYTES, RecordError, read_records, record_file, replay
from rami.notation import duplicate_key_path, loads_json
from rami.review.game import review_game
from rami.rules import get_ruleset
from rami.service import Settings, create_app
from rami.service.testing import LOOPBACK, BackgroundServer
from rami.textfile import split_lines


def rami(*args: str, stdin: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def json_error(result: Result) -> dict[str, object]:
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    assert data["exit_code"] == 2
    error = data["error"]
    assert isinstance(error, dict)
    return error


# ------------------------------------------------------------------ 5: an option given twice


@pytest.mark.parametrize(
    "spec",
    [
        "rami-chinois[jokers=0,jokers=4]",
        "rami-chinois[jokers=4, jokers=4]",
        "RAMI-CHINOIS[Jokers=0,jokers=4]",
        "bfmania-51[opening_pure_run=true,opening_pure_run=false]",
    ],
)
def test_an_option_given_twice_is_refused_naming_it(spec: str) -> None:
    name = spec.split("[")[1].split("=")[0].strip().lower()
    with pytest.raises(UnknownRulesetError, match=f"option '{name}' is given twice"):
        get_ruleset(spec)


def test_rules_and_solve_refuse_an_option_given_twice() -> None:
    result = rami("rules", "rami-chinois[jokers=0,jokers=4]")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: option 'jokers' is given twice in 'rami-chinois[jokers=0,jokers=4]'\n"
    )
    error = json_error(rami("solve", "--json", "- / TH / rami-chinois[jokers=0,jokers=4]"))
    assert "'jokers' is given twice" in str(error["message"])
    # Each option once is still fine.
    assert get_ruleset("rami-chinois[jokers=0]").jokers == 0


# ------------------------------------------------------------------ 4: a JSON key given twice


def test_loads_json_refuses_a_key_given_twice_naming_it() -> None:
    with pytest.raises(NotationError, match="duplicate key 'hand'") as caught:
        loads_json('{"hand": ["TH"], "hand": ["KS"]}')
    assert caught.value.loc == ("hand",)
    with pytest.raises(NotationError, match="duplicate key 'kind' in table\\[1\\]") as caught:
        loads_json('{"table": [["3H", "4H", "5H"], {"kind": "run", "kind": "set"}]}')
    assert caught.value.loc == ("table", 1, "kind")
    # The same key in two objects is no duplicate.
    assert loads_json('[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]


def test_duplicate_key_path_finds_the_key_the_decoder_stops_at() -> None:
    # The decoder completes the inner object first: its key is the one refused.
    text = '{"c": 1, "c": 2, "a": {"b": 1, "b": 2}}'
    assert duplicate_key_path(text) == ("a", "b")
    with pytest.raises(NotationError, match="duplicate key 'b' in a:"):
        loads_json(text)
    assert duplicate_key_path('{"a": {"b": 1}, "c": 1, "c": 2}') == ("c",)
    assert duplicate_key_path(b'[0, {"x": [{"y": 1, "y": 1}]}]') == (1, "x", 0, "y")
    assert duplicate_key_path('{"a": 1}') is None
    assert duplicate_key_path("{not json") is None


def test_the_cli_refuses_a_key_given_twice_instead_of_keeping_the_last() -> None:
    text = '{"table": [], "hand": ["TH"], "hand": ["KS"]}'
    result = rami("solve", text)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: duplicate key 'hand'")
    error = json_error(rami("solve", "--json", text))
    assert error["type"] == "NotationError" and error["loc"] == ["hand"]
    assert "duplicate key 'hand'" in str(error["message"])
    verdict = json.loads(rami("validate", "--json", text).stdout)
    assert verdict["valid"] is False and verdict["error"]["loc"] == ["hand"]


def test_a_batch_line_with_a_key_given_twice_gets_its_own_error(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text('{"table": [], "hand": ["TH"], "hand": ["KS"]}\n- / KS\n', encoding="utf-8")
    result = rami("solve", "--batch", str(batch), "--time-limit", "2")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert "duplicate key 'hand'" in lines[0]["error"]
    assert lines[1]["hand"] == ["KS"] and "error" not in lines[1]


def _post(
    port: int, path: str, body: bytes, *, extra: bytes = b""
) -> tuple[int, dict[str, str], Any]:
    """One request on a raw socket to the loopback server: status, headers, decoded body."""
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            "Content-Type: application/json\r\n".encode()
            + extra
            + b"Content-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, payload = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, json.loads(payload) if payload else None


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(create_app(Settings(default_time_limit=2.0))) as running:
        yield running


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/solve", b'{"position": {"table": [], "hand": ["TH"], "hand": ["KS"]}}', "position.hand"),
        ("/solve", b'{"position": "- / KS", "time_limit": 1, "time_limit": 9}', "time_limit"),
        ("/validate", b'{"position": "- / TH", "position": "- / KS"}', "position"),
    ],
)
def test_the_service_refuses_a_key_given_twice(
    server: BackgroundServer, path: str, body: bytes, field: str
) -> None:
    status, headers, answer = _post(server.port, path, body)
    assert status == 422 and headers["content-type"] == "application/json"
    assert answer["field"] == field
    assert answer["error"].startswith(f"duplicate key '{field.rsplit('.', 1)[-1]}'")
    # The body without the repeat is served as before.
    status, _, answer = _post(server.port, "/validate", b'{"position": "- / KS"}')
    assert status == 200 and answer["valid"] is True


def test_the_openapi_schema_still_documents_the_request_bodies() -> None:
    document = create_app(Settings()).openapi()
    body = document["paths"]["/solve"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SolveRequest"
    }


# ------------------------------------------------------------------ 3: only finite time limits

UNBOUNDED = ["inf", "1e309", "nan", "-inf", "Infinity"]


@pytest.mark.parametrize("limit", UNBOUNDED)
@pytest.mark.parametrize(
    "command",
    [
        ["solve", "- / TH"],
        ["solve", "--top", "3", "- / TH"],
        ["hint", "- / TH"],
    ],
)
def test_a_time_limit_that_is_not_finite_is_refused(command: list[str], limit: str) -> None:
    result = rami(*command, "--time-limit", limit)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --time-limit must be a finite number of seconds")
    error = json_error(rami(*command, "--json", "--time-limit", limit))
    assert "--time-limit must be a finite number" in str(error["message"])


def test_a_batch_with_an_unbounded_time_limit_solves_nothing(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text("- / TH\n", encoding="utf-8")
    result = rami("solve", "--batch", str(batch), "--time-limit", "inf")
    assert result.exit_code == 2 and result.stdout == ""
    assert "finite" in result.stderr


def test_review_game_refuses_an_unbounded_time_limit(tmp_path: Path) -> None:
    with pytest.raises(RamiError, match="finite positive"):
        review_game({}, time_limit=math.inf)
    records = tmp_path / "games.jsonl"
    records.write_text("{}\n", encoding="utf-8")
    error = json_error(rami("review", "--game", str(records), "--time-limit", "1e309", "--json"))
    assert "finite" in str(error["message"])


def test_the_service_settings_never_give_an_unbounded_time_limit() -> None:
    settings = Settings()
    assert settings.time_limit(None) == settings.default_time_limit
    assert settings.time_limit(1e9) == settings.max_time_limit
    for value in (math.inf, math.nan, -1.0, 0.0):
        with pytest.raises(ValueError, match="finite positive"):
            settings.time_limit(value)


@pytest.mark.parametrize("limit", [b"Infinity", b"1e309", b"NaN", b"-Infinity"])
@pytest.mark.parametrize("path", ["/solve", "/hint"])
def test_the_service_refuses_an_unbounded_time_limit(
    server: BackgroundServer, path: str, limit: bytes
) -> None:
    status, _, answer = _post(
        server.port, path, b'{"position": "- / TH", "time_limit": ' + limit + b"}"
    )
    assert status == 422 and answer["field"] == "time_limit", answer


# ------------------------------------------------------------------ 6: ambiguous framing


def _asgi_request(app: Any, headers: list[tuple[bytes, bytes]], body: bytes) -> list[Any]:
    """One request straight through the ASGI app (its middleware first); the messages sent."""
    sent: list[Any] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> Any:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/validate",
        "raw_path": b"/validate",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": (LOOPBACK, 1),
        "server": (LOOPBACK, 2),
    }
    asyncio.run(app(scope, receive, send))
    return sent


BODY = b'{"position": "- / TH"}'


@pytest.mark.parametrize(
    "headers",
    [
        [(b"content-length", str(len(BODY)).encode()), (b"transfer-encoding", b"chunked")],
        [(b"transfer-encoding", b"chunked"), (b"content-length", b"0")],
    ],
)
def test_content_length_with_chunked_encoding_is_a_400_through_the_app(
    headers: list[tuple[bytes, bytes]],
) -> None:
    app = create_app(Settings())
    sent = _asgi_request(app, [(b"content-type", b"application/json"), *headers], BODY)
    start, body = sent
    assert start["status"] == 400
    assert (b"connection", b"close") in start["headers"]
    answer = json.loads(body["body"])
    assert "ambiguous request framing" in answer["error"] and answer["field"] == "body"
    # One framing header: served.
    sent = _asgi_request(
        app,
        [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())],
        BODY,
    )
    assert sent[0]["status"] == 200


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
    return answer


def test_content_length_with_chunked_encoding_is_a_400_on_the_wire(
    server: BackgroundServer,
) -> None:
    chunked = hex(len(BODY))[2:].encode() + b"\r\n" + BODY + b"\r\n0\r\n\r\n"
    head = b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    answer = _raw(
        server.port,
        head
        + b"Content-Length: "
        + str(len(BODY)).encode()
        + b"\r\nTransfer-Encoding: chunked\r\n\r\n"
        + chunked,
    )
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert b"connection: close" in answer.lower()
    assert b"ambiguous request framing" in answer
    assert answer.count(b"HTTP/1.1") == 1  # nothing of the body was read as a next request
    # Chunked alone, and Content-Length alone, are served.
    answer = _raw(
        server.port, head + b"Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
    )
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    status, _, _ = _post(server.port, "/validate", BODY)
    assert status == 200


# ------------------------------------------------------------------ 2: a batch line not UTF-8


def test_a_batch_line_that_is_not_utf8_gets_its_own_error(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(
        b"\xef\xbb\xbf- / KS\n"
        + "- / 9\u2665 T\u2665\n".encode()[:10]
        + b"\xff TH\n"
        + b'{"table": [], "hand": ["QH"]}\n\n- / \xc3\n'
    )
    for source, stdin in ((str(batch), None), ("-", batch.read_bytes())):
        result = rami("solve", "--batch", source, "--time-limit", "2", stdin=stdin)
        assert result.exit_code == 2, result.output
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        assert [line["line"] for line in lines] == [1, 2, 3, 5]
        assert lines[0]["hand"] == ["KS"] and lines[2]["hand"] == ["QH"]
        assert lines[1] == {"line": 2, "error": "not UTF-8 text (byte 0xFF, the line's byte 11)"}
        assert lines[3] == {"line": 5, "error": "not UTF-8 text (byte 0xC3, the line's byte 5)"}
        assert result.stderr == "error: 2 of 4 positions failed\n"


def test_solve_task_gives_an_undecodable_line_its_error_too() -> None:
    """The same line sent to a worker (--ray) as plain data."""
    answer = solve_task(
        {
            "line": 7,
            "text": b"- / \xffKS".decode("utf-8", "surrogateescape"),
            "objective": "points",
            "time_limit": 1.0,
            "min_moves": True,
        }
    )
    assert answer == {
        "result": {"line": 7, "error": "not UTF-8 text (byte 0xFF, the line's byte 5)"},
        "internal": False,
    }


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


@pytest.mark.parametrize("limit", [float("inf"), float("nan"), 0.0, -1.0])
def test_the_python_api_refuses_an_unbounded_or_empty_time_limit(limit: float) -> None:
    from rami.errors import RamiError
    from rami.notation import parse_position
    from rami.solver.api import solve

    with pytest.raises(RamiError, match="finite positive number of seconds"):
        solve(parse_position("- / 7H 8H 9H / rami-chinois"), time_limit=limit)
