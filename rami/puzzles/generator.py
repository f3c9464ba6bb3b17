"""Puzzle generation, backwards from a target final table (docs/puzzles.md, "Generation").

Each candidate is drawn from its seed (:func:`rami.puzzles.draw.candidate`) by a profile
(:mod:`rami.puzzles.profiles`), then judged by :func:`rami.puzzles.evaluate.evaluate`; most
rejections are cheap (the lay-off test and the uniqueness test come before the metrics).

Candidates are numbered; candidate ``i`` of a run with seed ``S`` draws from
``random.Random(candidate_seed(S, i))`` only. Accepting candidates in number order makes the
output of ``--workers K`` (or ``--ray``) identical to one worker: the workers (rami.scale) judge
a window of candidates, the results are read back in order, and whatever a worker judged past
the last accepted puzzle is thrown away.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any

from rami.errors import SolverBugError
from rami.puzzles.difficulty import TIERS
from rami.puzzles.draw import candidate, candidate_seed, rules_for
from rami.puzzles.evaluate import Evaluation, Rejected, evaluate
from rami.puzzles.profiles import PROFILES, profile_of
from rami.puzzles.profiles import Profile as Profile  # docs/puzzles.md cites it from here
from rami.scale.executor import Executor, LocalExecutor, RetryListener

SOLVER_BUG = "internal solver error"


@dataclass(frozen=True)
class Attempt:
    index: int
    seed: int
    #: The profile that draws the candidate (a key of PROFILES; the record's ``profile``).
    tier: str
    jokers: int
    kind: str | None
    #: The only tier kept (None: any). The judge stops as soon as the candidate cannot be of it.
    wanted: str | None = None


@dataclass(frozen=True)
class Outcome:
    attempt: Attempt
    evaluation: Evaluation | None
    reason: str
    seconds: float


def run_attempt(attempt: Attempt) -> Outcome:
    import time

    started = time.perf_counter()
    position = candidate(attempt.seed, tier=attempt.tier, jokers=attempt.jokers, kind=attempt.kind)
    if position is None:
        return Outcome(attempt, None, "draw failed", time.perf_counter() - started)
    try:
        evaluation = evaluate(position, attempt.kind, tier=attempt.wanted)
    except Rejected as error:
        return Outcome(attempt, None, str(error), time.perf_counter() - started)
    except SolverBugError as error:  # never taken for a puzzle; reported by the CLI
        return Outcome(attempt, None, f"{SOLVER_BUG}: {error}", time.perf_counter() - started)
    reason = "accepted"
    return Outcome(attempt, evaluation, reason, time.perf_counter() - started)


def attempts(
    seed: int, *, tier: str | None, jokers: int, kind: str | None, profile: str | None = None
) -> Iterator[Attempt]:
    index = 0
    while True:
        cseed = candidate_seed(seed, index)
        # Without a tier request, the profile cycles through the tiers (a mix of sizes).
        drawn = profile or profile_of(tier if tier is not None else TIERS[index % len(TIERS)])
        yield Attempt(index, cseed, drawn, jokers, kind, tier)
        index += 1


@dataclass(frozen=True)
class Judged:
    """A judged candidate as it comes back from a task: the verdict, and the record when the
    candidate is a sound puzzle."""

    attempt: Attempt
    reason: str
    record: dict[str, Any] | None
    seconds: float


def judge_task(attempt: dict[str, Any]) -> dict[str, Any]:
    """One candidate as a task of :mod:`rami.scale` (plain data in and out: the position is
    drawn, judged and turned into its record inside the worker)."""
    from rami.puzzles.record import make_record

    outcome = run_attempt(Attempt(**attempt))
    record = None
    if outcome.evaluation is not None:
        record = make_record(outcome.evaluation, seed=attempt["seed"], profile=attempt["tier"])
    return {
        "attempt": attempt,
        "reason": outcome.reason,
        "record": record,
        "seconds": outcome.seconds,
    }


def generate(
    count: int,
    *,
    seed: int = 0,
    tier: str | None = None,
    jokers: int = 0,
    kind: str | None = None,
    workers: int = 1,
    max_attempts: int | None = None,
    profile: str | None = None,
    on_outcome: Callable[[Judged, int], None] | None = None,
    executor: Executor | None = None,
    on_retry: RetryListener | None = None,
) -> Iterator[dict[str, Any]]:
    """Sound puzzles as records, in candidate order; the same arguments give the same records
    whatever runs the candidates (``workers`` local processes, or ``executor``: Ray).

    ``profile`` (a key of :data:`PROFILES`) draws every candidate; by default each tier's
    profile (:data:`DEFAULT_PROFILES`) draws its candidates.

    ``on_outcome(judged, accepted_so_far)`` is told about every judged candidate (progress).
    """
    if tier is not None and tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}: choose from {', '.join(TIERS)}")
    if profile is not None and profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}: choose from {', '.join(PROFILES)}")
    rules_for(jokers)
    accepted = 0
    seen: set[str] = set()
    stream: Iterator[Attempt] = attempts(seed, tier=tier, jokers=jokers, kind=kind, profile=profile)
    if max_attempts is not None:
        stream = islice(stream, max_attempts)
    own = executor is None
    if executor is None:
        executor = LocalExecutor(workers)
    # Candidates are judged a few per worker ahead; what is judged past the last puzzle wanted
    # is thrown away (closing the iterator cancels it), so the output is the one-worker output.
    results = executor.ordered(
        judge_task, (asdict(attempt) for attempt in stream), on_retry=on_retry
    )
    try:
        for result in results:
            if accepted >= count:
                break
            judged = Judged(
                Attempt(**result["attempt"]), result["reason"], result["record"], result["seconds"]
            )
            record = judged.record
            if record is not None and (
                (tier is not None and record["difficulty"]["tier"] != tier) or record["id"] in seen
            ):
                record = None
            if record is not None:
                seen.add(record["id"])
                accepted += 1
            if on_outcome is not None:
                on_outcome(judged, accepted)
            if record is not None:
                yield record
                if accepted >= count:
                    break
    finally:
        results.close()
        if own:
            executor.close()
