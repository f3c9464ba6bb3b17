"""Slot geometry: the melds an original meld may become and still be matched to it.

A slot is one final meld matched to an original (decision 7): a run of one suit as an interval
of positions (a :class:`Lane`), or one of the set templates of its ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from rami.melds import Meld, MeldKind, joker_cards, stands_for
from rami.rules import Ruleset
from rami.solver.counts import CardCounts
from rami.solver.cpsat import Expr
from rami.solver.rearrange.decode import value_of
from rami.solver.templates import Template, free_templates, run_template, sets_containing, type_at


def fits(template: Template, counts: CardCounts, jokers: int) -> bool:
    missing = sum(1 for t in template.types if counts.available(t) == 0)
    return missing <= jokers


class Lane:
    """A run of one suit matched to an original meld, as an interval of positions.

    ``cover[p]`` says the run holds position p; ``start[p]`` that it begins there. Cheaper for
    CP-SAT than one boolean per possible run (the LP relaxation is what proves optimality).
    """

    def __init__(self, model: cp_model.CpModel, name: str, suit: int, low: int, high: int):
        self.suit, self.low, self.high = suit, low, high
        self.used = model.new_bool_var(f"{name}u")
        self.cover = {p: model.new_bool_var(f"{name}a{p}") for p in range(low, high + 1)}
        self.start = {p: model.new_bool_var(f"{name}s{p}") for p in range(low, high + 1)}
        model.add(sum(self.start.values()) == self.used)
        for p in range(low, high + 1):
            model.add(self.start[p] <= self.cover[p])
            if p == low:
                model.add(self.cover[p] <= self.start[p])
            else:
                model.add(self.cover[p] <= self.cover[p - 1] + self.start[p])
        model.add(sum(self.cover.values()) >= 3 * self.used)
        if low == 1 and high == 14:
            model.add(self.cover[1] + self.cover[14] <= 1)

    def template(self, values: Sequence[int]) -> Template | None:
        held = [p for p, var in self.cover.items() if value_of(values, var)]
        return run_template(self.suit, held[0], held[-1]) if held else None

    def hint(self, template: Template | None) -> list[tuple[cp_model.IntVar, int]]:
        low, high = (template.positions[0], template.positions[-1]) if template else (0, -1)
        hints = [(self.used, int(template is not None))]
        hints += [(var, int(low <= p <= high)) for p, var in self.cover.items()]
        hints += [(var, int(p == low)) for p, var in self.start.items()]
        return hints


@dataclass
class Slot:
    original: int
    real_types: tuple[int, ...]
    jokers: int
    lanes: list[Lane] = field(default_factory=list)
    sets: list[tuple[Template, cp_model.IntVar]] = field(default_factory=list)
    keep_real: dict[int, cp_model.IntVar] = field(default_factory=dict)
    keep_joker: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: Places of the slot holding a real card (only tracked when jokers could fill a meld).
    real_at: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: Places of the slot's meld (a linear expression per card type it may cover).
    here: dict[int, Expr] = field(default_factory=dict)
    #: In the relaxation: how many of its jokers stay together away from its real cards.
    alone: cp_model.IntVar | None = None
    #: Cards of the original counted as kept here.
    kept: Expr = 0

    @property
    def used(self) -> Expr:
        return sum(lane.used for lane in self.lanes) + sum(var for _, var in self.sets)

    def chosen(self, values: Sequence[int]) -> Template | None:
        for lane in self.lanes:
            if value_of(values, lane.used):
                return lane.template(values)
        for template, var in self.sets:
            if value_of(values, var):
                return template
        return None

    def hint(self, template: Template | None) -> list[tuple[cp_model.IntVar, int]]:
        """Hints choosing ``template``; None when the slot cannot hold it."""
        hints: list[tuple[cp_model.IntVar, int]] = []
        placed = template is None
        for lane in self.lanes:
            fits = (
                not placed
                and template is not None  # placed when it is None
                and template.kind is MeldKind.RUN
                and template.suit == lane.suit
                and lane.low <= template.positions[0]
                and template.positions[-1] <= lane.high
            )
            hints += lane.hint(template if fits else None)
            placed = placed or fits
        for candidate, var in self.sets:
            fits = not placed and candidate == template
            hints.append((var, int(fits)))
            placed = placed or fits
        return hints if placed else []


def slot_options(
    meld: Meld, rules: Ruleset, counts: CardCounts, relaxed: bool, pinned: bool = False
) -> tuple[list[tuple[int, int, int]], list[Template]]:
    """Runs (as lanes: suit and position range) and other melds that may be matched to ``meld``.

    A run keeping real cards within [a, b] need reach no more than 4 past them: a longer tail
    of 3+ cards can leave as a run of its own. That tail may be all jokers, which only the
    ``relaxed`` model (an upper bound on cards kept) allows, so with 3+ jokers about the exact
    model gets the whole suit; so does a meld with jokers, whose kept jokers may stand anywhere,
    and one with an ace, which may move to the other end of its suit. A set whose jokers are
    ``pinned`` (rami fou) may be matched to any run or set holding its jokers: every option is
    listed, so that the pin constraints bound every legal turn. A pinned run's jokers stay in
    runs of its suit, its own slot or another piece of it (decision 5, revised), or are freed
    by their cards in its slot: it takes a free meld's options (runs of 4 suits would let the
    slot wander, and made the pinned models several times slower).
    """
    top = rules.top_rank
    short = meld.jokers == 0 and (relaxed or counts.jokers < 3)
    real_types = sorted({card.index for card in meld.real_cards})
    has_ace = any(t % 13 == 0 for t in real_types)
    lanes: list[tuple[int, int, int]] = []
    if meld.kind is MeldKind.RUN:
        ranks = stands_for(meld, rules)
        suit = real_types[0] // 13
        if short and not has_ace:
            lanes.append((suit, max(1, ranks[0] - 4), min(top, ranks[-1] + 4)))
        else:
            lanes.append((suit, 1, top))
    else:
        rank = meld.real_cards[0].rank
        for t in real_types:
            if short and rank != 1:
                lanes.append((t // 13, max(1, rank - 4), min(top, rank + 4)))
            else:
                lanes.append((t // 13, 1, top))
    lanes = [_trim_lane(lane, meld, rules, counts) for lane in lanes]
    options: list[Template] = []
    for t in real_types:
        options += sets_containing(t)
    if pinned and meld.jokers and meld.kind is MeldKind.SET:
        lanes = [(suit, 1, top) for suit in range(4)]
        options += [t for t in free_templates(top) if t.kind is MeldKind.SET]
    elif meld.jokers and not relaxed:
        # Its jokers alone may stay together in a meld that shares no real card with it (a
        # pinned run's runs of its own suit are its lane's).
        own = real_types[0] // 13 if pinned else None
        options += [
            template
            for template in free_templates(top)
            if template.kind is MeldKind.SET or template.suit != own
        ]
    found: dict[tuple[MeldKind, tuple[int, ...]], Template] = {}
    for template in options:
        if fits(template, counts, counts.jokers):
            found.setdefault((template.kind, template.types), template)
    return [lane for lane in lanes if lane[2] - lane[1] >= 2], list(found.values())


def stood_for_types(meld: Meld, rules: Ruleset) -> list[int]:
    """Card types whose real card may take the place of the meld's jokers (decision 5)."""
    if meld.kind is MeldKind.RUN:
        return [card.index for card in joker_cards(meld, rules)]
    rank = meld.real_cards[0].rank
    suits = {card.index // 13 for card in meld.real_cards}
    return [suit * 13 + rank - 1 for suit in range(4) if suit not in suits]


def _trim_lane(
    lane: tuple[int, int, int], meld: Meld, rules: Ruleset, counts: CardCounts
) -> tuple[int, int, int]:
    """Without jokers a run cannot cross a card that is nowhere: cut the lane there."""
    suit, low, high = lane
    if counts.jokers:
        return lane
    present = [counts.available(type_at(suit, p)) > 0 for p in range(low, high + 1)]
    keep = {card.index for card in meld.real_cards if card.index // 13 == suit}
    anchors = [p for p in range(low, high + 1) if type_at(suit, p) in keep]
    if not anchors:
        return (suit, low, low)
    first = last = anchors[0]
    while first > low and present[first - 1 - low]:
        first -= 1
    last = max(anchors)
    while last < high and present[last + 1 - low]:
        last += 1
    return (suit, first, last)
