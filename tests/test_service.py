"""The HTTP service (issue "The hint engine as a service"), tested over real HTTP.

Every test talks to a real uvicorn server on a free loopback port (127.0.0.1 only): in a thread
of this process (:class:`rami.service.testing.BackgroundServer`) or, for ``rami serve`` itself,
a child process (:class:`rami.service.testing.ServerProcess`). Servers are always shut down.
"""

from __future__ import annotations

import decimal
import http.client
import json
import math
import random
import re
import shlex
import signal
import socket
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from rami import __version__, parse_position, position_to_json, solve
from rami.generate import random_position
from rami.hints import make_hint
from rami.rules import PRESETS, get_ruleset
from rami.service import Settings, create_app
from rami.service.inputs import MAX_CARDS
from rami.service.output import hint_json, position_json, solution_json
from rami.service.testing import (
    BackgroundServer,
    GateSolve,
    SchemaChecker,
    ServerProcess,
    failing_solve,
)

ROOT = Path(__file__).resolve().parent.parent
SERVICE_DOC = ROOT / "docs" / "service.md"

DEMO_TEXT = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 6H QH 8C 5D 5S KD / rami-chinois opened"
DEMO = position_to_json(parse_position(DEMO_TEXT))
#: The demo turn the solver finds (as a referee request: table after, cards played).
DEMO_TURN = {
    "table_after": [
        ["3H", "4H", "5H", "6H"],
        ["QS", "QH", "QD", "QC"],
        ["6C", "7C", "8C"],
        ["6H", "7H", "8H", "9H"],
        ["5S", "5D", "5C"],
    ],
    "played": ["5S", "6H", "QH", "5D", "8C"],
}


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]
    text: str


def call(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    *,
    raw: bytes | None = None,
    content_type: str | None = "application/json",
    timeout: float = 60,
    headers: dict[str, str] | None = None,
    check_schema: bool = True,
) -> Reply:
    """One HTTP request; the reply whatever its status. A reply of a documented operation is
    checked against the server's own /openapi.json (:class:`SchemaChecker`)."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None and content_type:
        request.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, payload, answer_headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, payload, answer_headers = error.code, error.read(), error.headers
    text = payload.decode("utf-8")
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if check_schema and path != "/openapi.json":
        _checker(base).check(method, path, status, parsed if text else None)
    return Reply(status, parsed, {k.lower(): v for k, v in answer_headers.items()}, text)


_CHECKERS: dict[str, SchemaChecker] = {}


def _checker(base: str) -> SchemaChecker:
    """The schema checker of the server at ``base``, from its published /openapi.json."""
    if base not in _CHECKERS:
        with urllib.request.urlopen(base + "/openapi.json", timeout=30) as response:
            _CHECKERS[base] = SchemaChecker(json.load(response))
    return _CHECKERS[base]


@pytest.fixture(scope="module")
def demo_pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A one-puzzle pack of the demo position (docs/service.md shows it too)."""
    record = _demo_puzzle_record()
    pack = tmp_path_factory.mktemp("pack") / "demo-pack.jsonl"
    pack.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return pack, record


@pytest.fixture(scope="module")
def server(demo_pack: tuple[Path, dict[str, Any]]) -> Iterator[str]:
    settings = Settings(default_time_limit=5.0, puzzle_pack=str(demo_pack[0]))
    with BackgroundServer(create_app(settings)) as running:
        yield running.url


def _without_ms(value: Any) -> Any:
    """Timings differ between two runs of the same solve: drop them before comparing."""
    if isinstance(value, dict):
        return {key: _without_ms(item) for key, item in value.items() if key != "ms"}
    if isinstance(value, list):
        return [_without_ms(item) for item in value]
    if isinstance(value, str):
        return re.sub(r"\d+(?:\.\d+)? ms\b", "N ms", value)
    return value


# ------------------------------------------------------------------ the endpoints


def test_health(server: str) -> None:
    reply = call(server, "GET", "/health")
    assert reply.status == 200
    assert reply.body == {"status": "ok", "version": __version__}


def test_openapi_document_and_docs_page(server: str) -> None:
    reply = call(server, "GET", "/openapi.json")
    assert reply.status == 200
    assert reply.body["info"]["version"] == __version__
    paths = reply.body["paths"]
    for path in (
        "/health",
        "/rulesets",
        "/rulesets/{name}",
        "/solve",
        "/hint",
        "/validate-turn",
        "/validate",
        "/puzzles/daily",
        "/puzzles/daily/{date}",
        "/puzzles/check",
    ):
        assert path in paths
    assert "requestBody" in paths["/solve"]["post"]
    assert {"400", "413", "422", "503"} <= set(paths["/solve"]["post"]["responses"])
    # /docs and /redoc load their scripts from a public CDN: off by default (a JSON 404).
    for page in ("/docs", "/redoc"):
        off = call(server, "GET", page)
        assert off.status == 404 and off.body["error"] == "Not Found"


def test_docs_pages_are_an_option() -> None:
    with BackgroundServer(create_app(Settings(docs=True))) as running:
        docs = call(running.url, "GET", "/docs")
        assert docs.status == 200 and "swagger" in docs.text.lower()
        assert call(running.url, "GET", "/redoc").status == 200
        assert call(running.url, "GET", "/openapi.json").status == 200


def test_rulesets(server: str) -> None:
    reply = call(server, "GET", "/rulesets")
    assert reply.status == 200
    assert reply.body == [{"name": name, "title": p.title} for name, p in PRESETS.items()]


@pytest.mark.parametrize("name", [*PRESETS, "rami-chinois[jokers=0]"])
def test_ruleset_describes_every_parameter(server: str, name: str) -> None:
    reply = call(server, "GET", "/rulesets/" + urllib.parse.quote(name))
    assert reply.status == 200
    assert reply.body == get_ruleset(name).describe()


@pytest.mark.parametrize("name", ["rami-99", "rami-chinois[jokers=3]", "rami-chinois[colour=red]"])
def test_unknown_ruleset_is_404_naming_it(server: str, name: str) -> None:
    reply = call(server, "GET", "/rulesets/" + urllib.parse.quote(name))
    assert reply.status == 404
    assert reply.body["field"] == "name"
    assert reply.body["error"]


def test_validate_a_valid_position(server: str) -> None:
    reply = call(server, "POST", "/validate", {"position": DEMO})
    assert reply.status == 200
    assert reply.body["valid"] is True and reply.body["problems"] == []
    assert reply.body["position"] == str(parse_position(DEMO_TEXT))
    assert reply.body["hand_penalty"] == 44
    assert reply.body["table_cards"] == 13 and reply.body["hand_cards"] == 6


def test_validate_accepts_the_text_notation(server: str) -> None:
    by_text = call(server, "POST", "/validate", {"position": DEMO_TEXT})
    by_json = call(server, "POST", "/validate", {"position": DEMO})
    assert by_text.status == 200 and by_text.body == by_json.body


def test_validate_an_impossible_position_lists_every_problem(server: str) -> None:
    position = {**DEMO, "table": [*DEMO["table"], ["QS", "QH", "QD"]], "hand": ["QS", "4H"]}
    reply = call(server, "POST", "/validate", {"position": position})
    assert reply.status == 200
    assert reply.body["valid"] is False
    assert "3 copies of QS: two decks hold only 2" in reply.body["problems"]


def test_solve_answers_what_the_library_answers(server: str) -> None:
    reply = call(server, "POST", "/solve", {"position": DEMO})
    assert reply.status == 200
    expected = solution_json(solve(parse_position(DEMO_TEXT), time_limit=5.0))
    assert _without_ms(reply.body) == _without_ms(expected)
    assert reply.body["status"] == "optimal"
    assert reply.headers["x-rami-time-limit"] == "5"


def test_solve_options(server: str) -> None:
    body = {"position": DEMO_TEXT, "objective": "cards", "min_moves": False, "time_limit": 2}
    reply = call(server, "POST", "/solve", body)
    assert reply.status == 200
    assert reply.body["objective"] == "cards" and reply.body["min_moves"] is False
    expected = solution_json(
        solve(parse_position(DEMO_TEXT), objective="cards", min_moves=False, time_limit=2.0)
    )
    assert _without_ms(reply.body) == _without_ms(expected)
    assert reply.headers["x-rami-time-limit"] == "2"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_hint_levels(server: str, level: int) -> None:
    reply = call(server, "POST", "/hint", {"position": DEMO, "level": level})
    assert reply.status == 200
    solution = solve(parse_position(DEMO_TEXT), time_limit=5.0)
    assert _without_ms(reply.body) == _without_ms(hint_json(solution, level))
    assert set(reply.body) == set(make_hint(solution, level).to_json())
    assert reply.body["level"] == level


def test_hint_level_defaults_to_1(server: str) -> None:
    reply = call(server, "POST", "/hint", {"position": DEMO})
    assert reply.status == 200
    assert reply.body["level"] == 1
    assert reply.body["hint"] == "You can shed 34 points (play 5 of 6 cards)."


def test_validate_turn_legal(server: str) -> None:
    reply = call(server, "POST", "/validate-turn", {"position": DEMO, **DEMO_TURN})
    assert reply.status == 200
    assert reply.body == {
        "legal": True,
        "problems": [],
        "hand_after": ["KD"],
        "penalty_after": 10,
        "cards_moved": 4,
        "opened_after": True,
    }


def test_validate_turn_illegal_gives_every_reason(server: str) -> None:
    turn = {
        "table_after": [*DEMO_TURN["table_after"][:4], ["5S", "5D", "5C", "5H"]],
        "played": ["5S", "6H", "QH", "5D", "8C"],
        "discard": None,
    }
    reply = call(server, "POST", "/validate-turn", {"position": DEMO, **turn})
    assert reply.status == 200
    assert reply.body["legal"] is False
    assert any("appeared on the table from nowhere: 5H" in p for p in reply.body["problems"])
    assert reply.body["cards_moved"] == 0


def test_validate_turn_discard_is_checked(server: str) -> None:
    """Rami chinois has no discard: naming one is a problem, not a crash."""
    body = {"position": DEMO, **DEMO_TURN, "discard": "KD"}
    reply = call(server, "POST", "/validate-turn", body)
    assert reply.status == 200
    assert reply.body["legal"] is False
    assert any("no discard" in problem for problem in reply.body["problems"])


# ------------------------------------------------------------------ bad input: 4xx, field named


def _position(**changes: Any) -> dict[str, Any]:
    return {**DEMO, **changes}


BAD_REQUESTS = [
    # (id, path, body, status, field, words in the error)
    (
        "unknown card in hand",
        "/solve",
        {"position": _position(hand=["6H", "ZZ"])},
        422,
        "position.hand[1]",
        "unknown card 'ZZ'",
    ),
    (
        "unknown card on table",
        "/solve",
        {"position": _position(table=[["3H", "4H", "5H"], ["QS", "QD", "XX"]])},
        422,
        "position.table[1][2]",
        "unknown card 'XX'",
    ),
    (
        "bad meld kind",
        "/validate",
        {"position": _position(table=[{"kind": "row", "cards": ["7H", "*", "*"]}])},
        422,
        "position.table[0].kind",
        "expected 'run' or 'set'",
    ),
    (
        "3 copies of a card",
        "/solve",
        {"position": _position(hand=["KD", "KD", "KD"])},
        422,
        "position",
        "3 copies of KD",
    ),
    (
        "too many jokers",
        "/hint",
        {"position": _position(hand=["*"] * 5)},
        422,
        "position",
        "5 jokers",
    ),
    (
        "too many cards",
        "/validate",
        {"position": _position(hand=["2C"] * (MAX_CARDS + 1))},
        422,
        "position",
        f"at most {MAX_CARDS}",
    ),
    (
        "unknown ruleset",
        "/solve",
        {"position": _position(rules="rami-99")},
        422,
        "position.rules",
        "unknown ruleset 'rami-99'",
    ),
    (
        "unsupported rule option",
        "/solve",
        {"position": _position(rules="rami-fou[open_and_rearrange_same_turn=true]", opened=False)},
        422,
        "position.rules",
        "not solved for presets that discard",
    ),
    (
        "unknown position field",
        "/solve",
        {"position": _position(colour="red")},
        422,
        "position",
        "unknown field(s) ['colour']",
    ),
    ("bad text notation", "/solve", {"position": "7H 8H 9H / QQ"}, 422, "position", "unknown card"),
    (
        "bad taken discard",
        "/validate",
        {"position": _position(taken_discard="11Z")},
        422,
        "position.taken_discard",
        "unknown card",
    ),
    (
        "position not an object",
        "/solve",
        {"position": 5},
        422,
        "position",
        "expected a JSON position object",
    ),
    (
        "opened not a bool",
        "/solve",
        {"position": _position(opened="yes")},
        422,
        "position.opened",
        "expected true or false",
    ),
    ("missing position", "/solve", {"time_limit": 1}, 422, "position", "Field required"),
    (
        "time limit a string",
        "/solve",
        {"position": DEMO, "time_limit": "fast"},
        422,
        "time_limit",
        "valid number",
    ),
    (
        "time limit zero",
        "/solve",
        {"position": DEMO, "time_limit": 0},
        422,
        "time_limit",
        "greater than 0",
    ),
    (
        "min_moves a string",
        "/solve",
        {"position": DEMO, "min_moves": "yes"},
        422,
        "min_moves",
        "valid boolean",
    ),
    (
        "unknown objective",
        "/solve",
        {"position": DEMO, "objective": "fast"},
        422,
        "objective",
        "'points' or 'cards'",
    ),
    (
        "unknown request field",
        "/solve",
        {"position": DEMO, "level": 2},
        422,
        "level",
        "Extra inputs",
    ),
    ("hint level 4", "/hint", {"position": DEMO, "level": 4}, 422, "level", "less than or equal"),
    (
        "hint level a string",
        "/hint",
        {"position": DEMO, "level": "2"},
        422,
        "level",
        "valid integer",
    ),
    (
        "hint level a bool",
        "/hint",
        {"position": DEMO, "level": True},
        422,
        "level",
        "valid integer",
    ),
    ("body a list", "/solve", [DEMO], 422, "body", "JSON object"),
    (
        "played not a list",
        "/validate-turn",
        {"position": DEMO, "table_after": [], "played": "6H"},
        422,
        "played",
        "valid list",
    ),
    (
        "played unknown card",
        "/validate-turn",
        {"position": DEMO, "table_after": DEMO_TURN["table_after"], "played": ["6H", "6X"]},
        422,
        "played[1]",
        "unknown card '6X'",
    ),
    (
        "table_after bad card",
        "/validate-turn",
        {"position": DEMO, "table_after": [["3H", "4H", "5Q"]], "played": []},
        422,
        "table_after[0][2]",
        "unknown card '5Q'",
    ),
    (
        "table_after text meld",
        "/validate-turn",
        {"position": DEMO, "table_after": ["3H 4H 5H", "frog: 7H 8H 9H"], "played": []},
        422,
        "table_after[1]",
        "unknown meld kind",
    ),
    (
        "discard not a card",
        "/validate-turn",
        {"position": DEMO, **DEMO_TURN, "discard": 7},
        422,
        "discard",
        "expected a card string",
    ),
    (
        "turn on an impossible position",
        "/validate-turn",
        {"position": _position(hand=["KD"] * 3), **DEMO_TURN},
        422,
        "position",
        "3 copies of KD",
    ),
]


@pytest.mark.parametrize(
    ("path", "body", "status", "field", "words"),
    [case[1:] for case in BAD_REQUESTS],
    ids=[case[0] for case in BAD_REQUESTS],
)
def test_bad_input_is_a_4xx_naming_the_field(
    server: str, path: str, body: Any, status: int, field: str, words: str
) -> None:
    reply = call(server, "POST", path, body)
    assert reply.status == status, reply.text
    assert reply.body["field"] == field, reply.body
    assert words in reply.body["error"], reply.body
    assert "Traceback" not in reply.text


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["7H", "*", "QS", "10D", "rami-chinois", "set"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                ["rules", "table", "hand", "opened", "taken_discard", "kind", "cards", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


@hypothesis_settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(["/solve", "/hint", "/validate", "/validate-turn", "/puzzles/check"]),
    field=st.sampled_from(
        [
            "position",
            "table",
            "hand",
            "opened",
            "rules",
            "table_after",
            "played",
            "discard",
            "level",
            "objective",
            "id",
        ]
    ),
    value=JSON_VALUES,
)
def test_any_json_gets_an_answer_not_a_500(server: str, path: str, field: str, value: Any) -> None:
    """Whatever JSON a client sends in whatever field, the answer is a 2xx or a 4xx in the
    service's error shape, never a 500."""
    body: dict[str, Any] = {"position": dict(DEMO), "time_limit": 0.5}
    if path == "/validate-turn":
        body.update(DEMO_TURN)
        del body["time_limit"]
    elif path == "/validate":
        del body["time_limit"]
    elif path == "/puzzles/check":
        body = {"id": "rc-b6bcc1555b", "table": DEMO_TURN["table_after"]}
    if field in ("table", "hand", "opened", "rules") and path != "/puzzles/check":
        body["position"][field] = value
    else:
        body[field] = value
    reply = call(server, "POST", path, body)
    assert reply.status < 500, reply.text
    if reply.status >= 400:
        assert set(reply.body) == {"error", "field", "problems"} and reply.body["error"]


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"[" * 50_000 + b"]" * 50_000, 413),  # over the body limit
        (b"[" * 30_000 + b"]" * 30_000, 400),  # too deep for the JSON parser
        (b'{"position": "7H 8H 9H / TH", "time_limit": 1e400}', 422),  # infinity
        (b'{"position": "7H 8H 9H / TH", "time_limit": NaN}', 422),
    ],
    ids=["huge", "deep", "infinite", "nan"],
)
def test_pathological_json(server: str, raw: bytes, status: int) -> None:
    reply = call(server, "POST", "/solve", raw=raw)
    assert reply.status == status, reply.text
    assert reply.body["error"]


def test_impossible_position_lists_its_problems(server: str) -> None:
    position = _position(hand=["KD", "KD", "KD", "*", "*", "*", "*", "*"])
    reply = call(server, "POST", "/solve", {"position": position})
    assert reply.status == 422
    assert reply.body["problems"] == [
        "3 copies of KD: two decks hold only 2",
        "5 jokers: rami-chinois is played with 4",
    ]


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (b'{"position": ', "line 1 column 14"),
        (b'{"position": {"hand": ["7H",]}}', "line 1 column 29"),
        (b"{\n  'position': 1\n}", "line 2 column 3"),
        (b"\xff\xfe not utf-8", ""),
    ],
)
def test_malformed_json_is_400(server: str, raw: bytes, where: str) -> None:
    reply = call(server, "POST", "/solve", raw=raw)
    assert reply.status == 400, reply.text
    assert reply.body["field"] == "body"
    assert (
        "malformed JSON" in reply.body["error"] or "error parsing the body" in (reply.body["error"])
    )
    assert where in reply.body["error"]


def test_empty_body_is_422(server: str) -> None:
    reply = call(server, "POST", "/hint", raw=b"")
    assert reply.status == 422
    assert reply.body == {
        "error": "the request needs a JSON object body",
        "field": "body",
        "problems": [],
    }


@pytest.mark.parametrize("content_type", ["text/plain", None])
def test_body_must_be_sent_as_json(server: str, content_type: str | None) -> None:
    reply = call(
        server,
        "POST",
        "/solve",
        raw=json.dumps({"position": DEMO}).encode(),
        content_type=content_type,
    )
    assert reply.status == 415
    assert reply.body["field"] == "body"


def test_unknown_path_and_wrong_method_are_json(server: str) -> None:
    missing = call(server, "GET", "/nowhere")
    assert missing.status == 404
    assert missing.body == {"error": "Not Found", "field": None, "problems": []}
    wrong = call(server, "GET", "/solve")
    assert wrong.status == 405 and wrong.body["error"] == "Method Not Allowed"


def test_body_too_large_is_413(server: str) -> None:
    hand = ["7H"] * 20_000  # about 120 KiB of JSON, over the 64 KiB limit
    reply = call(server, "POST", "/solve", {"position": _position(hand=hand)})
    assert reply.status == 413
    assert reply.body == {
        "error": "request body too large: the limit is 65536 bytes",
        "field": "body",
        "problems": [],
    }
    assert call(server, "GET", "/health").status == 200


def test_chunked_body_too_large_is_413(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        chunks = iter([b'{"position": "', *[b"x" * 8192] * 10, b'"}'])
        connection.request(
            "POST",
            "/solve",
            body=chunks,
            encode_chunked=True,
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        assert response.status == 413
        assert json.loads(response.read())["field"] == "body"
    finally:
        connection.close()


def test_huge_declared_length_is_refused_before_reading(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n{"
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert json.loads(body)["field"] == "body"


def test_chunked_body_under_the_limit_is_read(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        text = json.dumps({"position": DEMO}).encode()
        chunks = iter([text[:10], text[10:50], text[50:]])
        connection.request(
            "POST",
            "/validate",
            body=chunks,
            encode_chunked=True,
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        assert response.status == 200
        assert json.loads(response.read())["valid"] is True
    finally:
        connection.close()


# ------------------------------------------------------------------ time limits and concurrency


def _large_position() -> dict[str, Any]:
    rules = get_ruleset("rami-chinois")
    position = random_position(
        random.Random(0), rules=rules, table_cards=70, hand_cards=14, jokers=4, opened=True
    )
    return position_to_json(position)


def test_tiny_time_limit_returns_the_best_answer_so_far(server: str) -> None:
    body = {"position": _large_position(), "time_limit": 0.001}
    reply = call(server, "POST", "/solve", body, timeout=30)
    assert reply.status == 200, reply.text
    assert reply.body["status"] in ("feasible", "optimal")
    assert reply.headers["x-rami-time-limit"] == "0.001"


def test_client_time_limit_is_capped(server: str) -> None:
    reply = call(server, "POST", "/solve", {"position": DEMO, "time_limit": 1e9})
    assert reply.status == 200
    assert reply.headers["x-rami-time-limit"] == f"{Settings().max_time_limit:g}"


def test_concurrent_solves_all_answer(server: str) -> None:
    results: list[int] = []
    lock = threading.Lock()

    def client(seed: int) -> None:
        position = random_position(
            random.Random(seed),
            rules=get_ruleset("rami-chinois"),
            table_cards=20,
            hand_cards=6,
            jokers=1,
            opened=True,
        )
        reply = call(server, "POST", "/solve", {"position": position_to_json(position)})
        with lock:
            results.append(reply.status)

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results == [200] * 8


def _post_in_thread(base: str, path: str, body: Any) -> tuple[threading.Thread, list[Reply]]:
    replies: list[Reply] = []
    thread = threading.Thread(target=lambda: replies.append(call(base, "POST", path, body)))
    thread.start()
    return thread, replies


def test_health_answers_while_a_solve_runs(tmp_path: Path) -> None:
    gate = GateSolve(str(tmp_path))
    with BackgroundServer(create_app(solve=gate)) as running:
        thread, replies = _post_in_thread(running.url, "/solve", {"position": DEMO})
        try:
            gate.wait_entered()
            health = call(running.url, "GET", "/health", timeout=5)
            assert health.status == 200 and health.body["status"] == "ok"
            assert call(running.url, "POST", "/validate", {"position": DEMO}).status == 200
            assert not replies, "the solve must still be running"
        finally:
            gate.open()
            thread.join(timeout=60)
    assert replies[0].status == 200 and replies[0].body["status"] == "optimal"


def test_server_busy_is_503_at_once(tmp_path: Path) -> None:
    gate = GateSolve(str(tmp_path))
    settings = Settings(solver_processes=1, max_pending=1)
    with BackgroundServer(create_app(settings, solve=gate)) as running:
        thread, replies = _post_in_thread(running.url, "/solve", {"position": DEMO})
        try:
            gate.wait_entered()
            busy = call(running.url, "POST", "/hint", {"position": DEMO}, timeout=10)
            assert busy.status == 503
            assert "server busy" in busy.body["error"]
            assert busy.headers["retry-after"] == "1"
        finally:
            gate.open()
            thread.join(timeout=60)
        assert replies[0].status == 200
        # The slot is free again once the solve ends.
        assert call(running.url, "POST", "/hint", {"position": DEMO}).status == 200


def _wait_gone(pids: list[int], timeout: float) -> float:
    """Seconds until none of ``pids`` runs (zombies count as ended); fails past ``timeout``."""
    from rami.service.pool import pids_alive

    started = time.monotonic()
    while pids_alive(pids):
        if time.monotonic() - started > timeout:
            pytest.fail(f"processes {pids_alive(pids)} still run after {timeout} s")
        time.sleep(0.005)
    return time.monotonic() - started


def test_a_solve_past_its_deadline_is_answered_503_and_stopped(tmp_path: Path) -> None:
    """Issue 22: the solve of a request answered 503 at its deadline is stopped (its solver
    process ends within 0.5 s), and the next requests get answers, not 503s."""
    gate = GateSolve(str(tmp_path), wait=60)
    settings = Settings(
        default_time_limit=0.05, max_time_limit=0.05, deadline_slack=0.3, solver_processes=1
    )
    with BackgroundServer(create_app(settings, solve=gate)) as running:
        try:
            started = time.monotonic()
            reply = call(running.url, "POST", "/solve", {"position": DEMO}, timeout=20)
            assert reply.status == 503
            assert "deadline" in reply.body["error"]
            assert time.monotonic() - started < 15
            assert _wait_gone(gate.entered(), timeout=0.5) < 0.5
            assert call(running.url, "GET", "/health").status == 200
            # The one solver process was replaced: a light job is answered at once.
            turn = call(
                running.url, "POST", "/validate-turn", {"position": DEMO, **DEMO_TURN}, timeout=10
            )
            assert turn.status == 200 and turn.body["legal"] is True
        finally:
            gate.open()


def test_a_client_that_leaves_stops_its_solve(tmp_path: Path) -> None:
    """Issue 22: a client that disconnects while its solve runs frees the solver: the solver
    process ends within 0.5 s and the next solve is served at once."""
    gate = GateSolve(str(tmp_path), wait=60)
    app = create_app(Settings(solver_processes=1), solve=gate)
    with BackgroundServer(app) as running:
        try:
            body = json.dumps({"position": DEMO}).encode()
            with socket.create_connection(("127.0.0.1", running.port), timeout=10) as sock:
                sock.sendall(
                    b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
                    b"application/json\r\nContent-Length: "
                    + str(len(body)).encode()
                    + b"\r\n\r\n"
                    + body
                )
                pids = gate.wait_entered()
            left = time.monotonic()
            _wait_gone(pids, timeout=0.5)
            assert time.monotonic() - left < 0.5
            assert app.state.pool.cancelled == 1
            gate.open()
            reply = call(running.url, "POST", "/solve", {"position": DEMO}, timeout=30)
            assert reply.status == 200 and reply.body["status"] == "optimal"
        finally:
            gate.open()


@pytest.mark.parametrize(
    ("time_limit", "words"),
    [
        (0.25, "internal server error"),
        (0.5, "internal solver error"),
        (0.75, "internal server error"),  # the solver process died
    ],
    ids=["exception", "solver bug", "process died"],
)
def test_internal_errors_are_json_without_traceback(time_limit: float, words: str) -> None:
    with BackgroundServer(create_app(solve=failing_solve), log_level="critical") as running:
        body = {"position": DEMO, "time_limit": time_limit}
        reply = call(running.url, "POST", "/solve", body, check_schema=False)
        assert reply.status == 500
        assert words in reply.body["error"]
        assert set(reply.body) == {"error", "field", "problems"}
        assert "Traceback" not in reply.text
        assert call(running.url, "GET", "/health").status == 200
        # A failed (or dead) solver process does not take the next solve with it.
        assert call(running.url, "POST", "/solve", {"position": DEMO}).status == 200


# ------------------------------------------------------------------ puzzles


def _demo_puzzle_record() -> dict[str, Any]:
    """A one-puzzle pack made from the demo position (the real generator is far slower)."""
    from rami.notation import meld_to_json
    from rami.puzzles.record import puzzle_id

    position = parse_position(DEMO_TEXT)
    solution = solve(position, time_limit=5.0)
    return {
        "id": puzzle_id(position),
        "kind": "best-score",
        "rules": position.rules.option_string,
        "position": position_to_json(position),
        "goal": {
            "kind": "best-score",
            "penalty_after": 10,
            "cards_played": 5,
            "shed": 34,
            "text": "Shed as many points as you can.",
        },
        "solution": [meld_to_json(meld) for meld in solution.table],
        "signature": "the intended solution",
        "difficulty": {
            "tier": "easy",
            "score": 7,
            "cards_moved": 4,
            "melds_broken": 1,
            "greedy_fails": False,
            "near_solutions": 0,
            "near_solutions_capped": False,
            "jokers_involved": 0,
            "cards_played": 5,
            "hand_cards": 6,
            "table_cards": 13,
            "table_melds": 3,
        },
    }


@pytest.fixture(scope="module")
def puzzle_server(server: str, demo_pack: tuple[Path, dict[str, Any]]) -> tuple[str, dict]:
    return server, demo_pack[1]


def test_daily_puzzle_of_a_date_hides_the_solution(puzzle_server: tuple[str, dict]) -> None:
    url, record = puzzle_server
    reply = call(url, "GET", "/puzzles/daily/2025-03-14")
    assert reply.status == 200
    assert reply.body["date"] == "2025-03-14"
    assert reply.body["id"] == record["id"]
    from rami.notation import position_from_json

    assert reply.body["position"] == position_json(position_from_json(record["position"]))
    assert reply.body["goal"] == record["goal"]
    assert isinstance(reply.body["themes"], list)
    assert not {"solution", "signature", "difficulty", "seed"} & set(reply.body)


def test_daily_puzzle_of_today(puzzle_server: tuple[str, dict]) -> None:
    url, record = puzzle_server
    reply = call(url, "GET", "/puzzles/daily")
    assert reply.status == 200
    assert reply.body["id"] == record["id"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", reply.body["date"])


@pytest.mark.parametrize("day", ["2025-13-01", "tomorrow", "2025-02-30"])
def test_daily_puzzle_bad_date_is_422(puzzle_server: tuple[str, dict], day: str) -> None:
    url, _ = puzzle_server
    reply = call(url, "GET", "/puzzles/daily/" + day)
    assert reply.status == 422
    assert reply.body["field"] == "date"


def test_puzzle_check_intended_solution(puzzle_server: tuple[str, dict]) -> None:
    url, record = puzzle_server
    reply = call(url, "POST", "/puzzles/check", {"id": record["id"], "table": record["solution"]})
    assert reply.status == 200
    assert reply.body == {
        "id": record["id"],
        "solved": True,
        "intended": True,
        "legal": True,
        "reasons": ["solved: this is the intended solution"],
        "penalty_after": 10,
        "cards_played": 5,
    }


def test_puzzle_check_text_table_not_solved(puzzle_server: tuple[str, dict]) -> None:
    url, record = puzzle_server
    table = "3H 4H 5H 6H 7H 8H 9H | QS QD QC QH | 5C 6C 7C 8C"
    reply = call(url, "POST", "/puzzles/check", {"id": record["id"], "table": table})
    assert reply.status == 200
    assert reply.body["solved"] is False and reply.body["legal"] is True
    assert reply.body["penalty_after"] == 26  # 44 - QH 10 - 8C 8


def test_puzzle_check_illegal_table(puzzle_server: tuple[str, dict]) -> None:
    url, record = puzzle_server
    table = [["3H", "4H", "5H", "6H", "7H", "8H", "9H"], ["QS", "QD", "QC", "KD"]]
    reply = call(url, "POST", "/puzzles/check", {"id": record["id"], "table": table})
    assert reply.status == 200
    assert reply.body["legal"] is False and reply.body["solved"] is False
    assert reply.body["reasons"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"id": "rc-nope", "table": []}, 404, "id"),
        ({"id": "x", "table": [["3H", "4H", "ZZ"]]}, 422, "table[0][2]"),
        ({"id": "x", "table": "3H 4H 5H | 7H ZZ"}, 422, "table"),
        ({"id": "x", "table": "- / 7H"}, 422, "table"),
        ({"id": 5, "table": []}, 422, "id"),
        ({"table": []}, 422, "id"),
    ],
)
def test_puzzle_check_bad_input(
    puzzle_server: tuple[str, dict], body: Any, status: int, field: str
) -> None:
    url, _ = puzzle_server
    reply = call(url, "POST", "/puzzles/check", body)
    assert reply.status == status, reply.text
    assert reply.body["field"] == field, reply.body


def test_missing_puzzle_pack_is_503(tmp_path: Path) -> None:
    settings = Settings(puzzle_pack=str(tmp_path / "missing.jsonl"))
    with BackgroundServer(create_app(settings), log_level="critical") as running:
        reply = call(running.url, "GET", "/puzzles/daily/2025-01-01")
        assert reply.status == 503
        assert "no puzzle pack available" in reply.body["error"]
        # The server's paths stay on the server (in its log).
        assert str(tmp_path) not in reply.text and "missing.jsonl" not in reply.text
        assert call(running.url, "GET", "/health").status == 200


# ------------------------------------------------------------------ settings


def test_settings_from_env_and_back() -> None:
    settings = Settings.from_env(
        {
            "RAMI_SERVICE_MAX_BODY_BYTES": "1000",
            "RAMI_SERVICE_MAX_TIME_LIMIT": "2.5",
            "RAMI_SERVICE_DEFAULT_TIME_LIMIT": "1",
        }
    )
    assert settings.max_body_bytes == 1000 and settings.max_time_limit == 2.5
    assert Settings.from_env(settings.to_env()) == settings
    assert settings.time_limit(None) == 1.0
    assert settings.time_limit(100) == 2.5
    assert settings.time_limit(0.5) == 0.5


@pytest.mark.parametrize(
    "changes",
    [
        {"max_body_bytes": 0},
        {"max_time_limit": float("nan")},
        {"solver_processes": True},
        {"header_timeout": 0},
        {"cors_origins": "https://a.example"},
        {"docs": "yes"},
        {"default_time_limit": 20.0, "max_time_limit": 10.0},
    ],
)
def test_bad_settings_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Settings(**changes)


def test_bad_settings_env_is_refused() -> None:
    with pytest.raises(ValueError, match="RAMI_SERVICE_MAX_PENDING"):
        Settings.from_env({"RAMI_SERVICE_MAX_PENDING": "many"})


# ------------------------------------------------------------------ rami serve (a real process)


def test_serve_in_a_process_stops_cleanly() -> None:
    """``python -m rami.service`` (serve() with one worker): answers, then SIGTERM ends it
    after a graceful shutdown (uvicorn then re-raises the signal: exit status -15)."""
    with ServerProcess(log_level="info") as running:
        assert call(running.url, "GET", "/health").status == 200
        hint = call(running.url, "POST", "/hint", {"position": DEMO_TEXT, "level": 1})
        assert hint.status == 200 and hint.body["points_shed"] == 34
        # Issue 22: X-Forwarded-For was believed from any peer; the access log shows the
        # client the app sees, which must stay the TCP peer.
        forged = call(running.url, "GET", "/health", headers={"X-Forwarded-For": "6.6.6.6"})
        assert forged.status == 200
        assert running.stop() in (0, -signal.SIGTERM)
    log = running.log.decode()
    assert '"GET /health HTTP/1.1" 200' in log
    assert "6.6.6.6" not in log
    assert f"Uvicorn running on http://127.0.0.1:{running.port}" in log
    assert "Application shutdown complete" in log
    assert "Traceback" not in log


@pytest.mark.parametrize(
    ("options", "words"), [({"workers": 0}, "workers"), ({"port": 70000}, "port")]
)
def test_serve_refuses_bad_options(options: dict[str, int], words: str) -> None:
    from rami.service.cli import serve

    with pytest.raises(ValueError, match=words):
        serve(**options)


def test_serve_in_a_process_with_two_workers_and_env_settings() -> None:
    """What ``rami serve --workers 2`` runs: settings reach every worker through the env."""
    with ServerProcess(workers=2, env={"RAMI_SERVICE_MAX_BODY_BYTES": "2000"}) as running:
        assert call(running.url, "GET", "/health").body == {"status": "ok", "version": __version__}
        reply = call(running.url, "POST", "/solve", {"position": DEMO})
        assert reply.status == 200 and reply.body["status"] == "optimal"
        big = call(running.url, "POST", "/solve", {"position": _position(hand=["7H"] * 500)})
        assert big.status == 413
        assert big.body["error"] == "request body too large: the limit is 2000 bytes"
        assert running.stop() == 0


# ------------------------------------------------------------------ docs/service.md is true


@dataclass(frozen=True)
class CurlExample:
    line: int
    command: str
    output: list[str]


def _curl_examples() -> list[CurlExample]:
    text = SERVICE_DOC.read_text(encoding="utf-8")
    examples = []
    for block in re.finditer(r"^```shell-session\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        first_line = text.count("\n", 0, block.start()) + 2
        lines = block.group(1).splitlines()
        index = 0
        while index < len(lines):
            if not lines[index].startswith("$ "):
                index += 1
                continue
            start = index
            command = lines[index][2:]
            while command.endswith("\\"):
                index += 1
                command = command[:-1] + " " + lines[index].strip()
            index += 1
            output = []
            while index < len(lines) and not lines[index].startswith("$ "):
                output.append(lines[index])
                index += 1
            examples.append(CurlExample(first_line + start, command, output))
    return examples


def test_docs_show_every_endpoint() -> None:
    commands = " ".join(example.command for example in CURL_EXAMPLES)
    for pattern in (
        r"/health\b",
        r"/rulesets\s",
        r"/rulesets/[\w-]",
        r"/solve\b",
        r"/hint\b",
        r"/validate-turn\b",
        r"/validate\s",
        r"/openapi\.json",
        r"/puzzles/daily/\d",
        r"/puzzles/check\b",
    ):
        assert re.search(pattern, commands), pattern
    assert "rami serve --port 8000" in SERVICE_DOC.read_text(encoding="utf-8")


def _split_pipe(command: str) -> tuple[str, str]:
    """``curl ... | jq .`` -> (``curl ...``, ``jq .``): the first ``|`` outside quotes."""
    quote = ""
    for index, char in enumerate(command):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "|":
            return command[:index].strip(), command[index + 1 :].strip()
    return command, ""


# Only commands that start with curl can be replayed; the 413 example pipes a generated body
# in and is covered by the body-size tests above.
CURL_EXAMPLES = [
    e for e in _curl_examples() if shlex.split(_split_pipe(e.command)[0])[:1] == ["curl"]
]


# ------------------------------------------------------------------ jq, emulated
#
# The examples pipe curl into jq. jq is not installed everywhere (a fresh CI machine lacks it),
# so the few filters docs/service.md uses are emulated here, output format included (checked
# against jq 1.6): `.`, `.[]`, `.a.b`, `keys`, `|`, `( )` and `{a, b: filter}`, with `-c`
# (compact) and `-r` (raw strings). Anything else is refused, never guessed at.


class JqError(Exception):
    """A jq command or filter the emulation does not know, or jq's own runtime error."""


_JQ_TOKEN = re.compile(r"\s*(\.\[\]|\.[A-Za-z_]\w*|\.|[A-Za-z_]\w*|[{}():,|])")


def _jq_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "object", list: "array", str: "string"}.get(type(value), "number")


def _jq_field(value: Any, name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise JqError(f'jq: Cannot index {_jq_kind(value)} with "{name}"')
    return value.get(name)


def _jq_iterate(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return list(value)
    raise JqError(f"jq: Cannot iterate over {_jq_kind(value)}")


def _jq_keys(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return sorted(value)
    if isinstance(value, list):
        return list(range(len(value)))
    raise JqError(f"jq: {_jq_kind(value)} has no keys")


class _JqProgram:
    """A jq filter parsed into a function: input value -> list of outputs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        position, text = 0, text.strip()
        while position < len(text):
            match = _JQ_TOKEN.match(text, position)
            if match is None:
                self._refuse(f"at {text[position:]!r}")
            self.tokens.append(match.group(1))
            position = match.end()
        self.index = 0
        self.run = self._pipe()
        if self.index != len(self.tokens):
            self._refuse(f"at {self.tokens[self.index]!r}")

    def _refuse(self, where: str) -> NoReturn:
        raise JqError(
            f"jq filter {self.text!r} is not emulated ({where}): "
            "teach tests/test_service.py this filter, or use one it knows"
        )

    def _peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def _next(self) -> str:
        token = self._peek()
        if token is None:
            self._refuse("unexpected end")
        self.index += 1
        return token

    def _pipe(self) -> Any:
        stages = [self._term()]
        while self._peek() == "|":
            self._next()
            stages.append(self._term())

        def run(value: Any) -> list[Any]:
            outputs = [value]
            for stage in stages:
                outputs = [output for item in outputs for output in stage(item)]
            return outputs

        return run

    def _term(self) -> Any:
        token = self._next()
        if token == ".":
            return lambda value: [value]
        if token == ".[]":
            return _jq_iterate
        if token.startswith("."):
            names = [token[1:]]
            while (self._peek() or "").startswith(".") and self._peek() not in (".", ".[]"):
                names.append(self._next()[1:])

            def path(value: Any) -> list[Any]:
                for name in names:
                    value = _jq_field(value, name)
                return [value]

            return path
        if token == "keys":
            return lambda value: [_jq_keys(value)]
        if token == "(":
            inner = self._pipe()
            if self._next() != ")":
                self._refuse("expected ')'")
            return inner
        if token == "{":
            return self._object()
        self._refuse(f"at {token!r}")

    def _object(self) -> Any:
        entries = []
        while True:
            key = self._next()
            if not key.isidentifier():
                self._refuse(f"object key {key!r}")
            if self._peek() == ":":
                self._next()
                entries.append((key, self._pipe()))
            else:
                entries.append((key, lambda value, key=key: [_jq_field(value, key)]))
            separator = self._next()
            if separator == "}":
                break
            if separator != ",":
                self._refuse(f"at {separator!r} in an object")

        def build(value: Any) -> list[Any]:
            objects: list[dict[str, Any]] = [{}]
            for key, entry in entries:
                objects = [{**made, key: output} for made in objects for output in entry(value)]
            return objects

        return build


def _jq_number(number: float) -> str:
    """A number as jq 1.6 prints it: a double, shortest digits, exponent beyond 17 digits."""
    try:
        value = float(number)
    except OverflowError:
        value = math.copysign(math.inf, number)
    if math.isnan(value):
        return "null"
    if math.isinf(value):
        value = math.copysign(sys.float_info.max, value)
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    sign, digit_tuple, exponent = decimal.Decimal(repr(value)).as_tuple()
    point = len(digit_tuple) + int(exponent)  # digits before the decimal point
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    if point <= -4 or point > len(digits) + 15:
        power = point - 1
        text = (
            digits[0]
            + ("." + digits[1:] if len(digits) > 1 else "")
            + ("e-" if power < 0 else "e+")
            + f"{abs(power):02d}"
        )
    elif point <= 0:
        text = "0." + "0" * -point + digits
    elif point < len(digits):
        text = digits[:point] + "." + digits[point:]
    else:
        text = digits + "0" * (point - len(digits))
    return "-" + text if sign else text


def _jq_dump(value: Any, compact: bool, depth: int = 0) -> str:
    """jq's output: 2-space indent and ``": "`` (or compact ``{"a":1}``), UTF-8 kept."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _jq_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, dict):
        colon = ":" if compact else ": "
        items = [
            _jq_dump(str(key), True) + colon + _jq_dump(item, compact, depth + 1)
            for key, item in value.items()
        ]
        opening, closing = "{", "}"
    elif isinstance(value, list):
        items = [_jq_dump(item, compact, depth + 1) for item in value]
        opening, closing = "[", "]"
    else:
        raise JqError(f"jq: cannot print {value!r}")
    if not items:
        return opening + closing
    if compact:
        return opening + ",".join(items) + closing
    indent = "\n" + "  " * (depth + 1)
    return opening + indent + ("," + indent).join(items) + "\n" + "  " * depth + closing


def run_jq(command: str, text: str) -> str:
    """What ``command`` (``jq [-c] [-r] FILTER``) prints for the JSON ``text`` on its stdin."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    if words[:1] != ["jq"] or any(word and set(word) <= set("|&;<>()") for word in words):
        raise JqError(f"{command!r}: only a single jq command is emulated after curl")
    compact = raw = False
    filters = []
    for word in words[1:]:
        if word.startswith("-") and len(word) > 1:
            for flag in word[1:]:
                if flag not in "cr":
                    raise JqError(f"{command!r}: jq option -{flag} is not emulated")
                compact, raw = compact or flag == "c", raw or flag == "r"
        else:
            filters.append(word)
    if len(filters) != 1:
        raise JqError(f"{command!r}: give jq exactly one filter and no file")
    outputs = _JqProgram(filters[0]).run(json.loads(text))
    return "".join(
        (output if raw and isinstance(output, str) else _jq_dump(output, compact)) + "\n"
        for output in outputs
    )


@pytest.mark.parametrize(
    ("command", "text", "printed"),
    [
        (
            "jq .",
            '{"a": [1, {"b": "é♥"}], "e": [], "o": {}}',
            '{\n  "a": [\n    1,\n    {\n      "b": "é♥"\n    }\n  ],\n  "e": [],\n  "o": {}\n}\n',
        ),
        ("jq -c .", '{"b": 2, "a": [1.0, null, true]}', '{"b":2,"a":[1,null,true]}\n'),
        ("jq -c '.[]'", '[{"n": 1}, "x"]', '{"n":1}\n"x"\n'),
        ("jq -c '.[]'", '{"a": 1, "b": [2]}', "1\n[2]\n"),
        ("jq -r .hint", '{"hint": "line 1\\nline 2 ♦"}', "line 1\nline 2 ♦\n"),
        ("jq -r .hint", '{"hint": [1]}', "[\n  1\n]\n"),
        ("jq -r .hint", "{}", "null\n"),
        ("jq -c '{s, b}'", '{"b": {"x": 0}, "s": "ok", "t": 1}', '{"s":"ok","b":{"x":0}}\n'),
        (
            "jq -c '{title: .info.title, paths: (.paths | keys)}'",
            '{"info": {"title": "T"}, "paths": {"/b": 1, "/a": 2}}',
            '{"title":"T","paths":["/a","/b"]}\n',
        ),
        (
            "jq -c .",
            "[22.83, 22.0, -0.0, 1e-5, 0.0001, 1e20, 12345678901234567890, 1e300]",
            "[22.83,22,-0,1e-05,0.0001,1e+20,12345678901234567000,1e+300]\n",
        ),
        ("jq .", '"tab\\t del\\u007f unit\\u001f"', '"tab\\t del\\u007f unit\\u001f"\n'),
    ],
)
def test_jq_emulation_prints_what_jq_prints(command: str, text: str, printed: str) -> None:
    """Outputs as jq 1.6 prints them (each checked against /usr/bin/jq)."""
    assert run_jq(command, text) == printed


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("jq '.[0]'", "not emulated"),
        ("jq -c 'map(.name)'", "not emulated"),
        ("jq -S .", "option -S"),
        ("jq", "exactly one filter"),
        ("head -1", "only a single jq command"),
        ("jq .a.b | head", "only a single jq command"),
        ("jq -r .hint", "Cannot index number"),
    ],
)
def test_jq_emulation_refuses_what_it_does_not_know(command: str, words: str) -> None:
    with pytest.raises(JqError, match=re.escape(words)):
        run_jq(command, "3")


# ------------------------------------------------------------------ the examples, replayed


def _replay(example: CurlExample, base: str) -> tuple[int, str, str] | None:
    """Run a documented ``curl`` command against ``base``: (status, body, the pipeline after
    it); None for commands that do not start with ``curl``."""
    command, pipeline = _split_pipe(example.command)
    words = shlex.split(command)
    if not words or words[0] != "curl":
        return None
    method, data, headers, url = "GET", None, {}, ""
    index = 1
    while index < len(words):
        word = words[index]
        if word in ("-X", "--request"):
            method = words[index + 1]
            index += 1
        elif word in ("-H", "--header"):
            name, _, value = words[index + 1].partition(":")
            headers[name.strip()] = value.strip()
            index += 1
        elif word in ("-d", "--data", "--data-binary"):
            data = words[index + 1].encode()
            method = "POST" if method == "GET" else method
            index += 1
        elif word.startswith("http"):
            url = word
        index += 1
    path = urllib.parse.urlsplit(url)
    target = base + path.path + (f"?{path.query}" if path.query else "")
    request = urllib.request.Request(target, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode(), pipeline
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), pipeline


def _same_output(expected: list[str], actual: list[str]) -> bool:
    """Equal up to timings: as one JSON document, else line by line (JSON or text)."""
    try:
        return _without_ms(json.loads("\n".join(actual))) == _without_ms(
            json.loads("\n".join(expected))
        )
    except ValueError:
        pass
    if len(expected) != len(actual):
        return False
    for want, got in zip(expected, actual, strict=True):
        try:
            if _without_ms(json.loads(want)) != _without_ms(json.loads(got)):
                return False
        except ValueError:
            if _without_ms(want) != _without_ms(got):
                return False
    return True


@pytest.mark.parametrize("example", CURL_EXAMPLES, ids=[f"line {e.line}" for e in CURL_EXAMPLES])
def test_docs_curl_example_output(server: str, example: CurlExample) -> None:
    """Each ``curl`` example of docs/service.md, sent to a live server, answers what is shown
    (the ``| jq`` after it emulated by :func:`run_jq`)."""
    replayed = _replay(example, server)
    assert replayed is not None, example.command
    status, body, pipeline = replayed
    output = list(example.output)
    if output and output[0].startswith("HTTP/1.1 "):  # curl -i: status line and headers
        assert int(output[0].split()[1]) == status, (example.command, body)
        assert "content-type: application/json" in output, example.command
        output = output[output.index("") + 1 :]
    else:
        assert status == 200, (example.command, body)
    if pipeline:
        try:
            printed = run_jq(pipeline, body)
        except JqError as error:
            pytest.fail(f"docs/service.md:{example.line}: {error}")
        actual = printed.rstrip("\n").split("\n")
    else:
        actual = body.split("\n")
    assert _same_output(output, actual), (
        f"docs/service.md:{example.line}: `{example.command}` now gives:\n" + "\n".join(actual)
    )
