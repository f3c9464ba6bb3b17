"""Scale-out: the one place that decides where tasks run (this process, local processes, Ray).

:mod:`rami.scale.executor` holds the abstraction and the local executor,
:mod:`rami.scale.ray_cluster` the Ray one (loaded only for ``--ray``) and
:mod:`rami.scale.progress` the progress bar the commands draw on a terminal. The tasks
themselves live beside the code they run (``rami.game.simulate.play_task``,
``rami.puzzles.generator.judge_task``, ``rami.puzzles.mine.mine_task``,
``rami.cli.batch.solve_task``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rami.lazy import lazy_names

if TYPE_CHECKING:
    from rami.scale.executor import RETRIES, Executor, LocalExecutor
    from rami.scale.progress import Progress
    from rami.scale.ray_cluster import RayExecutor

#: Public name -> (module of rami.scale, attribute), loaded when first asked for (Ray only for
#: ``RayExecutor``).
_WHERE = {
    "RETRIES": ("executor", "RETRIES"),
    "Executor": ("executor", "Executor"),
    "LocalExecutor": ("executor", "LocalExecutor"),
    "Progress": ("progress", "Progress"),
    "RayExecutor": ("ray_cluster", "RayExecutor"),
}

__getattr__, __dir__ = lazy_names(__name__, _WHERE, globals())

__all__ = ["RETRIES", "Executor", "LocalExecutor", "Progress", "RayExecutor"]
