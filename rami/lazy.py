"""Names a package loads from its modules on first use (PEP 562), so that importing the
package stays cheap: ``rami.puzzles`` and ``rami.game`` name their public API this way."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from importlib import import_module
from typing import Any


def lazy_names(
    package: str, where: Mapping[str, tuple[str, str]], namespace: MutableMapping[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``where`` (name -> (its
    module in the package, the attribute there)) is imported when first asked for, then kept in
    the package's ``namespace`` (its ``globals()``)."""

    def get(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = where[name]
        value = getattr(import_module(f"{package}.{module}"), attribute)
        namespace[name] = value
        return value

    def names() -> list[str]:
        return sorted([*namespace, *where])

    return get, names
