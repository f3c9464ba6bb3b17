"""The HTTP service's puzzles, over real HTTP: the daily puzzle (of a date, of today) without its
solution, a bad date refused; answers checked (the intended solution, a legal table short of the
goal, an illegal one, bad input naming the field); a missing pack is a 503.

Every test talks to a real uvicorn server on a free loopback port (127.0.0.1 only), in a thread
of this process (:class:`rami.service.testing.BackgroundServer`): the session's
(tests/conftest.py), which serves a one-puzzle pack of the demo position, or one of a test's own.
Servers are always shut down.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import support.service as shared
from support.service import call

from rami.service import Settings, create_app
from rami.service.output import position_json
from rami.service.testing import BackgroundServer

#: The session's service (tests/conftest.py), this module's fixture.
server = shared.server


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
