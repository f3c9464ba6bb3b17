"""Rami fou's pinned table jokers (decision 5), for the referee: which melds' jokers left their
place against the rule, judged through decision 7's matching of the melds before and after.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from itertools import product

from rami.cards import Card
from rami.matching import max_weight_assignment, overlap
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position
from rami.rules import Ruleset


def pinned_joker_problems(position: Position, after: Sequence[Meld]) -> list[str]:
    """Rami fou (decision 5): a table joker keeps standing for its card in its own meld (or, in
    a run cut into pieces, in any piece of it), unless that card takes its place in its own
    meld; then the joker goes to another meld this same turn."""
    return [
        f"meld {index + 1}: a joker left its meld without the card it stands for taking its "
        f"place, slid to stand for another card, or went back into its own meld once freed "
        f"({position.rules.name}, decision 5)"
        for index in unpinned_jokers(position, after)
    ]


def unpinned_jokers(position: Position, after: Sequence[Meld]) -> list[int]:
    """Indices of the melds before the turn whose jokers broke decision 5.

    A run's joker stays pinned where it stands for the same card in a run holding a real card
    of its old run: its own meld, or another piece of its run cut into pieces (decision 5,
    revised: cutting a run does not move its joker). A set's joker stays pinned in its own
    meld. A joker is freed where the card it stands for takes its place in its own meld (in a
    set: a card of a suit the set lacked), and must then end in another meld. A joker's own
    meld is the meld matched to its meld by decision 7, the matching counting real cards only
    (a joker never keeps its meld matched to it). Where several matchings share the most real
    cards, or the jokers after the turn (they are identical) could be the table's jokers in
    several ways, the turn is judged by a reading that suits the player, so that a verdict
    never depends on the order the melds are listed in.
    """
    pinned = [index for index, meld in enumerate(position.table) if meld.jokers]
    if not pinned:
        return []
    before_real = [Counter(meld.real_cards) for meld in position.table]
    after_real = [Counter(meld.real_cards) for meld in after]
    weights = [[overlap(old, new) for new in after_real] for old in before_real]
    best = _assignment_weight(weights, {})
    pins = _Pins(position, after, weights, after_real)
    # The melds after that may be each pinned meld's own in a best matching (-1: none).
    options: dict[int, list[int]] = {}
    for index in pinned:
        options[index] = [
            target
            for target in range(len(after))
            if weights[index][target] and _assignment_weight(weights, {index: target}) == best
        ]
        if _assignment_weight(weights, {index: -1}) == best:
            options[index].append(-1)
    failing = [
        index
        for index in pinned
        if not any(pins.hold({index: target}) for target in options[index])
    ]
    if failing:
        return failing
    for targets in product(*(options[index] for index in pinned)):
        matched = [target for target in targets if target >= 0]
        if len(set(matched)) < len(matched):
            continue
        own = dict(zip(pinned, targets, strict=True))
        if _assignment_weight(weights, own) == best and pins.hold(own):
            return []
    return pinned


class _Pins:
    """The table's jokers after a turn, and whether the table jokers of some melds can each be
    one of them with every pin holding (decision 5)."""

    def __init__(
        self,
        position: Position,
        after: Sequence[Meld],
        weights: list[list[int]],
        after_real: list[Counter[Card]],
    ) -> None:
        self.before = position.table
        self.rules = position.rules
        self.after = after
        self.weights = weights
        self.after_real = after_real
        # Every joker after the turn: its meld, and the card it stands for in a valid run
        # (None in a set, or in a meld that is no valid run: no run's joker stays there).
        self.spots: list[tuple[int, Card | None]] = []
        for number, meld in enumerate(after):
            cards: list[Card | None] = [None] * meld.jokers
            if meld.kind is MeldKind.RUN and meld.real_cards:
                with suppress(ValueError):  # no valid run: its jokers stand for nothing
                    cards = [card for card in joker_cards_at(meld, self.rules) if card is not None]
            self.spots.extend((number, card) for card in cards)

    def hold(self, own: dict[int, int]) -> bool:
        """Can the jokers of the melds in ``own`` (each with the meld after taken as its own,
        -1 for none) each be a distinct joker after the turn, every pin holding?

        A run's joker is a joker standing for its card in a run holding a real card of its old
        run (pinned), or, where its card lies in its own meld, any joker outside that meld
        (freed). A set's jokers are jokers of its own meld, a set of its rank, or, one for each
        card of a suit it lacked there, jokers outside it. A bipartite matching, tried for
        each count of a set's freed jokers.
        """
        edges: list[list[int]] = []
        set_choices: list[list[tuple[int, int, int]]] = []  # (own meld, staying, freed)
        for index, target in own.items():
            meld = self.before[index]
            if meld.kind is MeldKind.SET:
                choices = self._set_choices(meld, target)
                if not choices:
                    return False
                set_choices.append(choices)
                continue
            for card in joker_cards_at(meld, self.rules):
                if card is None:
                    continue
                replaced = (
                    target >= 0
                    and self.after[target].kind is MeldKind.RUN
                    and self.after_real[target][card] > 0
                )
                edges.append(
                    [
                        number
                        for number, (where, there) in enumerate(self.spots)
                        if (replaced and where != target)
                        or (there == card and self.weights[index][where] > 0)
                    ]
                )
        for choice in product(*set_choices):
            tried = list(edges)
            for target, staying, freed in choice:
                inside = [n for n, (where, _) in enumerate(self.spots) if where == target]
                outside = [n for n, (where, _) in enumerate(self.spots) if where != target]
                tried += [inside] * staying + [outside] * freed
            if _all_matched(tried, len(self.spots)):
                return True
        return False

    def _set_choices(self, meld: Meld, target: int) -> list[tuple[int, int, int]]:
        """A set's jokers with ``target`` its own meld: (target, staying, freed) for each
        count freed that its cards of a suit the set lacked allow."""
        if target < 0:
            return []
        now = self.after[target]
        if now.kind is not MeldKind.SET or now.real_cards[0].rank != meld.real_cards[0].rank:
            return []
        suits = {card.suit for card in meld.real_cards}
        freeing = sum(1 for card in now.real_cards if card.suit not in suits)
        return [
            (target, meld.jokers - freed, freed)
            for freed in range(max(0, meld.jokers - now.jokers), min(meld.jokers, freeing) + 1)
        ]


def _all_matched(edges: list[list[int]], places: int) -> bool:
    """Does every left node get a distinct place among its edges? (Augmenting paths.)"""
    owner = [-1] * places

    def augment(node: int, seen: set[int]) -> bool:
        for place in edges[node]:
            if place in seen:
                continue
            seen.add(place)
            if owner[place] < 0 or augment(owner[place], seen):
                owner[place] = node
                return True
        return False

    return all(augment(node, set()) for node in range(len(edges)))


def joker_cards_at(meld: Meld, rules: Ruleset) -> list[Card | None]:
    """For each card of a valid run, the card its joker stands for (None for a real card)."""
    suit = meld.real_cards[0].suit
    assert suit is not None  # a real card
    return [
        Card.of((place - 1) % 13 + 1, suit) if card.is_joker else None
        for place, card in zip(stands_for(meld, rules), meld.cards, strict=True)
    ]


def _assignment_weight(weights: list[list[int]], forced: dict[int, int]) -> int:
    """The most real cards a one-to-one matching shares, with the rows of ``forced`` matched
    to the given columns (-1: left unmatched)."""
    rows = [row for row in range(len(weights)) if row not in forced]
    taken = set(forced.values())
    cols = [col for col in range(len(weights[0]) if weights else 0) if col not in taken]
    total = sum(weights[row][col] for row, col in forced.items() if col >= 0)
    if rows and cols:
        sub = [[weights[row][col] for col in cols] for row in rows]
        total += sum(sub[i][j] for i, j in enumerate(max_weight_assignment(sub)) if j >= 0)
    return total
