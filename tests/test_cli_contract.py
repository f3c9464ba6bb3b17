"""Hostile input and faults at the command line, and errors as a contract (README.md, "Errors").

Each test asserts the exit code and the output together; the closed standard input and Ctrl-C
are tried on a real ``rami`` process.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner, Result

from rami.cli.main import app
from rami.errors import (
    EXIT_INTERRUPTED,
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
from rami.notation import MAX_JSON_DEPTH, parse_position, parse_position_any
from rami.textfile import MAX_POSITION_BYTES

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "examples" / "demo.txt"
RAMI = Path(sys.executable).with_name("rami")
DEEP = "[" * 1500 + "]" * 1500
DEEP_POSITION = '{"hand": ' + DEEP + "}"


def rami(*args: str, stdin: str | bytes | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


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


# ---------------------------------------------------------------- 1. closed standard input


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "-"],
        ["score", "-"],
        ["solve", "--batch", "-"],
        ["puzzle", "check", "rc-44022bd5db", "--answer", "-"],
    ],
    ids=["validate", "score", "batch", "puzzle-answer"],
)
def test_closed_standard_input_is_a_clear_error(args: list[str]) -> None:
    done = subprocess.run(
        f"exec {RAMI} {' '.join(args)} <&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr == "error: cannot read standard input: standard input is closed\n"
    assert "Traceback" not in done.stderr


def test_closed_standard_input_under_json() -> None:
    done = subprocess.run(
        f"exec {RAMI} score --json - <&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["error"]["type"] == "UnreadableFileError"


# ---------------------------------------------------------------- 2. deep JSON


def test_deep_json_inline_file_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    want = f"JSON nested more than {MAX_JSON_DEPTH} levels deep"
    assert bad("validate", DEEP_POSITION) == f"error: {want}\n"
    # A relative name: messages cut what they quote at 80 characters, and tmp_path's length
    # depends on the runner (pytest -n adds a level).
    monkeypatch.chdir(tmp_path)
    Path("deep.json").write_text(DEEP_POSITION, encoding="utf-8")
    assert bad("validate", "deep.json") == f"error: deep.json: {want}\n"
    assert bad("score", "-", stdin=DEEP_POSITION) == f"error: <stdin>: {want}\n"
    assert bad("validate", "-", stdin=DEEP).startswith("error: <stdin>: a JSON array is not")


def test_deep_json_fails_only_its_batch_line(tmp_path: Path) -> None:
    path = tmp_path / "batch.jsonl"
    path.write_text(
        '{"hand": ["2C"]}\n' + DEEP_POSITION + "\n" + '{"hand": ["AS", "2S", "3S"]}\n',
        encoding="utf-8",
    )
    result = rami("solve", "--batch", str(path))
    assert result.exit_code == 2
    assert result.stderr == "error: 1 of 3 positions failed\n"
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3]
    assert rows[1] == {"line": 2, "error": f"JSON nested more than {MAX_JSON_DEPTH} levels deep"}
    assert rows[0]["status"] == rows[2]["status"] == "optimal"
    assert rows[2]["cards_played"] == 3


def test_deep_json_answer_and_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert bad("puzzle", "check", "rc-44022bd5db", "--answer", DEEP) == (
        f"error: answer: JSON nested more than {MAX_JSON_DEPTH} levels deep\n"
    )
    monkeypatch.chdir(tmp_path)  # a name shorter than the 80 characters a message quotes
    Path("deep.jsonl").write_text('{"id": ' + DEEP + "}\n", encoding="utf-8")
    assert bad("puzzle", "check", "deep.jsonl") == (
        f"error: 'deep.jsonl':1: JSON nested more than {MAX_JSON_DEPTH} levels deep\n"
    )


def test_library_parsers_bound_the_depth() -> None:
    with pytest.raises(NotationError, match="nested more than"):
        parse_position_any(DEEP_POSITION)
    with pytest.raises(NotationError, match="nested more than"):
        parse_position_any(DEEP)
    nested = '{"hand": ' + "[" * 30 + "]" * 30 + "}"  # deep enough to be scanned, not refused
    with pytest.raises(NotationError, match=r"hand\[0\]: expected a card string"):
        parse_position_any(nested)
    # Brackets inside strings nest nothing.
    text = '{"hand": ["' + "[" * 100 + '"]}'
    with pytest.raises(NotationError, match="unknown card"):
        parse_position_any(text)


# ---------------------------------------------------------------- 3. size bounds


def test_devices_are_refused_at_once() -> None:
    started = time.monotonic()
    assert bad("validate", "/dev/zero") == "error: cannot read '/dev/zero': not a regular file\n"
    assert time.monotonic() - started < 5


def test_endless_standard_input_stops_at_the_bound() -> None:
    done = subprocess.run(
        f"exec {RAMI} validate - < /dev/zero",
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "error: cannot read standard input: more than 1 MiB, the most it may hold\n"
    )


def test_a_file_past_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    path.write_bytes(b"- / " + b"2C " * (MAX_POSITION_BYTES // 3 + 10))
    assert bad("validate", str(path)) == (
        f"error: cannot read '{path}': more than 1 MiB, the most it may hold\n"
    )


def test_a_long_input_is_never_echoed_whole(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text("- / " + "ZZ" * 400_000 + "\n", encoding="utf-8")  # one line, 800 KB
    message = bad("validate", str(path))
    assert len(message) < 400
    assert "ZZZZ..." in message
    long_word = "- / 2C / " + "x" * 5000
    assert len(bad("validate", long_word)) < 400
    result = rami("validate", "--json", "- / 2C / " + "rami-" + "y" * 5000)
    assert result.exit_code == 2
    assert len(result.stdout) < 1500


def test_messages_quote_at_most_80_characters() -> None:
    with pytest.raises(NotationError) as error:
        parse_position("- / " + "Q" * 1000)
    assert len(str(error.value)) < 250
    assert "..." in str(error.value)
    assert len(str(RamiError("x " + repr("y" * 10_000)))) < 100


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


# ---------------------------------------------------------------- 5. interrupted

#: A rami fou turn that takes CP-SAT several seconds to prove (benchmarks/suites).
SLOW = (ROOT / "benchmarks" / "suites" / "rami-fou-060.jsonl").read_text().splitlines()[14]


def _wait_until_solving(process: subprocess.Popen[str], timeout: float = 60) -> None:
    """Until the command is inside its solve: there the main thread blocks SIGINT for the
    watcher (rami.cli.interrupt), which /proc shows. A fixed sleep raced a loaded machine's
    imports."""
    deadline = time.monotonic() + timeout
    status = Path(f"/proc/{process.pid}/status")
    while time.monotonic() < deadline:
        assert process.poll() is None, "the solve ended before the interrupt"
        blocked = next(
            (
                line.split()[1]
                for line in status.read_text().splitlines()
                if line.startswith("SigBlk:")
            ),
            "0",
        )
        if int(blocked, 16) & (1 << (signal.SIGINT - 1)):
            time.sleep(0.2)  # well inside it
            return
        time.sleep(0.05)
    raise AssertionError("the command never started its solve")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_ctrl_c_during_a_solve_says_interrupted(tmp_path: Path, json_output: bool) -> None:
    path = tmp_path / "slow.json"
    path.write_text(SLOW, encoding="utf-8")
    args = [str(RAMI), "solve", "--time-limit", "30", str(path)]
    if json_output:
        args.insert(2, "--json")
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    _wait_until_solving(process)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert process.returncode == EXIT_INTERRUPTED, (out, err)
    assert "time limit" not in out
    assert "Status" not in out
    if json_output:
        assert json.loads(out) == {
            "error": {"type": "Interrupted", "message": "interrupted", "loc": None, "problems": []},
            "exit_code": 130,
        }
        assert err == ""
    else:
        assert out == ""
        assert err == "error: interrupted\n"


def test_keyboard_interrupt_outside_a_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    from rami.cli import positions

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(positions, "load_position", interrupted)
    result = rami("score", "- / 2C")
    assert result.exit_code == 130
    assert result.stderr == "error: interrupted\n"
    result = rami("score", "--json", "- / 2C")
    assert result.exit_code == 130
    assert json.loads(result.stdout)["error"]["type"] == "Interrupted"


def test_sigint_after_a_solve_is_python_s_again() -> None:
    """CP-SAT leaves SIGINT at its default action after a solve: the CLI puts Python's back."""
    code = (
        "import signal, os, time\n"
        # Python's handler, as where Python starts in a terminal: a child of a process ignoring
        # SIGINT (a pytest-xdist worker) starts with it ignored, and Python then installs none.
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from rami.cli import interrupt\n"
        "from rami.notation import parse_position\n"
        "from rami.solver.api import solve\n"
        "interrupt.enable()\n"
        "with interrupt.solving(lambda: None):\n"
        "    solve(parse_position('7H 8H 9H / 9S 9D 9C / opened'))\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        # Short sleeps: Python runs its handler between bytecodes, whichever thread took it.
        "    for _ in range(400):\n"
        "        time.sleep(0.01)\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert (done.returncode, done.stdout) == (0, "True\nKeyboardInterrupt\n"), done.stderr


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


# ---------------------------------------------------------------- 8. a closed pipe


def test_a_reader_that_leaves_ends_the_command_quietly() -> None:
    """``rami solve ... | head``: no "internal error" when the reader closes the pipe early."""
    process = subprocess.Popen(
        [str(RAMI), "solve", "--json", str(ROOT / "examples" / "demo.txt")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    with process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        stderr = process.stderr.read()
        assert process.wait(timeout=60) == 141
    assert stderr == b""
