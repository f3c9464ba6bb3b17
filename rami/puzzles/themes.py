"""Themes: what a puzzle's solution does, as tags (like lichess's puzzle themes).

:func:`themes` reads the position and the recorded solution (the final table) only; it never
solves. Melds before and after are matched as the referee matches them (docs/rules.md decision 7,
:func:`rami.matching.match_melds`): a card *leaves* its meld when it does not end in the meld
matched to its own. Each theme is a plain test, listed in :data:`THEMES` with the sentence the
page and ``docs/puzzles.md`` show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.lang import ENGLISH
from rami.matching import match_melds
from rami.melds import Meld, MeldKind, joker_cards, run_start, stands_for
from rami.phrasebook import say
from rami.position import Position
from rami.rules import Ruleset

#: A run this long or longer on the final table, built or changed this turn, is a long run.
LONG_RUN = 6


@dataclass(frozen=True)
class Turn:
    """The facts the tests read: the tables, the matching, the cards played."""

    position: Position
    after: tuple[Meld, ...]
    #: For each meld before (by index), the index of its meld after, or -1.
    matched: tuple[int, ...]
    played: Counter[Card]

    @property
    def rules(self) -> Ruleset:
        return self.position.rules

    @property
    def before(self) -> tuple[Meld, ...]:
        return self.position.table

    def own(self, index: int) -> Meld | None:
        """The meld after the turn matched to meld ``index`` before (None: broken up)."""
        target = self.matched[index]
        return self.after[target] if target >= 0 else None

    def left(self, index: int) -> Counter[Card]:
        """The cards of meld ``index`` that end elsewhere (not in its matched meld)."""
        own = self.own(index)
        kept = own.counts() if own is not None else Counter()
        return self.before[index].counts() - kept

    def changed(self) -> list[Meld]:
        """The melds after the turn that are not an untouched meld of before."""
        untouched = Counter(self.before)
        result = []
        for meld in self.after:
            if untouched[meld] > 0:
                untouched[meld] -= 1
            else:
                result.append(meld)
        return result

    def destinations(self, index: int) -> Counter[int]:
        """For meld ``index`` before: how many of its real cards each meld after holds, its
        own meld taking its share first (identical copies go where they fit)."""
        result: Counter[int] = Counter()
        remaining = self.before[index].counts()
        remaining.pop(JOKER, None)
        target = self.matched[index]
        if target >= 0:
            for card, count in self.after[target].counts().items():
                share = min(count, remaining[card])
                if share:
                    result[target] += share
                    remaining[card] -= share
        # The rest: the cards that left, counted in the melds after that hold them (beyond
        # those melds' own cards from before).
        spare = self._unclaimed()
        for card in sorted(+remaining):
            need = remaining[card]
            for where in range(len(self.after)):
                if not need:
                    break
                take = min(need, spare[where][card])
                if take:
                    spare[where][card] -= take
                    result[where] += take
                    need -= take
        return result

    def _unclaimed(self) -> list[Counter[Card]]:
        """Each meld after minus the cards its own meld before kept in it and the cards
        played (hand cards counted first where they fit: they are the ones laid there)."""
        spare = [meld.counts() for meld in self.after]
        for index, target in enumerate(self.matched):
            if target >= 0:
                spare[target] -= self.before[index].counts()
        return spare


def _run_positions(meld: Meld, rules: Ruleset) -> dict[Card, int] | None:
    """Real card -> its place (1..14) in a valid run, or None for a set or no run."""
    if meld.kind is not MeldKind.RUN or run_start(meld, rules) is None:
        return None
    return {
        card: place
        for card, place in zip(meld.cards, stands_for(meld, rules), strict=True)
        if not card.is_joker
    }


# ------------------------------------------------------------------------------- the tests


def _joker_swap(turn: Turn) -> bool:
    """A hand card takes a joker's place: a card played lies in a meld where a joker of the
    meld before stood for it."""
    for index, meld in enumerate(turn.before):
        own = turn.own(index)
        if not meld.jokers or meld.kind is not MeldKind.RUN or own is None:
            continue
        if run_start(meld, turn.rules) is None:
            continue
        for card in joker_cards(meld, turn.rules):
            if turn.played[card] and card in own.cards and card not in meld.cards:
                return True
    for index, meld in enumerate(turn.before):
        own = turn.own(index)
        if meld.jokers and meld.kind is MeldKind.SET and own is not None:
            suits_before = {card.suit for card in meld.real_cards}
            gained = [
                card
                for card in own.real_cards
                if card.suit not in suits_before and turn.played[card]
            ]
            if gained and own.jokers < meld.jokers:
                return True
    return False


def _joker_freed(turn: Turn) -> bool:
    """A joker of the table leaves its meld."""
    for index, meld in enumerate(turn.before):
        if not meld.jokers:
            continue
        own = turn.own(index)
        if own is None or own.jokers < meld.jokers:
            return True
    return False


def _joker_from_hand(turn: Turn) -> bool:
    """A joker is played from the hand."""
    return turn.played[JOKER] > 0


def _no_joker(turn: Turn) -> bool:
    """No joker on the table or in the hand."""
    position = turn.position
    return not position.table_cards[JOKER] and JOKER not in position.hand


def _borrow_from_set(turn: Turn) -> bool:
    """A card is taken from a set of four, which stays a set."""
    for index, meld in enumerate(turn.before):
        own = turn.own(index)
        if (
            meld.kind is MeldKind.SET
            and len(meld.cards) == 4
            and own is not None
            and own.kind is MeldKind.SET
            and +turn.left(index)
        ):
            return True
    return False


def _borrow_from_run(turn: Turn) -> bool:
    """One or two cards are taken from an end of a run, which stays a run (not a split)."""
    for index, meld in enumerate(turn.before):
        own = turn.own(index)
        if (
            meld.kind is not MeldKind.RUN
            or own is None
            or own.kind is not MeldKind.RUN
            or _is_split(turn, index)
        ):
            continue
        left = turn.left(index)
        gone = [place for place, card in enumerate(meld.cards) if not card.is_joker and left[card]]
        if not 1 <= len(gone) <= 2:
            continue
        last = len(meld.cards) - 1
        if (
            set(gone) <= {0, 1, last - 1, last}
            and (len(gone) == 1 or set(gone) in ({0, 1}, {last - 1, last}, {0, last}))
            and (gone[0] in (0, last) or gone[-1] in (0, last))
        ):
            return True
    return False


def _is_split(turn: Turn, index: int) -> bool:
    meld = turn.before[index]
    if meld.kind is not MeldKind.RUN or len(meld.real_cards) < 4:
        return False
    runs = [
        where
        for where, count in turn.destinations(index).items()
        if count >= 2 and turn.after[where].kind is MeldKind.RUN
    ]
    return len(runs) >= 2


def _split_run(turn: Turn) -> bool:
    """A run is cut in two: two runs of the final table each take two or more of its cards."""
    return any(_is_split(turn, index) for index in range(len(turn.before)))


def _merge_runs(turn: Turn) -> bool:
    """Two runs of the table end in one run."""
    holders: Counter[int] = Counter()
    for index, meld in enumerate(turn.before):
        if meld.kind is not MeldKind.RUN:
            continue
        for where, count in turn.destinations(index).items():
            if count >= 2 and turn.after[where].kind is MeldKind.RUN:
                holders[where] += 1
    return any(count >= 2 for count in holders.values())


def _set_to_runs(turn: Turn) -> bool:
    """A set is broken into runs: two or more of its cards end in runs."""
    for index, meld in enumerate(turn.before):
        if meld.kind is not MeldKind.SET:
            continue
        in_runs = sum(
            count
            for where, count in turn.destinations(index).items()
            if turn.after[where].kind is MeldKind.RUN
        )
        if in_runs >= 2:
            return True
    return False


def _run_to_sets(turn: Turn) -> bool:
    """Cards of a run feed sets: two or more of its cards end in sets."""
    for index, meld in enumerate(turn.before):
        if meld.kind is not MeldKind.RUN:
            continue
        in_sets = sum(
            count
            for where, count in turn.destinations(index).items()
            if turn.after[where].kind is MeldKind.SET
        )
        if in_sets >= 2:
            return True
    return False


def _ace_high(turn: Turn) -> bool:
    """A run through Q-K-A (the ace above the king) is built or changed this turn."""
    for meld in turn.changed():
        places = _run_positions(meld, turn.rules)
        if places and 14 in places.values():
            return True
    return False


def _long_run(turn: Turn) -> bool:
    """A run of six or more cards is built or changed this turn."""
    return any(meld.kind is MeldKind.RUN and len(meld.cards) >= LONG_RUN for meld in turn.changed())


def _twin_cards(turn: Turn) -> bool:
    """Both copies of a card (two decks) are played this turn."""
    return any(not card.is_joker and count == 2 for card, count in turn.played.items())


def _all_cards(turn: Turn) -> bool:
    """The hand is emptied: every card is played."""
    return sum(turn.played.values()) == len(turn.position.hand)


def _best_score(turn: Turn) -> bool:
    """The hand cannot be emptied: shed the most points."""
    return not _all_cards(turn)


#: Theme -> its test, in the order themes are listed.
_TESTS: dict[str, Callable[[Turn], bool]] = {
    "all-cards": _all_cards,
    "best-score": _best_score,
    "joker-swap": _joker_swap,
    "joker-freed": _joker_freed,
    "joker-from-hand": _joker_from_hand,
    "no-joker": _no_joker,
    "borrow-from-set": _borrow_from_set,
    "borrow-from-run": _borrow_from_run,
    "split-run": _split_run,
    "merge-runs": _merge_runs,
    "set-to-runs": _set_to_runs,
    "run-to-sets": _run_to_sets,
    "ace-high": _ace_high,
    "long-run": _long_run,
    "twin-cards": _twin_cards,
}

#: Theme -> (sentence, test), in the order themes are listed; the sentence in English from the
#: phrase book (``theme.<tag>``, :mod:`rami.phrasebook`).
THEMES: dict[str, tuple[str, Callable[[Turn], bool]]] = {
    tag: (say(f"theme.{tag}", ENGLISH, long=LONG_RUN), test) for tag, test in _TESTS.items()
}


def describe(theme: str) -> str:
    return THEMES[theme][0]


def themes(position: Position, solution: Sequence[Meld]) -> tuple[str, ...]:
    """The themes of a solution (the final table) of the position, in :data:`THEMES` order."""
    after = tuple(solution)
    before_counts = position.table_cards
    after_counts: Counter[Card] = Counter()
    for meld in after:
        after_counts.update(meld.cards)
    played = after_counts - before_counts
    turn = Turn(position, after, tuple(match_melds(position.table, after)), played)
    return tuple(name for name, (_, test) in THEMES.items() if test(turn))
