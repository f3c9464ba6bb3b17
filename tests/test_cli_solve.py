"""``rami solve``, exit code and output together: the demo's report, every input form alike, JSON,
an opening, nothing to play, the objective and min-moves options, bad options and positions
refused, a solver bug without a traceback; and ``rami solve --batch`` (a bad line does not stop
the others, standard input, a missing or empty file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import BATCH, DEMO, DEMO_JSON, DEMO_TXT, OPENING, bad, ok, rami

from rami.solver.api import Solution


def _section(out: str, heading: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    section = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        section.append(line.strip())
    return section


def test_solve_demo_text() -> None:
    out = ok("solve", str(DEMO_TXT)).stdout
    lines = out.splitlines()
    assert lines[0].startswith("Status: optimal (objective: points, ")
    assert lines[0].endswith(" ms)")
    assert "Cards played (5): 5S 6H QH 5D 8C" in lines
    assert "Hand left (1): KD" in lines
    assert "Penalty: 44 -> 10" in lines
    assert "Cards moved: 4" in lines
    table = _section(out, "New table (5 melds):")
    assert [line.split(". ")[0] for line in table] == ["1", "2", "3", "4", "5"]
    melds = sorted(sorted(line.split(". ", 1)[1].split()) for line in table)
    assert sorted(["QS", "QH", "QD", "QC"]) in melds
    assert sorted(["5S", "5D", "5C"]) in melds
    moves = _section(out, "Moves (")
    assert moves[0].startswith("1. split 3H..9H (meld 1)")
    assert all(move.split(". ")[0] == str(number) for number, move in enumerate(moves, 1))


def test_solve_all_input_forms_agree() -> None:
    expected = json.loads(ok("solve", "--json", str(DEMO_TXT)).stdout)
    for args, stdin in [
        ([str(DEMO_JSON)], None),
        (["-"], DEMO),
        (["-"], DEMO_JSON.read_text(encoding="utf-8")),
        ([DEMO], None),
    ]:
        data = json.loads(ok("solve", "--json", *args, stdin=stdin).stdout)
        data.pop("ms")
        assert data == {key: value for key, value in expected.items() if key != "ms"}


def test_solve_json() -> None:
    data = json.loads(ok("solve", "--json", str(DEMO_TXT)).stdout)
    assert data["status"] == "optimal"
    assert data["rules"] == "rami-chinois"
    assert data["objective"] == "points"
    assert data["min_moves"] is True
    assert (data["penalty_before"], data["penalty_after"]) == (44, 10)
    assert data["cards_played"] == 5
    assert data["cards_moved"] == 4
    assert data["hand"] == ["KD"]
    assert isinstance(data["ms"], int | float)
    assert data["moves"][0]["kind"] == "split"
    assert all(set(move) == {"kind", "cards", "from", "to", "text"} for move in data["moves"])


def test_solve_opening() -> None:
    out = ok("solve", OPENING).stdout
    assert "Opens this turn." in out.splitlines()
    assert "Penalty: 53 -> 10" in out


def test_solve_nothing_to_play() -> None:
    out = ok("solve", "- / 2C 5D 9H").stdout
    assert "Cards played (0): none" in out
    assert "Hand left (3): 5D 9H 2C" in out or "Hand left (3): 9H 5D 2C" in out
    assert "  (none: nothing can be played)" in out
    assert "  (empty)" in out


def test_solve_objective_and_min_moves_options() -> None:
    data = json.loads(
        ok("solve", "--json", "--objective", "cards", "--no-min-moves", str(DEMO_TXT)).stdout
    )
    assert data["objective"] == "cards"
    assert data["min_moves"] is False
    assert data["cards_played"] == 5
    out = ok("solve", "--no-min-moves", "--time-limit", "5", str(DEMO_TXT)).stdout
    assert "cards moved not minimised" in out.splitlines()[0]


def test_solve_no_min_moves_numbers_melds_as_the_moves_do() -> None:
    out = ok("solve", "--no-min-moves", str(DEMO_TXT)).stdout
    table = dict(line.split(". ", 1) for line in _section(out, "New table ("))
    assert table["1"].startswith("3H")
    assert table["2"].split()[0] == "QS"
    for move in _section(out, "Moves ("):
        if "becomes meld" in move:
            number = move.rsplit("meld ", 1)[1]
            assert table[number].split()[-1] == "9H"


def test_solve_bad_objective() -> None:
    result = rami("solve", "--objective", "fun", str(DEMO_TXT))
    assert result.exit_code == 2
    assert "--objective" in result.output


def test_solve_bad_time_limit() -> None:
    assert bad("solve", "--time-limit", "0", str(DEMO_TXT)) == (
        "error: --time-limit must be a positive number of seconds, got 0.0\n"
    )


def test_solve_needs_a_position_or_a_batch() -> None:
    assert bad("solve") == (
        "error: missing POSITION (a file, '-' or the position inline), or --batch FILE\n"
    )
    assert bad("solve", str(DEMO_TXT), "--batch", str(BATCH)) == (
        "error: give either POSITION or --batch FILE, not both\n"
    )


def test_solve_unsupported_rule_option() -> None:
    message = bad("solve", "5S 6S 7S / 7H 8H 9H 2C / rami-fou[open_and_rearrange_same_turn=true]")
    assert message == (
        "error: opening and laying off (or rearranging) in the same turn "
        "(open_and_rearrange_same_turn) is not solved for presets that discard\n"
    )


def test_solve_invalid_position() -> None:
    assert bad("solve", "7H 8H / 2C") == (
        "error: invalid position (1 problem):\n"
        "  - meld 1: meld 7H 8H has 2 cards: a meld needs at least 3\n"
    )


def test_solve_reports_solver_bug_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from rami.errors import SolverBugError
    from rami.solver import api

    def broken(*args: object, **kwargs: object) -> Solution:
        raise SolverBugError("the referee rejected meld 3")

    monkeypatch.setattr(api, "solve", broken)
    result = rami("solve", str(DEMO_TXT))
    assert result.exit_code == 1
    assert result.stderr == (
        "error: internal solver error (a bug, please report it): the referee rejected meld 3\n"
    )


# ---------------------------------------------------------------- solve --batch


def test_batch_example() -> None:
    result = ok("solve", "--batch", str(BATCH))
    lines = result.stdout.splitlines()
    assert len(lines) == len(BATCH.read_text(encoding="utf-8").splitlines())
    for number, line in enumerate(lines, start=1):
        data = json.loads(line)
        assert data["line"] == number
        assert data["status"] == "optimal"
        assert isinstance(data["ms"], int | float)
        assert "moves" in data
    assert json.loads(lines[0])["penalty_after"] == 10


def test_batch_bad_lines_do_not_stop_the_others(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        '{"hand": ["2C"]}\n'
        "\n"
        '{"hand": ["2C", "ZZ"]}\n'
        '{"hand": ["AS", "2S", "3S"]\n'
        '{"table": [["7H", "8S", "9H"]]}\n'
        '{"hand": ["5S"], "rules": "rami-fou[open_and_rearrange_same_turn=true]"}\n'
        "- / AS 2S 3S 4S\n",
        encoding="utf-8",
    )
    result = rami("solve", "--batch", str(path))
    assert result.exit_code == 2
    assert result.stderr == "error: 4 of 6 positions failed\n"
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["line"] for row in rows] == [1, 3, 4, 5, 6, 7]
    assert rows[0]["status"] == "optimal"
    assert rows[1] == {
        "line": 3,
        "error": "hand[1]: unknown card 'ZZ': expected a rank "
        "(A 2-9 T/10 J Q K) and a suit (S H D C or ♠ ♥ ♦ ♣), or * for a joker",
    }
    assert rows[2]["error"].startswith("malformed JSON at line 1 column")
    assert rows[3] == {
        "line": 5,
        "error": "invalid position (1 problem): meld 1: run 7H 8S 9H mixes suits (S, H)",
        "problems": ["meld 1: run 7H 8S 9H mixes suits (S, H)"],
    }
    assert rows[4]["error"].startswith("opening and laying off (or rearranging) in the same")
    assert rows[5]["cards_played"] == 4
    assert set(rows[5]) >= {"status", "ms", "moves"}


def test_batch_from_stdin_with_options() -> None:
    result = ok(
        "solve",
        "--batch",
        "-",
        "--objective",
        "cards",
        "--no-min-moves",
        stdin=BATCH.read_text(encoding="utf-8"),
    )
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(row["objective"] == "cards" and row["min_moves"] is False for row in rows)


def test_batch_missing_file() -> None:
    assert bad("solve", "--batch", "nope.jsonl") == (
        "error: cannot read 'nope.jsonl': no such file\n"
    )


def test_batch_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    assert ok("solve", "--batch", str(path)).stdout == ""
