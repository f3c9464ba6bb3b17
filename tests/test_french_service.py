"""The HTTP service in French (docs/notation.md, "French"): it reads and says French with
``"lang": "fr"``, and refuses a mix-up naming it. A real uvicorn server on a free loopback port
(127.0.0.1 only), in a thread of this process, one for the module."""

from __future__ import annotations

from typing import Any

import pytest
from support.french import _ENGLISH_CARD, FRENCH_SPLIT

from rami.service import create_app
from rami.service.testing import BackgroundServer, post_json


@pytest.fixture(scope="module")
def server() -> Any:
    with BackgroundServer(create_app()) as running:
        yield running.url


def test_the_service_reads_and_says_french(server: str) -> None:
    status, data = post_json(server + "/solve", {"position": FRENCH_SPLIT, "lang": "fr"})
    assert status == 200, data
    assert data["hand"] == ["KS"]
    assert data["moves"][0]["text"].startswith("coupez 3♥..9♥")
    status, data = post_json(server + "/hint", {"position": FRENCH_SPLIT, "lang": "fr", "level": 2})
    assert status == 200 and data["hint"].startswith("Coup clé : coupez")
    status, data = post_json(
        server + "/review",
        {
            "position": "3C 4C 5C / 6C 2C / rami-chinois opened",
            "lang": "fr",
            "table_after": [["3C", "4C", "5C", "6C"]],
        },
    )
    assert status == 200 and data["grade"] == "good"
    assert data["missed"]["text"] == "ajoutez 2♥ 6♥ de votre main à la combinaison 1"
    status, data = post_json(
        server + "/validate-turn",
        {
            "position": "3C 4C 5C / 6C / rami-chinois opened",
            "lang": "fr",
            "table_after": [["3C", "4C", "5C", "6P"]],
            "played": ["6P"],
        },
    )
    assert status == 200 and not data["legal"]
    assert any("6♠" in problem for problem in data["problems"])
    assert not any(_ENGLISH_CARD.search(problem) for problem in data["problems"])


def test_the_service_refuses_a_mix_up_naming_it(server: str) -> None:
    status, data = post_json(server + "/solve", {"position": FRENCH_SPLIT})
    assert status == 422 and data["field"] == "position"
    assert "reads as French notation" in data["error"]
    status, data = post_json(server + "/solve", {"position": "- / 7H", "lang": "fr"})
    assert status == 422 and "reads as English notation" in data["error"]
    status, data = post_json(server + "/solve", {"position": "- / 7H", "lang": "de"})
    assert status == 422 and data["field"] == "lang"
