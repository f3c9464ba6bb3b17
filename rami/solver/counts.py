"""How many copies of each card type a position holds, on the table and in the hand."""

from __future__ import annotations

from dataclasses import dataclass

from rami.cards import NUM_TYPES
from rami.position import Position


@dataclass(frozen=True)
class CardCounts:
    table: tuple[int, ...]
    hand: tuple[int, ...]
    table_jokers: int
    hand_jokers: int

    @classmethod
    def of(cls, position: Position) -> CardCounts:
        table = [0] * NUM_TYPES
        hand = [0] * NUM_TYPES
        table_jokers = hand_jokers = 0
        for meld in position.table:
            for card in meld.cards:
                if card.is_joker:
                    table_jokers += 1
                else:
                    table[card.index] += 1
        for card in position.hand:
            if card.is_joker:
                hand_jokers += 1
            else:
                hand[card.index] += 1
        return cls(tuple(table), tuple(hand), table_jokers, hand_jokers)

    @property
    def jokers(self) -> int:
        return self.table_jokers + self.hand_jokers

    def available(self, card_type: int) -> int:
        return self.table[card_type] + self.hand[card_type]
