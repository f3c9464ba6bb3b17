"""How a puzzle candidate is drawn: the generator's profiles (docs/puzzles.md, "Profiles").

A :class:`Profile` says how big each part of a candidate is (:mod:`rami.puzzles.draw`): the
target's melds, its window of ranks and suits, the hand, the decoy, the extra cards of a
best-score candidate, the jokers. Profiles go by name (:data:`PROFILES`; each tier's default in
:data:`DEFAULT_PROFILES`); records store the name, and a profile's draw never changes (a better
one is a new name).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

BEST_SCORE_SHARE = 0.4
HAND_TRIES = 20


@dataclass(frozen=True)
class Profile:
    """How a candidate is drawn.

    The first fields are the draw of the original profiles (``easy`` .. ``expert``); the
    others default to what those profiles do, so their candidates never change.
    """

    melds: tuple[int, int]
    hand: tuple[int, int]
    width: tuple[int, int]
    suits: tuple[int, int]
    set_share: float
    max_run: int
    decoy: float
    extra: tuple[int, int]
    #: The share of best-score candidates when no kind is asked for.
    best_score: float = BEST_SCORE_SHARE
    #: Real cards of the target made jokers (one drawn from this tuple), with jokers.
    joker_cards: tuple[int, ...] = (1, 1, 2)
    #: Re-split tries (a new hand each) before the draw fails.
    hand_tries: int = HAND_TRIES
    #: The draw with jokers, when it differs (None: this one).
    with_jokers: Profile | None = None

    def for_jokers(self, jokers: int) -> Profile:
        return self.with_jokers if jokers and self.with_jokers is not None else self


#: The draws of the second profiles without jokers (with jokers: see PROFILES).
_HARD_2 = Profile(
    melds=(4, 4),
    hand=(4, 6),
    width=(4, 5),
    suits=(2, 3),
    set_share=0.55,
    max_run=7,
    decoy=0.1,
    extra=(1, 2),
)
_EXPERT_2 = Profile(
    melds=(5, 6),
    hand=(4, 5),
    width=(5, 7),
    suits=(4, 4),
    set_share=0.6,
    max_run=7,
    decoy=0.0,
    extra=(2, 3),
)

PROFILES: dict[str, Profile] = {
    "easy": Profile(
        melds=(2, 3),
        hand=(1, 3),
        width=(4, 6),
        suits=(1, 3),
        set_share=0.3,
        max_run=6,
        decoy=0.0,
        extra=(1, 1),
    ),
    "medium": Profile(
        melds=(3, 4),
        hand=(2, 4),
        width=(4, 6),
        suits=(2, 3),
        set_share=0.4,
        max_run=6,
        decoy=0.2,
        extra=(1, 2),
    ),
    "hard": Profile(
        melds=(4, 6),
        hand=(3, 6),
        width=(4, 6),
        suits=(2, 4),
        set_share=0.45,
        max_run=7,
        decoy=0.3,
        extra=(1, 2),
    ),
    "expert": Profile(
        melds=(5, 7),
        hand=(4, 7),
        width=(5, 7),
        suits=(3, 4),
        set_share=0.45,
        max_run=7,
        decoy=0.4,
        extra=(1, 3),
    ),
    # The second profiles (docs/puzzles.md, "Profiles"): smaller targets, more sets, no
    # decoy with jokers, one joker in the target; several times more puzzles of the tier per
    # CPU-second than the originals.
    "hard-2": replace(_HARD_2, with_jokers=replace(_HARD_2, decoy=0.0, joker_cards=(1,))),
    "expert-2": replace(
        _EXPERT_2,
        with_jokers=replace(_EXPERT_2, melds=(5, 5), hand=(4, 6), set_share=0.75, joker_cards=(1,)),
    ),
}

#: The profile that draws a tier's candidates by default (``easy``, ``medium``, ``hard`` and
#: ``expert`` are the original profiles, which made the shipped pack; records name theirs).
DEFAULT_PROFILES: dict[str, str] = {
    "easy": "easy",
    "medium": "medium",
    "hard": "hard-2",
    "expert": "expert-2",
}


def profile_of(tier: str) -> str:
    """The profile that draws the candidates of a tier (:data:`DEFAULT_PROFILES`)."""
    return DEFAULT_PROFILES[tier]
