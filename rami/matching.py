"""Cards moved between two tables (docs/rules.md decision 7), by an exact assignment.

Melds before and after are matched one-to-one to maximise the cards they share (identical copies
interchangeable); a table card is moved when it does not end in the meld matched to its own.
This is the independent definition the solver's own count is checked against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat

from rami.cards import Card
from rami.melds import Meld


def overlap(before: Counter[Card], after: Counter[Card]) -> int:
    """Cards two melds share, identical copies counted up to the fewer of the two."""
    return sum(map(min, before.values(), map(after.get, before, repeat(0))))


#: Above this many melds a side, the assignment goes to OR-Tools' C++ solver.
NATIVE_ASSIGNMENT_SIZE = 8


def max_weight_assignment(weights: Sequence[Sequence[int]]) -> list[int]:
    """Row -> column (or -1) maximising the total weight."""
    if max(len(weights), len(weights[0]) if weights else 0) > NATIVE_ASSIGNMENT_SIZE:
        return _native_assignment(weights)
    return hungarian(weights)


def _native_assignment(weights: Sequence[Sequence[int]]) -> list[int]:
    # Imported here: numpy and OR-Tools cost a rami command that never solves (validate) time.
    import numpy as np
    from ortools.graph.python import linear_sum_assignment

    rows, cols = len(weights), len(weights[0])
    size = max(rows, cols)
    costs = np.zeros((size, size), dtype=np.int64)
    costs[:rows, :cols] = weights
    nodes = np.arange(size, dtype=np.int32)
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    # Every (row, col) pair, row by row: the arc order decides between equally good matchings.
    solver.add_arcs_with_cost(np.repeat(nodes, size), np.tile(nodes, size), -costs.ravel())
    if solver.solve() != solver.OPTIMAL:
        return hungarian(weights)
    return [solver.right_mate(row) if solver.right_mate(row) < cols else -1 for row in range(rows)]


def hungarian(weights: Sequence[Sequence[int]]) -> list[int]:
    """Row -> column (or -1) maximising the total weight; Hungarian algorithm, O(n^3)."""
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    size = max(rows, cols)
    if size == 0:
        return []
    top = max((w for row in weights for w in row), default=0)
    # Minimise (top - weight) on a square matrix padded with zero-weight cells.
    cost = [
        [top - (weights[r][c] if r < rows and c < cols else 0) for c in range(size)]
        for r in range(size)
    ]
    inf = float("inf")
    u = [0.0] * (size + 1)
    v = [0.0] * (size + 1)
    match_col = [0] * (size + 1)
    way = [0] * (size + 1)
    for row in range(1, size + 1):
        match_col[0] = row
        col0 = 0
        min_v = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[col0] = True
            row0 = match_col[col0]
            delta = inf
            col1 = 0
            for col in range(1, size + 1):
                if not used[col]:
                    current = cost[row0 - 1][col - 1] - u[row0] - v[col]
                    if current < min_v[col]:
                        min_v[col] = current
                        way[col] = col0
                    if min_v[col] < delta:
                        delta = min_v[col]
                        col1 = col
            for col in range(size + 1):
                if used[col]:
                    u[match_col[col]] += delta
                    v[col] -= delta
                else:
                    min_v[col] -= delta
            col0 = col1
            if match_col[col0] == 0:
                break
        while True:
            col1 = way[col0]
            match_col[col0] = match_col[col1]
            col0 = col1
            if col0 == 0:
                break
    assignment = [-1] * rows
    for col in range(1, size + 1):
        row = match_col[col] - 1
        if 0 <= row < rows and col - 1 < cols:
            assignment[row] = col - 1
    return assignment


def match_melds(before: Sequence[Meld], after: Sequence[Meld]) -> list[int]:
    """For each meld before, the index of its matched meld after (or -1).

    Referee, move list and numbering all ask for the same pair of tables, sometimes listed in
    another order: the answer is cached for the tables in a canonical order.
    """
    # Cards are ints: a meld's card tuple is its sort key.
    before_order = sorted(range(len(before)), key=lambda i: before[i].cards)
    after_order = sorted(range(len(after)), key=lambda i: after[i].cards)
    canonical = _match_melds(
        tuple(before[i] for i in before_order), tuple(after[i] for i in after_order)
    )
    result = [-1] * len(before)
    for position, target in enumerate(canonical):
        result[before_order[position]] = after_order[target] if target >= 0 else -1
    return result


@lru_cache(maxsize=16)
def _match_melds(before: tuple[Meld, ...], after: tuple[Meld, ...]) -> tuple[int, ...]:
    """Uncached :func:`match_melds`.

    Melds that share no card never gain from being matched, so the assignment is solved apart
    on each group of melds linked by shared cards: most groups are a single unchanged meld.
    """
    result = [-1] * len(before)
    # A meld found unchanged is matched to its twin: an exchange argument shows some optimal
    # assignment does so (a card counted twice by the swap is also shared by the other pair).
    # Most melds are: only the others are counted card by card.
    unchanged: dict[tuple[Card, ...], list[int]] = {}
    for col, meld in enumerate(after):
        unchanged.setdefault(tuple(sorted(meld.cards)), []).append(col)
    taken_cols: set[int] = set()
    for row, meld in enumerate(before):
        twins = unchanged.get(tuple(sorted(meld.cards)))
        if twins:
            result[row] = twins.pop(0)
            taken_cols.add(result[row])
    after_counts: dict[int, Counter[Card]] = {}
    holders: dict[Card, list[int]] = {}
    for col, meld in enumerate(after):
        if col in taken_cols:
            continue
        counts = after_counts[col] = meld.counts()
        for card in counts:
            holders.setdefault(card, []).append(col)
    edges: list[dict[int, int]] = []
    for row, meld in enumerate(before):
        row_edges: dict[int, int] = {}
        if result[row] < 0:
            counts = meld.counts()
            for card in counts:
                for col in holders.get(card, ()):
                    if col not in row_edges:
                        row_edges[col] = overlap(counts, after_counts[col])
        edges.append(row_edges)
    for rows, cols in _components(edges, len(after)):
        weights = [list(map(edges[row].get, cols, repeat(0))) for row in rows]
        for row, row_weights, pick in zip(
            rows, weights, max_weight_assignment(weights), strict=True
        ):
            if pick >= 0 and row_weights[pick] > 0:
                result[row] = cols[pick]
    return tuple(result)


def _components(edges: list[dict[int, int]], cols: int) -> list[tuple[list[int], list[int]]]:
    """Connected groups of (before rows, after columns) linked by a shared card."""
    parent = list(range(len(edges) + cols))

    def find(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for row, row_edges in enumerate(edges):
        for col in row_edges:
            parent[find(row)] = find(len(edges) + col)
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for row, row_edges in enumerate(edges):
        if row_edges:
            groups.setdefault(find(row), ([], []))[0].append(row)
    for col in range(cols):
        root = find(len(edges) + col)
        if root in groups:
            groups[root][1].append(col)
    return list(groups.values())


def cards_kept(before: Sequence[Meld], after: Sequence[Meld]) -> int:
    matched = match_melds(before, after)
    return sum(
        overlap(before[row].counts(), after[col].counts())
        for row, col in enumerate(matched)
        if col >= 0
    )


def cards_moved(before: Sequence[Meld], after: Sequence[Meld]) -> int:
    """Table cards that do not end in the meld matched to their own (decision 7)."""
    return sum(len(meld.cards) for meld in before) - cards_kept(before, after)
