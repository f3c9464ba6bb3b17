"""A puzzle's starting rating from a model of human solvers: a ladder of limited solvers, each
of a fixed rating, whose successes on the puzzle say how hard it is before anyone plays it
(docs/puzzles.md, "Starting ratings").

A limited solver (a :class:`Rung`) looks at the table the way a person with limited reach does:

* **depth**: it rearranges at most ``depth`` table melds (a meld *touched* is one whose cards
  change: a lay-off, a split, a card taken away); the others stay as they lie;
* **attention**: it considers each table meld with the chance ``attention`` (a meld it
  overlooks stays as it lies);
* **work**: it manages at most about ``work`` cards handled (table cards moved plus hand cards
  played); each attempt's budget is ``work`` times a log-normal draw (``exp(gauss(0,
  WORK_SPREAD))``), a good day or a bad one.

Within those limits it plays the best it can: for every set S of the melds it considers (at
most ``depth`` of them) the solver (:func:`rami.solver.api.solve`, deterministic limit) plays
the hand onto S alone, the other melds left whole; the first S in order (fewest melds, then
meld numbers) whose play reaches the goal within the budget is its answer, else the play that
leaves the least penalty within the budget. Every answer is judged as a player's is
(:func:`rami.puzzles.answers.check_answer`): the attempt succeeds when the verdict says solved.

Each rung makes :data:`TRIALS` attempts at each puzzle, their draws from a ``random.Random``
seeded by the model version, the puzzle, the rung and the attempt number (never the time): the
same puzzle, the same results on every machine.

The rating: rung k wins an attempt against a puzzle of rating r with the Elo chance
``1 / (1 + 10 ** ((r - R_k) / 400))``; the puzzle's rating is the r at which the expected wins
equal the wins counted, with one virtual drawn game against a solver of :data:`PRIOR_RATING`
(so a puzzle every attempt solves, or none does, still has a finite rating). The expected wins
fall as r grows: one root, found by bisection.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from rami.melds import Meld
from rami.puzzles.record import Puzzle

#: The model's name, stored with its ratings (a change to the ladder is a new version).
MODEL_VERSION = "ladder-1"
#: Attempts per rung and puzzle.
TRIALS = 16
#: The spread (a standard deviation, in natural log) of an attempt's work budget.
WORK_SPREAD = 0.35
#: The virtual drawn game that keeps every rating finite.
PRIOR_RATING = 1500.0
#: Deterministic seconds of one solve of a puzzle's hand onto a set of its melds.
SOLVE_LIMIT = 10.0
#: The bisection's bounds and the precision of a rating.
LOW, HIGH = -1000.0, 4000.0


@dataclass(frozen=True)
class Rung:
    """A limited solver: its fixed rating and its limits (see the module docstring)."""

    name: str
    rating: float
    depth: int
    attention: float
    work: float

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rating": self.rating,
            "depth": self.depth,
            "attention": self.attention,
            "work": self.work,
        }


#: The ladder, weakest first.
RUNGS = (
    Rung("novice", 1000.0, depth=1, attention=0.7, work=3.0),
    Rung("casual", 1250.0, depth=2, attention=0.8, work=4.0),
    Rung("club", 1500.0, depth=2, attention=0.9, work=6.0),
    Rung("strong", 1750.0, depth=3, attention=0.95, work=8.0),
    Rung("expert", 2000.0, depth=4, attention=1.0, work=11.0),
    Rung("master", 2250.0, depth=5, attention=1.0, work=15.0),
)


@dataclass(frozen=True)
class Option:
    """The best play of the hand onto the table melds ``melds`` alone: its final table, the
    cards it handles (table cards moved plus hand cards played) and the judge's verdict."""

    melds: tuple[int, ...]
    table: tuple[Meld, ...]
    work: int
    solved: bool
    penalty_after: int


def options(puzzle: Puzzle, depth: int) -> list[Option]:
    """One option for every set of at most ``depth`` table melds (the empty set included), in
    order: fewest melds first, then by meld numbers."""
    from rami.puzzles.answers import check_answer
    from rami.solver.api import solve

    position = puzzle.position
    table = position.table
    found = []
    for size in range(min(depth, len(table)) + 1):
        for chosen in combinations(range(len(table)), size):
            sub = replace(position, table=tuple(table[i] for i in chosen))
            solution = solve(sub, min_moves=True, time_limit=SOLVE_LIMIT, wall_clock=False)
            kept = tuple(meld for i, meld in enumerate(table) if i not in chosen)
            final = (*solution.table, *kept)
            verdict = check_answer(puzzle, final)
            if not verdict.legal:  # pragma: no cover - the solver's plays are refereed
                raise AssertionError(f"{puzzle.id}: an illegal play {verdict.reasons}")
            found.append(
                Option(
                    chosen,
                    final,
                    solution.cards_moved + len(solution.played),
                    verdict.solved,
                    int(verdict.penalty_after or 0),
                )
            )
    return found


def _trial_rng(puzzle: Puzzle, rung: Rung, trial: int) -> random.Random:
    return random.Random(f"rami-start:{MODEL_VERSION}:{puzzle.id}:{rung.name}:{trial}")


def attempt(puzzle: Puzzle, rung: Rung, trial: int, found: Sequence[Option]) -> Option:
    """The answer of ``rung``'s attempt number ``trial`` (its draws seeded, see above)."""
    rng = _trial_rng(puzzle, rung, trial)
    seen = {i for i in range(len(puzzle.position.table)) if rng.random() < rung.attention}
    budget = rung.work * math.exp(rng.gauss(0.0, WORK_SPREAD))
    within = [
        option
        for option in found
        if len(option.melds) <= rung.depth
        and seen.issuperset(option.melds)
        and option.work <= budget
    ]
    for option in within:
        if option.solved:
            return option
    # Nothing within reach solves it: the least penalty within reach (lay-offs and new melds,
    # the empty set, when even those are beyond the budget).
    return min(within or found[:1], key=lambda option: option.penalty_after)


def successes(puzzle: Puzzle, rungs: Sequence[Rung] = RUNGS, trials: int = TRIALS) -> list[int]:
    """How many of its ``trials`` attempts each rung solves."""
    found = options(puzzle, max(rung.depth for rung in rungs))
    return [
        sum(attempt(puzzle, rung, trial, found).solved for trial in range(trials)) for rung in rungs
    ]


def win_chance(solver: float, puzzle: float) -> float:
    """The Elo chance that a solver of rating ``solver`` solves a puzzle of rating ``puzzle``."""
    return float(1.0 / (1.0 + 10.0 ** ((puzzle - solver) / 400.0)))


def rating_of(wins: Sequence[int], rungs: Sequence[Rung] = RUNGS, trials: int = TRIALS) -> float:
    """The rating that explains ``wins`` (per rung, out of ``trials``), with the virtual draw
    against :data:`PRIOR_RATING`: the root of expected wins minus wins, to 0.01."""
    if len(wins) != len(rungs) or any(not 0 <= won <= trials for won in wins):
        raise ValueError(f"wins: {len(rungs)} counts from 0 to {trials}, got {list(wins)}")
    target = sum(wins) + 0.5

    def expected(rating: float) -> float:
        return trials * sum(win_chance(rung.rating, rating) for rung in rungs) + win_chance(
            PRIOR_RATING, rating
        )

    low, high = LOW, HIGH
    while high - low > 0.005:
        middle = (low + high) / 2
        if expected(middle) > target:
            low = middle
        else:
            high = middle
    return float(round((low + high) / 2, 1))


def start_rating(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle's starting rating and the wins it comes from."""
    wins = successes(puzzle)
    return {"rating": rating_of(wins), "wins": wins}


def start_ratings(puzzles: Iterable[Puzzle]) -> dict[str, Any]:
    """The document of ``rami puzzle start-ratings`` (rami/data/start_ratings.json): the model
    and, by puzzle id in the order given, each puzzle's rating and wins."""
    return {
        "model": MODEL_VERSION,
        "trials": TRIALS,
        "work_spread": WORK_SPREAD,
        "prior_rating": PRIOR_RATING,
        "rungs": [rung.to_json() for rung in RUNGS],
        "puzzles": {puzzle.id: start_rating(puzzle) for puzzle in puzzles},
    }


def document_text(document: dict[str, Any]) -> str:
    """The document as the shipped file writes it: the model's fields one a line, then one
    line per puzzle (a change to one puzzle is a change to one line)."""
    head = {key: value for key, value in document.items() if key != "puzzles"}
    lines = ["{"]
    lines += [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    lines.append(' "puzzles": {')
    items = [
        f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in document["puzzles"].items()
    ]
    lines.append(",\n".join(items))
    lines += [" }", "}"]
    return "\n".join(lines) + "\n"
