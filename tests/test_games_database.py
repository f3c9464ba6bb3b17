"""Games in their database: :class:`rami.game.game_db.GameDatabase` (the SQLite file ``/games``
keeps them in, beside the puzzle attempts), and the service's cache over it (two apps on one file
stand for two workers; tests/test_games_persist.py runs real servers): which database the games go
to, or memory only."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from support.games import answer, call, drive

from rami.cards import Card
from rami.game.game_db import GameDatabase, GameDatabaseError, GameTooLongError, StaleGameError
from rami.game.session import GameSession
from rami.puzzles.attempts import Attempt, AttemptStore
from rami.service import Settings, create_app
from rami.service.errors import ApiError
from rami.service.game_store import GameStore
from rami.service.testing import BackgroundServer, SchemaChecker


def _record(database: GameDatabase, game_id: str, session: GameSession, marks: list[int]) -> None:
    database.create(
        game_id,
        "rami-51",
        list(session.levels),
        session.seed,
        {"target": None, "max_rounds": None},
        session.journal[: marks[0]],
    )


def test_the_database_keeps_a_game_step_by_step(tmp_path: Path) -> None:
    session = GameSession("rami-51", ["confirmed"], 5)
    start = len(session.journal)
    marks = [start, *drive(session, 2, decisions=8)]
    path = tmp_path / "rami.db"
    database = GameDatabase(path)
    _record(database, "g1", session, marks)
    assert database.decisions("g1") == 0 and database.decisions("nope") is None
    for number in range(1, len(marks)):
        database.append("g1", number, session.journal[marks[number - 1] : marks[number]])
    with pytest.raises(StaleGameError) as stale:  # step 3 again: another process was first
        database.append("g1", 3, [{"action": "draw", "source": "stock"}])
    assert stale.value.decisions == 8
    database.close()
    record = GameDatabase(path).load("g1")  # opened again, as after a restart
    assert record is not None and record.decisions == 8 and record.levels == ("confirmed",)
    assert list(record.journal) == session.journal
    rebuilt = GameSession(record.rules, record.levels, record.seed, journal=record.journal)
    assert rebuilt.to_json(0) == session.to_json(0)
    settings = sqlite3.connect(path)
    assert settings.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert (
        settings.execute("SELECT version FROM rami_formats WHERE part = 'games'").fetchone()[0] == 1
    )


def test_a_game_has_a_bounded_number_of_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rami.game.game_db as game_db

    monkeypatch.setattr(game_db, "MAX_DECISIONS", 2)
    database = GameDatabase(tmp_path / "rami.db")
    database.create("g", "rami-51", ["beginner"], 1, {}, [])
    database.append("g", 1, [])
    database.append("g", 2, [])
    with pytest.raises(GameTooLongError):
        database.append("g", 3, [])
    assert database.decisions("g") == 2


def test_games_and_puzzle_attempts_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / "rami.db"
    attempts = AttemptStore(path)
    games = GameDatabase(path)
    games.create("g", "rami-51", ["beginner"], 1, {}, [])
    attempt = attempts.record(
        Attempt("rc-0123456789", "player-01", True, 1200, 0, False, 0, datetime.now(UTC))
    )
    attempts.close()
    games.close()
    assert [a.id for a in AttemptStore(path, create=False).attempts()] == [attempt.id]
    assert GameDatabase(path).count() == 1
    with sqlite3.connect(path) as db:  # the attempts' own format is untouched
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_file_that_is_no_games_database_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, " * 100)
    with pytest.raises(GameDatabaseError, match="not a usable games database"):
        GameDatabase(text)
    newer = tmp_path / "newer.db"
    GameDatabase(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE rami_formats SET version = 9 WHERE part = 'games'")
    with pytest.raises(GameDatabaseError, match="format 9, newer"):
        GameDatabase(newer)


# ------------------------------------------------------------------------------ over HTTP


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Any, Any]]:
    """Two apps on one games database, as two workers of a server."""
    path = tmp_path_factory.mktemp("games") / "rami.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAMI_SERVICE_GAMES_DB", str(path))
        first, second = create_app(Settings()), create_app(Settings())
        with BackgroundServer(first) as one, BackgroundServer(second) as other:
            yield one.url, other.url, first, second


def test_any_worker_answers_any_game(two: tuple[str, str, Any, Any]) -> None:
    one, other, first, second = two
    status, game = call(
        one, "/games", {"rules": "rami-fou", "bots": ["beginner"] * 2, "seed": 4, "max_rounds": 1}
    )
    assert status == 200, game
    path = f"/games/{game['id']}"
    urls = [other, one]
    answered = 0
    while game["phase"] != "game-over":
        where, body = (
            ("next", {}) if game["phase"] == "round-over" else answer(game["view"], answered)
        )
        status, game = call(urls[answered % 2], f"{path}/{where}", body)
        assert status == 200, game
        answered += 1
    assert answered > 20
    # Both apps give the same whole game, and it is the one the record replays to.
    status, seen = call(one, f"{path}?since=0")
    assert status == 200 and seen == call(other, f"{path}?since=0")[1]
    session = first.state.games.database.load(game["id"])
    assert session.decisions == answered
    # Dropped from both caches (unused, or to make room): rebuilt from the record.
    first.state.games.games.clear()
    second.state.games.games.clear()
    assert call(other, f"{path}?since=0") == (200, seen)


def test_two_answers_at_once_the_second_stored_is_a_409(two: tuple[str, str, Any, Any]) -> None:
    one, other, first, second = two
    _, game = call(one, "/games", {"rules": "rami-51", "bots": ["beginner"], "seed": 6})
    game_id = game["id"]
    assert call(other, f"/games/{game_id}")[0] == 200  # cached in both
    store: GameStore = second.state.games
    entry = store.games[game_id]
    # The first app stores an answer while the second has already applied its own.
    where, body = answer(game["view"], 0)
    status, moved = call(one, f"/games/{game_id}/{where}", body)
    assert status == 200, moved
    start = len(entry.session.journal)
    if where == "draw":
        entry.session.draw(body["source"])
    else:
        entry.session.play(
            [[Card.parse(card) for card in meld] for meld in body["table"]],
            body["discard"] and Card.parse(body["discard"]),
        )
    with pytest.raises(ApiError) as refused:
        asyncio.run(store.commit(game_id, entry, start))
    assert refused.value.status == 409 and game_id not in store.games
    # The second app then answers from the stored game (the first answer).
    status, seen = call(other, f"/games/{game_id}?since=0")
    assert status == 200 and seen["events"] == call(one, f"/games/{game_id}?since=0")[1]["events"]
    assert first.state.games.database.decisions(game_id) == 1


def test_the_language_of_the_log(two: tuple[str, str, Any, Any]) -> None:
    one, other, _, _ = two
    status, game = call(
        one, "/games", {"rules": "rami-51", "bots": ["confirmed"], "seed": 3, "lang": "fr"}
    )
    assert status == 200 and game["events"][0]["text"] == "Manche 1 : vous commencez."
    path = f"/games/{game['id']}"
    status, played = call(
        other, f"{path}/play?lang=fr", {"table": [], "discard": game["view"]["hand"][0]}
    )
    assert status == 200 and played["events"][0]["text"].startswith(
        "Vous ne posez rien, défaussez "
    )
    english = call(one, f"{path}?since=0")[1]["events"]
    assert english[0]["text"] == "Round 1: You play first."
    assert [e["text"] for e in call(one, f"{path}?since=0&lang=fr")[1]["events"]] == [
        e["text"] for e in call(other, f"{path}?since=0&lang=fr")[1]["events"]
    ]
    status, error = call(one, f"{path}?lang=de")
    assert status == 422 and error["field"] == "query.lang"
    status, error = call(one, "/games", {"lang": "xx"})
    assert status == 422 and error["field"] == "lang"


def test_the_events_match_the_openapi_document(two: tuple[str, str, Any, Any]) -> None:
    one, _, _, _ = two
    _, document = call(one, "/openapi.json")
    checker = SchemaChecker(document)
    status, game = call(
        one, "/games", {"rules": "rami-chinois", "bots": ["confirmed"], "seed": 5, "max_rounds": 1}
    )
    kinds: Counter[str] = Counter()
    for answered in range(200):
        for event in game["events"]:
            kinds[event["kind"]] += 1
            assert set(event) <= set(document["components"]["schemas"]["EventOut"]["properties"])
        if game["phase"] == "game-over":
            break
        where, body = answer(game["view"], answered)
        status, game = call(one, f"/games/{game['id']}/{where}", body)
        assert checker.check("post", f"/games/{game['id']}/{where}", status, game)
    assert game["phase"] == "game-over"
    assert {"deal", "draw", "play", "round-over", "game-over"} <= set(kinds)
    plays = [
        e for e in call(one, f"/games/{game['id']}?since=0")[1]["events"] if e["kind"] == "play"
    ]
    assert all(isinstance(e["moves"], list) and isinstance(e["took"], list) for e in plays)


def test_which_database_the_games_go_to(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rami.service.game_store import database_path, open_database

    for name in ("RAMI_SERVICE_GAMES_DB", "RAMI_SERVICE_DB"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    default = tmp_path / "state" / "rami" / "rami.db"
    assert database_path() == str(default)
    database = open_database(database_path())  # made with its folder
    assert database is not None and default.is_file()
    database.close()
    monkeypatch.setenv("RAMI_SERVICE_DB", str(tmp_path / "attempts.db"))  # rami serve --db
    assert database_path() == str(tmp_path / "attempts.db")
    monkeypatch.setenv("RAMI_SERVICE_GAMES_DB", "memory")
    assert database_path() is None and open_database(None) is None
    # A default that cannot be made: memory only; a file named that cannot be used: an error.
    monkeypatch.delenv("RAMI_SERVICE_GAMES_DB")
    monkeypatch.delenv("RAMI_SERVICE_DB")
    (tmp_path / "blocked").write_text("a file, not a folder")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "blocked"))
    assert open_database(database_path()) is None
    monkeypatch.setenv("RAMI_SERVICE_GAMES_DB", str(tmp_path / "blocked" / "rami.db"))
    with pytest.raises(GameDatabaseError):
        open_database(database_path())
    with BackgroundServer(create_app(Settings())) as running:
        status, error = call(running.url, "/games", {})
        assert status == 503 and "games database is unavailable" in error["error"]


def test_games_in_memory_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAMI_SERVICE_GAMES_DB", "memory")
    app = create_app(Settings())
    with BackgroundServer(app) as running:
        status, game = call(running.url, "/games", {"rules": "rami-51", "seed": 2})
        assert status == 200 and app.state.games.database is None
        assert call(running.url, f"/games/{game['id']}")[0] == 200
        app.state.games.games.clear()  # dropped: gone
        status, error = call(running.url, f"/games/{game['id']}")
        assert status == 404 and "dropped" in error["error"]
