"""Pictures of solutions (rami.svg): valid SVG, every card drawn once, marks that tell the turn
(the cards played, the cards moved as the referee counts them), melds numbered as the move list
says, which copy came from the hand; on the demo, more and random positions, and a turn with
nothing played."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from support.pictures import (
    DEMO,
    MORE_POSITIONS,
    all_cards,
    card_groups,
    cards_drawn,
    desc,
    marked,
    meld_groups,
    parse,
    texts,
)

import rami
from rami import svg
from rami.cards import Card, parse_cards
from rami.generate import medium_position, small_position
from rami.matching import cards_moved
from rami.notation import parse_position, parse_table
from rami.rules import get_ruleset
from rami.solver.api import Move, Objective, Solution, Status


@pytest.fixture(scope="module")
def demo_solution() -> Solution:
    return rami.solve(DEMO)


def _check_solution(solution: Solution) -> ET.Element:
    position = solution.position
    root = parse(svg.solution(solution, position))
    text = desc(root)
    assert str(position) in text
    discard = Counter([solution.discard] if solution.discard is not None else [])
    assert cards_drawn(root) == all_cards(position)
    assert cards_drawn(root, "hand") == Counter(solution.hand)
    assert cards_drawn(root, "discard") == discard
    table = Counter(card for laid in solution.table for card in laid.cards)
    assert cards_drawn(root, "table") == table
    assert marked(root, "played") == Counter(solution.played)
    assert not any(g.get("data-mark") for g in card_groups(root) if g.get("data-place") != "table")
    # Marked cards are exactly those not in the meld they started in (the referee's matching).
    if table == position.table_cards + Counter(solution.played):
        assert sum(marked(root, "moved").values()) == cards_moved(position.table, solution.table)
        assert sum(marked(root, "moved").values()) == solution.cards_moved
    # The numbers are the move list's: every card a move brings to meld N is in meld N.
    groups = meld_groups(root)
    assert sorted(groups) == list(range(1, len(solution.table) + 1))
    for move in solution.moves:
        if move.target is not None and move.kind != "shift":
            there = Counter(
                Card.parse(g.get("data-card", "")) for g in card_groups(groups[move.target])
            )
            assert not Counter(move.cards) - there, move.text
    return root


def test_solution_demo(demo_solution: Solution) -> None:
    root = _check_solution(demo_solution)
    assert marked(root, "played") == Counter(parse_cards("5S 6H QH 5D 8C"))
    assert marked(root, "moved") == Counter(parse_cards("5C 7H 8H 9H"))
    groups = meld_groups(root)
    assert [g.get("data-card") for g in card_groups(groups[4])] == ["6H", "7H", "8H", "9H"]
    assert [g.get("data-card") for g in card_groups(groups[5])] == ["5S", "5D", "5C"]
    text = desc(root)
    assert "New table: 1. 3H 4H 5H 6H | 2. QS QH QD QC" in text
    assert "Played: 5S 6H QH 5D 8C" in text and "Hand left: KD" in text
    assert "Moved: 7H 8H 9H 5C" in text  # in card order
    words = " ".join(texts(root))
    assert "from your hand (5)" in words and "moved on the table (4)" in words
    assert demo_solution._repr_svg_() == svg.solution(demo_solution)


@pytest.mark.parametrize("text", MORE_POSITIONS)
def test_solution_marks_on_more_positions(text: str) -> None:
    _check_solution(rami.solve(rami.parse_position_any(text), time_limit=20))


def test_solution_marks_on_random_positions() -> None:
    rng = random.Random(20251201)
    for rules_name in ("rami-chinois", "rami-chinois", "rami-51", "cafe-rummy"):
        rules = get_ruleset(rules_name)
        for _ in range(6):
            position = (small_position if rng.random() < 0.5 else medium_position)(rng, rules)
            _check_solution(rami.solve(position, time_limit=20))
    moved = 0
    for _ in range(12):  # opened, hands that connect: table cards move
        position = medium_position(rng, get_ruleset("rami-chinois"), opened=True)
        solution = rami.solve(position, time_limit=20)
        _check_solution(solution)
        moved += solution.cards_moved
    assert moved > 0


def _hand_made(moves: tuple[Move, ...]) -> Solution:
    position = parse_position("6H 7H 8H 9H | 6S 6D 6C / 4H 5H 6H / opened")
    return Solution(
        status=Status.OPTIMAL,
        position=position,
        table=parse_table("7H 8H 9H | 6S 6H 6D 6C | 4H 5H 6H"),
        played=parse_cards("4H 5H 6H"),
        hand=(),
        penalty_before=15,
        penalty_after=0,
        cards_moved=1,
        moves=moves,
        opened=True,
        objective=Objective.POINTS,
        min_moves=True,
    )


def test_the_move_list_says_which_copy_came_from_the_hand() -> None:
    six = parse_cards("6H")
    to_set = _hand_made(
        (
            Move("split", parse_cards("6H"), 1, 3, "move 6H from meld 1 to meld 3"),
            Move("add", parse_cards("4H 5H"), None, 3, "add 4H 5H from your hand to meld 3"),
            Move("add", six, None, 2, "add 6H from your hand to meld 2"),
        )
    )
    to_run = _hand_made(
        (
            Move("lay", parse_cards("4H 5H 6H"), None, 3, "lay 4H 5H 6H from your hand as meld 3"),
            Move("move", six, 1, 2, "move 6H from meld 1 to meld 2"),
        )
    )
    for solution, played_in, moved_in in ((to_set, 2, 3), (to_run, 3, 2)):
        root = _check_solution(solution)
        groups = meld_groups(root)
        assert marked(groups[played_in], "played")[six[0]] == 1
        assert marked(groups[moved_in], "moved") == Counter(six)


def test_solution_with_nothing_played() -> None:
    solution = rami.solve(parse_position("7H 8H 9H / KS / opened"))
    root = _check_solution(solution)
    assert "Nothing can be played." in texts(root)
    assert not marked(root, "played") and not marked(root, "moved")
