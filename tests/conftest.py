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
