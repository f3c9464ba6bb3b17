"""The HTTP service in tests (test_service_endpoints.py, _bad_input, _requests, _concurrency,
_puzzles, _settings and _docs): the demo position and turn, one request whose reply is checked
against the server's own /openapi.json, and the session's server as a module fixture."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

import pytest

from rami import parse_position, position_to_json, solve
from rami.service.testing import SchemaChecker

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
        _CHECKERS[base] = SchemaChecker.served_by(base)
    return _CHECKERS[base]


def without_ms(value: Any) -> Any:
    """Timings differ between two runs of the same solve: drop them before comparing."""
    if isinstance(value, dict):
        return {key: without_ms(item) for key, item in value.items() if key != "ms"}
    if isinstance(value, list):
        return [without_ms(item) for item in value]
    if isinstance(value, str):
        return re.sub(r"\d+(?:\.\d+)? ms\b", "N ms", value)
    return value


def demo_position(**changes: Any) -> dict[str, Any]:
    return {**DEMO, **changes}


def demo_puzzle_record() -> dict[str, Any]:
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
def server(service_server: str) -> str:
    """The session's server (``service_server`` in tests/conftest.py: one for every module of
    the service's tests, serving the demo pack), as this module's fixture. Under ``pytest -n``
    every module that uses it runs in one worker (tests/conftest.py), which starts it once."""
    return service_server
