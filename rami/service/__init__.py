"""The hint engine as an HTTP service (FastAPI): ``rami serve``, docs/service.md.

``create_app(settings)`` builds the app; :mod:`rami.service.cli` runs it under uvicorn. The
names below load on first use, so that the solver processes, which import modules of this
package, never load FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rami.service.app import app_from_env, create_app
    from rami.service.settings import Settings

__all__ = ["Settings", "app_from_env", "create_app"]


def __getattr__(name: str) -> Any:
    if name in ("app_from_env", "create_app"):
        from rami.service import app

        return getattr(app, name)
    if name == "Settings":
        from rami.service.settings import Settings

        return Settings
    raise AttributeError(f"module 'rami.service' has no attribute {name!r}")
