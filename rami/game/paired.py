"""Matches that prove something: each deal played once per seat rotation, a sequential test.

``rami match`` plays a *candidate* level against a *baseline* level (the baseline in every
other seat). Pair ``i`` is one deal, seeded ``derive_seed(S, "deal", i)``, played once with the
candidate in each seat in turn (two players: twice, seats swapped): every rotation deals the
same hands to the same seats, draws the first player by the same lot and the same stock, so
each side is dealt what the other was dealt (docs/game.md, "Matches"). A game scores the
candidate's mean pairwise result against the other seats; a pair, the mean of its games
(:mod:`rami.game.sprt`).

Two modes: *sequential* (the default) stops as soon as the test of :class:`~rami.game.sprt.Sprt`
decides, or says *inconclusive* at the last pair; *fixed* plays every pair and reports the
pair-based 95 % interval. One-round games (``rounds=1``) or whole games. The pairs run as tasks of
:mod:`rami.scale` (this process, local processes or Ray) and come back in order, so a match is
the same whatever runs it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from rami.errors import RamiError, SolverBugError
from rami.game.actions import Action, GameInternalError, Play
from rami.game.bots import MOVE_STATS
from rami.game.deck import derive_seed
from rami.game.discards import DISCARD_STATS
from rami.game.fallback import FAILURES
from rami.game.levels import MATCH_LEVELS, MATCH_ONLY, check_level, make_bot
from rami.game.match import play_game
from rami.game.match_log import PairResult
from rami.game.presets import GameError, GameOptions, check_players
from rami.game.simulate import ranks
from rami.game.sprt import (
    INCONCLUSIVE,
    Sprt,
    interval,
    mean_variance,
    pentanomial,
    rounded_elo,
)
from rami.game.state import View
from rami.rules import get_ruleset
from rami.scale.executor import Executor, LocalExecutor

SEQUENTIAL = "sequential"
FIXED = "fixed"


@dataclass(frozen=True)
class Match:
    rules: str
    candidate: str
    baseline: str
    pairs: int
    seed: int
    seats: int = 2
    options: GameOptions = field(default_factory=GameOptions)
    mode: str = SEQUENTIAL
    elo0: float = 0.0
    elo1: float = 30.0
    alpha: float = 0.05
    beta: float = 0.05

    def checked(self) -> Match:
        ruleset = get_ruleset(self.rules)
        for level in (self.candidate, self.baseline):
            if level not in MATCH_LEVELS and not level.startswith("elo:"):
                raise GameError(
                    f"unknown level {level!r}: levels are {', '.join(MATCH_LEVELS)}, or elo:N"
                )
            if level not in MATCH_ONLY:
                check_level(level, ruleset)  # no table size: a match measures any table
        check_players(ruleset, self.seats)
        if self.pairs < 1:
            raise GameError(f"--pairs must be at least 1, got {self.pairs}")
        if self.mode not in (SEQUENTIAL, FIXED):
            raise GameError(f"mode must be {SEQUENTIAL} or {FIXED}, not {self.mode!r}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise GameError("alpha and beta must lie between 0 and 0.5")
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)):
            raise GameError(
                f"H0 and H1 must be finite numbers of Elo, got {self.elo0:+g} and {self.elo1:+g}"
            )
        if self.elo1 <= self.elo0:
            raise GameError(f"H1 ({self.elo1:+g} Elo) must be above H0 ({self.elo0:+g} Elo)")
        self.options.resolved(ruleset)
        return Match(
            ruleset.option_string,
            self.candidate,
            self.baseline,
            self.pairs,
            self.seed,
            self.seats,
            self.options,
            self.mode,
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
        )

    @property
    def sprt(self) -> Sprt:
        return Sprt(self.elo0, self.elo1, self.alpha, self.beta)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = self.options.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        values = dict(data)
        values["options"] = GameOptions.from_json(values["options"])
        return cls(**values)


class Timed:
    """A bot whose play decisions are timed (the thinking time per move of its level)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.level = bot.level
        self.play_ms: list[float] = []

    def see(self, rnd: Any) -> None:
        see = getattr(self.bot, "see", None)
        if see is not None:
            see(rnd)

    def act(self, view: View) -> Action:
        started = time.perf_counter()
        action: Action = self.bot.act(view)
        if isinstance(action, Play):
            self.play_ms.append((time.perf_counter() - started) * 1000)
        return action


def pair_levels(match: Match, rotation: int) -> list[str]:
    levels = [match.baseline] * match.seats
    levels[rotation] = match.candidate
    return levels


def play_pair(payload: dict[str, Any]) -> PairResult:
    """One deal, every rotation: ``{"match": ..., "index": i}`` in, the games' scores out."""
    match = Match.from_json(payload["match"])
    index = payload["index"]
    seed = derive_seed(match.seed, "deal", index)
    scores: list[float] = []
    times: dict[str, list[float]] = {match.candidate: [], match.baseline: []}
    turns = 0
    failures = len(FAILURES)
    fed, avoided = DISCARD_STATS["fed"], DISCARD_STATS["avoided"]
    moves = dict(MOVE_STATS)
    started = time.perf_counter()
    error = None
    for rotation in range(match.seats):
        levels = pair_levels(match, rotation)
        bots = [
            Timed(make_bot(level, derive_seed(seed, "bot", seat, level)))
            for seat, level in enumerate(levels)
        ]
        try:
            record = play_game(
                match.rules, bots, seed, options=match.options, levels=levels, game=index
            )
        except (GameInternalError, SolverBugError, RamiError) as failure:
            error = f"deal {index}, rotation {rotation}: {type(failure).__name__}: {failure}"
            break
        order = ranks(record)
        mine = order[rotation]
        results = [
            1.0 if mine < order[seat] else 0.0 if mine > order[seat] else 0.5
            for seat in range(match.seats)
            if seat != rotation
        ]
        scores.append(sum(results) / len(results))
        turns += sum(
            1 for entry in record["rounds"] for event in entry["actions"] if "played" in event
        )
        for bot in bots:
            times[bot.level].extend(bot.play_ms)
    return {
        "index": index,
        "scores": scores,
        "error": error,
        "turns": turns,
        "ms": (time.perf_counter() - started) * 1000,
        "times": times,
        "fallbacks": FAILURES[failures:],
        "fed": DISCARD_STATS["fed"] - fed,
        "avoided": DISCARD_STATS["avoided"] - avoided,
        "moves": {key: MOVE_STATS[key] - moves[key] for key in MOVE_STATS},
    }


def pairs(match: Match, executor: Executor, start: int = 0) -> Iterator[dict[str, Any]]:
    plain = match.to_json()
    jobs = ({"match": plain, "index": index} for index in range(start, match.pairs))
    yield from executor.ordered(play_pair, jobs)


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)


def run_match(
    match: Match,
    executor: Executor | None = None,
    on_pair: Callable[[dict[str, Any]], None] | None = None,
    *,
    logged: Sequence[dict[str, Any]] = (),
    log: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play the match; the report (a JSON-ready dict). ``on_pair`` sees the report so far
    after each pair (the progress line). ``logged``: the first pairs, played before
    (:mod:`rami.game.match_log`), taken as they are; ``log`` is given each pair played now,
    with ``elapsed``, the match's wall seconds so far."""
    match = match.checked()
    own = executor is None
    executor = executor or LocalExecutor(1)
    started = time.perf_counter()
    results = list(logged)
    before = results[-1]["elapsed"] if results else 0.0
    report = summarize(match, results, before, executor, len(logged)) if results else {}
    try:
        for result in [] if _decided(match, report) else pairs(match, executor, len(results)):
            result["elapsed"] = round(before + time.perf_counter() - started, 3)
            results.append(result)
            if log is not None:
                log(result)
            report = summarize(match, results, result["elapsed"], executor, len(logged))
            if on_pair is not None:
                on_pair(report)
            if _decided(match, report):
                break
    finally:
        if own:
            executor.close()
    return report


def _decided(match: Match, report: dict[str, Any]) -> bool:
    if not report:
        return False
    if match.mode == SEQUENTIAL:
        return bool(report["sprt"]["result"] not in (None, INCONCLUSIVE))
    return bool(report["pairs"] + len(report["errors"]) >= match.pairs)


def summarize(
    match: Match,
    results: list[dict[str, Any]],
    seconds: float,
    executor: Executor,
    resumed: int = 0,
) -> dict[str, Any]:
    done = [r for r in results if r["error"] is None]
    pair_scores = [sum(r["scores"]) / len(r["scores"]) for r in done]
    game_scores = [score for r in done for score in r["scores"]]
    paired = interval(pair_scores)
    # The same games as if each came from its own deal: the per-game spread over sqrt(games).
    independent = interval(game_scores)
    finished = len(results) >= match.pairs
    verdict = match.sprt.verdict(pair_scores, finished) if match.mode == SEQUENTIAL else None
    games = len(game_scores)
    times: dict[str, list[float]] = {match.candidate: [], match.baseline: []}
    for r in done:
        for level, values in r["times"].items():
            times[level].extend(values)
    correlation = _within_pair_correlation(done) if match.seats == 2 else None
    return {
        "match": match.to_json(),
        "pairs": len(done),
        "resumed": resumed,
        "games": games,
        "score": round(paired.score, 4),
        "elo": rounded_elo(paired.elo),
        "elo_low": rounded_elo(paired.low),
        "elo_high": rounded_elo(paired.high),
        "pentanomial": pentanomial(pair_scores) if match.seats == 2 else None,
        "sprt": {
            "elo0": match.elo0,
            "elo1": match.elo1,
            "alpha": match.alpha,
            "beta": match.beta,
            "llr": round(match.sprt.llr(pair_scores), 3),
            "lower": round(match.sprt.lower, 3),
            "upper": round(match.sprt.upper, 3),
            "result": verdict,
        }
        if match.mode == SEQUENTIAL
        else None,
        "independent": {
            "elo_low": rounded_elo(independent.low),
            "elo_high": rounded_elo(independent.high),
            "width_ratio": round(paired.half_width / independent.half_width, 3)
            if independent.half_width
            else None,
            "within_pair_correlation": correlation,
        },
        "move_ms": {
            level: {
                "moves": len(values),
                "median": percentile(values, 0.5),
                "p99": percentile(values, 0.99),
            }
            for level, values in times.items()
        },
        "turns_per_game": round(sum(r["turns"] for r in done) / games, 2) if games else None,
        "games_per_minute": round(games / seconds * 60, 1) if seconds > 0 else None,
        "seconds": round(seconds, 2),
        "executor": executor.kind,
        "workers": executor.workers,
        "fallbacks": [f for r in results for f in r["fallbacks"]],
        "feeding_discards": {
            "fed": sum(r["fed"] for r in results),
            "avoided": sum(r["avoided"] for r in results),
        },
        "table_cards_moved": {
            key: sum(r["moves"][key] for r in results)
            for key in ("turns", "without_level", "played")
        },
        "errors": [r["error"] for r in results if r["error"] is not None],
    }


def _within_pair_correlation(done: list[dict[str, Any]]) -> float | None:
    """Correlation of the candidate's two games of a deal (negative: the deal's luck, which
    one seat gains and the other loses, cancels in the pair)."""
    firsts = [r["scores"][0] for r in done if len(r["scores"]) == 2]
    seconds = [r["scores"][1] for r in done if len(r["scores"]) == 2]
    if len(firsts) < 3:
        return None
    m1, v1 = mean_variance(firsts)
    m2, v2 = mean_variance(seconds)
    if v1 <= 0 or v2 <= 0:
        return None
    cov = sum((a - m1) * (b - m2) for a, b in zip(firsts, seconds, strict=True)) / (len(firsts) - 1)
    return round(float(cov / (v1 * v2) ** 0.5), 3)
