"""The exhaustive reference's search for the table cards kept in place (decision 7), jointly
with the matching of the old melds (:mod:`support.reference`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from rami.cards import Card
from rami.melds import Meld
from support.reference_melds import BITS, FIELD, IMPOSSIBLE, Candidate, Space, fits


class KeptSearch:
    """Most table cards kept in place over all partitions of a multiset (decision 7).

    State: the cards left to cover and the old melds not yet matched. Covering the smallest real
    card type left with a candidate meld, that meld is matched to one unmatched old meld (keeping
    their overlap) or to none.
    """

    def __init__(
        self,
        space: Space,
        candidates: dict[int, list[Candidate]],
        olds: list[Counter[Card]],
        feasible: Callable[[int], bool],
    ) -> None:
        self.space = space
        self.candidates = candidates
        self.olds = olds
        self.feasible = feasible
        self.old_parts = [
            tuple((BITS * space.index[card], count) for card, count in old.items()) for old in olds
        ]
        self.overlaps: dict[int, tuple[int, ...]] = {}
        for group in candidates.values():
            for candidate in group:
                counts = candidate.meld.counts()
                self.overlaps[candidate.code] = tuple(
                    sum(min(count, counts[card]) for card, count in old.items()) for old in olds
                )
        self.memo: dict[tuple[int, int], int] = {}

    def _bound(self, code: int, unmatched: int) -> int:
        bound = 0
        for number, parts in enumerate(self.old_parts):
            if unmatched >> number & 1:
                bound += sum(min(count, (code >> shift) & FIELD) for shift, count in parts)
        return bound

    def _choices(self, code: int, unmatched: int) -> Iterator[tuple[int, Candidate, int]]:
        """(cards kept by this meld, candidate, old meld matched or -1) covering the first card."""
        for candidate in self.candidates.get(self.space.first_real(code), ()):
            if not fits(candidate, code) or not self.feasible(code - candidate.code):
                continue
            yield 0, candidate, -1
            for number, weight in enumerate(self.overlaps[candidate.code]):
                if weight and unmatched >> number & 1:
                    yield weight, candidate, number

    def kept(self, code: int, unmatched: int) -> int:
        """Most old-table cards kept when ``code`` is split into melds (or IMPOSSIBLE)."""
        if not self.feasible(code):
            return IMPOSSIBLE
        if code & self.space.real_mask == 0:
            return 0
        key = (code, unmatched)
        known = self.memo.get(key)
        if known is not None:
            return known
        bound = self._bound(code, unmatched)
        best = IMPOSSIBLE
        if bound == 0:
            best = 0
        else:
            for weight, candidate, number in self._choices(code, unmatched):
                rest = unmatched & ~(1 << number) if number >= 0 else unmatched
                value = weight + self.kept(code - candidate.code, rest)
                if value > best:
                    best = value
                    if best == bound:
                        break
        self.memo[key] = best
        return best

    def table(self, code: int, unmatched: int) -> tuple[Meld, ...]:
        """One partition reaching :meth:`kept`, melds in the order of the old melds they keep."""
        matched: dict[int, Meld] = {}
        loose: list[Meld] = []
        target = self.kept(code, unmatched)
        while code & self.space.real_mask:
            for weight, candidate, number in self._choices(code, unmatched):
                rest = unmatched & ~(1 << number) if number >= 0 else unmatched
                if weight + self.kept(code - candidate.code, rest) == target:
                    break
            else:  # pragma: no cover - the memo says a choice exists
                raise AssertionError("reference: lost the optimal partition")
            if number >= 0:
                matched[number] = candidate.meld
            else:
                loose.append(candidate.meld)
            code -= candidate.code
            unmatched = rest
            target -= weight
        return tuple(matched[number] for number in sorted(matched)) + tuple(loose)
