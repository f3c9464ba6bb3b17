"""Imported first by the solver processes' fork server (:data:`rami.service.pool.PRELOAD`), and
by nothing else: the fork server then ends at once with the server process that started it
(Linux ``PR_SET_PDEATHSIG``), and, if that process ended while the fork server was starting,
it ends right here instead of loading OR-Tools for nobody."""

from __future__ import annotations

import os
import signal

from rami.service.solver_process import FORKSERVER_PARENT_ENV, die_with_parent

die_with_parent(signal.SIGKILL)
_parent = os.environ.get(FORKSERVER_PARENT_ENV, "")
if _parent.isdigit() and os.getppid() != int(_parent):
    os._exit(0)
