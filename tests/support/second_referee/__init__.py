"""A second referee, written from docs/rules.md alone, sharing no checking code with rami.referee.

It imports data types only (cards, rulesets, the position and the meld dataclass) and decides
everything else itself: meld validity, opening requirements, lay-offs and joker swaps, rami fou's
pinned jokers, the discard, and the cards moved of decision 7 (its own maximum-weight matching by
successive longest augmenting paths). The differential test asks it and the primary referee the
same questions: a mistake in one of them shows up as a disagreement.

``judge(position, table_after, played, discard)`` returns a :class:`Verdict` with the same field
meanings as ``rami.referee.TurnVerdict``.

The package's modules: :mod:`~support.second_referee.turn` (:func:`judge`, :class:`Verdict`),
:mod:`~support.second_referee.melds` (run places, meld validity, opening points),
:mod:`~support.second_referee.matching` (the matching and the cards moved of decision 7),
:mod:`~support.second_referee.opening` (the opening requirement),
:mod:`~support.second_referee.layoffs` (lay-offs and joker swaps) and
:mod:`~support.second_referee.pins` (rami fou's pinned jokers, decision 5).
"""

from __future__ import annotations

from support.second_referee.matching import all_max_matchings, max_weight_matching
from support.second_referee.melds import meld_faults, opening_value_of, run_places
from support.second_referee.turn import Verdict, judge

__all__ = [
    "Verdict",
    "all_max_matchings",
    "judge",
    "max_weight_matching",
    "meld_faults",
    "opening_value_of",
    "run_places",
]
