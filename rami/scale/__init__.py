"""Scale-out: the one place that decides where tasks run (this process, local processes, Ray).

:mod:`rami.scale.executor` holds the abstraction and the local executor,
:mod:`rami.scale.ray_cluster` the Ray one (loaded only for ``--ray``) and
:mod:`rami.scale.progress` the progress bar the commands draw on a terminal. The tasks
themselves live beside the code they run (``rami.game.simulate.play_task``,
``rami.puzzles.generator.judge_task``, ``rami.puzzles.mine.mine_task``,
``rami.cli.batch.solve_task``).
"""
