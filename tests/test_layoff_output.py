"""The lay-off solver's (rami.solver.layoff) output, as the rearrangement solver's: moves (a swap,
lay-offs, new melds, the discard), hints and JSON, ``rami solve`` and ``rami hint``; and larger
random positions in every lay-off preset, proved optimal and legal by the referee."""

from __future__ import annotations

import json
import random

import pytest
from support.checks import checked_solve as solved
from typer.testing import CliRunner

from rami import solve
from rami.cli.main import app
from rami.generate import random_position
from rami.hints import make_hint, solution_lines
from rami.melds import Meld
from rami.referee import validate_turn
from rami.rules import get_ruleset
from rami.solver.api import Status


def test_moves_hint_and_json():
    """The same output as the rearrangement solver: moves (a swap, lay-offs, new melds, the
    discard), hints (the key move is the swap) and JSON with the discard."""
    solution = solved("5D * 7D | 2H 3H 4H / 6D 5H 9S 9C 9D KC / bfmania-51 opened")
    kinds = [move.kind for move in solution.moves]
    assert kinds[0] == "swap" and kinds[-1] == "discard"
    assert "Key move: put 6D in place of the joker in meld 1" in make_hint(solution, 2).text
    data = solution.to_json()
    assert data["discard"] == str(solution.discard)
    assert any("discard" in line for line in solution_lines(solution))
    assert Meld.parse("2H 3H 4H 5H") in solution.table


def test_cli_solve_and_hint():
    runner = CliRunner()
    text = "JH QH KH | 2S 3S 4S / AH AS 9D / rami-51 opened"
    solved_out = runner.invoke(app, ["solve", "--json", text], prog_name="rami")
    assert solved_out.exit_code == 0, solved_out.output
    data = json.loads(solved_out.stdout)
    assert data["status"] == "optimal" and data["discard"] == "9D"
    assert data["penalty_after"] == 0 and data["rules"] == "rami-51"
    hint = runner.invoke(app, ["hint", "--level", "1", text], prog_name="rami")
    assert hint.exit_code == 0, hint.output
    assert "go out" in hint.stdout


@pytest.mark.parametrize(
    "preset",
    ["rami-51", "bfmania-51", "bfmania-51[opening_pure_run=false]", "bfmania-30", "cafe-rummy"],
)
def test_larger_random_positions_are_proved_and_legal(preset: str):
    """Tables of 20-60 cards and hands of 8-15, opened or not: proved optimal, referee-checked."""
    rules = get_ruleset(preset)
    rng = random.Random(f"layoff {preset}")
    for _ in range(6):
        position = random_position(
            rng,
            rules=rules,
            table_cards=rng.randint(20, 60),
            hand_cards=rng.randint(8, 15),
            jokers=rng.randint(0, rules.jokers),
            opened=rng.random() < 0.6,
        )
        solution = solve(position)
        assert solution.status is Status.OPTIMAL
        assert validate_turn(position, solution.table, solution.played, solution.discard).legal
