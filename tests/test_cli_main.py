"""The ``rami`` command line itself: its version, its help, an unknown command, what importing it
(and the library) loads, and colour only on a terminal."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support.cli import DEMO_TXT, ok, rami

from rami import __version__
from rami.cli import output


def test_version() -> None:
    assert ok("--version").stdout == f"rami {__version__}\n"


def test_help_lists_every_command() -> None:
    shown = ok("--help").stdout
    for command in ("validate", "score", "rules", "solve", "hint"):
        assert command in shown


def test_no_arguments_shows_help() -> None:
    result = rami()
    assert "Usage: rami" in result.output
    assert "validate" in result.output


def test_unknown_command() -> None:
    result = rami("frobnicate")
    assert result.exit_code == 2
    assert "frobnicate" in result.output


def test_cli_import_does_not_load_the_solver() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import rami.cli.main"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "rami.cli.main" in imported
    assert not any(name.split(".")[0] in ("ortools", "numpy", "pandas") for name in imported)
    # Nor what only some commands use: the processes, the puzzles' models.
    for module in (
        "rami.solver.rearrange",
        "rami.scale.executor",
        "multiprocessing",
        "rami.puzzles.model",
    ):
        assert module not in imported


def test_the_library_import_does_not_load_the_pictures_nor_the_engine() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import rami"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "rami.display" in imported
    for module in ("rami.svg", "rami.solver.rearrange", "ortools", "numpy"):
        assert module not in imported


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = ok("validate", str(DEMO_TXT)).stdout
    assert "\x1b[" not in plain
    monkeypatch.setattr(output, "use_colour", lambda: True)
    coloured = ok("validate", str(DEMO_TXT)).stdout
    assert "\x1b[" in coloured
    assert "\x1b[" not in ok("validate", "--json", str(DEMO_TXT)).stdout


def test_use_colour_respects_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert output.use_colour() is False
