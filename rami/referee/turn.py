"""The turn validator itself: :func:`validate_turn` and its :class:`TurnVerdict`.

The table's mapping (lay-offs, unchanged melds) is in :mod:`rami.referee.tables`, rami fou's
pinned jokers in :mod:`rami.referee.pins`, the opening requirement in
:mod:`rami.referee.opening`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import JOKER, Card, format_cards, localize_cards, parse_cards
from rami.lang import Language
from rami.matching import cards_moved
from rami.melds import Meld, meld_problems
from rami.position import Position, hand_penalty
from rami.referee.opening import opening_problems, opening_problems_from_cards, opens_from_hand
from rami.referee.pins import pinned_joker_problems
from rami.referee.tables import (
    all_extension_matchings,
    changed_before_opening,
    is_extension,
    match_extensions,
    unmatched_unchanged,
    unused_melds,
)
from rami.rules import GoingOut, TableJoker


@dataclass(frozen=True)
class TurnVerdict:
    legal: bool
    problems: tuple[str, ...]
    hand_after: tuple[Card, ...] = ()
    penalty_after: int = 0
    cards_moved: int = 0
    opened_after: bool = False

    def problems_in(self, language: Language) -> list[str]:
        """The reasons, their cards written in ``language`` (the words stay English)."""
        return [localize_cards(problem, language) for problem in self.problems]


def _count(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _multiset_text(counts: Counter[Card]) -> str:
    return format_cards(sorted(counts.elements()))


def validate_turn(
    position: Position,
    table_after: Sequence[Meld | str | Sequence[Card | str]],
    played: Sequence[Card | str] | str,
    discard: Card | str | None = None,
) -> TurnVerdict:
    """Judge one turn. ``played`` are the cards that left the hand for the table.

    Melds may be given as :class:`Meld` objects, as text (``"7H 8H 9H"``, ``"set: 7H * *"``)
    or as lists of cards; cards as :class:`Card` objects or text (``"7H"``, or ``played`` as one
    string ``"7H 8H"``). Bad text raises :class:`~rami.errors.NotationError`.

    The reasons come in this order: cards played that the hand lacks, illegal melds, cards
    that appeared or vanished, table changes the rules forbid, jokers gone from the table, the
    opening, the discard.
    """
    cards_played = parse_cards(played) if isinstance(played, str) else [_as_card(c) for c in played]
    discarded = None if discard is None else _as_card(discard)
    turn = _Turn.of(position, [_as_meld(meld) for meld in table_after], Counter(cards_played))
    rules = position.rules
    hand = Counter(position.hand)
    problems = _missing_card_problems(hand, turn.played)
    hand_after = hand - turn.played
    problems += _meld_problems(turn)
    conservation, vanished_jokers = _conservation_problems(turn)
    problems += conservation
    table_problems, new_melds, swapped = _table_change_problems(turn)
    problems += table_problems
    if vanished_jokers:
        joker_problems, jokers_to_hand = _vanished_joker_problems(turn, vanished_jokers, swapped)
        problems += joker_problems
        if jokers_to_hand:
            hand_after[JOKER] += jokers_to_hand
    opened_after = position.opened
    if turn.opens_now:
        problems += _opening_turn_problems(turn, new_melds)
        opened_after = True
    if rules.discard:
        problems += _discard_problems(position, hand_after, discarded, turn.played)
        if discarded is not None and hand_after[discarded] > 0:
            hand_after[discarded] -= 1
    elif discarded is not None:
        problems.append(f"{rules.name} has no discard: a turn never ends by discarding")

    moved = cards_moved(position.table, turn.melds_after) if not problems else 0
    hand_left = tuple(sorted(hand_after.elements()))
    return TurnVerdict(
        legal=not problems,
        problems=tuple(problems),
        hand_after=hand_left,
        penalty_after=hand_penalty(hand_left, rules, opened_after),
        cards_moved=moved,
        opened_after=opened_after,
    )


@dataclass(frozen=True)
class _Turn:
    """What every check of one turn reads: the position, the table after, the cards played."""

    position: Position
    melds_after: list[Meld]
    played: Counter[Card]
    #: The player opens in this turn.
    opens_now: bool
    #: The table may change in this turn, not only receive new melds.
    may_change_table: bool

    @classmethod
    def of(cls, position: Position, melds_after: list[Meld], played: Counter[Card]) -> _Turn:
        rules = position.rules
        # Decisions 1 and 4: the table may change only once the player has opened. A
        # rearranging preset's opener lays new melds only, unless the ruleset flag allows
        # rearranging in the opening turn; a lay-off preset's opener may lay off once the
        # opening melds are down.
        opens_now = not position.opened and bool(played)
        may_change_table = position.opened or (
            opens_now and (rules.open_and_rearrange_same_turn or not rules.rearrangement)
        )
        return cls(position, melds_after, played, opens_now, may_change_table)


def _missing_card_problems(hand: Counter[Card], played: Counter[Card]) -> list[str]:
    """Cards played more often than the hand holds them."""
    missing = played - hand
    return [
        f"{card} is played {_count(played[card], 'time')} but the hand holds {hand[card]}"
        for card in sorted(missing)
    ]


def _meld_problems(turn: _Turn) -> list[str]:
    """Every meld of the table after the turn that is not a legal meld, with its number."""
    rules = turn.position.rules
    return [
        f"meld {number} after the turn: {reason}"
        for number, meld in enumerate(turn.melds_after, start=1)
        for reason in meld_problems(meld, rules)
    ]


def _conservation_problems(turn: _Turn) -> tuple[list[str], int]:
    """Cards on the table after the turn that neither the table nor the hand supplied, and
    cards (jokers aside) that left the table; with the number of jokers that left it."""
    after_counts: Counter[Card] = Counter()
    for meld in turn.melds_after:
        after_counts.update(meld.cards)
    supplied = turn.position.table_cards + turn.played
    appeared = after_counts - supplied
    vanished = supplied - after_counts
    problems = []
    if appeared:
        problems.append(
            f"{_count(appeared.total(), 'card')} appeared on the table from "
            f"nowhere: {_multiset_text(appeared)}"
        )
    vanished_jokers = vanished.pop(JOKER, 0)
    if vanished:
        problems.append(
            f"{_count(vanished.total(), 'card')} vanished from the table: "
            f"{_multiset_text(vanished)}"
        )
    return problems, vanished_jokers


def _table_change_problems(turn: _Turn) -> tuple[list[str], list[Meld], int]:
    """The table's changes the rules forbid; with the new melds (for the opening, where they
    are told apart) and the jokers that cards took the place of."""
    position, melds_after = turn.position, turn.melds_after
    rules = position.rules
    if not turn.may_change_table:
        problems = changed_before_opening(
            position, melds_after, "may only lay new melds from the hand"
        )
        return problems, unmatched_unchanged(position.table, melds_after), 0
    if not rules.rearrangement:
        return _lay_off_problems(turn)
    if rules.table_joker is TableJoker.REPLACE_AND_RELAY:
        return pinned_joker_problems(position, melds_after), [], 0
    return [], [], 0


def _lay_off_problems(turn: _Turn) -> tuple[list[str], list[Meld], int]:
    """Under a lay-off preset: every old meld must still be there, extended at most."""
    position, melds_after = turn.position, turn.melds_after
    rules = position.rules
    allow_swap = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
    matched = match_extensions(position.table, melds_after, allow_swap, rules)
    if turn.opens_now and -1 not in matched:
        # With identical copies an old meld may be the one left as it was or the one laid
        # off on: the verdict takes the pairing that leaves the player an opening.
        # The new melds must also hold no more jokers than the hand laid (decision 4: a
        # joker swapped this turn joins no new meld), so that count chooses too.
        matched = next(
            (
                choice
                for choice in all_extension_matchings(
                    position.table, melds_after, allow_swap, rules
                )
                if opens_from_hand(unused_melds(melds_after, choice), turn.played[JOKER], rules)
            ),
            matched,
        )
    problems = []
    swapped = 0
    for number, (meld, target) in enumerate(zip(position.table, matched, strict=True), 1):
        if target < 0:
            problems.append(
                f"meld {number} ({meld}) was rearranged: {rules.name} allows only lay-offs"
                + (" and joker swaps" if allow_swap else "")
            )
        else:
            swapped += is_extension(meld, melds_after[target], allow_swap, rules)[1]
    return problems, unused_melds(melds_after, matched), swapped


def _vanished_joker_problems(
    turn: _Turn, vanished_jokers: int, swapped: int
) -> tuple[list[str], int]:
    """Jokers that left the table: they go to the hand only in BFmania, one for each joker a
    card took the place of; the rest were never played. With the jokers that go to the hand."""
    position = turn.position
    rules = position.rules
    jokers_to_hand = 0
    if rules.table_joker is TableJoker.SWAP_TO_HAND and turn.may_change_table:
        jokers_to_hand = min(vanished_jokers, swapped)
    gone = vanished_jokers - jokers_to_hand
    table_jokers_gone = min(gone, position.table_cards[JOKER] - jokers_to_hand)
    played_jokers_gone = gone - table_jokers_gone
    if played_jokers_gone or (table_jokers_gone and turn.played[JOKER]):
        return [
            f"{_count(gone, 'joker')} said to be played {'is' if gone == 1 else 'are'} not on "
            "the table"
        ], jokers_to_hand
    if table_jokers_gone:
        return [
            f"{_count(table_jokers_gone, 'table joker')} went back to a hand: under "
            f"{rules.name} a joker on the table {rules.table_joker.value}"
            + (
                ", and only in place of a card that took its place"
                if rules.table_joker is TableJoker.SWAP_TO_HAND
                else ""
            )
        ], jokers_to_hand
    return [], jokers_to_hand


def _opening_turn_problems(turn: _Turn, new_melds: list[Meld]) -> list[str]:
    """In the turn the player opens: the opening requirement, and the table left alone until
    the opening melds are down."""
    rules = turn.position.rules
    if turn.may_change_table and rules.rearrangement:
        # The opening melds may already be merged into the rearranged table: judge the
        # opening on the cards played from the hand (decision 1, same-turn flag).
        return opening_problems_from_cards(turn.played, rules)
    problems = opening_problems(new_melds, rules)
    if problems and turn.may_change_table:
        problems += changed_before_opening(
            turn.position,
            turn.melds_after,
            "lays off or swaps a joker only once the opening melds are down",
        )
    new_jokers = sum(meld.jokers for meld in new_melds)
    if new_jokers > turn.played[JOKER]:
        problems.append(
            f"the new melds hold {_count(new_jokers, 'joker')} but {turn.played[JOKER]} came "
            "from the hand: the opening melds come from the hand, and a joker swapped "
            "this turn does not join a new meld (decision 4)"
        )
    return problems


def _as_card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _as_meld(meld: Meld | str | Sequence[Card | str]) -> Meld:
    if isinstance(meld, Meld):
        return meld
    if isinstance(meld, str):
        return Meld.parse(meld)
    return Meld.of(_as_card(card) for card in meld)


def _discard_problems(
    position: Position, hand_after: Counter[Card], discard: Card | None, played: Counter[Card]
) -> list[str]:
    rules = position.rules
    cards_left = sum(hand_after.values())
    if discard is None:
        if cards_left == 0 and rules.going_out is GoingOut.PLACE_OR_DISCARD:
            return []
        return [f"{rules.name} ends every turn with a discard; none was given"]
    if hand_after[discard] == 0:
        return [f"the discard {discard} is not left in the hand"]
    problems = []
    last_card = cards_left == 1
    if position.taken_discard == discard and not last_card:
        problems.append(
            f"{discard} was just taken from the discard pile: neither copy may be discarded "
            "this turn unless it is the last card (decision 8)"
        )
    if rules.joker_kept_until_last and discard.is_joker and not last_card:
        problems.append(f"{rules.name} never discards a joker except as the last card")
    return problems
