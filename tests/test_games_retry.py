"""Exact retries of ``/games`` actions (docs/service.md, "Games"): a request sent again because
its answer was lost carries the count of decisions the client had seen (``decisions``); behind
the game's, it is answered with the game as it stands and is not applied a second time."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.games import call, next_request

from rami.game.game_db import GameDatabase
from rami.service import Settings, create_app
from rami.service.testing import BackgroundServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    path = tmp_path_factory.mktemp("games-retry") / "rami.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAMI_SERVICE_GAMES_DB", str(path))
        with BackgroundServer(create_app(Settings(default_time_limit=5.0))) as running:
            yield running.url, path


def _journal(path: Path, game_id: str) -> tuple[dict[str, object], ...]:
    database = GameDatabase(str(path))
    try:
        record = database.load(game_id)
    finally:
        database.close()
    assert record is not None
    return record.journal


def test_a_play_sent_twice_is_applied_once(server: tuple[str, Path]) -> None:
    url, path = server
    status, game = call(url, "/games", {"rules": "rami-chinois", "bots": ["beginner"], "seed": 3})
    assert status == 200, game
    assert game["phase"] == "play" and game["decisions"] == 0
    game_id, before = game["id"], game["event_count"]
    body = {"table": [], "decisions": game["decisions"]}
    status, first = call(url, f"/games/{game_id}/play", body)
    assert status == 200, first
    assert first["decisions"] == 1 and first["events"][0]["kind"] == "play"
    journal = _journal(path, game_id)
    # The same request again (its answer was lost): the same game, nothing applied.
    status, again = call(url, f"/games/{game_id}/play?since={before}", body)
    assert status == 200, again
    assert _journal(path, game_id) == journal
    assert again["decisions"] == 1 and again["view"] == first["view"]
    assert again["events"] == first["events"] and again["event_count"] == first["event_count"]
    plays = [e for e in again["events"] if e["kind"] == "play" and e["seat"] == 0]
    assert len(plays) == 1
    # Without the count, the same request is what it always was: not what the game asks.
    status, error = call(url, f"/games/{game_id}/draw", {"source": "stock"})
    assert status == 409, error
    # A count that is the game's own is applied.
    status, second = call(url, f"/games/{game_id}/play", {"table": [], "decisions": 1})
    assert status == 200 and second["decisions"] == 2, second
    assert len(_journal(path, game_id)) > len(journal)


def test_a_draw_sent_twice_is_applied_once(server: tuple[str, Path]) -> None:
    url, path = server
    status, game = call(url, "/games", {"rules": "rami-51", "bots": ["beginner"], "seed": 5})
    assert status == 200, game
    for _ in range(3):  # to the person's draw
        if game["phase"] == "draw":
            break
        verb, body = next_request(game, 5)
        status, game = call(url, f"/games/{game['id']}/{verb}", body)
    assert game["phase"] == "draw", game["phase"]
    body = {"source": "stock", "decisions": game["decisions"]}
    status, first = call(url, f"/games/{game['id']}/draw", body)
    assert status == 200 and first["phase"] == "play", first
    journal = _journal(path, game["id"])
    status, again = call(url, f"/games/{game['id']}/draw", body)
    assert status == 200, again
    assert _journal(path, game["id"]) == journal
    assert again["view"]["hand"] == first["view"]["hand"] and again["phase"] == "play"
    # The game's own count, and the request is judged as ever (a draw now is not asked).
    status, error = call(
        url, f"/games/{game['id']}/draw", {"source": "stock", "decisions": again["decisions"]}
    )
    assert status == 409, error


def test_next_takes_no_body_or_a_count(server: tuple[str, Path]) -> None:
    url, _ = server
    status, game = call(url, "/games", {"bots": ["beginner"], "seed": 3})
    assert status == 200
    status, error = call(url, f"/games/{game['id']}/next", {"decisions": -1})
    assert status == 422 and error["field"] == "decisions", error
    status, error = call(url, f"/games/{game['id']}/next", {"decisions": 0})
    assert status == 409, error
    empty = urllib.request.Request(f"{url}/games/{game['id']}/next", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(empty, timeout=60)
    refused.value.close()
    assert refused.value.code == 409
