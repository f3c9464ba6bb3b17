"""Bad input found in issue 36: each gets a clear, specific error (JSON under ``--json``) and a
non-zero exit, never a traceback, a hang or a wrong answer."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner, Result

from rami.cli.main import app
from rami.errors import UnknownRulesetError
from rami.rules import get_ruleset


def rami(*args: str, stdin: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def json_error(result: Result) -> dict[str, object]:
    assert result.exit_code == 2, result.output
    data = json.loads(result.stdout)
    assert data["exit_code"] == 2
    error = data["error"]
    assert isinstance(error, dict)
    return error


# ------------------------------------------------------------------ 5: an option given twice


@pytest.mark.parametrize("spec", [
    "rami-chinois[jokers=0,jokers=4]",
    "rami-chinois[jokers=4, jokers=4]",
    "RAMI-CHINOIS[Jokers=0,jokers=4]",
    "bfmania-51[opening_pure_run=true,opening_pure_run=false]",
])
def test_an_option_given_twice_is_refused_naming_it(spec: str) -> None:
    name = spec.split("[")[1].split("=")[0].strip().lower()
    with pytest.raises(UnknownRulesetError, match=f"option '{name}' is given twice"):
        get_ruleset(spec)


def test_rules_and_solve_refuse_an_option_given_twice() -> None:
    result = rami("rules", "rami-chinois[jokers=0,jokers=4]")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: option 'jokers' is given twice in 'rami-chinois[jokers=0,jokers=4]'\n"
    )
    error = json_error(rami("solve", "--json", "- / TH / rami-chinois[jokers=0,jokers=4]"))
    assert "'jokers' is given twice" in str(error["message"])
    # Each option once is still fine.
    assert get_ruleset("rami-chinois[jokers=0]").jokers == 0
