"""Known answers of the lay-off solver (rami.solver.layoff) for the presets without rearrangement
(rami-51, bfmania-51 / bfmania-30, cafe-rummy), from the rows of the docs/rules.md presets table
that differ between them and from its decisions (a joker counts as the card it stands for, the
objectives, no legal turn, the same-turn option refused); and a table joker swapped in the
opening turn (decision 4, issue 36), against the exhaustive reference.

Each test names its source. Every answer is also checked by the referee.
"""

from __future__ import annotations

import pytest
import support.layoff_reference as layoff_reference_module
from support.checks import checked_solve as solved
from support.layoff_answers import melds, result
from support.layoff_reference import layoff_reference
from support.second_referee import judge
from typer.testing import CliRunner

from rami import solve
from rami.cli.main import app
from rami.errors import IllegalTurnError, InvalidPositionError, SolverBugError, UnsupportedError
from rami.melds import opening_points
from rami.notation import parse_position
from rami.referee import validate_turn
from rami.solver.api import Objective

# --- docs/rules.md rows and decisions -------------------------------------------------------------


def test_jokers_in_deck_row():
    """docs/rules.md row "jokers in deck": 6 in Café Rummy, 4 in BFmania and rami 51."""
    solution = solved("5D 6D 7D 8D 9D TD / * * * * * 7C / cafe-rummy opened")
    assert solution.cards_played == 5 and result(solution) == (0, 5, "7C")
    with pytest.raises(InvalidPositionError):
        solve(parse_position("- / * * * * * 7C / rami-51 opened"))


def test_opening_requirement_row():
    """docs/rules.md row "opening requirement", one hand under each preset: two sets of 30 points
    and
    no pure run; rami 51 and bfmania-51 refuse it, the bfmania-51 table option "without" and
    bfmania-30 accept it, Café Rummy opens with any one meld."""
    hand = "QS QD QC KS KD * 2C 3C"
    opened = {
        preset: solved(f"- / {hand} / {preset}").opened
        for preset in (
            "rami-51",
            "bfmania-51",
            "bfmania-51[opening_pure_run=false]",
            "bfmania-30",
            "cafe-rummy",
        )
    }
    assert opened == {
        "rami-51": False,
        "bfmania-51": False,
        "bfmania-51[opening_pure_run=false]": True,
        "bfmania-30": True,
        "cafe-rummy": True,
    }
    assert result(solved(f"- / {hand} / bfmania-51[opening_pure_run=false]")) == (2, 6, "3C")


def test_decision_2_joker_counts_as_the_card_it_stands_for():
    """docs/rules.md decision 2: a joker counts as the card it stands for; the solver places it
    where
    the opening counts most (10-J-Q = 30, not 9-10-J = 29)."""
    solution = solved("- / TH JH * 2C 5D / bfmania-30")
    assert melds(solution) == ["TH JH *"]
    assert opening_points(solution.table[0], solution.position.rules) == 30
    assert not solved("- / 9H TH * 2C 5D / bfmania-30").opened  # 8-9-10 27, 9-10-J 29


def test_objective_cards_and_min_moves_off():
    """docs/rules.md decision 6: the objective "cards" puts cards played first; min_moves off still
    returns a legal turn with its cards moved counted honestly."""
    text = "5D * 7D | 9S 9H 9C / 6D 9D 2C 3C / bfmania-51 opened"
    points = solved(text)
    by_cards = solved(text, objective=Objective.CARDS)
    assert by_cards.cards_played >= points.cards_played
    loose = solve(parse_position(text), min_moves=False)
    assert loose.penalty_after == points.penalty_after
    assert loose.cards_played == points.cards_played


def test_no_legal_turn_is_said_plainly():
    """Decision 8 and Café Rummy's joker rule together can leave no card to discard."""
    with pytest.raises(IllegalTurnError, match="no legal turn"):
        solve(parse_position("- / * 7H / cafe-rummy discard=7H"))
    with pytest.raises(IllegalTurnError):
        solve(parse_position("- / - / rami-51 opened"))
    empty = solved("7H 8H 9H / - / bfmania-51 opened")  # BFmania: nothing to do, nothing owed
    assert result(empty) == (0, 0, None)


def test_open_and_lay_off_same_turn_option_is_refused():
    with pytest.raises(UnsupportedError):
        solve(parse_position("7H 8H 9H / TH / rami-51[open_and_rearrange_same_turn=true]"))


# --- A table joker swapped in the opening turn (decision 4) ------------------------------------

#: A position once got wrong, in each lay-off preset: the hand opens with TS JS QS (30), 5H 6H 7H
#: (18) and 3S 3H 3D (9) or TS TH TD (30), then (decision 4) puts 8D in place of the joker of
#: * 9D TD and, where the preset swaps, lays 8S and that joker on the table's own TS JS QS.
ISSUE_36 = "* 9D TD | TS JS QS | TC JC QC KC / 3S 8S TS JS QS 3H 5H 6H 7H TH 3D 6D 8D TD / {}"

#: (penalty after the discard, cards played, cards moved), found by the exhaustive reference.
ISSUE_36_BEST = {
    "rami-51": (32, 9, 0),  # the joker stays: 8S, 8D, 6D and TH are left, TD or JS goes
    "bfmania-51": (16, 11, 1),
    "bfmania-51[opening_pure_run=false]": (16, 11, 1),
    "bfmania-30": (16, 11, 1),
    "cafe-rummy": (16, 11, 1),
}

#: The presets of the issue's position.
ISSUE_36_PRESETS = list(ISSUE_36_BEST)


@pytest.mark.parametrize("preset", list(ISSUE_36_BEST))
@pytest.mark.parametrize("settings", ["", " discard=5H"])
def test_issue_36_reference_optimum(monkeypatch, preset: str, settings: str):
    """The exhaustive reference (its hand limit raised for this 14-card hand) finds the optimum,
    a turn both referees accept: the swapped joker goes on an old meld, never a new one."""
    monkeypatch.setattr(layoff_reference_module, "MAX_HAND", 14)
    position = parse_position(ISSUE_36.format(preset) + settings)
    best = layoff_reference(position)
    assert best is not None
    assert (best.penalty_after, best.cards_played, best.cards_moved) == ISSUE_36_BEST[preset]
    for verdict in (
        validate_turn(position, best.table, best.played, best.discard),
        judge(position, best.table, best.played, best.discard),
    ):
        assert verdict.legal, verdict.problems


@pytest.mark.parametrize("preset", ISSUE_36_PRESETS)
@pytest.mark.parametrize("settings", ["", " discard=5H"])
def test_issue_36_opening_turn_with_a_table_joker(preset: str, settings: str):
    """Solved, proved optimal and legal by both referees (``solved``), at the reference's
    optimum; with min_moves off too."""
    text = ISSUE_36.format(preset) + settings
    solution = solved(text)
    assert (solution.penalty_after, solution.cards_played, solution.cards_moved) == ISSUE_36_BEST[
        preset
    ]
    assert solution.opened
    loose = solved(text, min_moves=False)
    assert (loose.penalty_after, loose.cards_played) == ISSUE_36_BEST[preset][:2]


@pytest.mark.parametrize("preset", ISSUE_36_PRESETS)
def test_issue_36_cli_solve_and_hint(preset: str):
    runner = CliRunner()
    text = ISSUE_36.format(preset)
    for args in (["solve", text], ["solve", "--no-min-moves", text], ["hint", text]):
        out = runner.invoke(app, args, prog_name="rami")
        if "internal solver error" in out.output:
            raise SolverBugError(out.output)
        assert out.exit_code == 0, out.output
