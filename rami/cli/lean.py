"""OR-Tools' CP-SAT without pandas, in the ``rami`` command's own process.

``ortools.sat.python.cp_model`` imports pandas at its top for its ``*_series`` helpers, which
take pandas indexes; rami never calls them, and importing pandas is about 220 ms of a cold
``rami solve`` (docs/benchmarks.md, "Cold start"). :func:`install` lets the command's process
load cp_model with a stand-in module as its ``pandas``: a class ``Index`` and a class ``Series``
that nothing is an instance of, so those helpers refuse every argument as they would refuse a
non-pandas one. The stand-in is never left in ``sys.modules``: an ``import pandas`` anywhere
else (Ray's, for instance) loads the real pandas.

Only the console entry point (:func:`rami.cli.main.run`) installs it: a program that imports
rami as a library, and may use cp_model's pandas helpers itself, gets OR-Tools as it ships.
Where pandas is already loaded, or cp_model is, nothing changes.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence

CP_MODEL = "ortools.sat.python.cp_model"


def stand_in() -> types.ModuleType:
    """The module cp_model sees as ``pandas``."""
    module = types.ModuleType("pandas", "rami's stand-in: cp_model's pandas helpers are unused")
    module.Index = type("Index", (), {})  # type: ignore[attr-defined]
    module.Series = type("Series", (), {})  # type: ignore[attr-defined]
    return module


class _Loader(importlib.abc.Loader):
    """Runs cp_model's own loader with the stand-in as ``pandas`` for the time it runs."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        if "pandas" in sys.modules:
            self.loader.exec_module(module)
            return
        sys.modules["pandas"] = stand_in()
        try:
            self.loader.exec_module(module)
        finally:
            del sys.modules["pandas"]


class _Finder(importlib.abc.MetaPathFinder):
    """Finds cp_model as the other finders do, and wraps its loader (:class:`_Loader`)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != CP_MODEL:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _Loader(spec.loader)
                return spec
        return None


def install() -> None:
    """Load cp_model without pandas from now on in this process (once; see the module's note)."""
    if CP_MODEL in sys.modules or any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Finder())
