"""The turn validator: the referee an app needs.

Given the position before a turn, the table after it, the cards played from the hand (and the
discard, where the preset discards), say whether the turn is legal and every reason it is not.
It shares no checking code with the solver, which calls it on every answer it returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from itertools import combinations, product

from rami.cards import JOKER, Card, format_cards, localize_cards, parse_cards
from rami.lang import Language
from rami.matching import cards_moved, max_weight_assignment, overlap
from rami.melds import (
    Meld,
    MeldKind,
    is_pure_run,
    meld_problems,
    opening_points,
    stands_for,
)
from rami.position import Position, hand_penalty
from rami.rules import GoingOut, Ruleset, TableJoker


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


def _is_extension(
    before: Meld, after: Meld, allow_swap: bool, rules: Ruleset
) -> tuple[bool, int]:
    """Is ``after`` ``before`` with cards added (and jokers swapped out when allowed)?

    Returns (ok, jokers swapped out).
    """
    if before.kind is not after.kind:
        return False, 0
    if before.kind is MeldKind.SET:
        before_real = Counter(before.real_cards)
        after_real = Counter(after.real_cards)
        if before_real - after_real:
            return False, 0
        swapped = max(0, before.jokers - after.jokers)
        if swapped and not allow_swap:
            return False, 0
        new_real = sum((after_real - before_real).values())
        return swapped <= new_real, swapped
    try:
        before_ranks = stands_for(before, rules)
        after_ranks = stands_for(after, rules)
    except ValueError:
        return False, 0
    placed = dict(zip(after_ranks, after.cards, strict=True))
    swapped = 0
    for rank, card in zip(before_ranks, before.cards, strict=True):
        now = placed.get(rank)
        if now is None:
            return False, 0
        if card.is_joker and not now.is_joker:
            if not allow_swap:
                return False, 0
            swapped += 1
        elif now != card:
            return False, 0
    return True, swapped


def _match_extensions(
    before: Sequence[Meld], after: Sequence[Meld], allow_swap: bool, rules: Ruleset
) -> list[int]:
    """Each meld before paired with a distinct meld after that extends it (or -1).

    Not the largest-overlap matching: two melds after can share as many cards with a meld
    before (``JH JD *`` -> ``JH JD JS`` or ``JS JD *``), and only one of them extends it.
    """
    weights = [
        [1 if _is_extension(old, new, allow_swap, rules)[0] else 0 for new in after]
        for old in before
    ]
    if not before or not after:
        return [-1] * len(before)
    assignment = max_weight_assignment(weights)
    return [
        col if col >= 0 and weights[row][col] else -1 for row, col in enumerate(assignment)
    ]


#: Most pairings tried when an opening turn's lay-offs could be read several ways.
MOST_EXTENSION_MATCHINGS = 5_000


def _all_extension_matchings(
    before: Sequence[Meld], after: Sequence[Meld], allow_swap: bool, rules: Ruleset
) -> list[list[int]]:
    """Every pairing of each meld before with a distinct meld after that extends it, the
    pairings keeping melds as they were first (at most MOST_EXTENSION_MATCHINGS)."""
    options = [_extensions_of(old, after, allow_swap, rules) for old in before]
    found: list[list[int]] = []

    def walk(row: int, chosen: list[int]) -> None:
        if len(found) >= MOST_EXTENSION_MATCHINGS:
            return
        if row == len(options):
            found.append(list(chosen))
            return
        for col in options[row]:
            if col not in chosen:
                chosen.append(col)
                walk(row + 1, chosen)
                chosen.pop()

    walk(0, [])
    return found


def _extensions_of(
    old: Meld, after: Sequence[Meld], allow_swap: bool, rules: Ruleset
) -> list[int]:
    """The melds after that extend ``old``, the one keeping it as it was first."""
    unchanged = _unchanged_key(old)
    return sorted(
        (col for col, new in enumerate(after) if _is_extension(old, new, allow_swap, rules)[0]),
        key=lambda col: _unchanged_key(after[col]) != unchanged,
    )


def _unused(after: Sequence[Meld], matched: Sequence[int]) -> list[Meld]:
    taken = set(matched)
    return [meld for index, meld in enumerate(after) if index not in taken]


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
            target for target in range(len(after))
            if weights[index][target] and _assignment_weight(weights, {index: target}) == best
        ]
        if _assignment_weight(weights, {index: -1}) == best:
            options[index].append(-1)
    failing = [index for index in pinned if not any(
        pins.hold({index: target}) for target in options[index]
    )]
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
        self, position: Position, after: Sequence[Meld], weights: list[list[int]],
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
                    cards = [
                        card for card in joker_cards_at(meld, self.rules) if card is not None
                    ]
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
                replaced = (target >= 0 and self.after[target].kind is MeldKind.RUN
                            and self.after_real[target][card] > 0)
                edges.append([
                    number for number, (where, there) in enumerate(self.spots)
                    if (replaced and where != target)
                    or (there == card and self.weights[index][where] > 0)
                ])
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
        total += sum(
            sub[i][j] for i, j in enumerate(max_weight_assignment(sub)) if j >= 0
        )
    return total


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
    """
    melds_after = [_as_meld(meld) for meld in table_after]
    cards_played = (
        parse_cards(played) if isinstance(played, str) else [_as_card(c) for c in played]
    )
    discarded = None if discard is None else _as_card(discard)
    rules = position.rules
    problems: list[str] = []
    hand = Counter(position.hand)
    played_counts = Counter(cards_played)
    missing = played_counts - hand
    for card in sorted(missing):
        problems.append(
            f"{card} is played {_count(played_counts[card], 'time')} but the hand holds "
            f"{hand[card]}"
        )
    hand_after = hand - played_counts

    for number, meld in enumerate(melds_after, start=1):
        problems.extend(
            f"meld {number} after the turn: {reason}" for reason in meld_problems(meld, rules)
        )

    before_counts = position.table_cards
    after_counts: Counter[Card] = Counter()
    for meld in melds_after:
        after_counts.update(meld.cards)
    # Decisions 1 and 4: the table may change only once the player has opened. A rearranging
    # preset's opener lays new melds only, unless the ruleset flag allows rearranging in the
    # opening turn; a lay-off preset's opener may lay off once the opening melds are down.
    opens_now = not position.opened and bool(played_counts)
    may_change_table = position.opened or (
        opens_now and (rules.open_and_rearrange_same_turn or not rules.rearrangement)
    )
    supplied = before_counts + played_counts
    appeared = after_counts - supplied
    vanished = supplied - after_counts
    jokers_to_hand = 0
    if appeared:
        problems.append(f"{_count(appeared.total(), 'card')} appeared on the table from "
                        f"nowhere: {_multiset_text(appeared)}")
    vanished_jokers = vanished.pop(JOKER, 0)
    if vanished:
        problems.append(f"{_count(vanished.total(), 'card')} vanished from the table: "
                        f"{_multiset_text(vanished)}")
    # Jokers that left the table go to the hand only in BFmania, one for each joker a card took
    # the place of (counted with the lay-offs below); the rest were never played.
    swapped = 0

    new_melds: list[Meld] = []
    if not may_change_table:
        problems.extend(_changed_before_opening(
            position, melds_after, "may only lay new melds from the hand"
        ))
        new_melds = _unmatched_unchanged(position.table, melds_after)
    elif not rules.rearrangement:
        allow_swap = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
        matched = _match_extensions(position.table, melds_after, allow_swap, rules)
        if opens_now and -1 not in matched:
            # With identical copies an old meld may be the one left as it was or the one laid
            # off on: the verdict takes the pairing that leaves the player an opening.
            # The new melds must also hold no more jokers than the hand laid (decision 4: a
            # joker swapped this turn joins no new meld), so that count chooses too.
            matched = next((
                choice for choice in _all_extension_matchings(
                    position.table, melds_after, allow_swap, rules)
                if _opens_from_hand(_unused(melds_after, choice), played_counts[JOKER], rules)
            ), matched)
        used = set()
        swapped = 0
        for number, (meld, target) in enumerate(zip(position.table, matched, strict=True), 1):
            if target < 0:
                problems.append(
                    f"meld {number} ({meld}) was rearranged: {rules.name} allows only lay-offs"
                    + (" and joker swaps" if allow_swap else "")
                )
            else:
                used.add(target)
                swapped += _is_extension(meld, melds_after[target], allow_swap, rules)[1]
        new_melds = _unused(melds_after, matched)
    else:
        if rules.table_joker is TableJoker.REPLACE_AND_RELAY:
            problems.extend(pinned_joker_problems(position, melds_after))
    if vanished_jokers:
        if rules.table_joker is TableJoker.SWAP_TO_HAND and may_change_table:
            jokers_to_hand = min(vanished_jokers, swapped)
            hand_after[JOKER] += jokers_to_hand
        table_jokers_gone = min(vanished_jokers - jokers_to_hand,
                                before_counts[JOKER] - jokers_to_hand)
        played_jokers_gone = vanished_jokers - jokers_to_hand - table_jokers_gone
        if played_jokers_gone or (table_jokers_gone and played_counts[JOKER]):
            problems.append(
                f"{_count(vanished_jokers - jokers_to_hand, 'joker')} said to be played "
                f"{'is' if vanished_jokers - jokers_to_hand == 1 else 'are'} not on the table"
            )
        elif table_jokers_gone:
            problems.append(
                f"{_count(table_jokers_gone, 'table joker')} went back to a hand: under "
                f"{rules.name} a joker on the table {rules.table_joker.value}"
                + (", and only in place of a card that took its place"
                   if rules.table_joker is TableJoker.SWAP_TO_HAND else "")
            )

    opened_after = position.opened
    if opens_now:
        if may_change_table and rules.rearrangement:
            # The opening melds may already be merged into the rearranged table: judge the
            # opening on the cards played from the hand (decision 1, same-turn flag).
            problems.extend(_opening_problems_from_cards(played_counts, rules))
        else:
            opening = _opening_problems(new_melds, rules)
            problems.extend(opening)
            if opening and may_change_table:
                problems.extend(_changed_before_opening(position, melds_after,
                                                        "lays off or swaps a joker only once "
                                                        "the opening melds are down"))
            new_jokers = sum(meld.jokers for meld in new_melds)
            if new_jokers > played_counts[JOKER]:
                problems.append(
                    f"the new melds hold {_count(new_jokers, 'joker')} but "
                    f"{played_counts[JOKER]} came "
                    "from the hand: the opening melds come from the hand, and a joker swapped "
                    "this turn does not join a new meld (decision 4)"
                )
        opened_after = True

    if rules.discard:
        problems.extend(_discard_problems(position, hand_after, discarded, played_counts))
        if discarded is not None and hand_after[discarded] > 0:
            hand_after[discarded] -= 1
    elif discarded is not None:
        problems.append(f"{rules.name} has no discard: a turn never ends by discarding")

    moved = cards_moved(position.table, melds_after) if not problems else 0
    hand_left = tuple(sorted(hand_after.elements()))
    return TurnVerdict(
        legal=not problems,
        problems=tuple(problems),
        hand_after=hand_left,
        penalty_after=hand_penalty(hand_left, rules, opened_after),
        cards_moved=moved,
        opened_after=opened_after,
    )


def _as_card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _as_meld(meld: Meld | str | Sequence[Card | str]) -> Meld:
    if isinstance(meld, Meld):
        return meld
    if isinstance(meld, str):
        return Meld.parse(meld)
    return Meld.of(_as_card(card) for card in meld)


def _changed_before_opening(
    position: Position, table_after: Sequence[Meld], rule: str
) -> list[str]:
    """The melds before the turn not found unchanged after it (decisions 1 and 4)."""
    remaining = [_unchanged_key(meld) for meld in table_after]
    problems = []
    for number, meld in enumerate(position.table, start=1):
        key = _unchanged_key(meld)
        if key in remaining:
            remaining.remove(key)
        else:
            problems.append(
                f"meld {number} ({meld}) changed before the player opened: before opening a "
                f"player {rule} (decisions 1 and 4)"
            )
    return problems


def _unmatched_unchanged(before: Sequence[Meld], after: Sequence[Meld]) -> list[Meld]:
    """The melds after the turn left once each meld before has taken its unchanged twin."""
    remaining = list(after)
    keys = [_unchanged_key(meld) for meld in remaining]
    for meld in before:
        key = _unchanged_key(meld)
        if key in keys:
            index = keys.index(key)
            del remaining[index], keys[index]
    return remaining


def _unchanged_key(meld: Meld) -> tuple[object, ...]:
    """What must stay equal for a meld to be untouched: a set's card order does not count."""
    cards = tuple(sorted(meld.cards)) if meld.kind is MeldKind.SET else meld.cards
    return (meld.kind, cards)


def _opens_from_hand(new_melds: Sequence[Meld], played_jokers: int, rules: Ruleset) -> bool:
    """Do these new melds make the opening, with no more jokers than the hand laid?"""
    return not _opening_problems(new_melds, rules) and (
        sum(meld.jokers for meld in new_melds) <= played_jokers)


def _opening_problems(new_melds: Sequence[Meld], rules: Ruleset) -> list[str]:
    problems = []
    valid = [meld for meld in new_melds if not meld_problems(meld, rules)]
    if rules.opening_any_meld and not valid:
        problems.append("opening needs at least one valid meld")
    if rules.opening_pure_run and not any(is_pure_run(meld) for meld in valid):
        problems.append(
            "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)"
        )
    if rules.opening_points:
        points = sum(opening_points(meld, rules) for meld in valid)
        if points < rules.opening_points:
            problems.append(
                f"opening counts {points} points: {rules.name} needs at least "
                f"{rules.opening_points}"
            )
    return problems


def _opening_problems_from_cards(played: Counter[Card], rules: Ruleset) -> list[str]:
    """Opening requirement met by some disjoint valid melds of the cards played from the hand.

    Used when the opening turn may also rearrange the table (``open_and_rearrange_same_turn``):
    the opening melds need not survive intact, so whether the played cards hold an opening is
    decided by an exact search.
    """
    problems = []
    if rules.opening_any_meld and not _can_open(played, rules, need_pure=False, target=1):
        problems.append("opening needs at least one valid meld")
    if rules.opening_pure_run and not _can_open(played, rules, need_pure=True, target=0):
        problems.append(
            "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)"
        )
    if rules.opening_points and not _can_open(
        played, rules, need_pure=rules.opening_pure_run, target=rules.opening_points
    ):
        problems.append(
            f"the cards played do not make {rules.opening_points} opening points"
            f"{' with a pure run' if rules.opening_pure_run else ''}: {rules.name} needs at "
            f"least {rules.opening_points}"
        )
    return problems


def _can_open(played: Counter[Card], rules: Ruleset, *, need_pure: bool, target: int) -> bool:
    """Do some disjoint valid melds of ``played`` count >= ``target`` opening points (and hold a
    pure run when ``need_pure``)? Branch and bound; ``target`` 1 asks for any meld at all."""
    top_joker = rules.opening_value(rules.top_rank)

    def bound(card: Card) -> int:
        if card.is_joker:
            return top_joker
        return rules.opening_value(14 if card.rank == 1 and rules.ace_high else card.rank)

    failed: dict[tuple[tuple[Card, ...], int, bool], int] = {}
    melds_cache: dict[tuple[object, ...], list[Meld]] = {}

    def search(real: tuple[Card, ...], jokers: int, pure_done: bool, points: int) -> bool:
        if points >= target and (pure_done or not need_pure) and (target > 0 or pure_done):
            return True
        if not real:
            return False
        key = (real, jokers, pure_done)
        if failed.get(key, -1) >= points:
            return False
        if points + sum(map(bound, real)) + jokers * top_joker < target:
            failed[key] = max(points, failed.get(key, -1))
            return False
        first, rest = real[0], Counter(real[1:])
        near = tuple(card for card in real[1:] if card.suit == first.suit or
                     card.rank == first.rank)
        cache_key = (first, near, jokers)
        if cache_key not in melds_cache:
            melds_cache[cache_key] = _melds_with(first, Counter(near), jokers, rules)
        for meld in melds_cache[cache_key]:
            used = Counter(meld.real_cards)
            used[first] -= 1  # a valid meld holds `first` once
            left = tuple(sorted((rest - used).elements()))
            if search(left, jokers - meld.jokers, pure_done or is_pure_run(meld),
                      points + opening_points(meld, rules)):
                return True
        if search(real[1:], jokers, pure_done, points):  # `first` stays out of the opening
            return True
        failed[key] = max(points, failed.get(key, -1))
        return False

    real = tuple(sorted(card for card in played.elements() if not card.is_joker))
    return search(real, played[JOKER], False, 0)


def _melds_with(first: Card, others: Counter[Card], jokers: int, rules: Ruleset) -> list[Meld]:
    """Every valid meld holding ``first``, other real cards from ``others``, <= ``jokers``."""
    melds: list[Meld] = []
    suit = first.suit
    assert suit is not None
    values = (1, 14) if first.rank == 1 and rules.ace_high else (first.rank,)
    for value in values:
        for length in range(3, rules.max_run_length + 1):
            last_start = min(value, rules.top_rank - length + 1)
            for start in range(max(1, value - length + 1), last_start + 1):
                slots: list[Card | None] = []
                optional: list[int] = []
                needed = 0
                for position in range(start, start + length):
                    if position == value:
                        slots.append(first)
                        continue
                    card = Card.of((position - 1) % 13 + 1, suit)
                    if others[card]:
                        optional.append(len(slots))
                        slots.append(card)
                    else:
                        needed += 1
                        slots.append(None)
                if needed > jokers:
                    continue
                for extra in range(jokers - needed + 1):
                    for chosen in combinations(optional, extra):
                        cards = tuple(
                            JOKER if card is None or index in chosen else card
                            for index, card in enumerate(slots)
                        )
                        meld = Meld(cards, MeldKind.RUN)
                        if not meld_problems(meld, rules):
                            melds.append(meld)
    other_suits = [
        card for card in (Card.of(first.rank, s) for s in range(4) if s != suit) if others[card]
    ]
    for size in range(len(other_suits) + 1):
        for chosen_cards in combinations(other_suits, size):
            for joker_count in range(min(jokers, 3 - size) + 1):
                total = 1 + size + joker_count
                if total < 3:
                    continue
                meld = Meld((first, *chosen_cards) + (JOKER,) * joker_count, MeldKind.SET)
                if not meld_problems(meld, rules):
                    melds.append(meld)
    return melds


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
