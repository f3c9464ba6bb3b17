"""Puzzles: the signature of a solution (blind to run cuts, meld order and identical copies;
jokers as wildcards) and soundness (a sound puzzle accepted and measured, a cooked or lay-off-only
one refused, a superfluous meld pruned, the melds broken whatever the tie, the greedy player)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.puzzles import COOKED, DEMO

from rami import parse_position
from rami.cards import parse_cards
from rami.matching import cards_moved
from rami.notation import parse_table
from rami.puzzles.difficulty import TIERS, melds_broken
from rami.puzzles.evaluate import Rejected, evaluate, solutions_up_to, solve_goal
from rami.puzzles.greedy import fits, greedy_play, lay_off
from rami.rules import get_ruleset
from rami.signature import Signature, same_solution, signature

NO_JOKERS = get_ruleset("rami-chinois[jokers=0]")
JOKERS = get_ruleset("rami-chinois")

#: Sound: the 6 of hearts splits the long run (one solution up to cuts).
SPLIT = "3H 4H 5H 6H 7H 8H 9H / 6H / rami-chinois[jokers=0] opened"


def table(text: str):
    return parse_table(text)


def sig(text: str, rules=NO_JOKERS) -> Signature:
    return signature(table(text), rules)


def test_signature_ignores_run_cuts() -> None:
    assert sig("3H 4H 5H 6H 7H 8H | 9H TH JH") == sig("3H 4H 5H 6H 7H 8H 9H TH JH")
    assert sig("3H 4H 5H 6H 7H | 4H 5H 6H 7H 8H") == sig("3H 4H 5H 6H 7H 8H | 4H 5H 6H 7H")
    assert str(sig("3H 4H 5H 6H 7H 8H | 9H TH JH")) == "runs H:3-J; sets -"


def test_signature_ignores_meld_order_and_identical_copies() -> None:
    assert sig("7S 7H 7D | 2C 3C 4C") == sig("2C 3C 4C | 7D 7S 7H")
    first = table("5H 6H 7H | 5H 5S 5D")
    second = table("5S 5H 5D | 5H 6H 7H")  # the other 5H copy in each meld
    assert same_solution(first, second, NO_JOKERS)


def test_signature_tells_real_differences_apart() -> None:
    assert sig("7S 7H 7D | 7C 8C 9C") != sig("7S 7H 7D 7C | 8C 9C TC")
    assert sig("AH 2H 3H") != sig("QH KH AH")  # the ace low or high
    assert sig("7S 7H 7D") != sig("7S 7H 7C")
    assert sig("7S 7H 7D | 7S 7H 7D") == Signature.build({}, Counter({(7, (0, 1, 2)): 2}))


def test_jokers_are_wildcards_in_the_signature() -> None:
    at_top = signature(table("5H 6H 7H * | 9S 9D 9C"), JOKERS)
    at_bottom = signature(table("* 5H 6H 7H | 9S 9D 9C"), JOKERS)
    in_the_set = signature(table("5H 6H 7H | 9S 9D 9C *"), JOKERS)
    assert at_top == at_bottom == in_the_set
    # What a joker makes possible still shows: 6H out of the run is another solution.
    gap = signature(table("5H * 7H | 6H 6S 6D"), JOKERS)
    assert gap != signature(table("5H 6H 7H | * 6S 6D"), JOKERS)


# ---------------------------------------------------------------------------- soundness


def test_sound_puzzle_is_accepted_and_measured() -> None:
    evaluation = evaluate(parse_position(DEMO))
    assert evaluation.kind == "empty-hand"
    assert evaluation.goal["penalty_after"] == 0
    metrics = evaluation.metrics
    assert metrics.cards_moved == 4 and metrics.melds_broken == 2
    assert metrics.greedy_fails  # the 5D needs the 5C freed first, with the 8C
    assert metrics.tier in TIERS
    # The queens neither change nor tempt (no queen in hand): they are taken off the table.
    assert [str(meld) for meld in evaluation.position.table] == ["3H 4H 5H 6H 7H 8H 9H", "5C 6C 7C"]


def test_cooked_puzzle_is_refused() -> None:
    position = parse_position(COOKED)
    kind, goal, _ = solve_goal(position)
    found = solutions_up_to(position, kind, goal, limit=5)
    assert len(found) == 3
    assert {str(s).split("; ")[1] for s in found} == {"sets 6:SHDC", "sets 6:SHC", "sets 6:HDC"}
    with pytest.raises(Rejected, match="cooked"):
        evaluate(position)


def test_layoff_only_puzzle_is_refused() -> None:
    with pytest.raises(Rejected, match="lay-offs alone"):
        evaluate(
            parse_position(
                "7S 7H 7D | 8S 8H 8D | 9S 9H 9D / 7C 8C 9C / rami-chinois[jokers=0] opened"
            )
        )


def test_superfluous_meld_is_pruned() -> None:
    # The clubs run neither changes nor interacts with anything: it is taken off.
    position = parse_position(
        "3H 4H 5H 6H 7H 8H 9H | 2C 3C 4C / 6H / rami-chinois[jokers=0] opened"
    )
    evaluation = evaluate(position)
    assert [str(m) for m in evaluation.position.table] == ["3H 4H 5H 6H 7H 8H 9H"]


def test_melds_broken_does_not_depend_on_how_a_tie_is_broken() -> None:
    """Two maximum matchings (9 cards kept) of rc-7ab683b7cb's tables: the 4-card club run
    matched to ``5C 6C * 8C 9C`` (3 kept, 5 melds broken) or to ``5C 6C 7C`` (3 kept, kept
    whole: 4 broken). The metric is the fewest broken, whatever the melds' order."""
    before = list(table("5C 6C * 8C 9C | 9H TH JH | 5C 6C 7C | 6H * 8H 9H | 5H 6H 7H"))
    after = list(
        table("5C 6C 7C 8C | 9S 9H 9C | 5S 5H 5C | 6H 7H 8H 9H | 6S 6H 6C | TH TD * | JH JC *")
    )
    assert cards_moved(before, after) == 18 - 9
    orders = random.Random(7)
    for _ in range(20):
        assert melds_broken(tuple(before), tuple(after)) == 4
        orders.shuffle(before)
        orders.shuffle(after)
    # No tie: merging two runs breaks one of them whichever is matched.
    assert melds_broken(table("2D 3D 4D | 5D 6D 7D 8D"), table("2D 3D 4D 5D 6D 7D 8D")) == 1
    assert melds_broken(table("2D 3D 4D"), ()) == 1 and melds_broken((), table("2D 3D 4D")) == 0


def test_greedy_player_leaves_a_valid_table() -> None:
    """The 3D completes the set of threes and frees its joker, which no meld can take: not a
    legal play alone (the counting model would park the joker anywhere), so the greedy player
    does not take it, and fails rc-91b5fbac99 (the 4H and the 4D need the joker together)."""
    position = parse_position("3S 3H 3C * / 4H 3D 4D / rami-chinois opened")
    assert not fits(position, Counter(parse_cards("3D")))
    assert fits(position, Counter(parse_cards("3D 4H")))  # 3S 3D 3C | 3H 4H *
    assert fits(position, Counter(parse_cards("4H 4D")))  # 3S 3H 3C | 4H 4D *
    result = greedy_play(position)
    assert result.hand == position.hand and result.steps == ()
    evaluation = evaluate(position)
    assert evaluation.metrics.greedy_fails
    assert evaluation.metrics.tier == "hard"


def test_greedy_player() -> None:
    assert str(lay_off(table("5H 6H 7H")[0], parse_table("8H")[0].cards[0], NO_JOKERS)) == (
        "5H 6H 7H 8H"
    )
    assert lay_off(table("QH KH AH")[0], parse_table("2H")[0].cards[0], NO_JOKERS) is None
    split = greedy_play(parse_position(SPLIT))
    assert split.hand == ()  # one card at a time works
    demo = greedy_play(parse_position(DEMO))
    assert demo.hand  # the fives need the 8C played first, which greedy does not see
