"""Bad input at the command line in tests (test_input_faults_cli.py and
test_input_faults_records.py): the JSON error a command printed under ``--json`` (exit 2). The
commands run in-process through ``support.cli.rami`` (never a traceback)."""

from __future__ import annotations

import json

from typer.testing import Result


def json_error(result: Result) -> dict[str, object]:
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    assert data["exit_code"] == 2
    error = data["error"]
    assert isinstance(error, dict)
    return error
