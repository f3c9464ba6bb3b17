"""The hint engine as an HTTP service (FastAPI): ``rami serve``, docs/service.md.

``create_app(settings)`` builds the app; :mod:`rami.service.cli` runs it under uvicorn.
"""

from __future__ import annotations

from rami.service.app import app_from_env, create_app
from rami.service.settings import Settings

__all__ = ["Settings", "app_from_env", "create_app"]
