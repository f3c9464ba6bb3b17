"""The HTTP service's endpoints (issue "The hint engine as a service"), tested over real
HTTP: health, the OpenAPI document (the docs pages an option), rulesets, validate, solve, hint and
validate-turn, each answering what the library answers.

Every test talks to a real uvicorn server on a free loopback port (127.0.0.1 only), in a thread
of this process (:class:`rami.service.testing.BackgroundServer`): the session's
(tests/conftest.py), or one of a test's own. Servers are always shut down.
"""

from __future__ import annotations

import urllib.parse
import urllib.request

import pytest
import support.service as shared
from support.service import DEMO, DEMO_TEXT, DEMO_TURN, call, without_ms

from rami import __version__, parse_position, solve
from rami.hints import make_hint
from rami.rules import PRESETS, get_ruleset
from rami.service import Settings, create_app
from rami.service.output import hint_json, solution_json
from rami.service.testing import BackgroundServer

#: The session's service (tests/conftest.py), this module's fixture.
server = shared.server


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
    assert without_ms(reply.body) == without_ms(expected)
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
    assert without_ms(reply.body) == without_ms(expected)
    assert reply.headers["x-rami-time-limit"] == "2"


@pytest.mark.parametrize("level", [1, 2, 3])
def test_hint_levels(server: str, level: int) -> None:
    reply = call(server, "POST", "/hint", {"position": DEMO, "level": level})
    assert reply.status == 200
    solution = solve(parse_position(DEMO_TEXT), time_limit=5.0)
    assert without_ms(reply.body) == without_ms(hint_json(solution, level))
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
