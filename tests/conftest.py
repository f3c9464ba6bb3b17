"""Fixtures shared by the test files (the helpers behind them live in ``tests/support``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.checks import checked_solve

from rami.solver.solution import Solution

#: schemathesis gives every test it generates the node id of their one function, and
#: pytest-xdist runs one test per node id: under ``-n`` this file ran 1 of its 26 operations.
SERIAL_ONLY = "test_service_fuzz.py"

#: The session fixtures below that start something once (a Ray cluster, a server), each with the
#: xdist group of every file that uses it: under ``-n`` it is started in one worker only.
SET_UP_ONCE_A_SESSION = {"ray_cluster": "ray", "service_server": "service", "page_server": "page"}


@pytest.fixture(autouse=True, scope="session")
def _games_database(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Servers the tests start keep their games in a file of the test run, never in the
    user's ``~/.local/state/rami/rami.db`` (docs/service.md, "Where games are kept"); a test
    that names its own database still does."""
    os.environ.setdefault(
        "RAMI_SERVICE_GAMES_DB", str(tmp_path_factory.mktemp("games") / "rami.db")
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``pytest -n`` (make test), keep together what is set up once: every test of a file
    with a module fixture (a server, a browser, games played once) runs in one worker, and
    every file using the session's Ray cluster, or one of its servers, in the same one (one
    local cluster or server, not one per worker: :data:`SET_UP_ONCE_A_SESSION`). Other tests
    are spread one by one (``--dist loadgroup``)."""
    if hasattr(config, "workerinput"):
        # Said, not run: make test runs the file apart, without -n.
        serial_only = pytest.mark.skip(
            reason=f"tests/{SERIAL_ONLY} runs without -n (xdist would run one of its "
            "operations), as make test runs it"
        )
        for item in items:
            if item.path.name == SERIAL_ONLY:
                item.add_marker(serial_only)
    set_up_once: dict[str, str] = {}
    for item in items:
        # pytest has no public accessor for the fixture definitions an item resolved.
        info = getattr(item, "_fixtureinfo", None)
        chains = info.name2fixturedefs.values() if info is not None else ()
        scopes = {definition.scope for chain in chains for definition in chain}
        shared = [name for name in SET_UP_ONCE_A_SESSION if name in item.fixturenames]
        if shared:
            set_up_once[str(item.path)] = SET_UP_ONCE_A_SESSION[shared[0]]
        elif "module" in scopes:  # (tmp_path brings pytest's own session fixtures)
            set_up_once.setdefault(str(item.path), item.path.stem)
    for item in items:
        group = set_up_once.get(str(item.path))
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture
def solved() -> Callable[..., Solution]:
    """``solved(text, proved=True, **options)``: solve and check the answer (support.checks)."""
    return checked_solve


@pytest.fixture(scope="session")
def ray_cluster():
    """One real local Ray cluster (2 CPUs, no dashboard, loopback) for the whole test session;
    its address (``HOST:PORT``) for subprocesses, and this process stays connected to it, so
    ``--ray auto`` run in-process joins it. Without the ray package the tests that use it are
    skipped, unless RAMI_RAY_TESTS=required (make test), where they fail."""
    import os

    from rami.errors import ClusterUnavailableError
    from rami.scale.ray_cluster import import_ray

    # Through rami's import only: Ray reads the settings that keep the node on the loopback
    # when it is first imported (pytest.importorskip("ray") here would import it without them).
    try:
        ray = import_ray()
    except ClusterUnavailableError:
        if os.environ.get("RAMI_RAY_TESTS") == "required":
            raise
        pytest.skip("the ray package is not installed")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()


@pytest.fixture(scope="session")
def demo_pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A one-puzzle pack of the demo position (docs/service.md shows it too)."""
    from support.service import demo_puzzle_record

    record = demo_puzzle_record()
    pack = tmp_path_factory.mktemp("pack") / "demo-pack.jsonl"
    pack.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return pack, record


@pytest.fixture(scope="session")
def service_server(demo_pack: tuple[Path, dict[str, Any]]) -> Iterator[str]:
    """The HTTP service of the service's tests (their ``server``, tests/support/service.py): a
    real uvicorn server in a thread of this process, on a free loopback port, serving the demo
    pack. One for the session rather than one per module: it keeps no state a test changes, and
    runs its own event loop in its own thread. Shut down at the end."""
    from rami.service import Settings, create_app
    from rami.service.testing import BackgroundServer

    settings = Settings(default_time_limit=5.0, puzzle_pack=str(demo_pack[0]))
    with BackgroundServer(create_app(settings)) as running:
        yield running.url


@pytest.fixture(scope="session")
def page_server() -> Iterator[str]:
    """``rami serve`` for the page's browser tests (their ``server``, tests/support/page.py), on a
    free loopback port. One for the session rather than one per module: a child process whose
    games go, as every server's of the session do, to the session's database. (The browser stays
    one per module: Playwright's sync API holds an event loop that would stop later tests'
    ``asyncio.run``.) Stopped at the end."""
    from support.page import serve

    yield from serve()
