"""The second referee's rami fou pinned jokers (decision 5, revised)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rami.cards import Card
from rami.melds import Meld, MeldKind
from rami.rules import Ruleset
from support.second_referee.matching import all_max_matchings, shared
from support.second_referee.melds import LONGEST_RUN, real_cards, run_cards


def pin_faults(before: Sequence[Meld], after: Sequence[Meld], rules: Ruleset) -> list[str]:
    """Decision 5 (revised): each table joker stays pinned in its own meld, or is freed by the card
    it stands for and ends in another meld. A run's joker also stays pinned in any piece of its
    run cut into pieces: a run holding a real card of its old run, where it stands for the same
    card (whichever piece the matching makes its own). Legal when some maximum real-card
    matching and some assignment of the physical jokers to the jokers after the turn make every
    pin hold."""
    rows = [index for index, meld in enumerate(before) if meld.jokers]
    if not rows:
        return []
    # What each table joker stands for: ("run", card) or ("set", rank).
    table_jokers: list[tuple[int, tuple[str, int]]] = []
    suits_before: dict[int, set[int]] = {}
    for row in rows:
        meld = before[row]
        if meld.kind is MeldKind.RUN:
            for card, stands in zip(meld.cards, run_cards(meld, rules), strict=True):
                if card.is_joker:
                    table_jokers.append((row, ("run", int(stands))))
        else:
            rank = real_cards(meld.cards)[0].rank
            suits_before[row] = {int(card.suit) for card in real_cards(meld.cards)}
            table_jokers.extend((row, ("set", rank)) for _ in range(meld.jokers))
    places: list[tuple[int, tuple[str, int]]] = []
    for col, meld in enumerate(after):
        if meld.kind is MeldKind.RUN:
            for card, stands in zip(meld.cards, run_cards(meld, rules), strict=True):
                if card.is_joker:
                    places.append((col, ("run", int(stands))))
        else:
            rank = real_cards(meld.cards)[0].rank
            places.extend((col, ("set", rank)) for _ in range(meld.jokers))
    if len(places) < len(table_jokers):  # pragma: no cover - card conservation says otherwise
        return ["a table joker left the table"]
    after_real = [Counter(real_cards(meld.cards)) for meld in after]
    weights = [
        [shared(Counter(real_cards(meld.cards)), counts) for counts in after_real]
        for meld in before
    ]

    def replacements(row: int, col: int) -> int:
        """How many jokers of meld ``row`` may be freed by real cards in meld ``col``."""
        meld, target = before[row], after[col]
        if meld.kind is MeldKind.SET:
            rank = real_cards(meld.cards)[0].rank
            if target.kind is not MeldKind.SET or real_cards(target.cards)[0].rank != rank:
                return 0
            return sum(
                1 for card in real_cards(target.cards) if int(card.suit) not in suits_before[row]
            )
        return LONGEST_RUN  # runs: checked card by card

    def can_free(row: int, col: int, stands: tuple[str, int]) -> bool:
        if stands[0] == "run":
            target = after[col]
            return target.kind is MeldKind.RUN and after_real[col][Card(stands[1])] > 0
        return replacements(row, col) > 0

    def assignable(own: dict[int, int]) -> bool:
        freed: Counter[int] = Counter()
        taken = [False] * len(places)

        def place(index: int) -> bool:
            if index == len(table_jokers):
                return True
            row, stands = table_jokers[index]
            col = own[row]
            if col < 0 and stands[0] == "set":
                return False  # a set's joker stays in its own meld or is freed there
            for spot, (where, there) in enumerate(places):
                if taken[spot]:
                    continue
                if stands[0] == "run" and where != col:
                    # Pinned in another piece of its cut run, or freed by its card in its own.
                    in_piece = there == stands and weights[row][where] > 0
                    if not in_piece and not (col >= 0 and can_free(row, col, stands)):
                        continue
                    taken[spot] = True
                    if place(index + 1):
                        return True
                    taken[spot] = False
                    continue
                if where == col:
                    if there != stands:
                        continue  # in its own meld a joker keeps standing for the same card
                    taken[spot] = True
                    if place(index + 1):
                        return True
                    taken[spot] = False
                else:
                    if not can_free(row, col, stands):
                        continue
                    if stands[0] == "set" and freed[row] >= replacements(row, col):
                        continue
                    taken[spot] = True
                    freed[row] += 1
                    if place(index + 1):
                        return True
                    freed[row] -= 1
                    taken[spot] = False
            return False

        return place(0)

    for picked in sorted(all_max_matchings(weights, rows)):
        if assignable(dict(zip(rows, picked, strict=True))):
            return []
    return [
        "a table joker left its meld without the card it stands for taking its place, stood "
        f"for another card, or went back into the meld it was freed from ({rules.name}, "
        "decision 5)"
    ]
