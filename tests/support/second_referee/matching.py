"""The second referee's maximum-weight bipartite matching (successive longest augmenting
paths), every maximum matching, and the cards moved of decision 7."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rami.cards import Card
from rami.melds import Meld


def max_weight_matching(weights: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """(best total, row -> column or -1) over matchings using only positive weights.

    Successive longest augmenting paths: the matching stays the heaviest of its size, and the
    best gain of an augmenting path never grows, so the search stops at the first path that
    gains nothing. Paths are found by Bellman-Ford over columns (no positive alternating cycle
    exists while the matching is the heaviest of its size).
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    col_of_row = [-1] * rows
    row_of_col = [-1] * cols
    total = 0
    while True:
        gain: list[int | None] = [None] * cols
        came_from = [-1] * cols
        for row in range(rows):
            if col_of_row[row] != -1:
                continue
            for col in range(cols):
                weight = weights[row][col]
                if weight > 0 and (gain[col] is None or weight > gain[col]):
                    gain[col] = weight
                    came_from[col] = row
        for _ in range(rows + cols + 1):
            changed = False
            for col in range(cols):
                owner = row_of_col[col]
                if gain[col] is None or owner == -1:
                    continue
                base = gain[col] - weights[owner][col]
                for other in range(cols):
                    weight = weights[owner][other]
                    if other == col or weight <= 0:
                        continue
                    if gain[other] is None or base + weight > gain[other]:
                        gain[other] = base + weight
                        came_from[other] = owner
                        changed = True
            if not changed:
                break
        best_col, best_gain = -1, 0
        for col in range(cols):
            if row_of_col[col] == -1 and gain[col] is not None and gain[col] > best_gain:
                best_col, best_gain = col, gain[col]
        if best_col < 0:
            return total, col_of_row
        # Walk the path back from its free column to its free row, then flip it.
        path: list[tuple[int, int]] = []
        col = best_col
        for _ in range(rows + 1):
            row = came_from[col]
            path.append((row, col))
            previous = col_of_row[row]
            if previous == -1:
                break
            col = previous
        else:  # pragma: no cover - would be a bug in the path search
            raise AssertionError("augmenting path does not reach a free row")
        for row, col in path:
            col_of_row[row] = col
            row_of_col[col] = row
        total += best_gain


def all_max_matchings(
    weights: Sequence[Sequence[int]], rows_of_interest: Sequence[int]
) -> set[tuple[int, ...]]:
    """Every maximum-weight matching (positive weights only), read on ``rows_of_interest``.

    Returns the distinct tuples (column or -1 for each row of interest, in that order).
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    best, _ = max_weight_matching(weights)
    row_best = [max((w for w in row if w > 0), default=0) for row in weights]
    still = [0] * (rows + 1)
    for row in range(rows - 1, -1, -1):
        still[row] = still[row + 1] + row_best[row]
    interest = set(rows_of_interest)
    order = {row: index for index, row in enumerate(rows_of_interest)}
    found: set[tuple[int, ...]] = set()
    seen: set[tuple[int, int, int, tuple[int, ...]]] = set()

    def walk(row: int, used: int, acc: int, picked: tuple[int, ...]) -> None:
        if acc + still[row] < best:
            return
        if row == rows:
            if acc == best:
                found.add(picked)
            return
        key = (row, used, acc, picked)
        if key in seen:
            return
        seen.add(key)
        mine = row in interest
        for col in range(cols):
            weight = weights[row][col]
            if weight > 0 and not used >> col & 1:
                walk(row + 1, used | 1 << col, acc + weight, (*picked, col) if mine else picked)
        walk(row + 1, used, acc, (*picked, -1) if mine else picked)

    walk(0, 0, 0, ())
    assert all(len(p) == len(order) for p in found)
    return found


def shared(first: Counter[Card], second: Counter[Card]) -> int:
    return sum(min(count, second[card]) for card, count in first.items())


def cards_moved(before: Sequence[Meld], after: Sequence[Meld]) -> int:
    """Decision 7: table cards that do not end in the meld matched to their own."""
    if not before:
        return 0
    after_counts = [Counter(meld.cards) for meld in after]
    weights = [[shared(Counter(meld.cards), counts) for counts in after_counts] for meld in before]
    kept, _ = max_weight_matching(weights) if after else (0, [])
    return sum(len(meld.cards) for meld in before) - kept
