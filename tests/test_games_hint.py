"""``POST /games/{id}/hint``: advice for the decision a game asks of seat 0
(:func:`rami.game.advice.advise`), over real HTTP to the in-process app; it never changes the
game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.games import answer, call, next_request

from rami.cards import Card
from rami.lang import FRENCH
from rami.service import Settings, create_app
from rami.service.testing import BackgroundServer, SchemaChecker


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = tmp_path_factory.mktemp("hint") / "rami.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAMI_SERVICE_GAMES_DB", str(path))
        with BackgroundServer(create_app(Settings())) as running:
            yield running.url


def _game(url: str, **body: Any) -> dict[str, Any]:
    status, game = call(url, "/games", body)
    assert status == 200, game
    return game


def test_a_hint_at_the_play_is_a_turn_the_referee_accepts(url: str) -> None:
    game = _game(url, rules="rami-51", bots=["confirmed"], seed=3)
    assert game["phase"] == "play"
    path = f"/games/{game['id']}"
    before = call(url, f"{path}?since=0")
    status, hint = call(url, f"{path}/hint", {})
    assert status == 200, hint
    assert hint["game"] == game["id"] and hint["phase"] == "play"
    assert hint["draw"] is None and hint["claim"] is None and hint["discard"] is not None
    assert hint["moves"] and hint["moves"][-1].startswith(f"discard {hint['discard']}")
    assert call(url, f"{path}?since=0") == before  # nothing changed
    nudge = call(url, f"{path}/hint", {"level": 1})[1]
    assert nudge["phase"] == "play" and nudge["text"] != hint["text"]
    french = call(url, f"{path}/hint", {"lang": "fr"})[1]
    shown = Card.parse(hint["discard"]).text(FRENCH)
    assert french["moves"][-1].startswith(f"défaussez {shown}")
    status, played = call(url, f"{path}/play", {"table": hint["table"], "discard": hint["discard"]})
    assert status == 200, played


def test_a_hint_at_the_draw(url: str) -> None:
    game = _game(url, rules="rami-51", bots=["beginner"], seed=3)
    path = f"/games/{game['id']}"
    for answered in range(60):
        if game["phase"] == "draw":
            break
        where, body = next_request(game, answered)
        game = call(url, f"{path}/{where}", body)[1]
    assert game["phase"] == "draw"
    status, hint = call(url, f"{path}/hint", {"level": 2})
    assert status == 200 and hint["phase"] == "draw", hint
    assert hint["draw"] in ("stock", "discard") and hint["table"] is None and hint["text"]
    status, drawn = call(url, f"{path}/draw", {"source": hint["draw"]})
    assert status == 200 and drawn["phase"] == "play", drawn


def test_a_hint_from_a_working_table(url: str) -> None:
    game = _game(url, rules="rami-chinois", bots=["confirmed"], seed=5)
    assert game["phase"] == "play"
    path = f"/games/{game['id']}"
    hand, table = game["view"]["hand"], game["view"]["table"]
    # A working table that is no table (a lone card laid): the hint starts from the turn's
    # start, and says so; the table as it stands is the turn's start.
    status, lone = call(url, f"{path}/hint", {"table": [*table, [hand[0]]]})
    assert status == 200 and lone["phase"] == "play", lone
    status, start = call(url, f"{path}/hint", {"table": table})
    assert status == 200 and start["moves"] == call(url, f"{path}/hint", {})[1]["moves"]
    assert lone["text"] != start["text"] and lone["text"].endswith(start["text"])


def test_no_hint_when_the_game_asks_nothing(url: str) -> None:
    game = _game(url, rules="rami-fou", bots=["beginner"], seed=4, max_rounds=1)
    path = f"/games/{game['id']}"
    for answered in range(400):
        if game["phase"] in ("round-over", "game-over"):
            break
        where, body = answer(game["view"], answered)
        game = call(url, f"{path}/{where}", body)[1]
    assert game["phase"] == "game-over"
    status, error = call(url, f"{path}/hint", {})
    assert status == 409 and error["field"] == "phase", error
    assert call(url, "/games/unknown-game/hint", {})[0] == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"level": 0}, "level"),
        ({"level": "3"}, "level"),
        ({"lang": "de"}, "lang"),
        ({"table": [["ZZ"]]}, "table[0]"),
        ({"table": "7H 8H 9H"}, "table"),
        ({"table": [["7H"] * 31]}, "table[0]"),
        ({"tables": []}, "tables"),
    ],
)
def test_a_bad_hint_request_is_a_422_naming_the_field(url: str, body: Any, field: str) -> None:
    game = _game(url, rules="rami-51", bots=["beginner"], seed=3)
    status, error = call(url, f"/games/{game['id']}/hint", body)
    assert status == 422 and error["field"] == field, error


def test_the_hint_matches_the_openapi_document(url: str) -> None:
    _, document = call(url, "/openapi.json")
    checker = SchemaChecker(document)
    game = _game(url, rules="rami-51", bots=["beginner"], seed=3)
    status, hint = call(url, f"/games/{game['id']}/hint", {"level": 3})
    assert checker.check("post", f"/games/{game['id']}/hint", status, hint)
    status, error = call(url, f"/games/{game['id']}/hint", {"level": 9})
    assert checker.check("post", f"/games/{game['id']}/hint", status, error)
