"""Attempts and ratings over HTTP (rami.service.attempts), on real servers on 127.0.0.1: each
answer checked against the published OpenAPI document; two apps on one database stand for two
workers; a server without a database records nothing."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rami.puzzles.attempts import AttemptStore
from rami.puzzles.ratings import NEXT_BAND, shipped_starts
from rami.puzzles.record import shipped_packs
from rami.service import Settings, create_app
from rami.service.attempts import use_database
from rami.service.testing import BackgroundServer, SchemaChecker, post_json

EASY = "rc-b5304c3325"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("attempts") / "attempts.db"


def _server(database: Path | None) -> BackgroundServer:
    app = create_app(Settings())
    use_database(app, None if database is None else str(database))
    return BackgroundServer(app)


@pytest.fixture(scope="module")
def servers(database: Path) -> Iterator[tuple[str, str, str]]:
    """Two servers on one database (two workers), and one without a database."""
    with _server(database) as one, _server(database) as two, _server(None) as none:
        yield one.url, two.url, none.url


@pytest.fixture(scope="module")
def checker(servers: tuple[str, str, str]) -> SchemaChecker:
    return SchemaChecker.served_by(servers[0])


def call(
    checker: SchemaChecker, base: str, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    if method == "POST":
        status, answer = post_json(base + path, body)
    else:
        try:
            with urllib.request.urlopen(base + path, timeout=60) as response:
                status, answer = response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            status, answer = error.code, json.loads(error.read())
    assert checker.check(method, path, status, answer), f"{method} {path} is not documented"
    return status, answer


def body(**changes: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "puzzle": EASY,
        "player": "service-player-1",
        "solved": True,
        "first_check_ms": 12_000,
        "hints": 0,
        "solution_shown": False,
        "wrong_checks": 0,
    }
    fields.update(changes)
    return fields


def test_an_attempt_is_recorded_and_rated(
    servers: tuple[str, str, str], checker: SchemaChecker, database: Path
) -> None:
    one, two, _ = servers
    status, first = call(checker, one, "POST", "/puzzles/attempts", body())
    assert status == 201
    assert first["puzzle"] == EASY and first["solved"] is True and first["rated"] is True
    assert first["at"].endswith("Z")
    assert first["player_rating"]["games"] == 1 and first["player_rating"]["rating"] > 1500
    assert first["puzzle_rating"]["tier"] == "easy"
    # Solved: the puzzle's starting rating (the model of human solvers') goes down.
    assert first["puzzle_rating"]["rating"] < shipped_starts()[EASY]
    # A second attempt at the same puzzle is kept, not rated; the other worker sees both.
    status, again = call(checker, two, "POST", "/puzzles/attempts", body(solved=False))
    assert status == 201 and again["rated"] is False and again["id"] > first["id"]
    assert again["player_rating"] == first["player_rating"]
    with AttemptStore(database, create=False) as store:
        assert [a.id for a in store.attempts(player="service-player-1")] == [
            first["id"],
            again["id"],
        ]


@pytest.mark.parametrize(
    ("changes", "status", "field"),
    [
        ({"player": "me"}, 422, "player"),
        ({"puzzle": "rc-zz"}, 422, "puzzle"),
        ({"puzzle": "rc-0000000000"}, 404, "puzzle"),
        ({"solved": "yes"}, 422, "solved"),
        ({"first_check_ms": None}, 422, "solved"),
        ({"hints": -1}, 422, "hints"),
        ({"wrong_checks": 10**9}, 422, "wrong_checks"),
        ({"name": "Alice"}, 422, "name"),
    ],
)
def test_bad_attempts_are_refused_by_field(
    servers: tuple[str, str, str],
    checker: SchemaChecker,
    changes: dict[str, Any],
    status: int,
    field: str,
) -> None:
    got, answer = call(checker, servers[0], "POST", "/puzzles/attempts", body(**changes))
    assert (got, answer["field"]) == (status, field), answer


def test_a_missing_field_is_named(servers: tuple[str, str, str], checker: SchemaChecker) -> None:
    incomplete = body()
    del incomplete["solved"]
    status, answer = call(checker, servers[0], "POST", "/puzzles/attempts", incomplete)
    assert (status, answer["field"]) == (422, "solved")


def test_without_a_database_nothing_is_recorded(
    servers: tuple[str, str, str], checker: SchemaChecker
) -> None:
    none = servers[2]
    for method, path, sent in (
        ("POST", "/puzzles/attempts", body()),
        ("GET", "/puzzles/next?player=service-player-1", None),
    ):
        status, answer = call(checker, none, method, path, sent)
        assert status == 503 and "keeps no attempts" in answer["error"], answer
    # The ratings say so, with a 200 (the page asks them before it reports anything).
    status, answer = call(checker, none, "GET", "/puzzles/ratings?player=service-player-1")
    assert (status, answer) == (
        200,
        {"recording": False, "attempts": 0, "first_attempts": 0, "puzzles": [], "players": []},
    )
    # The rest of the puzzle endpoints are unchanged.
    status, puzzle = call(checker, none, "GET", f"/puzzles/{EASY}")
    assert status == 200 and puzzle["id"] == EASY


def test_next_offers_an_unplayed_puzzle_near_the_rating(
    servers: tuple[str, str, str], checker: SchemaChecker
) -> None:
    one, two, _ = servers
    player = "service-newcomer"
    status, offer = call(checker, one, "GET", f"/puzzles/next?player={player}")
    assert status == 200
    assert offer["player"] == {
        "id": player,
        "rating": 1500,
        "deviation": 350,
        "volatility": 0.06,
        "games": 0,
    }
    # A puzzle whose starting rating is near the newcomer's 1500.
    assert abs(offer["puzzle"]["rating"] - 1500) <= NEXT_BAND
    ids = {puzzle.id for puzzle in shipped_packs()}
    assert offer["puzzle"]["id"] in ids and offer["themes"] and offer["rules"]
    assert call(checker, two, "GET", f"/puzzles/next?player={player}")[1] == offer  # same state
    call(
        checker,
        one,
        "POST",
        "/puzzles/attempts",
        body(player=player, puzzle=offer["puzzle"]["id"], solved=False, wrong_checks=2),
    )
    status, after = call(checker, two, "GET", f"/puzzles/next?player={player}")
    assert status == 200 and after["puzzle"]["id"] != offer["puzzle"]["id"]
    assert after["player"]["rating"] < 1500 and after["player"]["games"] == 1
    assert abs(after["puzzle"]["rating"] - after["player"]["rating"]) <= NEXT_BAND
    status, answer = call(checker, one, "GET", "/puzzles/next?player=x")
    assert (status, answer["field"]) == (422, "query.player")


def test_ratings_list_and_filter(servers: tuple[str, str, str], checker: SchemaChecker) -> None:
    one, two, _ = servers
    call(checker, one, "POST", "/puzzles/attempts", body(player="service-ratings-1"))
    status, ratings = call(checker, two, "GET", "/puzzles/ratings")
    assert status == 200 and ratings["recording"] is True
    assert ratings["attempts"] >= ratings["first_attempts"] >= 1
    listed = [p["rating"] for p in ratings["players"]]
    assert listed == sorted(listed, reverse=True)
    assert "service-ratings-1" in {p["id"] for p in ratings["players"]}
    status, one_player = call(
        checker, two, "GET", f"/puzzles/ratings?player=service-ratings-1&puzzle={EASY}"
    )
    assert status == 200 and [p["id"] for p in one_player["players"]] == ["service-ratings-1"]
    assert [p["id"] for p in one_player["puzzles"]] == [EASY]
    status, limited = call(checker, two, "GET", "/puzzles/ratings?limit=1")
    assert len(limited["players"]) == 1 and len(limited["puzzles"]) == 1
    status, missing = call(checker, two, "GET", "/puzzles/ratings?puzzle=rc-0000000000")
    assert (status, missing["field"]) == (404, "puzzle")


def test_serve_checks_its_database_first(tmp_path: Path) -> None:
    from rami.service.attempts import checked_database

    made = checked_database(str(tmp_path / "new.db"))
    assert made == str(tmp_path / "new.db") and Path(made).is_file()
    with pytest.raises(SystemExit, match="error: --db: cannot open"):
        checked_database(str(tmp_path / "no" / "dir" / "x.db"))
    (tmp_path / "text.db").write_text("words, not a database\n" * 10)
    with pytest.raises(SystemExit, match="not a usable attempts database"):
        checked_database(str(tmp_path / "text.db"))
