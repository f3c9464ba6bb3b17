"""Ctrl-C during a solve: the command says "interrupted" and exits 130, at once.

A KeyboardInterrupt raised in Python code is reported by the command line's entry point. A solve
is different: CP-SAT runs in C++ for up to the time limit, and by default it catches SIGINT
itself and stops "as if the time limit was reached", so the answer printed would claim a time
limit that never was (and it leaves SIGINT at its default action afterwards). Inside
:func:`solving`, SIGINT is blocked in the solving thread (so CP-SAT never sees it) and a watcher
thread waits for it with ``sigwait``: on Ctrl-C it prints the interruption (text on stderr, or
the JSON error on stdout) and ends the process with exit code 130. On leaving, SIGINT is
unblocked and Python's handler put back.

The watcher runs only in the real ``rami`` process (:func:`enable`, called by the console entry
point) and only where POSIX signals allow it; elsewhere :func:`solving` does nothing.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rami.errors import EXIT_INTERRUPTED

_enabled = False
_lock = threading.Lock()
_report: Callable[[], object] | None = None
_watcher: threading.Thread | None = None
_ready = threading.Event()
_armed = threading.Event()
_idle = threading.Event()

#: Sent to the watcher alone (``pthread_kill``) to take it out of ``sigwait``.
_WAKE: signal.Signals | None = getattr(signal, "SIGUSR2", None)


def enable() -> None:
    """Let :func:`solving` guard solves in this process (the console entry point calls it)."""
    global _enabled
    _enabled = (
        hasattr(signal, "pthread_sigmask") and hasattr(signal, "sigwait") and _WAKE is not None
    )


def _watch() -> None:
    # SIGINT is blocked here already (inherited); the wake-up signal is blocked before anyone
    # may send it, so neither ever reaches a handler in this thread.
    wake = _WAKE
    assert wake is not None  # enable() checked it
    signal.pthread_sigmask(signal.SIG_BLOCK, {wake})
    _ready.set()
    while True:
        _armed.wait()
        received = signal.sigwait({signal.SIGINT, wake})
        if received == signal.SIGINT:
            if _armed.is_set() and _report is not None:
                try:
                    _report()
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(EXIT_INTERRUPTED)
            # The solve was ending: hand the signal to the main thread (Python's handler there
            # raises KeyboardInterrupt), then take the wake-up that ends this round.
            main = threading.main_thread().ident
            assert main is not None  # a started thread
            signal.pthread_kill(main, signal.SIGINT)
            signal.sigwait({wake})
        _idle.set()


@contextmanager
def solving(report: Callable[[], object]) -> Iterator[None]:
    """Guard a solve: Ctrl-C calls ``report`` and exits 130, whatever CP-SAT does with SIGINT.

    While armed, SIGINT is blocked in this thread and taken by the watcher's ``sigwait``; when
    disarmed the watcher waits on an event, out of ``sigwait``, so SIGINT goes to Python again.
    """
    global _report, _watcher
    if not _enabled or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    with _lock:
        _report = report
        if _watcher is None:
            # Created while SIGINT is blocked: the watcher inherits the block.
            _watcher = threading.Thread(target=_watch, name="rami-sigint", daemon=True)
            _watcher.start()
            _ready.wait()
    _idle.clear()
    _armed.set()
    try:
        yield
    finally:
        _armed.clear()
        watcher, wake = _watcher.ident, _WAKE
        assert watcher is not None and wake is not None  # started; enable() checked the signal
        signal.pthread_kill(watcher, wake)
        _idle.wait()
        # CP-SAT may have left SIGINT at its default action: put Python's handler back.
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
