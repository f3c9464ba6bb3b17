"""The HTTP service's settings (from the environment and back, bad ones refused) and ``rami
serve`` itself: a child process (:class:`rami.service.testing.ServerProcess`) on a free loopback
port (127.0.0.1 only) answers, stops cleanly, refuses bad options and gives its settings to every
worker. Servers are always shut down."""

from __future__ import annotations

import signal
from typing import Any

import pytest
from support.service import DEMO, DEMO_TEXT, call, demo_position

from rami import __version__
from rami.service import Settings
from rami.service.testing import ServerProcess

# ------------------------------------------------------------------ settings


def test_settings_from_env_and_back() -> None:
    settings = Settings.from_env(
        {
            "RAMI_SERVICE_MAX_BODY_BYTES": "1000",
            "RAMI_SERVICE_MAX_TIME_LIMIT": "2.5",
            "RAMI_SERVICE_DEFAULT_TIME_LIMIT": "1",
        }
    )
    assert settings.max_body_bytes == 1000 and settings.max_time_limit == 2.5
    assert Settings.from_env(settings.to_env()) == settings
    assert settings.time_limit(None) == 1.0
    assert settings.time_limit(100) == 2.5
    assert settings.time_limit(0.5) == 0.5


@pytest.mark.parametrize(
    "changes",
    [
        {"max_body_bytes": 0},
        {"max_time_limit": float("nan")},
        {"solver_processes": True},
        {"header_timeout": 0},
        {"cors_origins": "https://a.example"},
        {"docs": "yes"},
        {"default_time_limit": 20.0, "max_time_limit": 10.0},
    ],
)
def test_bad_settings_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Settings(**changes)


def test_bad_settings_env_is_refused() -> None:
    with pytest.raises(ValueError, match="RAMI_SERVICE_MAX_PENDING"):
        Settings.from_env({"RAMI_SERVICE_MAX_PENDING": "many"})


# ------------------------------------------------------------------ rami serve (a real process)


def test_serve_in_a_process_stops_cleanly() -> None:
    """``python -m rami.service`` (serve() with one worker): answers, then SIGTERM ends it
    after a graceful shutdown (uvicorn then re-raises the signal: exit status -15)."""
    with ServerProcess(log_level="info") as running:
        assert call(running.url, "GET", "/health").status == 200
        hint = call(running.url, "POST", "/hint", {"position": DEMO_TEXT, "level": 1})
        assert hint.status == 200 and hint.body["points_shed"] == 34
        # Issue 22: X-Forwarded-For was believed from any peer; the access log shows the
        # client the app sees, which must stay the TCP peer.
        forged = call(running.url, "GET", "/health", headers={"X-Forwarded-For": "6.6.6.6"})
        assert forged.status == 200
        assert running.stop() in (0, -signal.SIGTERM)
    log = running.log.decode()
    assert '"GET /health HTTP/1.1" 200' in log
    assert "6.6.6.6" not in log
    assert f"Uvicorn running on http://127.0.0.1:{running.port}" in log
    assert "Application shutdown complete" in log
    assert "Traceback" not in log


@pytest.mark.parametrize(
    ("options", "words"), [({"workers": 0}, "workers"), ({"port": 70000}, "port")]
)
def test_serve_refuses_bad_options(options: dict[str, int], words: str) -> None:
    from rami.service.cli import serve

    with pytest.raises(ValueError, match=words):
        serve(**options)


def test_serve_in_a_process_with_two_workers_and_env_settings() -> None:
    """What ``rami serve --workers 2`` runs: settings reach every worker through the env."""
    with ServerProcess(workers=2, env={"RAMI_SERVICE_MAX_BODY_BYTES": "2000"}) as running:
        assert call(running.url, "GET", "/health").body == {"status": "ok", "version": __version__}
        reply = call(running.url, "POST", "/solve", {"position": DEMO})
        assert reply.status == 200 and reply.body["status"] == "optimal"
        big = call(running.url, "POST", "/solve", {"position": demo_position(hand=["7H"] * 500)})
        assert big.status == 413
        assert big.body["error"] == "request body too large: the limit is 2000 bytes"
        assert running.stop() == 0
