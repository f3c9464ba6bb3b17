"""Games held by real servers (``python -m rami.service`` on free loopback ports, 127.0.0.1
only) keep them in their SQLite database: a game outlives a restart and a ``kill -9``, loses no
decision the server answered, and every worker of ``--workers 2`` answers any game."""

from __future__ import annotations

import http.client
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

from support.games import call, next_request

from rami.game.game_db import GameDatabase
from rami.service.testing import ServerProcess


def _env(path: Path) -> dict[str, str]:
    return {"RAMI_SERVICE_GAMES_DB": str(path), "RAMI_SERVICE_SOLVER_PROCESSES": "1"}


def _play(url: str, game: dict[str, Any], decisions: int) -> dict[str, Any]:
    """Answer ``decisions`` decisions of seat 0 (or up to the game's end), each a 200."""
    for answered in range(decisions):
        if game["phase"] == "game-over":
            break
        where, body = next_request(game, answered)
        status, game = call(url, f"/games/{game['id']}/{where}", body)
        assert status == 200, game
    return game


def test_a_game_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "rami.db"
    with ServerProcess(env=_env(path)) as first:
        status, game = call(
            first.url, "/games", {"rules": "rami-51", "bots": ["beginner"] * 2, "seed": 11}
        )
        assert status == 200, game
        game = _play(first.url, game, 12)
        seen = call(first.url, f"/games/{game['id']}?since=0")
    with ServerProcess(env=_env(path)) as second:
        assert call(second.url, f"/games/{game['id']}?since=0") == seen
        game = _play(second.url, game, 12)
        assert GameDatabase(path).decisions(game["id"]) == 24


def _workers(supervisor: int) -> list[int]:
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    return [int(pid) for pid in children]


def _holding(pid: int, path: Path) -> bool:
    """Does process ``pid`` hold the file open?"""
    folder = Path(f"/proc/{pid}/fd")
    try:
        return any(os.readlink(folder / fd) == str(path) for fd in os.listdir(folder))
    except OSError:
        return False


def test_with_two_workers_every_request_of_a_game_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "rami.db"
    with ServerProcess(workers=2, env=_env(path)) as running:
        status, game = call(
            running.url,
            "/games",
            {"rules": "rami-fou", "bots": ["beginner"] * 2, "seed": 4, "max_rounds": 2},
        )
        assert status == 200, game
        answered = 0
        while game["phase"] != "game-over":  # each request on a new connection
            where, body = next_request(game, answered)
            status, game = call(running.url, f"/games/{game['id']}/{where}", body)
            assert status == 200, (answered, game)
            answered += 1
        assert running.pid is not None
        workers = _workers(running.pid)
        serving = [pid for pid in workers if _holding(pid, path)]
    assert answered > 40 and GameDatabase(path).decisions(game["id"]) == answered
    assert len(workers) == 2 and len(serving) == 2, (workers, serving)  # both answered


def _kill_while_playing(
    running: ServerProcess, game: dict[str, Any], answers: int
) -> tuple[list[dict[str, Any]], list[str]]:
    """A client answers ``game`` as fast as it can; the server is killed (SIGKILL) once it has
    answered ``answers`` decisions. The answers given (200), in order, and how the client
    ended."""
    acknowledged: list[dict[str, Any]] = []
    errors: list[str] = []

    def client() -> None:
        state = game
        for answered in range(100_000):
            where, body = next_request(state, answered)
            try:
                status, state = call(running.url, f"/games/{game['id']}/{where}", body, timeout=30)
            except (OSError, http.client.HTTPException, ValueError) as error:  # gone
                errors.append(repr(error))
                return
            if status != 200:
                errors.append(f"{status} {state}")
                return
            acknowledged.append(state)

    thread = threading.Thread(target=client)
    thread.start()
    deadline = time.monotonic() + 120
    while len(acknowledged) < answers and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.002)
    assert running.pid is not None and running.process is not None
    os.kill(running.pid, signal.SIGKILL)
    running.process.wait(timeout=10)
    thread.join(timeout=60)
    assert not thread.is_alive() and len(acknowledged) >= answers, errors
    assert errors and not errors[0].startswith(("4", "5")), errors  # ended by the kill
    return acknowledged, errors


def test_kill_9_loses_no_decision_the_server_answered(tmp_path: Path) -> None:
    """Three times: kill -9 while a client plays, then restart. Every decision answered is
    stored; at most one more is (stored, its answer never sent); the game goes on from it."""
    path = tmp_path / "rami.db"
    with ServerProcess(env=_env(path)) as running:
        status, game = call(
            running.url,
            "/games",
            {"rules": "rami-51", "bots": ["beginner"] * 2, "seed": 21, "max_rounds": 20},
        )
        assert status == 200, game
    answered, figures = 0, []
    for _ in range(3):
        with ServerProcess(env=_env(path)) as running:
            status, now = call(running.url, f"/games/{game['id']}")
            assert status == 200, now
            if figures and figures[-1][1] == answered:  # where the last answer left it
                assert now["view"] == game["view"] and now["phase"] == game["phase"]
            answered = GameDatabase(path).decisions(game["id"]) or 0
            acknowledged, _ = _kill_while_playing(running, now, 25)
        answered += len(acknowledged)
        stored = GameDatabase(path).decisions(game["id"])
        figures.append((answered, stored))
        assert stored in (answered, answered + 1), figures
        game = acknowledged[-1]
    print(f"kill -9: (decisions answered, stored) after each kill: {figures}")
    with ServerProcess(env=_env(path)) as again:
        status, now = call(again.url, f"/games/{game['id']}")
        assert status == 200 and now["event_count"] >= game["event_count"]
        _play(again.url, now, 10)
