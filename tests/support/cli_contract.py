"""The command line's contract in tests (tests/test_cli_hostile_input.py, test_cli_messages.py,
test_cli_interrupts.py and test_cli_errors.py): a command run in-process with its exit code and
output checked together (bad input: exit 2 and one message on stderr; under ``--json``: the error
as JSON on stdout), and the real ``rami`` program."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.cli import rami

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "examples" / "demo.txt"
RAMI = Path(sys.executable).with_name("rami")


def bad(*args: str, stdin: str | bytes | None = None) -> str:
    result = rami(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("error: "), result.output
    return result.stderr


def json_error(*args: str, stdin: str | None = None, code: int = 2) -> dict:
    result = rami(*args, stdin=stdin)
    assert result.exit_code == code, result.output
    assert result.stderr == ""
    data = json.loads(result.stdout)
    assert set(data) >= {"error", "exit_code"}
    assert data["exit_code"] == code
    assert set(data["error"]) == {"type", "message", "loc", "problems"}
    return data["error"]


def run_rami(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(RAMI), *args], capture_output=True, text=True, timeout=60, cwd=ROOT, **kwargs
    )
