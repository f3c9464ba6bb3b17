"""``rami play`` at a real terminal (a pseudo-terminal): readline's line editing and history."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest

pytest.importorskip("readline")

LEFT, UP = "\x1b[D", "\x1b[A"


class Terminal:
    """``rami play`` run in a pseudo-terminal, typed at key by key."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "RAMI_LANG": "en"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rami.cli.main", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.seen = ""

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait_for(self, text: str, count: int = 1) -> str:
        """Read until ``text`` has been shown ``count`` times (a hang guard, not a speed
        bound: a minute without any output fails)."""
        while self.seen.count(text) < count:
            ready, _, _ = select.select([self.master], [], [], 60)
            assert ready, f"no output for a minute; waiting for {text!r} in:\n{self.seen}"
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the process ended
                break
            if not chunk:
                break
            self.seen += chunk.decode(errors="replace")
        return self.seen

    def close(self) -> int:
        """The exit code; a process still running (a test that failed mid-way) is ended."""
        try:
            code = self.process.wait(timeout=60)  # a hang guard
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        os.close(self.master)
        return code


def test_arrows_edit_the_line_and_recall_the_last_one() -> None:
    term = Terminal("--vs", "beginner", "--seed", "3")
    try:
        term.wait_for("Your move? ")
        term.type("hnd" + LEFT + LEFT + "a\r")  # "hnd", back two, "a": "hand"
        term.wait_for("Your hand (14)", 2)
        term.type(UP + "\r")  # the last line again
        term.wait_for("Your hand (14)", 3)
        term.type("stock\r")
        term.wait_for("you have drawn already this turn (7S)")
        term.type("quit\r")
        seen = term.wait_for("Game abandoned.")
    except BaseException:
        term.process.kill()
        raise
    finally:
        code = term.close()
    assert code == 0, seen
    assert "\\x1b" not in seen and "not understood" not in seen
    assert "> hand" not in seen  # a terminal shows the typing itself, no transcript
