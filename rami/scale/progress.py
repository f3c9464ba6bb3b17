"""A progress bar on standard error, drawn only when it is a terminal (never in a pipe or a
log, so output files and captured output are the same with or without it)."""

from __future__ import annotations

import sys
from typing import Any


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """``with Progress(total, "label") as bar: bar.advance(note=...)``."""

    def __init__(self, total: int | None, label: str) -> None:
        self.bar: Any = None
        self.done = 0
        if not stderr_is_terminal():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.progress import (
            Progress as RichProgress,
        )

        self.bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.bar.add_task(label, total=total, note="")

    def __enter__(self) -> Progress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def advance(self, steps: int = 1, note: str = "") -> None:
        self.done += steps
        if self.bar is not None:
            self.bar.update(self.task, completed=self.done, note=note)

    def update(self, completed: int, note: str = "") -> None:
        """Set the count done (a caller that counts for itself)."""
        self.done = completed
        self.advance(0, note)

    def note(self, text: str) -> None:
        """A line above the bar (a retried task), or on standard error without a terminal."""
        if self.bar is not None:
            self.bar.console.print(text, highlight=False, markup=False)
        else:
            print(text, file=sys.stderr)
