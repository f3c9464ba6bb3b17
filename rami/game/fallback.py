"""What a game does when the solver behind a bot fails: it goes on, and the failure is kept.

A bot whose solve raises :class:`~rami.errors.SolverBugError` (the referee refused the
solver's answer: always a bug) plays the beginner's answer for that request instead, which is
legal by construction (docs/game.md, "Bots"). The failure is logged on the ``rami.game``
logger with the position, so that it can be reported, and counted in :data:`FAILURES` for the
simulation's summary and the tests that play games as a fuzzer.
"""

from __future__ import annotations

import logging
from typing import Any

from rami.game.state import View

LOGGER = logging.getLogger("rami.game")

#: Every solver failure met by a bot of this process: level, phase, position, error.
FAILURES: list[dict[str, Any]] = []


def note_failure(level: str, view: View, error: BaseException) -> None:
    """Log and keep one failure; the bot then answers as the beginner would."""
    position = str(view.position())
    entry = {
        "level": level,
        "phase": view.phase,
        "round": view.round,
        "turn": view.turn,
        "seat": view.seat,
        "position": position,
        "error": str(error),
    }
    FAILURES.append(entry)
    LOGGER.warning(
        "%s bot fell back to the beginner's answer at round %s, turn %s (%s): position %s: %s",
        level,
        view.round,
        view.turn,
        view.phase,
        position,
        error,
    )
