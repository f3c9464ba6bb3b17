"""Puzzles: answers checked (the intended solution and its equivalents, an alternative accepted but
not intended, an illegal answer or one short of the goal), and answers given as moves (read,
their errors naming the move, ``rami puzzle check --moves``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.puzzles import DAILY_2025_06_01, DEMO, cooked_puzzle, pack_file, runner

from rami import parse_position
from rami.cli.puzzle import puzzle_app
from rami.puzzles.answers import check_answer, parse_answer
from rami.puzzles.evaluate import evaluate
from rami.puzzles.record import Puzzle, make_record


def _puzzle(text: str) -> Puzzle:
    evaluation = evaluate(parse_position(text), prune=False)
    return Puzzle.from_record(make_record(evaluation, seed=0, profile="test"))


def test_answer_intended_and_equivalent() -> None:
    puzzle = _puzzle(DEMO)
    exact = check_answer(puzzle, puzzle.solution)
    assert exact.solved and exact.intended
    # The same melds in another order, with the other copy of a card, are the same solution.
    other = parse_answer("5C 5S 5D | 6C 7C 8C | QS QD QC | 6H 7H 8H 9H | 3H 4H 5H 6H")
    verdict = check_answer(puzzle, other)
    assert verdict.solved and verdict.intended, verdict.reasons
    # Another cut of the same cards is the same solution.
    long_run = _puzzle("3H 4H 5H 6H 7H 8H 9H TH JH QH / 6H / rami-chinois[jokers=0] opened")
    assert sorted(str(m) for m in long_run.solution) == ["3H 4H 5H 6H", "6H 7H 8H 9H TH JH QH"]
    cut = check_answer(long_run, parse_answer("6H 7H 8H | 9H TH JH QH | 3H 4H 5H 6H"))
    assert cut.solved and cut.intended
    as_json = parse_answer(json.dumps([[str(c) for c in m.cards] for m in puzzle.solution]))
    assert check_answer(puzzle, as_json).intended


def test_answer_alternative_is_accepted_but_not_intended() -> None:
    puzzle = cooked_puzzle()
    verdict = check_answer(puzzle, parse_answer("3S 4S 5S 6S | 7D 8D 9D | 6D 6H 6C"))
    assert verdict.solved and not verdict.intended
    assert "another route" in verdict.reasons[0]
    assert check_answer(puzzle, puzzle.solution).intended


def test_answer_illegal_or_short_of_the_goal() -> None:
    puzzle = _puzzle(DEMO)
    illegal = check_answer(
        puzzle, parse_answer("3H 4H 5H 6H | 6H 7H 8H 9H | QS QD QC | 5C 6C 7C 8C | 5S 5D")
    )
    assert not illegal.solved and not illegal.legal
    assert any("needs at least 3" in reason for reason in illegal.reasons)
    stolen = check_answer(puzzle, parse_answer("3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C 8C 9C"))
    assert not stolen.legal  # 9C is in no hand and on no table
    short = check_answer(puzzle, parse_answer("3H 4H 5H 6H | 6H 7H 8H 9H | QS QD QC | 5C 6C 7C 8C"))
    assert short.legal and not short.solved
    assert "plays 2 of 4 cards" in short.reasons[0]


# ---------------------------------------------------------------------------- answers as moves


def test_answer_as_moves() -> None:
    from rami.puzzles.answers import read_answer

    puzzle = _puzzle(DEMO)  # 3H..9H | QS QD QC | 5C 6C 7C / 5S 6H 5D 8C
    moves = "split 1 after 6H; add 6H to 4\nadd 8C to 3; move 5C from 3 to 5; add 5S 5D to 5"
    given = read_answer(puzzle, moves)
    assert given.numbers == (1, 2, 3, 4, 5)
    verdict = check_answer(puzzle, given.table, given.numbers)
    assert verdict.solved and verdict.intended, verdict.reasons
    # What rami solve prints is accepted as it is, numbering and all.
    from rami import solve

    solution = solve(puzzle.position)
    printed = "\n".join(f"{n}. {m.text}" for n, m in enumerate(solution.moves, start=1))
    assert check_answer(puzzle, *_answer(puzzle, printed)).solved
    # Short of the goal, and an illegal table: the reasons use the moves' meld numbers.
    short = check_answer(puzzle, *_answer(puzzle, "split 1 after 6H; add 6H to 4"))
    assert short.legal and not short.solved and "plays 1 of 4" in short.reasons[0]
    bad = check_answer(puzzle, *_answer(puzzle, "move 5C 6C 7C from 3 to 1; add 5S 5D to 4"))
    assert not bad.legal
    assert any(r.startswith("meld 4 after the moves") for r in bad.reasons), bad.reasons


def _answer(puzzle: Puzzle, text: str):
    from rami.puzzles.answers import read_answer

    given = read_answer(puzzle, text)
    return given.table, given.numbers


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("add 9S to 2", "move 1 ('add 9S to 2'): your hand does not hold 9S"),
        (
            "add 8C to 3; move 5C from 2 to 3",
            "move 2 ('move 5C from 2 to 3'): meld 2 does not hold",
        ),
        ("split 2 after QS", "meld 2 (QS QD QC) is not a run"),
        ("split 1 after 9H", "9H is the last card of meld 1"),
        ("add 6H to 7", "there is no meld 7"),
        ("lay 5S 5D as meld 2", "meld 2 exists already"),
        ("add 8C to 3; frobnicate 3", "move 2 ('frobnicate 3'): unknown move 'frobnicate'"),
        ("move 5C from 3", "move 1 ('move 5C from 3'): not understood"),
        ("add 8C to 3; add 8C to 3", "move 2 ('add 8C to 3'): your hand does not hold 8C"),
    ],
)
def test_moves_errors_name_the_move(moves: str, message: str) -> None:
    from rami.moves import MoveError
    from rami.puzzles.answers import read_answer

    with pytest.raises(MoveError, match=None) as caught:
        read_answer(_puzzle(DEMO), moves)
    assert message in str(caught.value)


def test_cli_check_moves(tmp_path: Path) -> None:
    pack = pack_file(tmp_path, DEMO)  # the queens are pruned: 3H..9H | 5C 6C 7C
    solved = runner().invoke(
        puzzle_app,
        [
            "check",
            str(pack),
            "--answer",
            "split 1 after 6H; add 6H to 3; add 8C to 2; move 5C from 2 to 4; add 5S 5D to 4",
        ],
    )
    assert solved.exit_code == 0, solved.output
    assert "Solved" in solved.output
    wrong = runner().invoke(puzzle_app, ["check", str(pack), "--answer", "add 9S to 2"])
    assert wrong.exit_code == 2 and "move 1 ('add 9S to 2')" in wrong.output
    daily_moves = runner().invoke(
        puzzle_app,
        [
            "check",
            DAILY_2025_06_01,
            "--answer",
            "move 7C from 2 to 3; add TH to 1; add 6C 8C to 3",
            "--json",
        ],
    )
    assert daily_moves.exit_code == 0 and json.loads(daily_moves.stdout)["intended"]
