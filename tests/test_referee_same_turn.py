"""The turn referee (rami.referee.validate_turn) under docs/rules.md decision 1's flag,
rearranging in the opening turn: what it allows and needs, the opening points from the hand, and
the exact search of an opening in the cards played, against a brute force."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.referee_turns import illegal, legal, turn

from rami.cards import JOKER, Card, Suit, format_cards, parse_cards
from rami.melds import Meld, MeldKind, is_pure_run, meld_problems, opening_points
from rami.referee.opening import opening_problems_from_cards
from rami.rules import get_ruleset


def test_decision_1_flag_allows_rearranging_in_the_opening_turn():
    """docs/rules.md decision 1: a ruleset flag allows rearranging in the same turn as opening."""
    after = ["2S 3S 4S 5S 6S 7S", "QH KH AH"]
    played = "2S 3S 4S"
    without = "5S 6S 7S / 2S 3S 4S QH KH AH / rami-chinois"
    illegal(turn(without, after, played + " QH KH AH"), "changed before the player opened")
    flag = "5S 6S 7S / 2S 3S 4S QH KH AH / rami-chinois[open_and_rearrange_same_turn=true]"
    verdict = legal(turn(flag, after, played + " QH KH AH"))
    assert verdict.opened_after and verdict.cards_moved == 0
    # The opening itself is still required: no pure run among the cards played.
    illegal(
        turn(
            "5S 6S 7S / 2S * 4S / rami-chinois[open_and_rearrange_same_turn=true]",
            ["2S * 4S 5S 6S 7S"],
            "2S * 4S",
        ),
        "opening needs a pure run",
    )


def test_decision_1_flag_needs_an_opening_to_rearrange():
    """docs/rules.md decision 1 flag: rearranging without laying anything is still rearranging
    before
    opening."""
    illegal(
        turn(
            "7H 8H 9H TH | JH QH KH / 5D / rami-chinois[open_and_rearrange_same_turn=true]",
            ["7H 8H 9H", "TH JH QH KH"],
        ),
        "changed before the player opened",
    )


def test_decision_1_flag_opening_points_come_from_the_hand():
    """docs/rules.md rummikub: first meld >= 30 points from the hand, even when merged at once."""
    rules = "rummikub[open_and_rearrange_same_turn=true]"
    # JH QH KH (36) from the hand, laid and merged into the table run at once.
    legal(turn(f"8H 9H TH / JH QH KH 2C / {rules}", ["8H 9H TH JH QH KH"], "JH QH KH"))
    # 8H 9H TH on the table do not count for the opening: the hand gives JH QH only.
    illegal(
        turn(f"8H 9H TH / JH QH 2C / {rules}", ["8H 9H TH JH QH"], "JH QH"),
        "the cards played do not make 30 opening points: rummikub needs at least 30",
    )
    illegal(
        turn(
            "4D 5D 6D / KS KD KC 6S 2C / rami-fou[open_and_rearrange_same_turn=true]",
            ["4D 5D 6D", "KS KD KC"],
            "KS KD KC",
            "2C",
        ),
        "the cards played do not make 51 opening points",
    )


# --- The opening with rearrangement: exact search against brute force --------------------------


def best_from_played(cards: tuple[Card, ...], rules) -> tuple[bool, bool, int, int]:
    """Brute force: over every packing of disjoint groups of the cards, each group laid out in
    every order as a run or a set: (any meld, a pure run, most points, most points with a pure
    run, -1 when there is none)."""
    layouts: dict[tuple[Card, ...], list[tuple[int, bool]]] = {}

    def options(group: tuple[Card, ...]) -> list[tuple[int, bool]]:
        if group not in layouts:
            found = set()
            for order in set(permutations(group)):
                for kind in MeldKind:
                    meld = Meld(order, kind)
                    if not meld_problems(meld, rules):
                        found.add((opening_points(meld, rules), is_pure_run(meld)))
            layouts[group] = sorted(found)
        return layouts[group]

    results: set[tuple[bool, bool, int]] = set()

    def walk(remaining: tuple[Card, ...], melds: int, pure: bool, points: int) -> None:
        results.add((melds > 0, pure, points))
        reals = [card for card in remaining if not card.is_joker]
        if not reals:
            return
        first = min(reals)
        rest = list(remaining)
        rest.remove(first)
        walk(tuple(rest), melds, pure, points)  # `first` stays out of the opening
        for size in range(2, len(rest) + 1):
            for others in set(combinations(rest, size)):
                left = list(rest)
                for card in others:
                    left.remove(card)
                for group_points, group_pure in options(tuple(sorted((first, *others)))):
                    walk(tuple(left), melds + 1, pure or group_pure, points + group_points)

    walk(tuple(sorted(cards)), 0, False, 0)
    any_meld = any(flag for flag, _, _ in results)
    pure_run = any(pure for _, pure, _ in results)
    best = max(points for _, _, points in results)
    best_pure = max((points for _, pure, points in results if pure), default=-1)
    return any_meld, pure_run, best, best_pure


HIGH = (9, 10, 11, 12, 13, 1)  # runs of these ranks may use the high ace


@st.composite
def played_cards(draw) -> list[Card]:
    """Cards likely to hold melds (short runs and sets of high cards, some jokers) plus a few
    low cards that fit nothing, so that leaving cards out of the opening matters."""
    cards: list[Card] = []
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            suit = draw(st.sampled_from([Suit.SPADES, Suit.HEARTS]))
            start = draw(st.integers(0, len(HIGH) - 3))
            group = [Card.of(rank, suit) for rank in HIGH[start : start + 3]]
        else:
            rank = draw(st.sampled_from(HIGH))
            group = [Card.of(rank, suit) for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)]
        if draw(st.booleans()):
            group[draw(st.integers(0, 2))] = JOKER
        cards.extend(group)
    noise = st.sampled_from([Card.of(rank, suit) for rank in (2, 5, 9, 12, 1) for suit in Suit])
    cards.extend(draw(st.lists(noise | st.just(JOKER), max_size=6 - len(cards))))
    return cards


@settings(max_examples=120, deadline=None)
@given(
    st.sampled_from(["rami-fou", "rummikub", "rami-chinois", "rami-51", "cafe-rummy"]),
    played_cards(),
)
def test_property_same_turn_opening_matches_brute_force(name, cards):
    """Decision 1 flag: whether the cards played hold an opening (a pure run; enough points;
    both; any meld) is decided exactly, checked against a brute force."""
    rules = get_ruleset(f"{name}[open_and_rearrange_same_turn=true]")
    counts = Counter(cards)
    assume(counts[JOKER] <= rules.jokers and all(n <= 2 for n in counts.values()))
    any_meld, pure_run, best, best_pure = best_from_played(tuple(cards), rules)
    if rules.opening_any_meld:
        expected = any_meld
    elif rules.opening_pure_run and rules.opening_points:
        expected = best_pure >= rules.opening_points
    elif rules.opening_pure_run:
        expected = pure_run
    else:
        expected = best >= rules.opening_points
    problems = opening_problems_from_cards(counts, rules)
    assert (not problems) is expected, (format_cards(sorted(cards)), problems, best, best_pure)


def test_same_turn_opening_known_answers():
    """docs/rules.md decision 1 flag + presets opening requirement: known answers of the exact
    opening
    search (rami-51: 51 points incl. a pure run)."""
    rules = get_ruleset("rami-51[open_and_rearrange_same_turn=true]")
    assert opening_problems_from_cards(Counter(parse_cards("QH KH AH QS QD *")), rules) == []
    # 2S (the first card in order) fits no meld and stays out; 8S too.
    chinois = get_ruleset("rami-chinois[open_and_rearrange_same_turn=true]")
    assert opening_problems_from_cards(Counter(parse_cards("2S 8S QH KH AH")), chinois) == []
    fou = get_ruleset("rami-fou[open_and_rearrange_same_turn=true]")
    assert opening_problems_from_cards(Counter(parse_cards("2S AS AH AD KS KH KD")), fou) == []
    assert opening_problems_from_cards(Counter(parse_cards("QH KH * QS QD *")), rules) == [
        "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)",
        "the cards played do not make 51 opening points with a pure run: rami-51 needs at least 51",
    ]
