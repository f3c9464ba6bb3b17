"""A second referee, written from docs/rules.md alone, sharing no checking code with rami.referee.

It imports data types only (cards, rulesets, the position and the meld dataclass) and decides
everything else itself: meld validity, opening requirements, lay-offs and joker swaps, rami fou's
pinned jokers, the discard, and the cards moved of decision 7 (its own maximum-weight matching by
successive longest augmenting paths). The differential test asks it and the primary referee the
same questions: a mistake in one of them shows up as a disagreement.

``judge(position, table_after, played, discard)`` returns a :class:`Verdict` with the same field
meanings as ``rami.referee.TurnVerdict``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind
from rami.position import Position
from rami.rules import GoingOut, Ruleset, TableJoker

__all__ = [
    "Verdict",
    "all_max_matchings",
    "judge",
    "max_weight_matching",
    "meld_faults",
    "opening_value_of",
    "run_places",
]

SMALLEST_MELD = 3
LARGEST_SET = 4
LONGEST_RUN = 13
NO_SUIT = -1


@dataclass(frozen=True)
class Verdict:
    legal: bool
    problems: tuple[str, ...]
    hand_after: tuple[Card, ...]
    penalty_after: int
    cards_moved: int
    opened_after: bool


# --- Cards and melds ----------------------------------------------------------------------------


def _text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def _highest_place(rules: Ruleset) -> int:
    """Highest run place: 14 is the ace above the king (never in Rummikub)."""
    return 14 if rules.ace_high and not rules.tiles else 13


def _card_at(place: int, suit: int) -> Card:
    return Card.of(1 if place == 14 else place, suit)


def _real(cards: Sequence[Card]) -> list[Card]:
    return [card for card in cards if not card.is_joker]


def run_places(cards: Sequence[Card], rules: Ruleset) -> int | None:
    """The place (1..14) of the first card of ``cards`` read as a run, or None if they are not one.

    Only checks that the real cards are of one suit and sit at consecutive places in the order
    given, within 1..highest place; lengths are checked by :func:`meld_faults`.
    """
    top = _highest_place(rules)
    suit = NO_SUIT
    starts: set[int] | None = None
    for index, card in enumerate(cards):
        if card.is_joker:
            continue
        if suit == NO_SUIT:
            suit = int(card.suit)
        elif int(card.suit) != suit:
            return None
        places = (1, 14) if card.rank == 1 and top == 14 else (card.rank,)
        here = {place - index for place in places}
        starts = here if starts is None else starts & here
    if not starts:
        return None
    fitting = [start for start in starts if start >= 1 and start + len(cards) - 1 <= top]
    return min(fitting) if fitting else None


def _run_suit(meld: Meld) -> int:
    return int(_real(meld.cards)[0].suit)


def _run_cards(meld: Meld, rules: Ruleset) -> list[Card]:
    """The card each place of a valid run stands for (jokers included)."""
    start = run_places(meld.cards, rules)
    assert start is not None
    suit = _run_suit(meld)
    return [_card_at(start + index, suit) for index in range(len(meld.cards))]


def meld_faults(meld: Meld, rules: Ruleset) -> list[str]:
    """Why ``meld`` is not a legal meld under ``rules`` (empty when it is)."""
    cards = meld.cards
    real = _real(cards)
    jokers = len(cards) - len(real)
    text = _text(cards)
    faults: list[str] = []
    if not real:
        faults.append(f"{text}: a meld needs a real card")
        return faults
    if len(real) < rules.min_real_cards:
        faults.append(f"{text}: fewer than {rules.min_real_cards} real cards")
    if rules.naturals_at_least_jokers and jokers > len(real):
        faults.append(f"{text}: more jokers than natural cards")
    if meld.kind is MeldKind.RUN:
        if not SMALLEST_MELD <= len(cards) <= LONGEST_RUN:
            faults.append(f"{text}: a run has 3 to 13 cards")
        elif run_places(cards, rules) is None:
            faults.append(f"{text}: not a run of one suit in consecutive places")
    elif meld.kind is MeldKind.SET:
        if not SMALLEST_MELD <= len(cards) <= LARGEST_SET:
            faults.append(f"{text}: a set has 3 or 4 cards")
        if len({card.rank for card in real}) > 1:
            faults.append(f"{text}: a set holds one rank")
        if len({card.suit for card in real}) < len(real):
            faults.append(f"{text}: a set holds each suit once")
    else:  # pragma: no cover - MeldKind has two members
        faults.append(f"{text}: unknown meld kind {meld.kind!r}")
    return faults


def _valid(meld: Meld, rules: Ruleset) -> bool:
    return not meld_faults(meld, rules)


def _is_pure_run(meld: Meld) -> bool:
    return (
        meld.kind is MeldKind.RUN
        and len(meld.cards) >= SMALLEST_MELD
        and not any(card.is_joker for card in meld.cards)
    )


def opening_value_of(place: int, rules: Ruleset) -> int:
    """Opening points of a card at run place ``place`` (or of a set of that rank, 14 = ace)."""
    if rules.tiles:
        return place
    if place == 1:
        return 1
    if place == 14:
        return 11
    return min(place, 10)


def _meld_points(meld: Meld, rules: Ruleset) -> int:
    if meld.kind is MeldKind.SET:
        rank = _real(meld.cards)[0].rank
        place = 14 if rank == 1 and not rules.tiles else rank
        return len(meld.cards) * opening_value_of(place, rules)
    start = run_places(meld.cards, rules)
    assert start is not None
    return sum(opening_value_of(start + index, rules) for index in range(len(meld.cards)))


def _same_meld_key(meld: Meld) -> tuple[object, ...]:
    """A meld left untouched: same kind, same cards (a set's order does not count)."""
    if meld.kind is MeldKind.SET:
        return (MeldKind.SET, tuple(sorted(int(card) for card in meld.cards)))
    return (MeldKind.RUN, tuple(int(card) for card in meld.cards))


# --- Maximum-weight bipartite matching ----------------------------------------------------------


def max_weight_matching(weights: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """(best total, row -> column or -1) over matchings using only positive weights.

    Successive longest augmenting paths: the matching stays the heaviest of its size, and the
    best gain of an augmenting path never grows, so the search stops at the first path that
    gains nothing. Paths are found by Bellman-Ford over columns (no positive alternating cycle
    exists while the matching is the heaviest of its size).
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    col_of_row = [-1] * rows
    row_of_col = [-1] * cols
    total = 0
    while True:
        gain: list[int | None] = [None] * cols
        came_from = [-1] * cols
        for row in range(rows):
            if col_of_row[row] != -1:
                continue
            for col in range(cols):
                weight = weights[row][col]
                if weight > 0 and (gain[col] is None or weight > gain[col]):
                    gain[col] = weight
                    came_from[col] = row
        for _ in range(rows + cols + 1):
            changed = False
            for col in range(cols):
                owner = row_of_col[col]
                if gain[col] is None or owner == -1:
                    continue
                base = gain[col] - weights[owner][col]
                for other in range(cols):
                    weight = weights[owner][other]
                    if other == col or weight <= 0:
                        continue
                    if gain[other] is None or base + weight > gain[other]:
                        gain[other] = base + weight
                        came_from[other] = owner
                        changed = True
            if not changed:
                break
        best_col, best_gain = -1, 0
        for col in range(cols):
            if row_of_col[col] == -1 and gain[col] is not None and gain[col] > best_gain:
                best_col, best_gain = col, gain[col]
        if best_col < 0:
            return total, col_of_row
        # Walk the path back from its free column to its free row, then flip it.
        path: list[tuple[int, int]] = []
        col = best_col
        for _ in range(rows + 1):
            row = came_from[col]
            path.append((row, col))
            previous = col_of_row[row]
            if previous == -1:
                break
            col = previous
        else:  # pragma: no cover - would be a bug in the path search
            raise AssertionError("augmenting path does not reach a free row")
        for row, col in path:
            col_of_row[row] = col
            row_of_col[col] = row
        total += best_gain


def all_max_matchings(
    weights: Sequence[Sequence[int]], rows_of_interest: Sequence[int]
) -> set[tuple[int, ...]]:
    """Every maximum-weight matching (positive weights only), read on ``rows_of_interest``.

    Returns the distinct tuples (column or -1 for each row of interest, in that order).
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    best, _ = max_weight_matching(weights)
    row_best = [max((w for w in row if w > 0), default=0) for row in weights]
    still = [0] * (rows + 1)
    for row in range(rows - 1, -1, -1):
        still[row] = still[row + 1] + row_best[row]
    interest = set(rows_of_interest)
    order = {row: index for index, row in enumerate(rows_of_interest)}
    found: set[tuple[int, ...]] = set()
    seen: set[tuple[int, int, int, tuple[int, ...]]] = set()

    def walk(row: int, used: int, acc: int, picked: tuple[int, ...]) -> None:
        if acc + still[row] < best:
            return
        if row == rows:
            if acc == best:
                found.add(picked)
            return
        key = (row, used, acc, picked)
        if key in seen:
            return
        seen.add(key)
        mine = row in interest
        for col in range(cols):
            weight = weights[row][col]
            if weight > 0 and not used >> col & 1:
                walk(row + 1, used | 1 << col, acc + weight, (*picked, col) if mine else picked)
        walk(row + 1, used, acc, (*picked, -1) if mine else picked)

    walk(0, 0, 0, ())
    assert all(len(p) == len(order) for p in found)
    return found


def _shared(first: Counter[Card], second: Counter[Card]) -> int:
    return sum(min(count, second[card]) for card, count in first.items())


def _cards_moved(before: Sequence[Meld], after: Sequence[Meld]) -> int:
    """Decision 7: table cards that do not end in the meld matched to their own."""
    if not before:
        return 0
    after_counts = [Counter(meld.cards) for meld in after]
    weights = [[_shared(Counter(meld.cards), counts) for counts in after_counts] for meld in before]
    kept, _ = max_weight_matching(weights) if after else (0, [])
    return sum(len(meld.cards) for meld in before) - kept


# --- The opening requirement --------------------------------------------------------------------


def _opening_faults(melds: Sequence[Meld], rules: Ruleset) -> list[str]:
    """Point 4 of the spec, judged on ``melds`` (all valid)."""
    faults: list[str] = []
    if not melds:
        faults.append("no new meld is laid: a player not yet opened must open to play cards")
        return faults
    if rules.opening_pure_run and not any(_is_pure_run(meld) for meld in melds):
        faults.append("the opening holds no pure run (tierce franche)")
    if rules.opening_points > 0:
        points = sum(_meld_points(meld, rules) for meld in melds)
        if points < rules.opening_points:
            faults.append(f"the opening counts {points} points, {rules.opening_points} needed")
    return faults


def _melds_with_first(
    first: Card, others: Counter[Card], jokers: int, rules: Ruleset
) -> Iterator[Meld]:
    """Every valid meld holding ``first`` once, other real cards from ``others``, jokers <= n."""
    top = _highest_place(rules)
    suit = int(first.suit)
    places = (1, 14) if first.rank == 1 and top == 14 else (first.rank,)
    for place in places:
        for length in range(SMALLEST_MELD, LONGEST_RUN + 1):
            for start in range(max(1, place - length + 1), min(place, top - length + 1) + 1):
                choices: list[tuple[Card, ...]] = []
                for spot in range(start, start + length):
                    if spot == place:
                        choices.append((first,))
                        continue
                    card = _card_at(spot, suit)
                    choices.append((card, JOKER) if others[card] > 0 else (JOKER,))
                if sum(1 for choice in choices if choice == (JOKER,)) > jokers:
                    continue
                for cards in product(*choices):
                    if cards.count(JOKER) <= jokers:
                        meld = Meld(tuple(cards), MeldKind.RUN)
                        if _valid(meld, rules):
                            yield meld
    mates = [Card.of(first.rank, other) for other in range(4) if other != suit]
    mates = [card for card in mates if others[card] > 0]
    for mask in range(1 << len(mates)):
        chosen = [card for bit, card in enumerate(mates) if mask >> bit & 1]
        for extra in range(0, min(jokers, LARGEST_SET - 1 - len(chosen)) + 1):
            cards = (first, *chosen) + (JOKER,) * extra
            if len(cards) >= SMALLEST_MELD:
                meld = Meld(cards, MeldKind.SET)
                if _valid(meld, rules):
                    yield meld


def _cards_hold_opening(played: Counter[Card], rules: Ruleset) -> bool:
    """Do some disjoint valid melds of the played cards meet the opening requirement?"""
    impossible = -1
    memo: dict[tuple[tuple[Card, ...], int, bool, bool], int] = {}

    def best(real: tuple[Card, ...], jokers: int, need_pure: bool, need_meld: bool) -> int:
        """Most opening points of disjoint melds of these cards (-1 when the needs fail)."""
        if not real:
            return impossible if need_pure or need_meld else 0
        key = (real, jokers, need_pure, need_meld)
        if key in memo:
            return memo[key]
        first, rest = real[0], real[1:]
        result = best(rest, jokers, need_pure, need_meld)
        others = Counter(rest)
        for meld in _melds_with_first(first, others, jokers, rules):
            used = Counter(_real(meld.cards))
            used[first] -= 1
            left = tuple(sorted((others - used).elements()))
            tail = best(left, jokers - meld.jokers, need_pure and not _is_pure_run(meld), False)
            if tail != impossible:
                result = max(result, tail + _meld_points(meld, rules))
        memo[key] = result
        return result

    real = tuple(sorted(_real(list(played.elements()))))
    points = best(real, played[JOKER], rules.opening_pure_run, True)
    return points != impossible and points >= rules.opening_points


# --- Lay-offs and joker swaps -------------------------------------------------------------------


def _extension_swaps(before: Meld, after: Meld, rules: Ruleset, swaps_allowed: bool) -> int | None:
    """Jokers swapped out when ``after`` extends ``before`` (None when it does not extend it)."""
    if before.kind is not after.kind:
        return None
    if before.kind is MeldKind.SET:
        old = Counter(_real(before.cards))
        new = Counter(_real(after.cards))
        if old - new:
            return None
        swaps = max(0, before.jokers - after.jokers)
        if swaps and not swaps_allowed:
            return None
        gained = sum((new - old).values())  # real cards of suits the set lacked
        return swaps if swaps <= gained else None
    old_start = run_places(before.cards, rules)
    new_start = run_places(after.cards, rules)
    if old_start is None or new_start is None:
        return None
    suit = _run_suit(before)
    swaps = 0
    for index, card in enumerate(before.cards):
        spot = old_start + index - new_start
        if not 0 <= spot < len(after.cards):
            return None
        now = after.cards[spot]
        if card.is_joker:
            if now.is_joker:
                continue
            if now != _card_at(old_start + index, suit) or not swaps_allowed:
                return None
            swaps += 1
        elif now != card:
            return None
    return swaps


def _extension_matchings(
    before: Sequence[Meld], after: Sequence[Meld], rules: Ruleset, swaps_allowed: bool
) -> set[tuple[frozenset[int], int]]:
    """Every way to pair each meld before with a distinct meld after extending it: the set of
    (melds after used, jokers swapped out)."""
    options = [
        [
            (col, swaps)
            for col, new in enumerate(after)
            if (swaps := _extension_swaps(old, new, rules, swaps_allowed)) is not None
        ]
        for old in before
    ]
    found: set[tuple[frozenset[int], int]] = set()
    seen: set[tuple[int, frozenset[int], int]] = set()

    def walk(row: int, used: frozenset[int], swaps: int) -> None:
        if row == len(before):
            found.add((used, swaps))
            return
        key = (row, used, swaps)
        if key in seen:
            return
        seen.add(key)
        for col, more in options[row]:
            if col not in used:
                walk(row + 1, used | {col}, swaps + more)

    walk(0, frozenset(), 0)
    return found


def _opening_from_hand_faults(new: Sequence[Meld], played_jokers: int, rules: Ruleset) -> list[str]:
    """The new melds meet the opening requirement as they lie (point 4), and they come from the
    hand: they hold no more jokers than the hand played (decision 4: a joker swapped this turn
    goes on an old meld or to the hand, never into a new meld of the opening turn)."""
    faults = _opening_faults(new, rules)
    jokers = sum(meld.jokers for meld in new)
    if jokers > played_jokers:
        faults.append(
            f"the new melds hold {jokers} joker(s) but the hand played {played_jokers}: a joker "
            "swapped in the opening turn never joins a new meld (decision 4)"
        )
    return faults


def _layoff_faults(
    position: Position, after: Sequence[Meld], jokers_missing: int, played_jokers: int
) -> list[str]:
    """Point 3 of the spec: lay-offs, swaps, new melds and the opening for lay-off presets."""
    rules = position.rules
    swaps_allowed = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
    matchings = _extension_matchings(position.table, after, rules, swaps_allowed)
    if not matchings:
        return [
            "some meld of the table is not extended by a meld after the turn: "
            f"{rules.name} allows only lay-offs" + (" and joker swaps" if swaps_allowed else "")
        ]
    first_faults: list[str] | None = None
    for used, swaps in sorted(matchings, key=lambda item: (sorted(item[0]), item[1])):
        faults: list[str] = []
        if jokers_missing > swaps:
            faults.append(
                f"{jokers_missing} joker(s) left the table but only {swaps} were swapped out"
            )
        if not position.opened:
            new = [meld for index, meld in enumerate(after) if index not in used]
            faults.extend(_opening_from_hand_faults(new, played_jokers, rules))
        if not faults:
            return []
        if first_faults is None:
            first_faults = faults
    assert first_faults is not None
    return first_faults


# --- Rami fou's pinned jokers -------------------------------------------------------------------


def _pin_faults(before: Sequence[Meld], after: Sequence[Meld], rules: Ruleset) -> list[str]:
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
            for card, stands in zip(meld.cards, _run_cards(meld, rules), strict=True):
                if card.is_joker:
                    table_jokers.append((row, ("run", int(stands))))
        else:
            rank = _real(meld.cards)[0].rank
            suits_before[row] = {int(card.suit) for card in _real(meld.cards)}
            table_jokers.extend((row, ("set", rank)) for _ in range(meld.jokers))
    places: list[tuple[int, tuple[str, int]]] = []
    for col, meld in enumerate(after):
        if meld.kind is MeldKind.RUN:
            for card, stands in zip(meld.cards, _run_cards(meld, rules), strict=True):
                if card.is_joker:
                    places.append((col, ("run", int(stands))))
        else:
            rank = _real(meld.cards)[0].rank
            places.extend((col, ("set", rank)) for _ in range(meld.jokers))
    if len(places) < len(table_jokers):  # pragma: no cover - card conservation says otherwise
        return ["a table joker left the table"]
    after_real = [Counter(_real(meld.cards)) for meld in after]
    weights = [
        [_shared(Counter(_real(meld.cards)), counts) for counts in after_real] for meld in before
    ]

    def replacements(row: int, col: int) -> int:
        """How many jokers of meld ``row`` may be freed by real cards in meld ``col``."""
        meld, target = before[row], after[col]
        if meld.kind is MeldKind.SET:
            rank = _real(meld.cards)[0].rank
            if target.kind is not MeldKind.SET or _real(target.cards)[0].rank != rank:
                return 0
            return sum(1 for card in _real(target.cards) if int(card.suit) not in suits_before[row])
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


# --- The whole turn -----------------------------------------------------------------------------


def _discard_faults(
    position: Position, hand_after: Counter[Card], discard: Card | None
) -> list[str]:
    rules = position.rules
    left = sum(hand_after.values())
    if not rules.discard:
        return [] if discard is None else [f"{rules.name} has no discard"]
    if discard is None:
        if left == 0 and rules.going_out is GoingOut.PLACE_OR_DISCARD:
            return []
        if left == 0:
            return [f"{rules.name}: a turn ends with a discard, so a card must be kept for it"]
        return [f"{rules.name}: the turn must end with a discard"]
    if hand_after[discard] == 0:
        return [f"the discard {discard} is not in the hand after playing"]
    faults = []
    last = left == 1
    locked = getattr(rules, "taken_discard_locked", True)
    if (
        locked
        and position.taken_discard is not None
        and discard == position.taken_discard
        and not last
    ):
        faults.append(f"{discard} was just taken from the discard pile (decision 8)")
    if rules.joker_kept_until_last and discard.is_joker and not last:
        faults.append(f"{rules.name}: a joker is discarded only as the last card")
    return faults


def judge(
    position: Position,
    table_after: Sequence[Meld],
    played: Sequence[Card],
    discard: Card | None = None,
) -> Verdict:
    """Judge one turn: the table after it, the cards played from the hand, the discard."""
    rules = position.rules
    before = tuple(position.table)
    after = tuple(table_after)
    problems: list[str] = []

    hand = Counter(position.hand)
    played_counts = Counter(played)
    for card, count in sorted(played_counts.items()):
        if count > hand[card]:
            problems.append(f"{card} played {count} time(s), the hand holds {hand[card]}")
    hand_after = hand - played_counts

    all_valid = True
    for number, meld in enumerate(after, start=1):
        faults = meld_faults(meld, rules)
        if faults:
            all_valid = False
            problems.extend(f"meld {number} after: {fault}" for fault in faults)

    played_any = bool(played_counts)
    if rules.rearrangement:
        # Decision 1: the table changes once opened, or in the opening turn with the flag.
        may_change = position.opened or (rules.open_and_rearrange_same_turn and played_any)
    else:
        # Decision 4: lay-offs and swaps in the opening turn once the opening melds are down.
        may_change = position.opened or played_any

    before_counts: Counter[Card] = Counter()
    for meld in before:
        before_counts.update(meld.cards)
    after_counts: Counter[Card] = Counter()
    for meld in after:
        after_counts.update(meld.cards)
    supplied = before_counts + played_counts
    appeared = after_counts - supplied
    vanished = supplied - after_counts
    jokers_missing = vanished.pop(JOKER, 0)
    if appeared:
        problems.append(f"card(s) appeared on the table: {_text(sorted(appeared.elements()))}")
    if vanished:
        problems.append(f"card(s) vanished from the table: {_text(sorted(vanished.elements()))}")
    if jokers_missing:
        if rules.table_joker is TableJoker.SWAP_TO_HAND and may_change:
            if jokers_missing > before_counts[JOKER]:
                problems.append("a joker said to be played is not on the table")
            else:
                hand_after[JOKER] += jokers_missing  # checked against the swaps below
        else:
            problems.append(
                f"{jokers_missing} joker(s) left the table: under {rules.name} no joker goes "
                "from the table to a hand"
            )

    opened_after = position.opened
    if not may_change:
        # The table stays as it is; the other melds after are new melds from the hand.
        left = Counter(_same_meld_key(meld) for meld in after)
        changed = Counter(_same_meld_key(meld) for meld in before) - left
        if changed:
            problems.append(
                "a meld of the table changed before the player may change the table "
                "(decisions 1 and 4)"
            )
        if played_any:
            # Not opened (an opened player may always change the table): every meld left as
            # it was is one of the table's; the others are the new melds, from the hand.
            unmatched = Counter(_same_meld_key(meld) for meld in before)
            new = []
            for meld in after:
                key = _same_meld_key(meld)
                if unmatched[key] > 0:
                    unmatched[key] -= 1
                else:
                    new.append(meld)
            if all_valid:
                problems.extend(_opening_faults(new, rules))
            opened_after = True
    elif rules.rearrangement:
        if not position.opened:
            if not _cards_hold_opening(played_counts, rules):
                problems.append("the cards played hold no opening (decision 1 flag)")
            opened_after = True
        if (
            rules.table_joker is TableJoker.REPLACE_AND_RELAY
            and all_valid
            and not appeared
            and not vanished
            and not jokers_missing
        ):
            problems.extend(_pin_faults(before, after, rules))
    else:
        if all_valid:
            problems.extend(_layoff_faults(position, after, jokers_missing, played_counts[JOKER]))
        if not position.opened:
            opened_after = True

    problems.extend(_discard_faults(position, hand_after, discard))
    if discard is not None and rules.discard and hand_after[discard] > 0:
        hand_after[discard] -= 1

    legal = not problems
    hand_left = tuple(sorted(hand_after.elements()))
    if not opened_after and rules.unopened_flat_penalty is not None:
        penalty = rules.unopened_flat_penalty
    else:
        penalty = sum(rules.card_penalty(card.rank) for card in hand_left)
    return Verdict(
        legal=legal,
        problems=tuple(problems),
        hand_after=hand_left,
        penalty_after=penalty,
        cards_moved=_cards_moved(before, after) if legal else 0,
        opened_after=opened_after,
    )
