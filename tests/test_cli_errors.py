"""Errors at the command line as a contract (README.md, "Errors"): the error table (types, exit
codes, HTTP statuses), the library's errors carrying their structure, every ``--json`` command
failing in JSON (an invalid position's problems, a solver bug), text on stderr without
``--json``, an internal error as one line and exit 1.

Each test asserts the exit code and the output together.
"""

from __future__ import annotations

import json
import pickle

import pytest
from support.cli import rami
from support.cli_contract import DEMO, bad, json_error
from typer.testing import CliRunner

from rami.cli.main import app
from rami.errors import (
    IllegalTurnError,
    InputTooLargeError,
    InvalidPositionError,
    NotationError,
    RamiError,
    SolverBugError,
    UnknownRulesetError,
    UnreadableFileError,
    UnsupportedError,
    error_json,
    exit_code,
    http_status,
)
from rami.notation import parse_position_any

# ---------------------------------------------------------------- 8. errors as a contract


def test_the_error_table() -> None:
    rows = {
        RamiError("x"): (2, 422),
        NotationError("x"): (2, 422),
        UnreadableFileError("x"): (2, 422),
        InputTooLargeError("x"): (2, 413),
        UnknownRulesetError("x"): (2, 422),
        InvalidPositionError(["a", "b"]): (2, 422),
        IllegalTurnError(["a"]): (2, 422),
        UnsupportedError("x"): (2, 422),
        SolverBugError("x"): (1, 500),
        KeyboardInterrupt(): (130, 499),
        RuntimeError("x"): (1, 500),
    }
    for error, (code, status) in rows.items():
        assert (exit_code(error), http_status(error)) == (code, status), type(error)
        assert error.exit_code == code if isinstance(error, RamiError) else True


def test_library_errors_carry_structure() -> None:
    with pytest.raises(NotationError) as error:
        parse_position_any('{"table": [["7H", "8H", "9H"], ["QS"], ["2C", "ZZ", "4C"]]}')
    assert error.value.loc == ("table", 2, 1)
    assert str(error.value).startswith("table[2][1]: unknown card 'ZZ'")
    cases = {
        '{"table": [{"kind": "run", "cards": ["7H", 8]}]}': ("table", 0, "cards", 1),
        '{"table": [{"kind": "pair", "cards": ["7H"]}]}': ("table", 0, "kind"),
        '{"hand": ["2C", 5]}': ("hand", 1),
        '{"opened": "yes"}': ("opened",),
        '{"taken_discard": "ZZ"}': ("taken_discard",),
        '{"rules": "rami-foo"}': ("rules",),
        '{"hand": [], "players": 4}': ("players",),
        "7H 8H 9H | 2C ZZ / -": ("table", 1),
        "- / 2C ZZ": ("hand",),
    }
    for text, loc in cases.items():
        with pytest.raises(RamiError) as raised:
            parse_position_any(text)
        assert raised.value.loc == loc, text
    invalid = InvalidPositionError(["meld 1: too short", "3 copies of 7H"])
    assert str(invalid) == "meld 1: too short; 3 copies of 7H"
    assert invalid.problems == ["meld 1: too short", "3 copies of 7H"]
    assert invalid.to_json() == {
        "type": "InvalidPositionError",
        "message": str(invalid),
        "loc": None,
        "problems": ["meld 1: too short", "3 copies of 7H"],
    }
    again = pickle.loads(pickle.dumps(invalid))
    assert again.problems == invalid.problems and str(again) == str(invalid)
    located = pickle.loads(pickle.dumps(NotationError("x", loc=("hand", 0))))
    assert located.loc == ("hand", 0)
    assert error_json(RuntimeError("boom"))["type"] == "RuntimeError"


@pytest.mark.parametrize(
    ("args", "kind", "loc"),
    [
        (["validate", "--json", "7H 8H / 2C"], None, None),
        (["score", "--json", "- / 2C ZZ"], "NotationError", ["hand"]),
        (["score", "--json", "- / 2C 2C 2C"], "InvalidPositionError", None),
        (["solve", "--json", '{"hand": ["2C", 5]}'], "NotationError", ["hand", 1]),
        (["solve", "--json", "--time-limit", "0", "- / 2C"], "UsageError", None),
        (["solve", "--json", "--objective", "fun", "- / 2C"], "UsageError", None),
        (["hint", "--json", "missing.txt"], "UnreadableFileError", None),
        (["hint", "--json", "--level", "7", "- / 2C"], "UsageError", None),
        (["rules", "--json", "poker"], "UnknownRulesetError", None),
        (["validate", "--json", "--jsn", "- / 2C"], "UsageError", None),
        (
            [
                "solve",
                "--json",
                "5S 6S 7S / 7H 8H 9H 2C / rami-fou[open_and_rearrange_same_turn=true]",
            ],
            "UnsupportedError",
            None,
        ),
        (["puzzle", "show", "--json", "nope"], "NotationError", None),
        (
            ["puzzle", "check", "--json", "rc-44022bd5db", "--answer", "3H ZZ"],
            "NotationError",
            ["table", 0],
        ),
        (["puzzle", "daily", "--json", "--date", "2026-13-45"], "UsageError", None),
    ],
)
def test_every_json_command_fails_in_json(args: list[str], kind: str | None, loc) -> None:
    if kind is None:  # validate --json: the verdict (valid false) is its answer
        result = rami(*args)
        assert result.exit_code == 2
        assert json.loads(result.stdout)["valid"] is False
        return
    error = json_error(*args)
    assert error["type"] == kind
    assert error["message"]
    assert error["loc"] == loc


def test_invalid_position_json_lists_the_problems() -> None:
    error = json_error("score", "--json", "7H 8S 9H / 2C 2C 2C")
    assert error == {
        "type": "InvalidPositionError",
        "message": "invalid position (2 problems)",
        "loc": None,
        "problems": [
            "meld 1: run 7H 8S 9H mixes suits (S, H)",
            "3 copies of 2C: two decks hold only 2",
        ],
    }


def test_solver_bug_under_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from rami.solver import api

    def broken(*args: object, **kwargs: object) -> None:
        raise SolverBugError("the referee rejected meld 3")

    monkeypatch.setattr(api, "solve", broken)
    error = json_error("solve", "--json", str(DEMO), code=1)
    assert error["type"] == "SolverBugError"
    assert error["message"] == (
        "internal solver error (a bug, please report it): the referee rejected meld 3"
    )


def test_without_json_errors_stay_text_on_stderr() -> None:
    assert bad("score", "- / 2C ZZ") == "error: hand: unknown card 'ZZ' in '2C ZZ'\n"
    assert bad("rules", "poker").startswith("error: unknown ruleset 'poker'")


def test_an_internal_error_is_one_line_and_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    from rami.cli import positions

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(positions, "load_position", broken)
    result = rami("score", "- / 2C")
    assert result.exit_code == 1
    assert result.stderr == "error: internal error (a bug, please report it): RuntimeError: boom\n"
    error = json_error("score", "--json", "- / 2C", code=1)
    assert error["type"] == "RuntimeError"
    monkeypatch.setenv("RAMI_TRACEBACK", "1")
    assert "Traceback" in CliRunner().invoke(app, ["score", "- / 2C"]).stderr


def test_json_output_is_strict_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """A non-finite number in an answer is an internal error in JSON, exit 1, never the ``NaN``
    token that JSON readers refuse."""
    from rami.position import Position

    summary = Position.summary_json

    def with_nan(self: Position) -> dict[str, object]:
        return {**summary(self), "hand_penalty": float("nan")}

    monkeypatch.setattr(Position, "summary_json", with_nan)
    result = rami("validate", "--json", str(DEMO))
    assert result.exit_code == 1
    assert "NaN" not in result.stdout
    error = json.loads(result.stdout)["error"]
    assert error["type"] == "ValueError"
    assert "internal error" in error["message"] and "JSON" in error["message"]
