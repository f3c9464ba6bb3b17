"""Fixtures shared by the test files (the helpers behind them live in ``tests/support``)."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from support.checks import checked_solve

from rami.solver.solution import Solution

#: schemathesis gives every test it generates the node id of their one function, and
#: pytest-xdist runs one test per node id: under ``-n`` this file ran 1 of its 26 operations.
SERIAL_ONLY = "test_service_fuzz.py"


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
    every file using the session's Ray cluster in the same one (one local cluster, not one per
    worker). Other tests are spread one by one (``--dist loadgroup``)."""
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
        if "ray_cluster" in item.fixturenames:
            set_up_once[str(item.path)] = "ray"
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
