"""One JSON error shape for every failure: ``{"error": ..., "field": ..., "problems": [...]}``.

Bad input is always a 4xx naming the field at fault; nothing a client sends produces a 500 or a
traceback. Only a solver bug (the referee rejecting the solver's own answer) or an unexpected
exception is a 500, and its body is a sentence, never a traceback (which goes to the server log).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from rami.errors import (
    InvalidPositionError,
    NotationError,
    RamiError,
    SolverBugError,
    UnknownRulesetError,
    UnsupportedError,
)
from rami.notation import loc_text

log = logging.getLogger("rami.service")


#: Bounds on an error body, whatever the input: characters of the sentence, of each problem,
#: and problems listed (the rest are counted in one last line).
MAX_ERROR_CHARS = 500
MAX_PROBLEM_CHARS = 200
MAX_PROBLEMS = 50


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def bounded_problems(problems: Sequence[str]) -> list[str]:
    """At most :data:`MAX_PROBLEMS` problems of at most :data:`MAX_PROBLEM_CHARS` each."""
    shown = [_cut(str(problem), MAX_PROBLEM_CHARS) for problem in problems[:MAX_PROBLEMS]]
    if len(problems) > MAX_PROBLEMS:
        shown[-1] = f"... and {len(problems) - MAX_PROBLEMS + 1} more problems"
    return shown


def error_body(
    error: str, field: str | None = None, problems: Sequence[str] = ()
) -> dict[str, Any]:
    """The one error shape, bounded in size: ``{"error", "field", "problems"}``."""
    return {
        "error": _cut(error, MAX_ERROR_CHARS),
        "field": None if field is None else _cut(field, 100),
        "problems": bounded_problems(problems),
    }


def error_bytes(error: str, field: str | None = None) -> bytes:
    """An error body encoded, for answers written below the application (protocol level)."""
    return json.dumps(error_body(error, field), ensure_ascii=False, separators=(",", ":")).encode()


class ApiError(Exception):
    """An error answer: HTTP status, a sentence, the field at fault, and every problem found."""

    def __init__(
        self,
        status: int,
        error: str,
        field: str | None = None,
        problems: Sequence[str] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.field = field
        self.problems = list(problems)
        self.headers = headers

    def body(self) -> dict[str, Any]:
        return error_body(self.error, self.field, self.problems)

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


def error_response(status: int, error: str, field: str | None = None) -> JSONResponse:
    return ApiError(status, error, field).response()


#: The field a library NotationError message starts with: ``table[2][1]: unknown card 'ZZ'``.
_FIELD_PREFIX = re.compile(
    r"((?:rules|table|hand|opened|taken_discard|table_after|played|discard)"
    r"(?:\[\d+\]|\.[a-z_]+)*): (.*)",
    re.DOTALL,
)


def notation_error(error: NotationError, where: str) -> ApiError:
    """A 422 for bad notation under ``where`` ("position", or "" for top-level fields)."""
    message = str(error)
    match = _FIELD_PREFIX.fullmatch(message)
    if match:
        field = f"{where}.{match.group(1)}" if where else match.group(1)
        return ApiError(422, f"{field}: {match.group(2)}", field)
    field = where or None
    return ApiError(422, f"{where}: {message}" if where else message, field)


def rami_error(error: RamiError, where: str = "position") -> ApiError:
    """Map a library error on bad input to a 422 (the safety net behind the explicit checks)."""
    if isinstance(error, InvalidPositionError):
        return ApiError(422, "invalid position: " + str(error), where, error.problems)
    if isinstance(error, UnknownRulesetError | UnsupportedError):
        field = f"{where}.rules" if where else "rules"
        return ApiError(422, str(error), field)
    if isinstance(error, NotationError):
        return notation_error(error, where)
    return ApiError(422, str(error), where or None)


def _loc_field(loc: Sequence[Any]) -> str:
    return loc_text(tuple(loc[1:] if loc and loc[0] == "body" else loc)) or "body"


def _line_column(document: Any, position: int) -> str:
    if not isinstance(document, str):
        return f"character {position}"
    line = document.count("\n", 0, position) + 1
    column = position - (document.rfind("\n", 0, position) + 1) + 1
    return f"line {line} column {column}"


def validation_error(error: RequestValidationError) -> ApiError:
    """FastAPI's request validation errors, in the service's shape."""
    details = list(error.errors())
    if not details:
        return ApiError(422, "invalid request", "body")
    first = details[0]
    loc = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        position = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else 0
        reason = (first.get("ctx") or {}).get("error", "JSON decode error")
        return ApiError(
            400, f"malformed JSON at {_line_column(error.body, position)}: {reason}", "body"
        )
    if loc == ("body",) and isinstance(first.get("input"), bytes | bytearray):
        return ApiError(
            415, "the body must be JSON sent with 'Content-Type: application/json'", "body"
        )
    if loc == ("body",) and first.get("type") == "missing":
        return ApiError(422, "the request needs a JSON object body", "body")
    if loc == ("body",):
        return ApiError(422, f"the body must be a JSON object: {first.get('msg')}", "body")
    problems = [f"{_loc_field(item.get('loc', ()))}: {item.get('msg')}" for item in details]
    field = _loc_field(loc)
    return ApiError(422, problems[0], field, problems if len(problems) > 1 else ())


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return error.response()

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> JSONResponse:
        return validation_error(error).response()

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        detail = error.detail if isinstance(error.detail, str) else json.dumps(error.detail)
        field = None
        if error.status_code == 400:  # FastAPI could not read the body (not UTF-8, say)
            detail, field = f"malformed JSON: {detail[:1].lower()}{detail[1:]}", "body"
        headers = dict(error.headers) if error.headers else None
        return JSONResponse(
            error_body(detail, field), status_code=error.status_code, headers=headers
        )

    @app.exception_handler(RamiError)
    async def _rami(request: Request, error: RamiError) -> JSONResponse:
        return rami_error(error).response()

    @app.exception_handler(SolverBugError)
    async def _bug(request: Request, error: SolverBugError) -> JSONResponse:
        log.error("solver bug on %s %s: %s", request.method, request.url.path, error)
        return error_response(500, f"internal solver error (a bug, please report it): {error}")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "internal server error (logged on the server)")
