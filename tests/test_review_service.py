"""``POST /review`` and ``POST /alternatives``: what the documented examples (docs/service.md,
replayed by test_service_docs.py) do not show: bad input is a 422 naming the field, never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rami.service import create_app
from rami.service.testing import BackgroundServer, post_json


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app()) as running:
        yield running.url


@pytest.mark.parametrize(
    ("path", "body", "field", "words"),
    [
        (
            "/alternatives",
            {"position": "- / 7H 8H 9H KD / rami-51", "top": 3},
            "position.rules",
            "not yet for rami-51",
        ),
        ("/alternatives", {"position": "- / 7H 8H 9H", "top": 0}, "top", ""),
        ("/alternatives", {"position": "- / 7H 8H 9H", "top": 51}, "top", ""),
        (
            "/review",
            {"position": "- / 7H 8H 9H", "table_after": [["7H", "8X", "9H"]]},
            "table_after[0][1]",
            "unknown card",
        ),
        (
            "/review",
            {"position": "- / 7H 8H 9H", "table_after": [], "discard": "ZZ"},
            "discard",
            "unknown card",
        ),
        ("/review", {"position": "- / 7H 7H 7H 7H", "table_after": []}, "position", "copies"),
    ],
)
def test_bad_input_is_a_422_naming_the_field(
    server: str, path: str, body: dict[str, Any], field: str, words: str
) -> None:
    status, data = post_json(server + path, body)
    assert status == 422, data
    assert data["field"] == field or (field == "top" and "top" in data["field"])
    assert words in data["error"]


def test_review_reads_the_cards_played_from_the_tables(server: str) -> None:
    status, data = post_json(
        server + "/review",
        {
            "position": "3H 4H 5H / 6H 2H / rami-chinois opened",
            "table_after": [["2H", "3H", "4H", "5H", "6H"]],
        },
    )
    assert status == 200
    assert data["grade"] == "best" and data["turn"]["played"] == ["2H", "6H"]
    assert data["missed"] is None and data["best"]["table"][0]["kind"] == "run"


def test_alternatives_match_the_library(server: str) -> None:
    from rami import parse_position, solve_top

    text = "3H 4H 5H | 6H 7H 8H / 9H / rami-chinois opened"
    status, data = post_json(server + "/alternatives", {"position": text, "top": 4})
    assert status == 200
    found = solve_top(parse_position(text), 4)
    assert [s["signature"] for s in data["solutions"]] == [str(s) for s in found.signatures]
    assert data["exhausted"] is found.exhausted is True
