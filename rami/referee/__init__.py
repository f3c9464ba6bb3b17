"""The turn validator: the referee an app needs.

Given the position before a turn, the table after it, the cards played from the hand (and the
discard, where the preset discards), say whether the turn is legal and every reason it is not.
It shares no checking code with the solver, which calls it on every answer it returns.

The package's modules: :mod:`~rami.referee.turn` (:func:`validate_turn`, :class:`TurnVerdict`),
:mod:`~rami.referee.tables` (which melds were only laid off on, which stayed as they were),
:mod:`~rami.referee.pins` (rami fou's pinned jokers, decision 5) and
:mod:`~rami.referee.opening` (the opening requirement).
"""

from __future__ import annotations

from rami.referee.pins import joker_cards_at, pinned_joker_problems, unpinned_jokers
from rami.referee.tables import MOST_EXTENSION_MATCHINGS
from rami.referee.turn import TurnVerdict, validate_turn

__all__ = [
    "MOST_EXTENSION_MATCHINGS",
    "TurnVerdict",
    "joker_cards_at",
    "pinned_joker_problems",
    "unpinned_jokers",
    "validate_turn",
]
