"""A position: the table, the hand of the player to move, whether that player has opened, rules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rami.cards import JOKER, Card, sort_cards
from rami.errors import InvalidPositionError
from rami.melds import Meld, meld_problems
from rami.rules import DEFAULT_RULES, Ruleset

COPIES_PER_CARD = 2


@dataclass(frozen=True)
class Position:
    table: tuple[Meld, ...] = ()
    hand: tuple[Card, ...] = ()
    opened: bool = False
    rules: Ruleset = field(default=DEFAULT_RULES)
    #: The card just taken from the discard pile, which may not be discarded (decision 8).
    taken_discard: Card | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", tuple(self.table))
        object.__setattr__(self, "hand", sort_cards(self.hand))

    @property
    def table_cards(self) -> Counter[Card]:
        counts: Counter[Card] = Counter()
        for meld in self.table:
            counts.update(meld.cards)
        return counts

    @property
    def table_size(self) -> int:
        """How many cards lie on the table, jokers included."""
        return sum(map(len, self.table))

    def problems(self) -> list[str]:
        """Every reason this position cannot occur under its rules (empty when valid)."""
        return position_problems(self.table, self.hand, self.rules, self.taken_discard)

    def checked(self) -> Position:
        """Return self, or raise InvalidPositionError listing every problem."""
        problems = self.problems()
        if problems:
            raise InvalidPositionError(problems)
        return self

    def __str__(self) -> str:
        from rami.notation import format_position

        return format_position(self)

    def __repr__(self) -> str:
        return f"Position.parse({str(self)!r})"


    @classmethod
    def parse(cls, text: str) -> Position:
        from rami.notation import parse_position

        return parse_position(text)


def count_problems(cards: Iterable[Card], rules: Ruleset) -> list[str]:
    """Card counts a two-deck game cannot hold (docs/rules.md: two copies, the preset's jokers)."""
    problems: list[str] = []
    counts = Counter(cards)
    for card in sorted(counts):
        if card.is_joker:
            continue
        if counts[card] > COPIES_PER_CARD:
            problems.append(
                f"{counts[card]} copies of {card}: two decks hold only {COPIES_PER_CARD}"
            )
    if counts[JOKER] > rules.jokers:
        problems.append(
            f"{counts[JOKER]} joker{'s' if counts[JOKER] != 1 else ''}: "
            f"{rules.option_string} is played with {rules.jokers}"
        )
    return problems


def position_problems(
    table: Sequence[Meld], hand: Sequence[Card], rules: Ruleset, taken_discard: Card | None = None
) -> list[str]:
    problems: list[str] = []
    for number, meld in enumerate(table, start=1):
        problems.extend(f"meld {number}: {reason}" for reason in meld_problems(meld, rules))
    everything = [card for meld in table for card in meld.cards] + list(hand)
    problems.extend(count_problems(everything, rules))
    if taken_discard is not None:
        if not rules.discard:
            problems.append(f"{rules.name} has no discard pile, yet a taken discard is named")
        elif taken_discard not in hand:
            problems.append(f"the taken discard {taken_discard} is not in the hand")
    return problems


def hand_penalty(hand: Iterable[Card], rules: Ruleset, opened: bool = True) -> int:
    """Penalty of the cards left in hand (docs/rules.md row "hand penalty", "not opened")."""
    if not opened and rules.unopened_flat_penalty is not None:
        return rules.unopened_flat_penalty
    return sum(rules.card_penalty(card.rank) for card in hand)
