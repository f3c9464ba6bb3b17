"""Where the cards of a run fall, card by card (no meld object needed): a card's places (the ace
low or high), the first place of a run laid out card by card, and why cards are no run.

Split from :mod:`rami.melds`, which builds melds on these.
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import RANK_LETTERS, Card, format_cards
from rami.rules import Ruleset


def rank_letter(position_rank: int) -> str:
    """The rank letter of a place in a run (14, the ace above the king, is ``A``)."""
    return RANK_LETTERS[(position_rank - 1) % 13]


def card_places(card: Card, top_rank: int) -> tuple[int, ...]:
    """The places a card may take in a run: an ace 1 or 14 where the ace is high, else its rank."""
    if card.rank == 1 and top_rank == 14:
        return (1, 14)
    return (card.rank,)


def run_start_of(cards: Sequence[Card], top_rank: int) -> int | None:
    """Rank of the first position of a run, or None when no placement fits."""
    candidates: set[int] | None = None
    for index, card in enumerate(cards):
        if card.is_joker:
            continue
        starts = {value - index for value in card_places(card, top_rank)}
        candidates = starts if candidates is None else candidates & starts
    if candidates is None:
        return 1
    fitting = sorted(s for s in candidates if s >= 1 and s + len(cards) - 1 <= top_rank)
    return fitting[0] if fitting else None


def explain_bad_run(cards: Sequence[Card], rules: Ruleset) -> str:
    """Why one suit's cards, none twice, are no run: a wrap, past an end, or the gap named."""
    text = format_cards(cards)
    wrapped = _run_start_modular(cards)
    if wrapped is not None:
        ranks = [rank_letter(wrapped + index) for index in range(len(cards))]
        if (
            wrapped < 1
            and (wrapped + len(cards) - 1) >= 1
            and all(card.is_joker for card in cards[: 1 - wrapped])
        ):
            return f"run {text} goes below the ace"
        if wrapped + len(cards) - 1 > rules.top_rank and all(
            card.is_joker for card in cards[rules.top_rank - wrapped + 1 :]
        ):
            return f"run {text} goes past the {'ace' if rules.ace_high else 'king'}"
        if not rules.ace_high and wrapped + len(cards) - 1 == 14:
            return f"{'-'.join(ranks)}: in {rules.name} the 1 never follows the 13"
        return f"{'-'.join(ranks)} wraps around"
    # Name the first two real cards in a row (jokers between them fill the places between) that
    # no placement puts that far apart: the gap, not merely the first pair.
    previous: tuple[int, Card] | None = None
    for index, card in enumerate(cards):
        if card.is_joker:
            continue
        if previous is not None:
            before, apart = previous[1], index - previous[0]
            if not any(
                after - start == apart
                for start in card_places(before, rules.top_rank)
                for after in card_places(card, rules.top_rank)
            ):
                return f"run {text} is not consecutive: {before} then {card}"
        previous = (index, card)
    return f"run {text} is not consecutive"


def _run_start_modular(cards: Sequence[Card]) -> int | None:
    """Start of a run if ranks are read around the clock (used only to explain a wrap)."""
    start: int | None = None
    for index, card in enumerate(cards):
        if card.is_joker:
            continue
        candidate = card.rank - index
        if start is None:
            start = candidate
        elif (candidate - start) % 13 != 0:
            return None
    if start is None:
        return None
    for shift in (0, 13, -13):
        low = start + shift
        if low + len(cards) - 1 >= 1 and low <= 14:
            return low
    return start
