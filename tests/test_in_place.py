"""The engine's fast path: a turn laying the whole hand with no table card moved.

Such a turn is optimal at every level (docs/rules.md decision 6: no penalty left, every card played;
decision 7: nothing moved), so the engine answers it without a model. These tests check that
every table the fast path returns is legal and moves nothing, that the exhaustive reference
finds the same optimum wherever it answers and no such turn wherever it says none exists, that
it declines what it cannot do (and the engine then still finds the best turn), and that the
engine's answers are the same with and without it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.reference import reference_solve

from rami import parse_position, solve
from rami.generate import medium_position, small_position
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import get_ruleset
from rami.solver import rearrange
from rami.solver.api import Status
from rami.solver.in_place import InPlace, lay_whole_hand
from rami.solver.rearrange import stages

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import benchlib

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def laid_in_place(text: str) -> list[str]:
    """The fast path's table for ``text``, checked by the referee: legal, hand empty, 0 moved."""
    position = parse_position(text)
    table = lay_whole_hand(position).table
    assert table is not None, f"the fast path found nothing for {text!r}"
    verdict = validate_turn(position, table, position.hand)
    assert verdict.legal, verdict.problems
    assert not verdict.hand_after
    assert verdict.cards_moved == 0
    return [str(meld) for meld in table]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # docs/rules.md common: the ace goes below the 2 or above the king.
        ("2H 3H 4H / AH / rami-chinois opened", "AH 2H 3H 4H"),
        ("JH QH KH / AH / rami-chinois opened", "JH QH KH AH"),
        # Two copies (two decks) go to two runs.
        ("5S 6S 7S | 9S TS JS / 8S 8S / rami-chinois opened", "5S 6S 7S 8S"),
        # A set takes its missing suit, next to a joker (a set holds four cards).
        ("7S 7H * / 7D / rami-chinois opened", "7S 7H 7D *"),
        # The card a run's joker stands for takes its place; the joker slides to an end.
        ("5S * 7S / 6S / rami-chinois opened", "5S 6S 7S *"),
        # A hand joker bridges a gap to the end of a run.
        ("4D 5D 6D / 8D * / rummikub opened", "4D 5D 6D * 8D"),
        # A new meld from the hand alone, with its joker.
        ("9C TC JC / 2H 3H * / rami-chinois opened", "2H 3H *"),
        # A hand joker left over goes where a meld has room.
        ("9C TC JC / * / rummikub opened", "9C TC JC *"),
        # KC first (fewest options) could only reach the run over a joker; QC fills that gap
        # and the jokers make JD's meld. Found by the exhaustive reference (it once claimed
        # no such turn existed).
        ("9C TC JC | KS KH KC / JD QC KC * * / rummikub opened", "9C TC JC QC KC"),
        # 6D reaches the run only once 9D takes the joker's place and the joker slides to 7.
        # Found by the exhaustive reference, as the two below: without that rule, the search
        # claimed no such turn existed.
        ("8D * TD JD QD / 6D 9D TC QC * / rummikub opened", "6D * 8D 9D TD JD QD"),
        ("9H TH * / JH KH JD QD * / rummikub opened", "9H TH JH * KH"),
        ("5H 6H 7H 8H | 4C * 6C / 3H 4H 5H 5D 5C / rummikub opened", "3H 4H 5H 6H 7H 8H"),
        # A new run of the hand's own cards, next to a run it could have extended.
        ("5S 6S 7S | 6H 7H 8H / 6S 7S 8S / rami-chinois opened", "6S 7S 8S"),
    ],
)
def test_lays_the_whole_hand_in_place(text: str, expected: str) -> None:
    assert expected in laid_in_place(text)


@pytest.mark.parametrize(
    "text",
    [
        # Rummikub: no run above 13 (docs/rules.md rummikub), and the reference plays nothing.
        "JH QH KH / AH / rummikub opened",
        # The set is full: 7C could only go in if the joker left its meld, which moves it.
        "7S 7H 7D * | 9C TC JC / 7C / rami-chinois opened",
        # Not opened: the opening turn is not a lay-off (docs/rules.md decision 1).
        "5S 6S 7S / 8S 9S TS / rami-chinois",
        # A discard ends every rami fou turn: not a whole-hand lay-off.
        "5S 6S 7S / 8S / rami-fou opened",
        # Nothing in hand.
        "5S 6S 7S / - / rami-chinois opened",
    ],
)
def test_declines_what_it_cannot_lay_in_place(text: str) -> None:
    assert lay_whole_hand(parse_position(text)).table is None


def test_declined_turn_is_still_solved_by_the_model() -> None:
    """The fast path gives up where the hand only goes down by moving a table card: the engine
    still finds it (the joker leaves the set for the run, 1 card moved)."""
    solution = solve(parse_position("7S 7H 7D * | 9C TC JC / 7C / rami-chinois opened"))
    assert solution.status is Status.OPTIMAL
    assert solution.hand == () and solution.cards_moved == 1


def test_engine_reports_a_lay_off_as_proved_with_nothing_moved() -> None:
    position = parse_position("5S * 7S | 2H 3H 4H / 6S AH 8S / rami-chinois opened")
    solution = solve(position)
    assert solution.status is Status.OPTIMAL
    assert solution.hand == () and solution.penalty_after == 0
    assert solution.cards_moved == 0
    assert solution.timings["build_ms"] == 0, "answered without building a model"
    verdict = validate_turn(position, solution.table, solution.played)
    assert verdict.legal, verdict.problems


def test_part_of_the_hand_laid_in_place_needs_no_stage_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """2D and 9C cannot be played; 8H goes down at the end of the run. Stage 1 finds that
    play, the in-place search lays it with nothing moved, and no stage-2 model is built."""
    position = parse_position("5H 6H 7H | KS KD KC / 8H 2D 9C / rami-chinois opened")

    def no_stage_2(*args, **kwargs):
        raise AssertionError("stage 2 built a model")

    monkeypatch.setattr(stages, "StageModel", no_stage_2)
    solution = solve(position)
    assert solution.status is Status.OPTIMAL
    assert solution.played == parse_position("/ 8H / rami-chinois").hand
    assert solution.cards_moved == 0 and solution.timings["build_ms"] > 0
    assert validate_turn(position, solution.table, solution.played).legal


def test_max_play_tries_the_fast_path_on_big_tables_only() -> None:
    """Max-play asks the model on a small table (where the search seldom pays) and the fast
    path on a big one; both answers are proved and lay the whole hand."""
    small = parse_position("5S * 7S | 2H 3H 4H / 6S AH 8S / rami-chinois opened")
    assert small.table_size < stages.IN_PLACE_MAX_PLAY_TABLE_CARDS
    big = next(
        case.position
        for case in benchlib.load_suite(benchlib.SUITES_DIR / "rami-chinois-100.jsonl")
        if lay_whole_hand(case.position).table is not None
    )
    for position, fast in ((small, False), (big, True)):
        solution = solve(position, min_moves=False)
        assert solution.status is Status.OPTIMAL and solution.hand == ()
        assert (solution.timings["build_ms"] == 0) is fast
        assert validate_turn(position, solution.table, solution.played).legal


def test_search_gives_up_early_when_asked_and_claims_nothing() -> None:
    """9H has no place until 8H is laid: the full search finds the turn; limited to hands
    whose every card has a place now, it gives up without claiming that none exists."""
    position = parse_position("5H 6H 7H | KS KD KC / 9H 8H / rami-chinois opened")
    assert lay_whole_hand(position).table is not None
    limited = lay_whole_hand(position, max_unplaced=0)
    assert limited.table is None and not limited.none_exists
    assert lay_whole_hand(position, max_unplaced=1).table is not None


def check_against_reference(position: Position) -> InPlace:
    """Where the fast path answers, its turn is legal, plays everything, moves nothing, and the
    exhaustive reference finds that optimum too; where it says no such turn exists, the
    reference finds none either. Returns what the fast path found."""
    found = lay_whole_hand(position)
    if found.table is not None:
        verdict = validate_turn(position, found.table, position.hand)
        assert verdict.legal, (str(position), verdict.problems)
        assert not verdict.hand_after and verdict.cards_moved == 0, str(position)
    for objective in ("points", "cards"):
        expected = reference_solve(position, objective)
        lay_off = (expected.penalty_after, expected.cards_played, expected.cards_moved) == (
            0,
            len(position.hand),
            0,
        )
        if found.table is not None:
            assert lay_off, f"the reference does better than laying all in place: {position}"
        if found.none_exists:
            assert not lay_off, f"the fast path missed a lay-off it claims impossible: {position}"
    return found


@pytest.mark.parametrize("rules_name", ["rami-chinois", "rummikub"])
@settings(max_examples=800, deadline=None, derandomize=True, database=None)
@given(seed=SEEDS)
def test_small_positions_against_the_reference(rules_name: str, seed: int) -> None:
    check_against_reference(small_position(random.Random(seed), get_ruleset(rules_name)))


@pytest.mark.parametrize("rules_name", ["rami-chinois", "rummikub"])
def test_the_fast_path_answers_often_enough_to_be_tested(rules_name: str) -> None:
    """The property tests above are not vacuous: on the same generators the fast path answers
    a share of the positions (about one in eight) and says no lay-off exists for more than
    half."""
    rules = get_ruleset(rules_name)
    found = [
        check_against_reference(small_position(random.Random(seed), rules)) for seed in range(300)
    ]
    assert sum(result.table is not None for result in found) >= 20
    assert sum(result.none_exists for result in found) >= 120


@pytest.mark.parametrize("suite", ["rami-chinois-080", "rummikub-080", "rami-chinois-100"])
def test_engine_answers_equal_with_and_without_the_fast_path(
    suite: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the benchmark positions where it matters most, both objectives' optimum levels are
    the same whether the fast path answers or the model does, and every answer is proved."""
    positions = [
        case.position for case in benchlib.load_suite(benchlib.SUITES_DIR / f"{suite}.jsonl")
    ]
    answered = [lay_whole_hand(position).table is not None for position in positions]
    assert sum(answered) >= len(positions) // 3
    for min_moves in (False, True):
        fast = [solve(position, min_moves=min_moves) for position in positions]
        with monkeypatch.context() as patched:
            patched.setattr(stages, "lay_whole_hand", lambda position, **_: InPlace(None))
            slow = [solve(position, min_moves=min_moves) for position in positions]
        for position, with_it, without in zip(positions, fast, slow, strict=True):
            assert with_it.status is Status.OPTIMAL and without.status is Status.OPTIMAL
            assert (with_it.penalty_after, with_it.cards_played) == (
                without.penalty_after,
                without.cards_played,
            ), str(position)
            if min_moves:
                assert with_it.cards_moved == without.cards_moved, str(position)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(seed=SEEDS)
def test_medium_positions_are_legal_and_move_nothing(seed: int) -> None:
    """Larger positions (too big for the reference): every answer still passes the referee."""
    position = medium_position(random.Random(seed), get_ruleset("rami-chinois"))
    table = lay_whole_hand(position).table
    if table is not None:
        verdict = validate_turn(position, table, position.hand)
        assert verdict.legal and not verdict.hand_after and verdict.cards_moved == 0


@pytest.mark.parametrize("objective", ["points", "cards"])
def test_fast_path_reports_the_play_value_the_model_finds(
    objective: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn's stage-1 value (levels 1-2 folded, as rami fou's bounds compare them) is the
    one the model reaches for the same position."""
    position = parse_position("5S * 7S | 2H 3H 4H | 9C 9D 9H / 6S AH 8S 9S * / rami-chinois opened")
    values: list[int | None] = []
    finish = rearrange.finish

    def recording(position, objective, min_moves, turn):
        values.append(turn.play_value)
        return finish(position, objective, min_moves, turn)

    monkeypatch.setattr(rearrange, "finish", recording)
    fast = solve(position, objective=objective)
    monkeypatch.setattr(stages, "lay_whole_hand", lambda position, **_: InPlace(None))
    model = solve(position, objective=objective)
    assert fast.timings["build_ms"] == 0 and model.timings["build_ms"] > 0
    assert fast.hand == model.hand == ()
    assert values[0] == values[1] is not None
