"""The ``rami`` command line in tests (test_cli_main.py, _inputs, _bad_input, _score, _rules, _solve
and _hint): the example files, and a command run with its exit code and output checked together."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from rami.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
DEMO_TXT = ROOT / "examples" / "demo.txt"
DEMO_JSON = ROOT / "examples" / "demo.json"
BATCH = ROOT / "examples" / "batch.jsonl"
DEMO = DEMO_TXT.read_text(encoding="utf-8").strip()
CANONICAL_DEMO = (
    "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened"
)
OPENING = "- / AS 2S 3S 9C 9D 9H KH"


def rami(*args: str, stdin: str | bytes | None = None) -> Result:
    """A command run in-process: never a traceback, never an exception but an exit."""
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def ok(*args: str, stdin: str | None = None) -> Result:
    result = rami(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result


def bad(*args: str, stdin: str | None = None) -> str:
    """Run a command that must fail on bad input: exit 2, a message on stderr, nothing else."""
    result = rami(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: "), result.output
    return result.stderr
