"""Faults at the command line, on a real ``rami`` process: Ctrl-C during a solve says it was
interrupted, a keyboard interrupt outside a solve, SIGINT after a solve is Python's again, and a
reader that leaves (``rami solve ... | head``) ends the command quietly.

Each test asserts the exit code and the output together.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.cli import rami
from support.cli_contract import RAMI, ROOT

from rami.errors import EXIT_INTERRUPTED

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
