"""Small tables' max-play stage on GLPK's branch and cut (through cvxopt), CP-SAT's model.

The prebuilt max-play model (:mod:`rami.solver.playmodel`) is read once into a matrix; a
position's bounds are the ones ``PlayModel.load`` would write (``PlayModel.bounds``), its
objective the same weights. Columns the position bounds to zero are left out. GLPK's answer is
rounded and checked against every row and bound in integer arithmetic before it is used; an
answer that fails the check, or a status other than optimal (the wall-clock cap reached),
returns None, and the caller asks CP-SAT. Optimality is GLPK's proof (branch and cut to a gap of
zero on an integer objective); the tests compare the values with CP-SAT's on 600 positions.

For max-play (``min_moves=False``) by either objective: the bots, puzzle mining and the game's
hints solve by points, ``--objective cards --no-min-moves`` by cards. Not for the full
objective's stage 1, whose table is stage 2's hint (CP-SAT's, with a bonus for the table's own
melds). Among equally good turns GLPK returns its own table, which may differ from CP-SAT's.
cvxopt holds the GIL while GLPK runs (about 1 ms here).

Measured (docs/benchmarks.md, "Tried"): on tables of 20-40
cards this solves the stage in 0.6-1.2 ms at the median where CP-SAT's search took 4-7 ms, by
cards and by points alike; past 55 cards CP-SAT is as fast or faster, hence
:data:`SMALL_TABLE_CARDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from cvxopt import glpk, matrix, spmatrix

from rami.solver.playmodel import PlayBounds, PlayModel

#: Max-play (no stage 2, either objective) goes to GLPK on tables of at most this many cards.
SMALL_TABLE_CARDS = 55

#: Wall-clock cap (ms) of one GLPK search, a safety net only (the slowest search measured took
#: under 50 ms on a machine loaded 10 deep). Past it CP-SAT solves the position (same values,
#: perhaps another table).
WALL_CAP_MS = 200
#: The cap where the caller asked for no wall clock (the bots, so that a game replays the same
#: from its seed): GLPK's branch and cut can run without end (a Rummikub position of 45 table
#: tiles and a hand of 44 ran over 17 minutes, where CP-SAT proves the optimum in 0.4 s), and
#: GLPK has no work limit that does not depend on the machine. So a search is stopped after
#: this long, and CP-SAT, under its deterministic limit, solves the position. The answer depends
#: on the load only for a search that takes between some hundreds of ms and this cap, where
#: none of the searches measured comes near (the slowest under 50 ms).
HANG_CAP_MS = 3_000


#: GLPK's settings: quiet; branching on the most fractional variable, which cut the tails (p90
#: 10.6 -> 2.9 ms on 40 cards against the default, Driebeck-Tomlin, under load; see
#: docs/benchmarks.md).
OPTIONS: dict[str, object] = {"msg_lev": "GLP_MSG_OFF", "br_tech": "GLP_BR_MFV"}


@dataclass(frozen=True)
class Found:
    """GLPK's optimum: every variable's value, indexed as the CP-SAT proto's, and the objective."""

    values: list[int]
    objective: int


class GlpkPlay:
    """The matrix of one prebuilt play model, and how to read a position's bounds off it."""

    def __init__(self, play: PlayModel) -> None:
        proto = play.model.proto
        columns = len(proto.variables)
        rows = len(proto.constraints)
        dense = np.zeros((rows, columns), dtype=np.int64)
        for row, constraint in enumerate(proto.constraints):
            dense[row, list(constraint.linear.vars)] = list(constraint.linear.coeffs)
        self.columns = columns
        uses, plays, jokers = play.variables.indices
        self.use_index = np.array(uses, dtype=np.intp)
        self.play_index = np.array(plays, dtype=np.intp)
        self.joker_index = np.array(jokers, dtype=np.intp)
        self.play_jokers_index = play.play_jokers.index
        self.joker_row = play.joker_row
        self.alone_row = play.alone_row
        #: Every row but the one inequality (jokers alone make no meld) is an equality.
        equal_rows = [*play.demand_rows, play.joker_row]
        self.equal = dense[equal_rows]
        self.alone = dense[self.alone_row]
        # The equalities and the inequality as (row, column, value) triples, columns in order.
        self.eq_rows, self.eq_cols = np.nonzero(self.equal)
        self.eq_values = self.equal[self.eq_rows, self.eq_cols].astype(float)
        (self.alone_cols,) = np.nonzero(self.alone)

    def solve(
        self, bounds: PlayBounds, weights: tuple[list[int], int], wall_cap_ms: int
    ) -> Found | None:
        """The optimum of the play model under ``bounds`` and ``weights`` (None: ask CP-SAT)."""
        upper = np.zeros(self.columns, dtype=np.int64)
        upper[self.play_index] = bounds.hand
        upper[self.joker_index] = bounds.jokers
        upper[self.use_index] = bounds.uses
        upper[self.play_jokers_index] = bounds.hand_jokers
        right = np.array([*bounds.table, bounds.table_jokers], dtype=np.int64)
        alone_limit = bounds.alone_limit
        per_type, per_joker = weights
        gain = np.zeros(self.columns, dtype=np.int64)
        gain[self.play_index] = per_type
        gain[self.play_jokers_index] = per_joker
        keep = upper > 0
        kept = np.flatnonzero(keep)
        n = len(kept)
        if not n:
            return None
        renumber = np.cumsum(keep) - 1  # a kept column's index among the kept
        on_kept = keep[self.eq_cols]
        a = spmatrix(
            matrix(self.eq_values[on_kept]),
            matrix(self.eq_rows[on_kept]),
            matrix(renumber[self.eq_cols[on_kept]]),
            (len(self.equal), n),
        )
        alone_cols = self.alone_cols[keep[self.alone_cols]]
        # G x <= h: the inequality row, then x <= upper and -x <= 0 (cvxopt's columns are free).
        identity = np.arange(n, dtype=np.int64)
        g = spmatrix(
            matrix(np.concatenate([self.alone[alone_cols].astype(float), np.ones(n), -np.ones(n)])),
            matrix(
                np.concatenate(
                    [np.zeros(len(alone_cols), dtype=np.int64), identity + 1, identity + n + 1]
                )
            ),
            matrix(np.concatenate([renumber[alone_cols], identity, identity])),
            (2 * n + 1, n),
        )
        h = matrix(np.concatenate([[float(alone_limit)], upper[kept].astype(float), np.zeros(n)]))
        b = matrix(right.astype(float))
        c = matrix((-gain[kept]).astype(float))
        options: dict[str, object] = {**OPTIONS, "tm_lim": max(1, wall_cap_ms)}
        status, x = glpk.ilp(c, g, h, a, b, set(range(n)), options=options)
        if status != "optimal" or x is None:
            return None
        found = np.array(x, dtype=float).ravel()
        chosen = np.rint(found).astype(np.int64)
        if np.abs(found - chosen).max(initial=0.0) > 1e-6:
            return None
        values = np.zeros(self.columns, dtype=np.int64)
        values[kept] = chosen
        # The check in integers: bounds, the equalities, the inequality.
        if (values < 0).any() or (values > upper).any():
            return None
        if not np.array_equal(self.equal @ values, right):
            return None
        if int(self.alone @ values) > alone_limit:
            return None
        return Found(values.tolist(), int(gain @ values))


_matrices: dict[int, GlpkPlay] = {}


def glpk_for(play: PlayModel, top_rank: int) -> GlpkPlay:
    """The matrix of the play model of ``top_rank`` (the same for every thread's copy)."""
    found = _matrices.get(top_rank)
    if found is None:
        found = _matrices[top_rank] = GlpkPlay(play)
    return found
