"""Hints: ``rami hint`` at each level (the third is the solve report), in JSON, for an opening and
inline input, bad levels and input refused; and the hints module without the solver (hints and
reports of hand-made solutions: no table move, the cards objective, going out, no move, a
feasible solution, the table numbered after the old melds)."""

from __future__ import annotations

import json

import pytest
from support.cli import DEMO_TXT, OPENING, bad, ok, rami

from rami.cards import parse_cards
from rami.hints import make_hint, solution_lines
from rami.melds import Meld
from rami.notation import parse_position, parse_table
from rami.solver.api import Move, Objective, Solution, Status


def test_hint_levels() -> None:
    assert ok("hint", "--level", "1", str(DEMO_TXT)).stdout == (
        "You can shed 34 points (play 5 of 6 cards).\n"
    )
    assert ok("hint", str(DEMO_TXT)).stdout == "You can shed 34 points (play 5 of 6 cards).\n"
    level2 = ok("hint", "--level", "2", str(DEMO_TXT)).stdout
    assert level2.startswith("Key move: split 3H..9H (meld 1)")
    level3 = ok("hint", "--level", "3", str(DEMO_TXT)).stdout
    assert level3.startswith("Status: optimal")
    assert "Penalty: 44 -> 10" in level3


def test_hint_level_3_is_the_solve_report() -> None:
    level3 = ok("hint", "--level", "3", str(DEMO_TXT)).stdout.splitlines()
    solved = ok("solve", str(DEMO_TXT)).stdout.splitlines()
    assert level3[1:] == solved[1:]


def test_hint_json() -> None:
    level1 = json.loads(ok("hint", "--json", str(DEMO_TXT)).stdout)
    assert level1["level"] == 1
    assert level1["hint"] == "You can shed 34 points (play 5 of 6 cards)."
    assert level1["points_shed"] == 34
    assert "moves" not in level1
    level2 = json.loads(ok("hint", "--level", "2", "--json", str(DEMO_TXT)).stdout)
    assert level2["move"]["kind"] == "split"
    assert level2["move_number"] == 1
    level3 = json.loads(ok("hint", "--level", "3", "--json", str(DEMO_TXT)).stdout)
    assert level3["solution"]["penalty_after"] == 10


def test_hint_opening_and_inline_input() -> None:
    assert ok("hint", OPENING).stdout == "You can open and shed 43 points (play 6 of 7 cards).\n"
    assert ok("hint", "- / 2C 5D 9H").stdout == "You cannot open this turn.\n"
    assert ok("hint", "7H 8H 9H / 9S 9D 9C / opened").stdout == "You can play all 3 cards.\n"


def test_hint_bad_level() -> None:
    result = rami("hint", "--level", "4", str(DEMO_TXT))
    assert result.exit_code == 2
    assert "--level" in result.output


def test_hint_bad_input() -> None:
    assert bad("hint", "nope.txt") == "error: cannot read 'nope.txt': no such file\n"


# ---------------------------------------------------------------- hints module, no solver


def _solution(
    text: str,
    table: str,
    played: str,
    hand: str,
    moves: tuple[Move, ...],
    before: int,
    after: int,
    objective: Objective = Objective.POINTS,
) -> Solution:
    position = parse_position(text)
    return Solution(
        status=Status.FEASIBLE,
        position=position,
        table=parse_table(table),
        played=parse_cards(played),
        hand=parse_cards(hand),
        penalty_before=before,
        penalty_after=after,
        cards_moved=0,
        moves=moves,
        opened=True,
        objective=objective,
        min_moves=True,
        bounds={"penalty": 3},
        message="stopped by the time limit",
        solve_ms=12.0,
    )


LAY = Move("lay", parse_cards("9S 9D 9C"), None, 2, "lay 9S 9D 9C from your hand as meld 2")
ADD = Move("add", parse_cards("TH"), None, 1, "add TH from your hand to meld 1")


def test_hint_levels_without_a_table_move() -> None:
    solution = _solution(
        "7H 8H 9H / 9S 9D 9C TH KS / opened",
        "7H 8H 9H TH | 9S 9D 9C",
        "9S 9D 9C TH",
        "KS",
        (LAY, ADD),
        47,
        10,
    )
    assert make_hint(solution, 1).text == "You can shed 37 points (play 4 of 5 cards)."
    second = make_hint(solution, 2)
    assert second.text == "Key move: lay 9S 9D 9C from your hand as meld 2"
    assert second.to_json()["move_number"] == 1
    third = make_hint(solution, 3)
    assert third.text.splitlines() == solution_lines(solution)
    assert third.to_json()["solution"]["status"] == "feasible"


def test_hint_cards_objective_and_going_out() -> None:
    cards = _solution(
        "7H 8H 9H / 9S 9D 9C TH KS / opened",
        "7H 8H 9H TH | 9S 9D 9C",
        "9S 9D 9C TH",
        "KS",
        (LAY, ADD),
        47,
        10,
        Objective.CARDS,
    )
    assert make_hint(cards, 1).text == "You can play 4 of 5 cards (shedding 37 points)."
    out = _solution(
        "7H 8H 9H / TH KS / rami-fou opened",
        "7H 8H 9H TH",
        "TH",
        "",
        (ADD,),
        20,
        0,
    )
    assert make_hint(out, 1).text == "You can go out: play 1 card and discard the last one."
    assert make_hint(out, 1).to_json()["goes_out"] is True


def test_hint_no_move() -> None:
    nothing = _solution("7H 8H 9H / KS / opened", "7H 8H 9H", "", "KS", (), 10, 10)
    assert make_hint(nothing, 1).text == "No card can be played this turn."
    assert make_hint(nothing, 2).to_json() == {
        "level": 2,
        "hint": "No card can be played this turn.",
        "move": None,
        "move_number": None,
        "moves_total": 0,
    }


def test_hint_level_out_of_range() -> None:
    nothing = _solution("7H 8H 9H / KS / opened", "7H 8H 9H", "", "KS", (), 10, 10)
    with pytest.raises(ValueError, match="hint level must be 1, 2 or 3"):
        make_hint(nothing, 0)


def test_report_of_a_feasible_solution() -> None:
    solution = _solution(
        "7H 8H 9H / 9S 9D 9C TH KS / opened",
        "9S 9D 9C | 7H 8H 9H TH",
        "9S 9D 9C TH",
        "KS",
        (LAY, ADD),
        47,
        10,
    )
    assert solution_lines(solution) == [
        "Status: feasible (objective: points, 12.0 ms)",
        "Not proved optimal: the time limit stopped the search.",
        "Proved bounds: penalty 3",
        "Note: stopped by the time limit",
        "New table (2 melds):",
        "  1. 7H 8H 9H TH",
        "  2. 9S 9D 9C",
        "Cards played (4): 9S 9D 9C TH",
        "Hand left (1): KS",
        "Penalty: 47 -> 10",
        "Cards moved: 0",
        "Moves (2):",
        "  1. lay 9S 9D 9C from your hand as meld 2",
        "  2. add TH from your hand to meld 1",
    ]


def test_numbered_table_follows_the_old_melds() -> None:
    solution = _solution(
        "7H 8H 9H | QS QD QC / 9S 9D 9C / opened",
        "9S 9D 9C | QS QD QC | 7H 8H 9H",
        "9S 9D 9C",
        "",
        (LAY,),
        27,
        0,
    )
    numbered = solution.numbered_table()
    assert [(number, str(meld)) for number, meld in numbered] == [
        (1, "7H 8H 9H"),
        (2, "QS QD QC"),
        (3, "9S 9D 9C"),
    ]
    assert all(isinstance(meld, Meld) for _, meld in numbered)
