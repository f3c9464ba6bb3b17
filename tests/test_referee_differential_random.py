"""Differential test of the two referees: rami.referee.validate_turn (the primary, which every
solver asks) against tests/support/second_referee.judge (written from the rules alone, sharing no
code with it).

For random small positions of every preset (opened or not, jokers on the table and in the hand,
the card just taken from the discard pile named, sometimes with its twin in the hand), the
solver's answer and its near-legal mutations (tests/support/mutations.py) are judged by both
referees. They must agree on legal; where both say legal, on the hand penalty after the turn and
the cards moved (decision 7). The solver's own answer must be legal under the second referee too.

The default run compares several thousand turns; ``make test-slow`` (``pytest -m slow``) runs
a larger one (over 100,000 turns).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import pytest
from support.differential import compare, describe
from support.mutations import mutations
from support.second_referee import judge

from rami.cards import JOKER, Card
from rami.errors import IllegalTurnError
from rami.generate import medium_position, random_position, small_position
from rami.melds import Meld
from rami.position import Position
from rami.rules import Ruleset, get_ruleset

RULESETS = [
    "rami-chinois",
    "rami-chinois[jokers=0]",
    "rami-chinois[open_and_rearrange_same_turn=true]",
    "rami-fou",
    "rami-51",
    "bfmania-51",
    "bfmania-51[opening_pure_run=false]",
    "bfmania-30",
    "cafe-rummy",
    "rummikub",
    "rummikub[open_and_rearrange_same_turn=true]",
]


@dataclass
class Report:
    """What a batch of comparisons found."""

    turns: int = 0
    positions: int = 0
    disagreements: list[str] = field(default_factory=list)
    solver_illegal: list[str] = field(default_factory=list)
    solver_errors: list[str] = field(default_factory=list)

    def failures(self) -> list[str]:
        return self.disagreements + self.solver_illegal + self.solver_errors


def solver_turn(
    position: Position, report: Report, time_limit: float
) -> tuple[tuple[Meld, ...], tuple[Card, ...], Card | None]:
    """The solver's answer, or passing when it finds no legal turn (or fails)."""
    from rami import solve

    passing = (position.table, (), None)
    if position.rules.discard and position.hand:
        passing = (position.table, (), max(position.hand))
    objective = "cards" if len(position.hand) % 3 == 0 else "points"
    try:
        solution = solve(position, objective=objective, min_moves=False, time_limit=time_limit)
    except IllegalTurnError:
        return passing
    except Exception as error:  # the solver's own check (SolverBugError) or a crash
        report.solver_errors.append(f"position: {position}\n  solver: {error!r}"[:1500])
        return passing
    turn = (tuple(solution.table), tuple(solution.played), solution.discard)
    verdict = judge(position, *turn)
    if not verdict.legal:
        report.solver_illegal.append(
            describe(position, *turn) + f"\n  second referee: {list(verdict.problems)}"
        )
    elif verdict.penalty_after != solution.penalty_after:
        report.solver_illegal.append(
            describe(position, *turn)
            + f"\n  solver penalty {solution.penalty_after}, second {verdict.penalty_after}"
        )
    return turn


def check_position(
    position: Position,
    rng: random.Random,
    report: Report,
    *,
    mutations_per_turn: int,
    time_limit: float = 5.0,
) -> None:
    table, played, discard = solver_turn(position, report, time_limit)
    report.positions += 1
    for variant in mutations(position, table, played, discard, rng, limit=mutations_per_turn):
        report.turns += 1
        found = compare(position, *variant)
        if found is not None:
            report.disagreements.append(found)


# --- Positions ----------------------------------------------------------------------------------


def _deck_left(position: Position) -> Counter[Card]:
    deck = Counter({Card(index): 2 for index in range(52)})
    deck[JOKER] = position.rules.jokers
    deck.subtract(position.table_cards)
    deck.subtract(position.hand)
    return deck


def with_table_jokers(rng: random.Random, position: Position, wanted: int) -> Position:
    """Replace real table cards by jokers (each meld keeps two real cards) up to ``wanted``
    table jokers, as the preset's jokers allow."""
    rules = position.rules
    table = list(position.table)
    for _ in range(wanted):
        if (
            sum(meld.jokers for meld in table) >= wanted
            or _deck_left(replace(position, table=tuple(table)))[JOKER] <= 0
        ):
            break
        spots = [
            (m, i)
            for m, meld in enumerate(table)
            for i, card in enumerate(meld.cards)
            if not card.is_joker
            and len(meld.real_cards) > max(2, rules.min_real_cards)
            and not (rules.naturals_at_least_jokers and meld.jokers + 1 > len(meld.real_cards) - 1)
        ]
        if not spots:
            break
        m, i = rng.choice(spots)
        cards = list(table[m].cards)
        cards[i] = JOKER
        table[m] = Meld(tuple(cards), table[m].kind)
    changed = replace(position, table=tuple(table))
    return changed if not changed.problems() else position


def with_taken_discard(rng: random.Random, position: Position) -> Position:
    """Name the card just taken from the discard pile in a third of the positions, and give the
    hand its twin in some of them (decision 8 locks both copies)."""
    if not position.rules.discard or not position.hand or rng.random() > 0.35:
        return position
    taken = rng.choice(position.hand)
    hand = position.hand
    if rng.random() < 0.4 and not taken.is_joker and _deck_left(position)[taken] > 0:
        hand = (*hand, taken)
    changed = replace(position, hand=hand, taken_discard=taken)
    return changed if not changed.problems() else position


def opening_position(rng: random.Random, rules: Ruleset, max_hand: int = 8) -> Position:
    """A player not opened holding high runs and sets, so that openings are often just made or
    just missed; sometimes cards that lay off on the table too."""
    base = random_position(
        rng,
        rules=rules,
        table_cards=rng.choice((0, 3, 4, 5, 6)),
        hand_cards=0,
        jokers=rng.randint(0, min(2, rules.jokers)),
        opened=False,
    )
    deck = _deck_left(base)
    hand: list[Card] = []

    def take(card: Card) -> None:
        if deck[card] > 0 and len(hand) < max_hand:
            deck[card] -= 1
            hand.append(card)

    if rng.random() < 0.7:
        suit = rng.randrange(4)
        low = rng.randint(7, 12)
        for place in range(low, min(14, low + rng.choice((2, 2, 3))) + 1):
            take(Card.of(1 if place == 14 else place, suit))
    if rng.random() < 0.6:
        rank = rng.choice((1, 9, 10, 11, 12, 13, rng.randint(2, 8)))
        for suit in rng.sample(range(4), rng.choice((2, 3, 3, 4))):
            take(Card.of(rank, suit))
    for meld in base.table:  # a card that lays off, or the card a table joker stands for
        if rng.random() < 0.4:
            take(
                rng.choice(
                    [
                        c
                        for c in (Card(i) for i in range(52))
                        if any(
                            (c.suit == r.suit and abs(c.rank - r.rank) <= 1) or c.rank == r.rank
                            for r in meld.real_cards
                        )
                    ]
                )
            )
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        take(JOKER)
    size = rng.randint(max(len(hand), 3), max_hand)
    while len(hand) < size:
        take(rng.choice(sorted(deck.elements())))
    return Position(base.table, tuple(hand), False, rules)


def random_positions(rng: random.Random, rules: Ruleset, count: int) -> Iterable[Position]:
    for _ in range(count):
        roll = rng.random()
        if roll < (0.08 if rules.rearrangement else 0.2):
            position = opening_position(rng, rules)
        elif roll < 0.3:
            position = medium_position(rng, rules)
        else:
            position = small_position(rng, rules, max_jokers=rules.jokers)
        if rules.table_joker.name == "REPLACE_AND_RELAY" and rng.random() < 0.8:
            position = with_table_jokers(rng, position, rng.randint(1, 3))
        elif rules.jokers and rng.random() < 0.3:
            position = with_table_jokers(rng, position, rng.randint(1, 2))
        yield with_taken_discard(rng, position).checked()


def run_batch(rules_name: str, positions: int, mutations_per_turn: int, seed: str) -> Report:
    rules = get_ruleset(rules_name)
    rng = random.Random(seed)
    report = Report()
    for position in random_positions(rng, rules, positions):
        check_position(position, rng, report, mutations_per_turn=mutations_per_turn)
    return report


def assert_clean(report: Report) -> None:
    failures = report.failures()
    assert not failures, (
        f"{len(report.disagreements)} disagreement(s), {len(report.solver_illegal)} solver "
        f"answer(s) illegal under the second referee, {len(report.solver_errors)} solver "
        f"error(s) in {report.turns} turns of {report.positions} positions; first ones:\n"
        + "\n".join(failures[:8])
    )


@pytest.mark.parametrize("rules_name", RULESETS)
def test_solver_answers_and_mutations(rules_name: str) -> None:
    """100 positions per preset, up to 25 turns each (about 27,000 turns in all)."""
    report = run_batch(
        rules_name, positions=100, mutations_per_turn=25, seed=f"referee differential {rules_name}"
    )
    assert report.turns >= 2_000
    assert_clean(report)


@pytest.mark.slow
@pytest.mark.parametrize("rules_name", RULESETS)
def test_many_solver_answers_and_mutations(rules_name: str) -> None:
    """Over 100,000 turns in all: 400 positions per preset, up to 30 turns each."""
    report = run_batch(
        rules_name,
        positions=400,
        mutations_per_turn=30,
        seed=f"slow referee differential {rules_name}",
    )
    assert report.turns >= 9_500
    assert_clean(report)
