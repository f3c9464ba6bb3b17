"""The hint engine as an HTTP service: a FastAPI app over the library (docs/service.md).

Bodies use the CLI's JSON forms: positions as in docs/notation.md (``rami.notation``), solutions
as ``Solution.to_json()`` (``rami solve --json``), hints as ``Hint.to_json()`` (``rami hint
--json``), with melds always ``{"kind", "cards"}`` (:mod:`rami.service.output`); every endpoint
declares its response model (:mod:`rami.service.schemas`). Bad input is a 4xx ``{"error",
"field", "problems"}``; solves run in solver processes (:mod:`rami.service.pool`) so the event
loop, and ``/health``, stay responsive, and a solve nobody waits for is stopped.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Response
from starlette.middleware.cors import CORSMiddleware

import rami.service.schemas as schemas
from rami import __version__
from rami.errors import UnknownRulesetError
from rami.lang import Language
from rami.referee import validate_turn
from rami.rules import PRESETS, get_ruleset
from rami.service.errors import ApiError, install_error_handlers, log
from rami.service.inputs import (
    MAX_CARDS,
    MAX_TEXT_CHARS,
    checked_position,
    parse_card_field,
    parse_cards_field,
    parse_melds_field,
    parse_position_field,
)
from rami.service.limits import BodySizeLimit
from rami.service.output import hint_json, solution_json
from rami.service.pool import SolverPool
from rami.service.settings import Settings
from rami.service.solver_process import call_solve, library_solve

if TYPE_CHECKING:
    from rami.position import Position
    from rami.solver.api import Solution

#: Seconds after start-up at which the solver processes are started (if no solve did first).
WARM_UP_DELAY = 2.0

#: Header telling the time limit a solve actually got (the request's, capped).
TIME_LIMIT_HEADER = "X-Rami-Time-Limit"

SolveFunction = Callable[..., "Solution"]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    descriptions = {
        400: "Malformed JSON",
        404: "Unknown ruleset",
        413: "Request body too large",
        415: "Body not sent as application/json",
        422: "Bad input: wrong type, bad notation, impossible position, unknown ruleset, "
        "unsupported preset (the field at fault is named)",
        503: "Server busy, or no answer within the request deadline",
    }
    return {
        status: {"model": schemas.ErrorOut, "description": descriptions[status]}
        for status in statuses
    }


_POST_ERRORS = _errors(400, 413, 415, 422)
_SOLVE_ERRORS = _errors(400, 413, 415, 422, 503)


def create_app(settings: Settings | None = None, *, solve: SolveFunction | None = None) -> FastAPI:
    """The service app. ``solve`` replaces :func:`rami.solver.api.solve` (tests only; it runs
    in a solver process, so it must pickle: a module-level function or a picklable object)."""
    settings = settings or Settings()
    solve_function = solve or library_solve
    pool = SolverPool(settings.solver_processes, settings.max_pending)
    app = FastAPI(
        title="rami hint service",
        version=__version__,
        description=_description(settings),
        lifespan=_lifespan(pool),
        # /docs and /redoc load their scripts from a public CDN: off unless asked for.
        docs_url="/docs" if settings.docs else None,
        redoc_url="/redoc" if settings.docs else None,
        openapi_url="/openapi.json",
        # No 307 to a Location built from the Host header: /solve/ is a JSON 404.
        redirect_slashes=False,
    )
    app.state.settings = settings
    app.state.pool = pool
    install_error_handlers(app)
    _add_middleware(app, settings)
    _install_service_routes(app)
    _install_position_routes(app, settings, pool, solve_function)
    _install_referee_route(app, settings, pool)
    _install_other_routes(app, settings, pool)
    return app


def _description(settings: Settings) -> str:
    """The OpenAPI description: what the service does, its forms and its limits."""
    return (
        "Solve, hint and referee positions of rami chinois and other manipulation-rummy "
        "variants. Positions use the JSON form of docs/notation.md (or the one-line text "
        "notation as a string); solutions are the data of `rami solve --json`, melds "
        'always as `{"kind": "run" | "set", "cards": [...]}`. Errors are '
        '`{"error": ..., "field": ..., "problems": [...]}` with a 4xx status. Limits: '
        f"request bodies up to {settings.max_body_bytes} bytes; positions up to "
        f"{MAX_CARDS} cards ({MAX_TEXT_CHARS} characters as text); solver time_limit "
        f"capped to {settings.max_time_limit:g} s (default "
        f"{settings.default_time_limit:g} s)."
    )


def _lifespan(pool: SolverPool) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: the solver pool opened at start-up, warmed up soon after, shut down
    at the end."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Start the solver processes (OR-Tools loaded once, in their fork server) soon, rather
        # than in the first request, but not during start-up: loading OR-Tools would take CPU
        # from the workers still starting (a restart answers sooner). A solve asked for before
        # then starts them itself.
        pool.open()
        warm = asyncio.get_running_loop().call_later(WARM_UP_DELAY, pool.warm_up)
        try:
            yield
        finally:
            warm.cancel()
            pool.shutdown()

    return lifespan


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    """The body size limit, and the CORS headers when origins are allowed."""
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    if settings.cors_origins:
        # Outermost, so that every answer (413s included) carries the CORS headers.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "HEAD", "POST"],
            allow_headers=["Content-Type"],
            expose_headers=[TIME_LIMIT_HEADER, "Retry-After"],
            max_age=600,
        )


def _install_service_routes(app: FastAPI) -> None:
    """``/health`` (GET and HEAD) and the rule presets, ``/rulesets`` and ``/rulesets/{name}``."""

    @app.get("/health", response_model=schemas.HealthOut, tags=["service"])
    async def health() -> dict[str, Any]:
        """Liveness: answers at once, even while solves run."""
        return {"status": "ok", "version": __version__}

    @app.head(
        "/health",
        tags=["service"],
        response_class=Response,
        responses={200: {"description": "Alive (no body)"}},
    )
    async def health_head() -> Response:
        """Liveness for monitors that send HEAD: 200, no body."""
        return Response(status_code=200)

    @app.get("/rulesets", response_model=list[schemas.PresetOut], tags=["rules"])
    async def rulesets() -> list[dict[str, str]]:
        """The rule presets (as ``rami rules --json``)."""
        return [{"name": name, "title": preset.title} for name, preset in PRESETS.items()]

    @app.get(
        "/rulesets/{name}",
        response_model=schemas.RulesetOut,
        tags=["rules"],
        responses=_errors(404, 422),
    )
    async def ruleset(name: str) -> dict[str, Any]:
        """Every parameter of one preset, options allowed: ``rami-chinois[jokers=0]``."""
        try:
            return get_ruleset(name).describe()
        except UnknownRulesetError as error:
            raise ApiError(404, str(error), "name") from None


def _install_position_routes(
    app: FastAPI, settings: Settings, pool: SolverPool, solve_function: SolveFunction
) -> None:
    """``/validate``, and the solver's ``/solve`` and ``/hint`` (run in the solver pool)."""

    async def run_solve(
        position: Position, objective: str, min_moves: bool, requested: float | None
    ) -> tuple[Solution, float]:
        received = time.time()
        time_limit = settings.time_limit(requested)
        solution = await pool.run(
            call_solve,
            solve_function,
            position,
            objective,
            min_moves,
            time_limit,
            received,
            deadline=settings.deadline(time_limit),
        )
        return solution, time_limit

    @app.post(
        "/validate",
        response_model=schemas.ValidateOut,
        tags=["positions"],
        responses=_POST_ERRORS,
    )
    async def validate(request: schemas.PositionRequest) -> dict[str, Any]:
        """Check a position: ``valid`` and every problem (as ``rami validate --json``).

        A position that does not parse is a 422 naming the field; one that parses but cannot
        occur (three copies of a card, an illegal meld) is ``valid: false`` with its problems.
        """
        language = Language(request.lang)
        position = parse_position_field(request.position, language=language)
        problems = position.problems(language)
        return {"valid": not problems, "problems": problems, **position.summary_json()}

    @app.post(
        "/solve",
        response_model=schemas.SolutionOut,
        tags=["solver"],
        responses=_SOLVE_ERRORS,
    )
    async def solve_endpoint(request: schemas.SolveRequest, response: Response) -> dict[str, Any]:
        """Best play for the player to move (the data of ``rami solve --json``).

        The solve stops at ``time_limit`` (capped to the server maximum) with the best answer
        proved so far: ``status`` is then ``feasible`` instead of ``optimal``. The limit used is
        in the ``X-Rami-Time-Limit`` response header.
        """
        language = Language(request.lang)
        position = checked_position(request.position, language=language)
        solution, time_limit = await run_solve(
            position, request.objective, request.min_moves, request.time_limit
        )
        response.headers[TIME_LIMIT_HEADER] = f"{time_limit:g}"
        return solution_json(solution, language)

    @app.post("/hint", response_model=schemas.HintOut, tags=["solver"], responses=_SOLVE_ERRORS)
    async def hint(request: schemas.HintRequest, response: Response) -> dict[str, Any]:
        """A hint (as ``rami hint --json``): 1 what is achievable, 2 the first key move,
        3 the full solution."""
        language = Language(request.lang)
        position = checked_position(request.position, language=language)
        solution, time_limit = await run_solve(
            position, request.objective, True, request.time_limit
        )
        response.headers[TIME_LIMIT_HEADER] = f"{time_limit:g}"
        return hint_json(solution, request.level, language)


def _install_referee_route(app: FastAPI, settings: Settings, pool: SolverPool) -> None:
    """``/validate-turn``: the referee, run in the solver pool."""

    @app.post(
        "/validate-turn",
        response_model=schemas.TurnOut,
        tags=["referee"],
        responses=_SOLVE_ERRORS,
    )
    async def validate_turn_endpoint(request: schemas.TurnRequest) -> dict[str, Any]:
        """The referee: is this turn legal, and every reason it is not."""
        language = Language(request.lang)
        position = checked_position(request.position, language=language)
        table_after = parse_melds_field(request.table_after, "table_after", language)
        played = parse_cards_field(request.played, "played", language)
        discard = (
            None
            if request.discard is None
            else parse_card_field(request.discard, "discard", language)
        )
        verdict = await pool.run(
            validate_turn,
            position,
            table_after,
            played,
            discard,
            deadline=settings.deadline_slack,
        )
        return {
            "legal": verdict.legal,
            "problems": verdict.problems_in(language),
            "hand_after": [str(card) for card in verdict.hand_after],
            "penalty_after": verdict.penalty_after,
            "cards_moved": verdict.cards_moved,
            "opened_after": verdict.opened_after,
        }


def _install_other_routes(app: FastAPI, settings: Settings, pool: SolverPool) -> None:
    """The puzzles (when :mod:`rami.puzzles` imports), the page, the bot, games and reviews."""
    try:
        from rami.service.puzzles import install_puzzle_routes
    except Exception as error:  # the puzzle module is optional: serve the rest without it
        log.warning("puzzle endpoints disabled: rami.puzzles does not import (%s)", error)
    else:
        install_puzzle_routes(app, settings, pool)
    app.include_router(__import__("rami.service.page", fromlist=["router"]).router)  # GET /
    app.include_router(__import__("rami.service.bot", fromlist=["router"]).router)  # /bot/turn
    app.include_router(__import__("rami.service.games", fromlist=["router"]).router)  # /games
    app.include_router(__import__("rami.service.review", fromlist=["router"]).router)  # /review


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory rami.service.app:app_from_env`` (settings from
    ``RAMI_SERVICE_*``); what ``rami serve --workers N`` runs in each worker, which then ends
    with its supervisor (:func:`rami.service.supervise.watch_parent`)."""
    from rami.service.supervise import watch_parent

    settings = Settings.from_env()
    watch_parent(grace=settings.shutdown_timeout + 5)
    return create_app(settings)
