"""The command line's messages mislead no one: an empty argument, JSON that is no position, a byte
order mark, unknown options named, positions starting with a dash, flags shown and taken as
flags, contradictory or unknown settings refused; plurals said right; shell completion on.

Each test asserts the exit code and the output together.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer.main
from support.cli import rami
from support.cli_contract import DEMO, ROOT, bad
from typer.testing import CliRunner

from rami.cli.main import app
from rami.errors import NotationError, UnknownRulesetError
from rami.notation import parse_position

# ---------------------------------------------------------------- 4. misleading messages


def test_empty_argument_is_an_empty_position() -> None:
    assert bad("validate", "") == "error: empty position\n"
    assert bad("validate", "   ") == "error: empty position\n"


@pytest.mark.parametrize(
    ("argument", "kind"),
    [
        ("[1,2]", "array"),
        ("42", "number"),
        ("null", "null"),
        ("true", "boolean"),
        ('"7H"', "string"),
        ("3.5", "number"),
    ],
)
def test_json_that_is_not_a_position_says_so(argument: str, kind: str) -> None:
    message = bad("validate", argument)
    assert f"a JSON {kind} is not a position" in message
    assert "no such file" not in message


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeff- / 7H".encode())
    result = rami("validate", str(path))
    assert result.exit_code == 0, result.output
    assert "Position: - / 7H / rami-chinois" in result.stdout
    path.write_bytes('\ufeff{"hand": ["7H"]}'.encode())
    assert rami("score", str(path)).stdout.startswith("Hand penalty: 7")
    assert rami("score", "-", stdin="\ufeff- / 7H").exit_code == 0


@pytest.mark.parametrize(
    ("args", "option", "suggestion"),
    [
        (["validate", "--jsn", "examples/demo.txt"], "--jsn", "--json"),
        (["hint", "--lvl", "2", "examples/demo.txt"], "--lvl", "--level"),
        (["solve", "examples/demo.txt", "--time-limt", "3"], "--time-limt", "--time-limit"),
    ],
)
def test_unknown_options_are_named(
    args: list[str], option: str, suggestion: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    result = rami(*args)
    assert result.exit_code == 2
    assert f"No such option: {option}" in result.stderr
    assert suggestion in result.stderr
    assert "unexpected extra argument" not in result.output


def test_positions_starting_with_a_dash_are_still_positions() -> None:
    for argument in ("- / 2C 3C", "-/2C", "- | x", "-\t/ 2C"):
        result = rami("score", argument)
        assert "No such option" not in result.output, argument
    assert rami("score", "- / 2C 3C", "--json").exit_code == 0
    assert rami("solve", "--json", "- / AS 2S 3S").exit_code == 0


def _help_texts() -> list[str]:
    group = typer.main.get_command(app)
    texts = [CliRunner().invoke(app, ["--help"]).output]
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        texts.append(CliRunner().invoke(app, [name, "--help"]).output)
        for sub in getattr(command, "commands", {}):
            texts.append(CliRunner().invoke(app, [name, sub, "--help"]).output)
    return texts


def test_help_shows_flags_as_flags() -> None:
    texts = _help_texts()
    assert len(texts) > 10
    for text in texts:
        assert "<bool>" not in text, text
    validate = CliRunner().invoke(app, ["validate", "--help"]).output
    assert re.search(r"^  --json +Print JSON instead of text\.", validate, re.MULTILINE), validate


def test_a_flag_takes_no_value() -> None:
    result = rami("validate", "--json", "true", str(DEMO))
    assert result.exit_code == 2
    assert "unexpected extra argument" in result.output


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ("opened not-opened", "setting 'not-opened' contradicts 'opened'"),
        ("new opened", "setting 'opened' contradicts 'new'"),
        ("opened opened", "setting 'opened' given twice"),
        ("discard=7H discard=8H", "setting 'discard=8H': a second taken discard"),
        ("rami-51 rami-fou", "unexpected setting 'rami-fou'"),
        ("open", "unknown setting 'open'"),
        ("rami-foo", "unknown ruleset 'rami-foo'"),
    ],
)
def test_contradictory_or_unknown_settings_are_refused(settings: str, message: str) -> None:
    assert message in bad("validate", f"- / 7H / {settings}")
    with pytest.raises((NotationError, UnknownRulesetError)) as error:
        parse_position(f"- / 7H / {settings}")
    assert error.value.loc == ("settings",)


# ---------------------------------------------------------------- 6. plurals


def test_hint_plurals() -> None:
    assert rami("hint", "7H 8H 9H / TH / opened").stdout == "You can play your only card.\n"
    assert rami("hint", "7H 8H 9H / TH 9S 9D 9C / opened").stdout == ("You can play all 4 cards.\n")
    assert rami("hint", "7H 8H 9H / AS KS / opened").stdout == "No card can be played this turn.\n"


# ---------------------------------------------------------------- 7. completion


def test_shell_completion_is_on() -> None:
    shown = rami("--help").stdout
    assert "--install-completion" in shown
    assert "--show-completion" in shown
