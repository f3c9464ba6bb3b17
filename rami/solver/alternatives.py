"""The K best turns of a position with distinct signatures (``rami solve --top K``).

Two final tables are one answer when they have the same puzzle signature
(:mod:`rami.signature`: they differ only by cuts, the order of the melds, identical
copies or where a joker stands). Answers are ranked by the levels of decision 6 (least penalty
left, most cards played, swapped by the objective), then fewest table cards moved; each answer's
cards moved is the fewest any table of its signature moves. A turn that plays no card leaves the
table as it is: playing nothing is one answer, never a reshuffle of the table.

The first answer is :func:`rami.solver.api.solve`'s; the others come from one model that holds
every level and forbids each signature found (:mod:`rami.solver.rearrange.others`). Every answer
is checked by the referee, like any solution. An answer is ``optimal`` only when its own search
and every search before it were proved (its rank is then exact).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from rami.errors import UnsupportedError
from rami.lang import ENGLISH, Language
from rami.phrasebook import say, say_count
from rami.position import Position
from rami.signature import Signature, answer_signature
from rami.solver.answer import build_solution, costliest_discard, why_nothing
from rami.solver.cpsat import Clock
from rami.solver.solution import Objective, Solution, Status

#: The most answers one question may ask for.
MAX_TOP = 50


@dataclass(frozen=True)
class Alternatives:
    """The best turns found, best first, one per signature."""

    position: Position
    top: int
    solutions: tuple[Solution, ...]
    signatures: tuple[Signature, ...]
    #: Fewer than ``top`` signatures exist (all of them are listed).
    exhausted: bool
    #: The time limit ended the search before ``top`` answers or the proof that no more exist.
    stopped: bool = False
    solve_ms: float = 0.0

    @property
    def message(self) -> str:
        return self.said()

    def said(self, language: Language = ENGLISH) -> str:
        """How many answers were found and why not more, in ``language`` (``top.*`` in the
        phrase book)."""
        found, top = len(self.solutions), self.top
        if self.exhausted:
            if found <= 1:
                return say(("top.exhausted-none", "top.exhausted-one")[found], language, top=top)
            return say("top.exhausted-many", language, found=found, top=top)
        if self.stopped:
            return say_count("top.stopped", found, language, top=top)
        if found == 1:
            return say("top.best.one", language)
        return say("top.best.many", language, count=found)

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        """Cards in the contract's codes; the texts meant for people in ``language``."""
        return {
            "top": self.top,
            "found": len(self.solutions),
            "exhausted": self.exhausted,
            "stopped": self.stopped,
            "message": self.said(language),
            "ms": round(self.solve_ms, 3),
            "solutions": [
                {"rank": rank, "signature": str(sig), **solution.to_json(language)}
                for rank, (solution, sig) in enumerate(
                    zip(self.solutions, self.signatures, strict=True), start=1
                )
            ],
        }


def rank_key(solution: Solution) -> tuple[int, ...]:
    """Smaller is better: the levels in the order the objective gives them."""
    levels = (solution.penalty_after, -solution.cards_played)
    if solution.objective is Objective.CARDS:
        levels = levels[::-1]
    return (*levels, solution.cards_moved) if solution.min_moves else levels


def _pass(position: Position, objective: Objective, min_moves: bool) -> Solution | None:
    """Playing nothing (with the costliest discard where the rules discard), or None when no
    such turn is legal."""
    discard = costliest_discard(position) if position.rules.discard else None
    if position.rules.discard and discard is None:
        return None
    return build_solution(
        position,
        objective,
        min_moves,
        table=position.table,
        played=(),
        discard=discard,
        proved=True,
        bounds={},
        expected_moved=0,
        moves=(),
        reason=why_nothing(position),
    )


def solve_top(
    position: Position,
    top: int,
    *,
    objective: Objective | str = Objective.POINTS,
    min_moves: bool = True,
    time_limit: float = 10.0,
) -> Alternatives:
    """The ``top`` best turns with distinct signatures, best first (fewer when fewer exist)."""
    from rami.solver.api import backend_for, solve

    if not 1 <= top <= MAX_TOP:
        raise UnsupportedError(f"--top must be between 1 and {MAX_TOP}, not {top}")
    objective = Objective(objective)
    position = position.checked()
    backend = backend_for(position)
    if top > 1:
        reason = _refusal(position, backend.name)
        if reason is not None:
            raise UnsupportedError(reason)
    started = time.perf_counter()
    clock = Clock(time_limit, cards=position.table_size + len(position.hand))
    first = solve(position, objective=objective, min_moves=min_moves, time_limit=time_limit)
    found = [first]
    sigs = [answer_signature(first.table, position.rules)]
    exhausted = stopped = False
    if top > 1:
        from rami.solver.rearrange.others import NextBest

        searcher = NextBest(position, objective, min_moves, clock)
        searcher.exclude(sigs[0], first.played)
        passing = _pass(position, objective, min_moves) if first.played else None
        ordered = first.status is Status.OPTIMAL
        pending: Solution | None = None
        searched = False
        while len(found) < top:
            if pending is None and not searched:
                began = time.perf_counter()
                pending, complete = searcher.next()
                if pending is not None:
                    pending = replace(pending, solve_ms=(time.perf_counter() - began) * 1000)
                searched = pending is None
                if pending is None and not complete:
                    stopped = True
            best = _better(pending, passing)
            if best is None:
                exhausted = not stopped
                break
            if best is passing:
                passing = None
            else:
                pending = None
            sig = answer_signature(best.table, position.rules)
            if sig in sigs:
                continue  # the pass shares a signature with a better turn already listed
            ordered = ordered and best.status is Status.OPTIMAL and not stopped
            found.append(best if ordered else replace(best, status=Status.FEASIBLE))
            sigs.append(sig)
            searcher.exclude(sig, best.played)
    return Alternatives(
        position,
        top,
        tuple(found),
        tuple(sigs),
        exhausted and len(found) < top,
        stopped,
        (time.perf_counter() - started) * 1000,
    )


def _better(one: Solution | None, other: Solution | None) -> Solution | None:
    if one is None or other is None:
        return one or other
    return other if rank_key(other) < rank_key(one) else one


def _refusal(position: Position, backend: str) -> str | None:
    if backend != "rearrange":
        return (
            f"more than one answer (--top) is solved for the rearranging presets "
            f"(rami-chinois, rummikub, rami-fou once opened), not yet for "
            f"{position.rules.name}"
            f"{' before opening' if position.rules.rearrangement else ''}"
        )
    from rami.solver.rearrange.others import top_refusal

    return top_refusal(position)
