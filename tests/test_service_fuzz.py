"""The service fuzzed from its own OpenAPI document, in process: schemathesis
generates requests for every operation /openapi.json describes (valid ones and, in the
negative phase, ones that break the schema), and every answer must be no 5xx, with a documented
status, content type and body.

``make test`` runs a short pass (a few hundred cases); ``pytest -m slow`` a longer one.
"""

from __future__ import annotations

import os
import tempfile

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from rami.service import Settings, create_app
from rami.service.attempts import use_database

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
#: The operations of rami.service's own endpoints; other routers mounted on the app (the
#: puzzle pages) are held to "no 5xx" in the short run and to every check in the long one.
OWN_PATHS = frozenset(
    {
        "/health",
        "/rulesets",
        "/rulesets/{name}",
        "/validate",
        "/solve",
        "/hint",
        "/validate-turn",
        "/puzzles/daily",
        "/puzzles/daily/{date}",
        "/puzzles/check",
    }
)


def _schema() -> schemathesis.BaseSchema:
    """The document /openapi.json serves (``app.openapi()``), calls going to the app in
    process. Nothing starts before the first call (the app's lifespan then runs)."""
    # Short solver limits: the fuzzer checks answers, not how good the play is.
    app = create_app(
        Settings(default_time_limit=0.2, max_time_limit=0.5, deadline_slack=10, max_pending=64)
    )
    # A server with an attempts database (rami serve --db): the puzzle attempt endpoints are
    # fuzzed as served, writes included (a server without one answers them 503 by design).
    use_database(app, os.path.join(tempfile.mkdtemp(prefix="rami-fuzz-"), "attempts.db"))
    loaded = schemathesis.openapi.from_dict(app.openapi())
    loaded.app = app
    return loaded


schema = _schema()

_COMMON = dict(
    deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


@schema.parametrize()
@settings(max_examples=20, **_COMMON)
def test_fuzz_every_operation(case: schemathesis.Case) -> None:
    own = case.operation.path in OWN_PATHS
    case.call_and_validate(checks=CHECKS if own else [not_a_server_error])


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=1000, **_COMMON)
def test_fuzz_every_operation_long(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=CHECKS)
