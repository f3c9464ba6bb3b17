"""Fixtures shared by the test files (the helpers behind them live in ``tests/support``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.checks import checked_solve

from rami.solver.solution import Solution


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
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="WARNING")
    yield ray.get_runtime_context().gcs_address
    ray.shutdown()
