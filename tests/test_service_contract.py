"""The service's contract and its hostile-input bounds:
typed responses that /openapi.json describes exactly, one meld shape, every field present; the
text notation under the card cap, bounded error bodies, HEAD, CORS, no slash redirects.

A real server on a free loopback port (in a thread of this process).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from rami import parse_position, solve
from rami.hints import make_hint
from rami.puzzles import answers as puzzle_answers
from rami.puzzles import record as puzzle_record
from rami.rules import PRESETS, get_ruleset
from rami.service import Settings, create_app, schemas
from rami.service.errors import MAX_ERROR_CHARS, MAX_PROBLEMS, error_body
from rami.service.inputs import MAX_CARDS, MAX_TEXT_CHARS, text_card_bound
from rami.service.output import daily_json, solution_json
from rami.service.testing import BackgroundServer, SchemaChecker

DEMO_TEXT = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 6H QH 8C 5D 5S KD / rami-chinois opened"
#: The contract's example: a set marked with its kind, then a plain run.
MIXED = "set: 7H * * | 3S 4S 5S / 6S 9D / rami-chinois opened"


def http(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    *,
    headers: dict[str, str] | None = None,
    raw: bytes | None = None,
    timeout: float = 60,
) -> tuple[int, dict[str, str], bytes]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return (
                response.status,
                {k.lower(): v for k, v in response.headers.items()},
                response.read(),
            )
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app(Settings(default_time_limit=5.0))) as running:
        yield running.url


@pytest.fixture(scope="module")
def checker(server: str) -> SchemaChecker:
    return SchemaChecker.served_by(server)


# ------------------------------------------------------------------ every endpoint, checked

#: One real request per operation of this service (method, path, body).
OPERATIONS: list[tuple[str, str, Any]] = [
    ("GET", "/health", None),
    ("HEAD", "/health", None),
    ("GET", "/rulesets", None),
    ("GET", "/rulesets/rami-fou", None),
    ("POST", "/validate", {"position": DEMO_TEXT}),
    ("POST", "/solve", {"position": MIXED}),
    ("POST", "/solve", {"position": "5H 6H 7H * / 8H 9C 9D 2S / rami-fou opened"}),
    ("POST", "/hint", {"position": DEMO_TEXT, "level": 1}),
    ("POST", "/hint", {"position": DEMO_TEXT, "level": 2}),
    ("POST", "/hint", {"position": "- / 2C 9H / rami-chinois", "level": 2}),
    ("POST", "/hint", {"position": MIXED, "level": 3}),
    ("POST", "/validate-turn", {"position": DEMO_TEXT, "table_after": [], "played": []}),
    ("GET", "/puzzles/daily", None),
    ("GET", "/puzzles/daily/2025-03-14", None),
    ("POST", "/puzzles/check", {"id": "rc-nope", "table": []}),
    ("POST", "/puzzles/check", {"id": None, "table": []}),
    ("POST", "/solve", {"position": "- / 7H 7H 7H"}),
    ("GET", "/rulesets/rami-99", None),
]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    OPERATIONS,
    ids=[f"{m} {p} {i}" for i, (m, p, _) in enumerate(OPERATIONS)],
)
def test_real_answers_match_the_published_schema(
    server: str, checker: SchemaChecker, method: str, path: str, body: Any
) -> None:
    status, headers, payload = http(server, method, path, body)
    parsed = json.loads(payload) if payload else None
    assert checker.check(method, path, status, parsed), f"{method} {path} is not documented"
    if status < 300 and method != "HEAD":
        assert headers["content-type"] == "application/json"


def test_the_checker_catches_a_wrong_answer(server: str, checker: SchemaChecker) -> None:
    good = json.loads(http(server, "POST", "/solve", {"position": MIXED})[2])
    checker.check("POST", "/solve", 200, good)
    for wrong in (
        {**good, "table": [["7H", "*", "*"]]},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "bounds"},
    ):
        with pytest.raises(AssertionError, match="does not match"):
            checker.check("POST", "/solve", 200, wrong)
    with pytest.raises(AssertionError, match="not documented"):
        checker.check("POST", "/solve", 418, good)


def test_every_operation_of_the_service_is_exercised(checker: SchemaChecker) -> None:
    mine = {(m.lower(), checker.operation(m, p)) for m, p, _ in OPERATIONS}
    ours = {
        "/health",
        "/rulesets",
        "/rulesets/{name}",
        "/validate",
        "/solve",
        "/hint",
        "/validate-turn",
        "/puzzles/daily",
        "/puzzles/daily/{date}",
        "/puzzles/check",
    }
    documented = {
        (method, path)
        for path, ops in checker.document["paths"].items()
        for method in ops
        if path in ours
    }
    assert documented <= mine


def test_a_solution_sends_one_meld_shape_and_every_field(server: str) -> None:
    """``[{"kind": "set", ...}, ["3S", ...]]`` mixed shapes; ``bounds`` only
    sometimes; no ``discard`` in the schema."""
    status, _, payload = http(server, "POST", "/solve", {"position": MIXED})
    body = json.loads(payload)
    assert status == 200
    assert all(set(meld) == {"kind", "cards"} for meld in body["table"])
    assert {meld["kind"] for meld in body["table"]} == {"run", "set"}
    assert set(body) == set(schemas.SolutionOut.model_fields)
    assert body["bounds"] is None and body["discard"] is None
    level3 = json.loads(http(server, "POST", "/hint", {"position": MIXED, "level": 3})[2])
    assert all(set(meld) == {"kind", "cards"} for meld in level3["solution"]["table"])


def test_the_library_json_has_no_key_the_models_lack() -> None:
    """Drift guard: the models drop unknown keys at run time (never a 500), so a key the
    library adds must be added to :mod:`rami.service.schemas` too; this test says which."""
    for name in [*PRESETS, "rami-chinois[jokers=0]"]:
        assert set(get_ruleset(name).describe()) == set(schemas.RulesetOut.model_fields)
    solution = solve(parse_position(MIXED), time_limit=5)
    data = solution.to_json()
    assert set(data) <= set(schemas.SolutionOut.model_fields)
    assert set(data["moves"][0]) == {"from", "to", "kind", "cards", "text"}
    for level, model in (
        (1, schemas.HintLevel1Out),
        (2, schemas.HintLevel2Out),
        (3, schemas.HintLevel3Out),
    ):
        assert set(make_hint(solution, level).to_json()) == set(model.model_fields)
    puzzle = puzzle_record.shipped_pack()[0]
    public = puzzle_record.public_json(puzzle)
    assert {"date", "theme_names", *public} == set(schemas.PuzzleOut.model_fields)
    assert set(public["goal"]) == set(schemas.GoalOut.model_fields)
    assert set(daily_json(date(2025, 1, 1), puzzle)) == set(schemas.PuzzleOut.model_fields)
    verdict = puzzle_answers.check_answer(puzzle, puzzle.solution)
    assert {"id", *verdict.to_json()} == set(schemas.CheckOut.model_fields)


def test_solution_json_is_the_library_json_but_the_melds() -> None:
    solution = solve(parse_position(MIXED), time_limit=5)
    library, service = solution.to_json(), solution_json(solution)
    assert {k: v for k, v in service.items() if k not in ("table", "bounds")} == {
        k: v for k, v in library.items() if k not in ("table", "bounds")
    }
    assert [m["cards"] for m in service["table"]] == [
        m["cards"] if isinstance(m, dict) else m for m in library["table"]
    ]


# ------------------------------------------------------------------ hostile input


def _big_text(cards: int) -> str:
    """``cards`` cards in a text position (13,500 fit in 49.5 KB)."""
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in "A23456789TJQK"]
    return "- / " + " ".join(deck[i % 52] for i in range(cards))


@pytest.mark.parametrize("path", ["/validate", "/solve", "/hint"])
def test_the_text_notation_cannot_bypass_the_card_cap(server: str, path: str) -> None:
    """13,500 cards as text got a 422 with a 399 KB body on /solve and a 200 on
    /validate."""
    text = _big_text(13_500)[:60_000]
    status, _, payload = http(server, "POST", path, {"position": text})
    assert status == 422
    assert len(payload) < 1024
    assert json.loads(payload)["field"] == "position"
    short = _big_text(1000)  # under the text length limit, over the card cap
    assert len(short) <= MAX_TEXT_CHARS
    status, _, payload = http(server, "POST", path, {"position": short})
    assert status == 422 and f"at most {MAX_CARDS}" in json.loads(payload)["error"]


def test_text_card_bound_is_an_upper_bound_cheap_and_close() -> None:
    for text in (
        DEMO_TEXT,
        MIXED,
        "run: 7H 8H * | set: QS QD * / 10H 10♥ 🃏 / rami-fou",
        "7H8H9H / TS JS / rami-chinois opened",
        "- / -",
    ):
        position = parse_position(text)
        count = position.table_size + len(position.hand)
        assert count <= text_card_bound(text) <= count + 1
    started = time.perf_counter()
    text_card_bound(_big_text(13_500))
    assert time.perf_counter() - started < 0.05


def test_big_inputs_do_not_stall_the_event_loop(server: str) -> None:
    """8 clients sending such positions pushed /health from 5 ms to 1.9 s."""
    text = _big_text(13_500)[:60_000]
    stop = threading.Event()

    def hammer() -> None:
        deadline = time.monotonic() + 10
        while not stop.is_set() and time.monotonic() < deadline:
            http(server, "POST", "/solve", {"position": text})

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    try:
        times = []
        for _ in range(20):
            started = time.monotonic()
            assert http(server, "GET", "/health")[0] == 200
            times.append(time.monotonic() - started)
            time.sleep(0.02)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=20)
    assert max(times) < 1.0, max(times)


def test_error_bodies_are_bounded() -> None:
    body = error_body(
        "x" * 100_000, "position", [f"problem {i} " + "y" * 1000 for i in range(10_000)]
    )
    assert len(body["error"]) == MAX_ERROR_CHARS
    assert len(body["problems"]) == MAX_PROBLEMS
    assert body["problems"][-1].endswith("more problems")
    assert len(json.dumps(body)) < 20_000


def test_a_long_ruleset_name_is_not_echoed_whole(server: str) -> None:
    name = "rami-chinois[" + "jokers=0," * 5000 + "]"
    status, _, payload = http(
        server, "POST", "/validate", {"position": {"rules": name, "hand": ["7H"]}}
    )
    assert status == 422 and len(payload) < 1024


def test_head_health(server: str) -> None:
    status, _, payload = http(server, "HEAD", "/health")
    assert status == 200 and payload == b""


def test_post_with_a_trailing_slash_is_a_json_404(server: str) -> None:
    status, headers, payload = http(
        server, "POST", "/solve/", {"position": DEMO_TEXT}, headers={"Host": "evil.example"}
    )
    assert status == 404 and "location" not in headers
    assert json.loads(payload)["error"] == "Not Found"


def test_cors_is_off_by_default(server: str) -> None:
    origin = {"Origin": "https://game.example"}
    status, headers, _ = http(server, "GET", "/health", headers=origin)
    assert status == 200 and "access-control-allow-origin" not in headers
    status, headers, _ = http(
        server, "OPTIONS", "/solve", headers={**origin, "Access-Control-Request-Method": "POST"}
    )
    assert status == 405 and "access-control-allow-origin" not in headers


def test_cors_origins_are_an_option() -> None:
    settings = Settings(cors_origins=("https://game.example",))
    with BackgroundServer(create_app(settings)) as running:
        status, headers, _ = http(
            running.url,
            "POST",
            "/validate",
            {"position": DEMO_TEXT},
            headers={"Origin": "https://game.example"},
        )
        assert status == 200
        assert headers["access-control-allow-origin"] == "https://game.example"
        assert "x-rami-time-limit" in headers["access-control-expose-headers"].lower()
        status, headers, _ = http(
            running.url,
            "OPTIONS",
            "/solve",
            headers={
                "Origin": "https://game.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        )
        assert status == 200 and "POST" in headers["access-control-allow-methods"]
        status, headers, _ = http(
            running.url, "GET", "/health", headers={"Origin": "https://other.example"}
        )
        assert "access-control-allow-origin" not in headers


def test_settings_from_env_read_lists_and_flags() -> None:
    settings = Settings.from_env(
        {
            "RAMI_SERVICE_CORS_ORIGINS": "https://a.example, https://b.example",
            "RAMI_SERVICE_DOCS": "true",
            "RAMI_SERVICE_FORWARDED_ALLOW_IPS": "10.0.0.2",
            "RAMI_SERVICE_SOLVER_THREADS": "3",  # the old name still read
        }
    )
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.docs is True and settings.forwarded_allow_ips == "10.0.0.2"
    assert settings.solver_processes == 3
    assert Settings.from_env(settings.to_env()) == settings
    with pytest.raises(ValueError, match="RAMI_SERVICE_DOCS"):
        Settings.from_env({"RAMI_SERVICE_DOCS": "maybe"})


def test_python_m_rami_service_options() -> None:
    """--cors-origin (repeatable), --docs and --forwarded-allow-ips reach the app's settings
    (the server itself does not start: its run and its socket are stand-ins)."""
    from unittest import mock

    import uvicorn

    from rami.service import __main__ as entry

    apps: list[Any] = []
    with (
        mock.patch.object(
            uvicorn.Server, "run", lambda self, sockets=None: apps.append(self.config.app)
        ),
        mock.patch("rami.service.supervise.bind_socket") as bind,
        pytest.raises(SystemExit),
    ):  # a server that never started exits 3
        bind.return_value.getsockname.return_value = ("127.0.0.1", 0)
        entry.main(
            [
                "--port",
                "0",
                "--cors-origin",
                "https://a.example",
                "--cors-origin",
                "https://b.example",
                "--docs",
                "--forwarded-allow-ips",
                "127.0.0.1",
            ]
        )
    settings = apps[0].state.settings
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.docs is True and settings.forwarded_allow_ips == "127.0.0.1"
