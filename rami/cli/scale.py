"""``--ray auto|ADDRESS``: the option the commands that run many tasks share, and the executor
it gives (rami.scale). Without ``--ray`` the work stays in local processes (``--workers``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from rami.cli.output import fail
from rami.errors import RamiError

if TYPE_CHECKING:
    from rami.scale import Executor, Progress

RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="auto|ADDRESS",
        help="Run the work as Ray tasks: 'auto' starts a local cluster for the run, "
        "HOST:PORT joins a running one (needs the extra rami[ray]; same output "
        "as the local run).",
        show_default=False,
    ),
]


def make_executor(workers: int = 1, ray: str | None = None) -> Executor:
    """The executor ``--workers K`` / ``--ray auto|ADDRESS`` ask for (Ray, and its package,
    load only when ``ray`` is given; ClusterUnavailableError when it cannot)."""
    if ray is None:
        from rami.scale import LocalExecutor  # (multiprocessing: loaded when used)

        return LocalExecutor(workers)
    from rami.scale import RayExecutor

    return RayExecutor.connect(ray)


def executor_for(workers: int, ray: str | None, json_output: bool = False) -> Executor:
    """The executor, or the command ends with the error of the table (exit 2 when ray is not
    installed or the cluster unreachable; the JSON error under ``--json``)."""
    try:
        return make_executor(workers, ray)
    except RamiError as error:
        fail(error, json_output)


class RetryLog:
    """The ``on_retry`` listener of a command: each retried task said on standard error (above
    the progress bar) and kept, so the summary can list them."""

    def __init__(self, progress: Progress | None, what: str) -> None:
        self.progress = progress
        self.what = what
        self.retries: list[dict[str, object]] = []

    def __call__(self, number: int, attempt: int, reason: str) -> None:
        from rami.scale import RETRIES

        self.retries.append({self.what: number, "attempt": attempt, "reason": reason})
        text = f"{self.what} {number}: task failed ({reason}); sent again ({attempt} of {RETRIES})"
        if self.progress is not None:
            self.progress.note(text)
        else:
            typer.echo(text, err=True)
