"""``POST /bot/turn`` and ``GET /bot/levels`` (rami/service/bot.py), over real HTTP to the
in-process app."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from rami.game import GameOptions, Play, Round, View, deal
from rami.game.deck import stream
from rami.game.mixed import LADDERS
from rami.rules import get_ruleset
from rami.service import Settings, create_app
from rami.service.testing import BackgroundServer, get_json, post_json


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with BackgroundServer(create_app(Settings(default_time_limit=2.0))) as running:
        yield running.url


def post(base: str, body: Any) -> tuple[int, Any]:
    return post_json(base + "/bot/turn", body)


def _round(name: str) -> Round:
    rules = get_ruleset(name)
    return Round(
        rules,
        GameOptions().resolved(rules),
        deal(rules, [True, True], stream(4, "deal", 1)),
        first=0,
        active=[True, True],
    )


@pytest.mark.parametrize("level", ["beginner", "novice", "intermediate", "confirmed", "expert"])
def test_bot_turn_plays_a_legal_turn(server: str, level: str) -> None:
    rnd = _round("rami-51")
    status, action = post(server, {"view": rnd.view().to_json(), "level": level, "seed": 3})
    assert status == 200, action
    assert action["action"] == "play"
    from rami.game.actions import action_from_json

    played = action_from_json(action)
    assert isinstance(played, Play)
    rnd.apply(played)  # the engine (and its referee) accept it


def test_bot_turn_takes_a_target_elo_where_the_preset_has_a_ladder(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    chinois = _round("rami-chinois")
    status, action = post(server, {"view": chinois.view().to_json(), "level": "elo:700"})
    assert status == 200 and action["action"] == "play", action
    held = {"view": _round("bfmania-30").view().to_json(), "level": "elo:700"}
    status, action = post(server, held)
    assert status == 200 and action == {"action": "draw", "source": "stock"}, action
    monkeypatch.delitem(LADDERS, "bfmania-30")  # as if its ladder were not measured
    status, body = post(server, held)
    assert status == 422 and body["field"] == "level" and "no measured ladder" in json.dumps(body)
    status, body = post(server, {"view": chinois.view().to_json(), "level": "grandmaster"})
    assert status == 422 and body["field"] == "level", body


def test_bot_turn_draw_and_claim(server: str) -> None:
    rnd = _round("bfmania-30")
    status, action = post(server, {"view": rnd.view().to_json()})
    assert status == 200 and action == {"action": "draw", "source": "stock"}
    fou = _round("rami-fou")
    status, action = post(server, {"view": fou.view().to_json(), "level": "confirmed"})
    assert status == 200 and action["action"] == "claim" and isinstance(action["take"], bool)


def test_bot_turn_bad_input_is_422_naming_the_field(server: str) -> None:
    status, body = post(server, {"view": {"rules": "rami-fou"}})
    assert status == 422 and body["field"] == "view"
    view = _round("rami-51").view().to_json()
    view["hand"] = ["7H"] * 3
    status, body = post(server, {"view": view})
    assert status == 422 and "impossible" in body["error"] and body["problems"]
    status, body = post(server, {"view": view, "level": "grandmaster"})
    assert status == 422
    assert View.from_json(_round("rami-51").view().to_json()).rules.name == "rami-51"


def test_bot_turn_seats_the_lookahead_at_its_table_with_a_settable_budget(server: str) -> None:
    """docs/game.md: offered at a rami chinois table of four, its budget settable (0: the
    expert's turn); elsewhere, or a budget for another level, a 422 naming the field."""
    rules = get_ruleset("rami-chinois")
    seats = [True] * 4
    dealt = deal(rules, seats, stream(4, "deal", 1))
    four = Round(rules, GameOptions().resolved(rules), dealt, first=0, active=seats)
    view = four.view().to_json()
    status, action = post(server, {"view": view, "level": "lookahead", "seed": 3})
    assert status == 200 and action["action"] == "play", action
    from rami.game.actions import action_from_json

    four.apply(action_from_json(action))  # the engine (and its referee) accept it
    status, expert = post(server, {"view": view, "level": "expert", "seed": 3})
    status, none = post(server, {"view": view, "level": "lookahead", "seed": 3, "budget": 0})
    assert status == 200 and none == expert
    two = _round("rami-chinois").view().to_json()
    status, body = post(server, {"view": two, "level": "lookahead"})
    assert status == 422 and body["field"] == "level"
    assert "not in rami-chinois with 2 players" in body["error"]
    status, body = post(server, {"view": view, "level": "expert", "budget": 10})
    assert status == 422 and body["field"] == "budget", body
    status, body = post(server, {"view": view, "level": "lookahead", "budget": 2_001})
    assert status == 422 and body["field"] == "budget", body


def test_bot_levels_says_per_table_what_a_game_seats(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/game.md: the look-ahead at the tables it was measured stronger, every other named
    level everywhere; a target Elo where a ladder was measured."""
    status, body = get_json(server + "/bot/levels?rules=rami-chinois")
    assert status == 200 and body["rules"] == "rami-chinois" and body["target_elo"] is True
    tables = {table["players"]: table["levels"] for table in body["tables"]}
    assert sorted(tables) == [2, 3, 4]
    named = ["beginner", "novice", "intermediate", "confirmed", "expert"]
    assert tables[4] == [*named, "lookahead"] and tables[2] == tables[3] == named
    status, body = get_json(server + "/bot/levels?rules=rami-chinois%5Bjokers=0%5D")
    assert status == 200 and all("lookahead" not in t["levels"] for t in body["tables"])
    monkeypatch.delitem(LADDERS, "bfmania-30")  # as if its ladder were not measured
    status, body = get_json(server + "/bot/levels?rules=bfmania-30")
    assert status == 200 and body["target_elo"] is False
    assert [table["players"] for table in body["tables"]] == [2, 3, 4, 5, 6]
    status, body = get_json(server + "/bot/levels?rules=rami-chinoix")
    assert status == 422 and body["field"] == "rules" and "rami-chinoix" in body["error"]
