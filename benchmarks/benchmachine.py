"""The machine and the code a benchmark measured: CPU, load, Python and OR-Tools versions, the
git commit and digests of the engine's source, so that every export says what it timed.

Nothing here imports the solver engine at import time (``measured_root`` imports ``rami`` when
called: an A/B run may point Python at another checkout).
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def measured_root() -> Path:
    """The work tree of the ``rami`` package Python imports: usually this repository, but an
    A/B run may import another checkout (``PYTHONPATH=/tmp/prev``), and that is what it measures."""
    import rami

    return Path(rami.__file__).resolve().parent.parent


def git_commit(short: bool = False) -> str | None:
    """The measured checkout's commit (read-only ``git rev-parse``), None outside a work tree."""
    command = ["git", "rev-parse", *(["--short"] if short else []), "HEAD"]
    try:
        done = subprocess.run(
            command, cwd=measured_root(), capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def engine_digest() -> str | None:
    """SHA-256 (first 12 hex digits) of the installed solver's source (every module of
    ``rami/solver``): it changes between commits, so the commit alone does not say what was
    measured."""
    try:
        import rami.solver

        digest = hashlib.sha256()
        for path in sorted(Path(rami.solver.__file__).parent.rglob("*.py")):
            digest.update(path.read_bytes())
        return digest.hexdigest()[:12]
    except (ImportError, OSError, TypeError):
        return None


def source_files() -> dict[str, str]:
    """Git blob hash (first 12 hex digits) of every ``rami/**/*.py``: what code was measured."""
    blobs = {}
    root = measured_root()
    for path in sorted((root / "rami").rglob("*.py")):
        data = path.read_bytes()
        blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        blobs[path.relative_to(root).as_posix()] = blob
    return blobs


def source_state() -> dict[str, Any]:
    """What code was measured: a digest of the ``rami`` package source, which of its files differ
    from the commit (blob hashes compared with read-only ``git ls-tree``: the engine is often
    measured with uncommitted changes), and each file's blob hash (``compare.py`` lists the files
    that differ between two exports)."""
    blobs = source_files()
    digest = hashlib.sha256("".join(f"{k} {v}\n" for k, v in blobs.items()).encode())
    modified: list[str] | None = None
    try:
        done = subprocess.run(
            ["git", "ls-tree", "-r", "HEAD", "--", "rami"],
            cwd=measured_root(),
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is not None and done.returncode == 0:
        committed = {}
        for line in done.stdout.splitlines():
            meta, _, name = line.partition("\t")
            if name.endswith(".py"):
                committed[name] = meta.split()[2]
        modified = sorted(
            name
            for name in blobs.keys() | committed.keys()
            if blobs.get(name) != committed.get(name)
        )
    return {
        "source_sha256": digest.hexdigest()[:12],
        "modified_vs_commit": modified,
        "source_files": {name: blob[:12] for name, blob in blobs.items()},
    }


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info() -> dict[str, Any]:
    try:
        from importlib.metadata import version

        ortools = version("ortools")
    except Exception:
        ortools = None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "ortools": ortools,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpu_usable": usable,
        # Other processes compete for the cores: a load near or above cpu_count inflates timings.
        "loadavg": [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None,
        "git_commit": git_commit(),
        "engine_sha256": engine_digest(),
        **source_state(),
    }


def machine_line(info: dict[str, Any]) -> str:
    """One line saying what was measured where."""
    modified = info.get("modified_vs_commit")
    during = info.get("source_changed_during_run")
    changed = f" (changed during the run: {', '.join(during)})" if during else ""
    changes = (
        ""
        if modified is None
        else " (clean)"
        if not modified
        else f" + {len(modified)} modified rami files"
    )
    return (
        f"commit {str(info.get('git_commit'))[:10]}{changes}, "
        f"engine {info.get('engine_sha256')}, source {info.get('source_sha256')}{changed} | "
        f"python {info.get('python')} | ortools "
        f"{info.get('ortools')} | {info.get('cpu_count')} cpus ({info.get('cpu')}) | load "
        f"{info.get('loadavg')}" + (f" -> {info['loadavg_end']}" if info.get("loadavg_end") else "")
    )
