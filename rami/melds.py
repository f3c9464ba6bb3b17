"""Melds (runs and sets), their validation with exact reasons, and their opening points.

A meld is written card by card with each joker where it stands (docs/rules.md). Its kind (run or
set)
is inferred from the cards; only a single real card with jokers is ambiguous, and such a meld is a
run unless it is explicitly marked as a set (``set: 7H * *``). Where a run's cards fall, card by
card, is :mod:`rami.runs`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import combinations

from rami.cards import JOKER, Card, Suit, format_cards, parse_cards
from rami.errors import NotationError
from rami.lang import ENGLISH, Language
from rami.rules import Ruleset
from rami.runs import card_places, explain_bad_run, rank_letter, run_start_of

MIN_MELD = 3
MAX_SET = 4


class MeldKind(Enum):
    RUN = "run"
    SET = "set"


@dataclass(frozen=True, slots=True)
class Meld:
    """Cards in the order they lie (runs ascending, jokers in place) and the meld's kind."""

    cards: tuple[Card, ...]
    kind: MeldKind

    @classmethod
    def of(cls, cards: Iterable[Card], kind: MeldKind | str | None = None) -> Meld:
        cards = tuple(cards)
        if kind is None:
            return cls(cards, infer_kind(cards))
        return cls(cards, MeldKind(kind))

    @classmethod
    def parse(cls, text: str, language: Language = ENGLISH) -> Meld:
        """Parse ``"7H 8H 9H"``, ``"QS QD QC"`` or ``"set: 7H * *"`` (cards in ``language``)."""
        body = text.strip()
        kind: MeldKind | None = None
        head, colon, rest = body.partition(":")
        if colon:
            try:
                kind = MeldKind(head.strip().lower())
            except ValueError:
                raise NotationError(
                    f"unknown meld kind {head.strip()!r} in {text!r}: use 'run:' or 'set:'"
                ) from None
            body = rest
        cards = parse_cards(body, language)
        if not cards:
            raise NotationError(f"empty meld in {text!r}")
        return cls.of(cards, kind)

    @property
    def real_cards(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if not card.is_joker)

    @property
    def jokers(self) -> int:
        return sum(card.is_joker for card in self.cards)

    @property
    def needs_kind_marker(self) -> bool:
        return infer_kind(self.cards) is not self.kind

    def __str__(self) -> str:
        return self.text()

    def text(self, language: Language = ENGLISH) -> str:
        """The meld in a language's notation; it parses back to this meld."""
        cards = format_cards(self.cards, language)
        return f"{self.kind.value}: {cards}" if self.needs_kind_marker else cards

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.cards)

    def __hash__(self) -> int:
        # Written out: the generated hash hashes the kind, an Enum, through a Python method, and
        # melds key the matching and validity caches.
        return hash((self.cards, self.kind is MeldKind.SET))

    def counts(self) -> Counter[Card]:
        return Counter(self.cards)


def infer_kind(cards: Sequence[Card]) -> MeldKind:
    real = [card for card in cards if not card.is_joker]
    if len(real) >= 2:
        return MeldKind.SET if len({card.rank for card in real}) == 1 else MeldKind.RUN
    if len(real) == 1 and run_start_of(cards, top_rank=14) is None:
        return MeldKind.SET
    return MeldKind.RUN


def run_start(meld: Meld, rules: Ruleset) -> int | None:
    """Rank (1..14) of a run's first position, None when the run is not a valid run."""
    return run_start_of(meld.cards, rules.top_rank)


def stands_for(meld: Meld, rules: Ruleset) -> tuple[int, ...]:
    """Position ranks of a valid run's cards (1..14, 14 = ace above the king)."""
    start = run_start(meld, rules)
    if start is None:
        raise NotationError(f"{meld} is not a valid run")
    return tuple(range(start, start + len(meld.cards)))


def joker_cards(meld: Meld, rules: Ruleset) -> tuple[Card, ...]:
    """The cards a valid run's jokers stand for, in order."""
    suit = meld.real_cards[0].suit
    assert suit is not None  # a real card
    return tuple(
        Card.of((rank - 1) % 13 + 1, suit)
        for rank, card in zip(stands_for(meld, rules), meld.cards, strict=True)
        if card.is_joker
    )


def _run_problems(meld: Meld, rules: Ruleset) -> list[str]:
    cards = meld.cards
    real = meld.real_cards
    problems: list[str] = []
    suits = sorted({card.suit for card in real if card.suit is not None})
    if len(suits) > 1:
        problems.append(
            f"run {format_cards(cards)} mixes suits "
            f"({', '.join(Suit(suit).letter for suit in suits)})"
        )
        return problems
    if len(cards) > rules.max_run_length:
        problems.append(f"run {format_cards(cards)} has {len(cards)} cards: a run has at most 13")
        return problems
    duplicates = [card for card, count in Counter(real).items() if count > 1]
    if duplicates:
        problems.append(f"run {format_cards(cards)} holds {duplicates[0]} twice")
        return problems
    if run_start_of(cards, rules.top_rank) is not None:
        return problems
    problems.append(explain_bad_run(cards, rules))
    return problems


def _set_problems(meld: Meld) -> list[str]:
    real = meld.real_cards
    problems: list[str] = []
    if len(meld.cards) > MAX_SET:
        problems.append(f"set {format_cards(meld.cards)} has {len(meld.cards)} cards: at most 4")
    ranks = sorted({card.rank for card in real})
    if len(ranks) > 1:
        problems.append(
            f"set {format_cards(meld.cards)} mixes ranks "
            f"({', '.join(rank_letter(rank) for rank in ranks)})"
        )
    for card, count in sorted(Counter(real).items()):
        if count > 1:
            problems.append(f"two {card} in one set")
    return problems


def meld_problems(meld: Meld, rules: Ruleset) -> list[str]:
    """Every reason this meld is illegal under ``rules`` (empty when it is legal)."""
    return list(_meld_problems(meld, rules))


# A turn's referee sees again most melds the position check has just seen (melds left as they
# were): a small cache, far smaller than the melds of a batch of positions.
@lru_cache(maxsize=256)
def _meld_problems(meld: Meld, rules: Ruleset) -> tuple[str, ...]:
    problems: list[str] = []
    if len(meld.cards) < MIN_MELD:
        problems.append(
            f"meld {format_cards(meld.cards)} has {len(meld.cards)} "
            f"card{'s' if len(meld.cards) != 1 else ''}: a meld needs at least 3"
        )
    real_count = len(meld.real_cards)
    if real_count < rules.min_real_cards:
        problems.append(
            f"meld {format_cards(meld.cards)} needs at least {rules.min_real_cards} real "
            f"card{'s' if rules.min_real_cards > 1 else ''}"
        )
    elif rules.naturals_at_least_jokers and meld.jokers > real_count:
        problems.append(
            f"meld {format_cards(meld.cards)} has more jokers ({meld.jokers}) than "
            f"natural cards ({real_count})"
        )
    if real_count:
        if meld.kind is MeldKind.RUN:
            problems.extend(_run_problems(meld, rules))
        else:
            problems.extend(_set_problems(meld))
    return tuple(problems)


def is_valid(meld: Meld, rules: Ruleset) -> bool:
    return not _meld_problems(meld, rules)


def opening_points(meld: Meld, rules: Ruleset) -> int:
    """Points a valid meld counts towards an opening (docs/rules.md decision 2)."""
    if meld.kind is MeldKind.SET:
        rank = meld.real_cards[0].rank
        return len(meld.cards) * rules.opening_value(14 if rank == 1 and not rules.tiles else rank)
    return sum(rules.opening_value(rank) for rank in stands_for(meld, rules))


def is_pure_run(meld: Meld) -> bool:
    """A "tierce franche": a run of 3+ cards with no joker (docs/rules.md decision 3)."""
    return meld.kind is MeldKind.RUN and meld.jokers == 0 and len(meld.cards) >= MIN_MELD


def holds_pure_run(cards: Iterable[Card], rules: Ruleset) -> bool:
    """Do ``cards`` hold a pure run: three cards of one suit in a row (decision 3)?"""
    held = {
        (card.suit, place)
        for card in cards
        if not card.is_joker
        for place in card_places(card, rules.top_rank)
    }
    return any(
        all((suit, place + step) in held for step in range(MIN_MELD)) for suit, place in held
    )


def reaches_opening(
    cards: Iterable[Card], rules: Ruleset, points: int, *, pure_run: bool = False
) -> bool:
    """Do disjoint valid melds of ``cards`` count ``points`` opening points or more (decision
    2), holding a pure run when ``pure_run`` (decision 3)? Exact: a branch and bound over the
    partitions of ``cards``, meant for a hand."""
    counts = Counter(cards)
    jokers = counts.pop(JOKER, 0)
    top_value = max(rules.opening_value(place) for place in range(1, rules.top_rank + 1))

    def bound(card: Card) -> int:
        return max(rules.opening_value(place) for place in card_places(card, rules.top_rank))

    #: The most points each state was reached with and failed from.
    failed: dict[tuple[tuple[Card, ...], int, bool], int] = {}

    def search(real: tuple[Card, ...], jokers: int, pure_done: bool, got: int) -> bool:
        if got >= points and (pure_done or not pure_run):
            return True
        key = (real, jokers, pure_done)
        if (
            not real
            or failed.get(key, -1) >= got
            or (got + sum(map(bound, real)) + jokers * top_value < points)
            or (pure_run and not pure_done and not holds_pure_run(real, rules))
        ):
            return False
        first, rest = real[0], Counter(real[1:])
        for meld in _melds_holding(first, rest, jokers, rules):
            used = Counter(meld.real_cards)
            used[first] -= 1
            if search(
                tuple(sorted((rest - used).elements())),
                jokers - meld.jokers,
                pure_done or is_pure_run(meld),
                got + opening_points(meld, rules),
            ):
                return True
        if search(real[1:], jokers, pure_done, got):  # ``first`` stays in the hand
            return True
        failed[key] = got
        return False

    return search(tuple(sorted(counts.elements())), jokers, False, 0)


def _melds_holding(first: Card, others: Counter[Card], jokers: int, rules: Ruleset) -> list[Meld]:
    """Every valid meld holding ``first``, other real cards of ``others`` and at most ``jokers``
    jokers (a joker may take the place of a card ``others`` holds: that card may serve in
    another meld)."""
    melds: list[Meld] = []
    suit = first.suit
    assert suit is not None  # a real card
    for place in card_places(first, rules.top_rank):
        for low in range(max(1, place - rules.max_run_length + 1), place + 1):
            for high in range(
                max(low + MIN_MELD - 1, place),
                min(rules.top_rank, low + rules.max_run_length - 1) + 1,
            ):
                slots = [Card.of((p - 1) % 13 + 1, suit) for p in range(low, high + 1)]
                here = place - low
                held = [i for i, card in enumerate(slots) if i != here and others[card]]
                missing = len(slots) - 1 - len(held)
                if missing > jokers:
                    break  # a longer run misses as many cards or more
                for extra in range(min(jokers - missing, len(held)) + 1):
                    for as_joker in combinations(held, extra):
                        laid = tuple(
                            card if i == here or (i in held and i not in as_joker) else JOKER
                            for i, card in enumerate(slots)
                        )
                        meld = Meld(laid, MeldKind.RUN)
                        if is_valid(meld, rules):
                            melds.append(meld)
    suits = [
        Card.of(first.rank, s) for s in range(4) if s != suit and others[Card.of(first.rank, s)]
    ]
    for size in range(len(suits) + 1):
        for chosen in combinations(suits, size):
            for extra in range(min(jokers, MAX_SET - 1 - size) + 1):
                if 1 + size + extra >= MIN_MELD:
                    meld = Meld((first, *chosen, *(JOKER,) * extra), MeldKind.SET)
                    if is_valid(meld, rules):
                        melds.append(meld)
    return melds


def arrange(cards: Iterable[Card], rules: Ruleset, prefer: MeldKind | None = None) -> Meld | None:
    """Lay a multiset of cards out as a legal meld (jokers placed), or None if impossible.

    Runs put jokers in the gaps first, then above the top card, then below the bottom card.
    """
    cards = list(cards)
    kinds = [MeldKind.RUN, MeldKind.SET]
    if prefer is MeldKind.SET:
        kinds.reverse()
    for kind in kinds:
        meld = _arrange_run(cards, rules) if kind is MeldKind.RUN else _arrange_set(cards)
        if meld is not None and is_valid(meld, rules):
            return meld
    return None


def _arrange_set(cards: list[Card]) -> Meld | None:
    real = sorted(card for card in cards if not card.is_joker)
    jokers = len(cards) - len(real)
    return Meld(tuple(real) + (JOKER,) * jokers, MeldKind.SET)


def _arrange_run(cards: list[Card], rules: Ruleset) -> Meld | None:
    real = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(real)
    if not real:
        return None
    suit = real[0].suit
    if any(card.suit != suit for card in real):
        return None
    ace_options = (1, 14) if rules.ace_high else (1,)
    for ace_value in ace_options:
        values = sorted(ace_value if card.rank == 1 else card.rank for card in real)
        if len(set(values)) != len(values):
            return None
        gaps = values[-1] - values[0] + 1 - len(values)
        spare = jokers - gaps
        if spare < 0:
            continue
        up = min(spare, rules.top_rank - values[-1])
        down = spare - up
        low, high = values[0] - down, values[-1] + up
        if low < 1:
            continue
        by_value = {
            value: card
            for value, card in zip(
                values,
                sorted(real, key=lambda c: ace_value if c.rank == 1 else c.rank),
                strict=True,
            )
        }
        laid = tuple(by_value.get(value, JOKER) for value in range(low, high + 1))
        meld = Meld(laid, MeldKind.RUN)
        if not _run_problems(meld, rules):
            return meld
    return None
