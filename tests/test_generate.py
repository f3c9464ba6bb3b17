"""The seeded position generator: deterministic, always valid, exact card counts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rami.generate import medium_position, random_position, small_position
from rami.melds import MeldKind, stands_for
from rami.position import Position
from rami.rules import PRESETS, get_ruleset

RULESETS = [
    "rami-chinois",
    "rami-chinois[jokers=0]",
    "rummikub",
    "rami-fou",
    "bfmania-51",
    "cafe-rummy",
]


def _jokers(position: Position) -> int:
    return sum(meld.jokers for meld in position.table) + sum(c.is_joker for c in position.hand)


def test_same_seed_same_position() -> None:
    rules = PRESETS["rami-chinois"]
    for seed in range(20):
        first = random_position(
            random.Random(seed), rules=rules, table_cards=20, hand_cards=8, jokers=4
        )
        again = random_position(
            random.Random(seed), rules=rules, table_cards=20, hand_cards=8, jokers=4
        )
        assert str(first) == str(again)
        assert first == again
        assert str(small_position(random.Random(seed), rules)) == str(
            small_position(random.Random(seed), rules)
        )


def test_different_seeds_differ() -> None:
    rules = PRESETS["rami-chinois"]
    texts = {
        str(
            random_position(
                random.Random(seed), rules=rules, table_cards=15, hand_cards=6, jokers=2
            )
        )
        for seed in range(30)
    }
    assert len(texts) == 30


def test_no_global_random_state_is_used() -> None:
    random.seed(1)
    before = random.random()
    random.seed(1)
    random_position(
        random.Random(5), rules=PRESETS["rummikub"], table_cards=12, hand_cards=4, jokers=2
    )
    assert random.random() == before


@pytest.mark.parametrize("rules_name", RULESETS)
def test_valid_positions_with_exact_card_counts(rules_name: str) -> None:
    rules = get_ruleset(rules_name)
    rng = random.Random(rules_name)
    for _ in range(300):
        table_cards = rng.choice([0, 3, 4, 5, 6, 7, 9, 12, 17, 25, 40, 60])
        hand_cards = rng.randint(0, 14)
        jokers = rng.randint(0, rules.jokers)
        opened = rng.random() < 0.5
        position = random_position(
            rng,
            rules=rules,
            table_cards=table_cards,
            hand_cards=hand_cards,
            jokers=jokers,
            opened=opened,
        )
        assert position.problems() == [], str(position)
        assert sum(len(meld) for meld in position.table) == table_cards
        assert len(position.hand) == hand_cards
        assert _jokers(position) <= jokers
        assert position.opened is opened
        assert position.rules == rules
        # The text notation round-trips (kind markers for one-real-card melds included).
        assert Position.parse(str(position)) == position


@pytest.mark.parametrize("rules_name", ["rami-chinois", "rami-chinois[jokers=0]", "rummikub"])
def test_small_positions(rules_name: str) -> None:
    rules = get_ruleset(rules_name)
    rng = random.Random(rules_name)
    opened = Counter()
    with_jokers = 0
    for _ in range(500):
        position = small_position(rng, rules)
        assert position.problems() == [], str(position)
        assert 3 <= sum(len(meld) for meld in position.table) <= 9
        assert 1 <= len(position.hand) <= 5
        assert _jokers(position) <= min(3, rules.jokers)
        opened[position.opened] += 1
        with_jokers += _jokers(position) > 0
    assert opened[True] > 100 and opened[False] > 50
    if rules.jokers:
        assert with_jokers > 100
    else:
        assert with_jokers == 0


def test_medium_positions_are_valid() -> None:
    for name in ("rami-chinois", "rummikub"):
        rules = get_ruleset(name)
        rng = random.Random(name)
        for _ in range(100):
            position = medium_position(rng, rules)
            assert position.problems() == [], str(position)
            assert 9 <= sum(len(meld) for meld in position.table) <= 13
            assert 3 <= len(position.hand) <= 6


def test_realistic_mix_of_melds() -> None:
    """Runs and sets, 3- and 4-card sets, long runs, Q-K-A where the rules allow it."""
    kinds: Counter[str] = Counter()
    for name in ("rami-chinois", "rummikub"):
        rules = get_ruleset(name)
        rng = random.Random(name)
        for _ in range(200):
            position = random_position(rng, rules=rules, table_cards=30, hand_cards=5, jokers=2)
            for meld in position.table:
                if meld.kind is MeldKind.SET:
                    kinds[f"set{len(meld)}"] += 1
                    continue
                kinds["run"] += 1
                if len(meld) >= 6:
                    kinds["long run"] += 1
                if stands_for(meld, rules)[-1] == 14:
                    kinds[f"ace high {name}"] += 1
    assert kinds["set3"] > 50 and kinds["set4"] > 50 and kinds["run"] > 500
    assert kinds["long run"] > 50
    assert kinds["ace high rami-chinois"] > 10
    assert kinds["ace high rummikub"] == 0


def test_hand_cards_connect_to_the_table_in_small_positions() -> None:
    """Small positions are biased so that many hand cards can be played."""
    from support.reference import reference_solve

    rng = random.Random(7)
    played = 0
    for _ in range(200):
        position = small_position(rng, PRESETS["rami-chinois"], opened=True)
        played += reference_solve(position).cards_played > 0
    assert played > 60


@pytest.mark.parametrize(
    ("table_cards", "hand_cards", "jokers"), [(1, 3, 0), (2, 3, 0), (6, -1, 0), (6, 3, 5)]
)
def test_impossible_requests_are_refused(table_cards: int, hand_cards: int, jokers: int) -> None:
    with pytest.raises(ValueError):
        random_position(
            random.Random(0),
            rules=PRESETS["rami-chinois"],
            table_cards=table_cards,
            hand_cards=hand_cards,
            jokers=jokers,
        )
