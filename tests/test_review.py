"""The review of a turn played (rami.review) and of whole game records (rami.review.game).

Every grade on a position whose penalties are worked out by hand, the key move missed, an
illegal turn with the referee's reason, the CLI and its errors, and a game record: every play
graded, grades and accuracy recomputed from the turns.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from rami import parse_position, review, solve
from rami.cards import parse_cards
from rami.cli.main import app
from rami.errors import NotationError
from rami.game.record import RecordError
from rami.lang import FRENCH
from rami.melds import Meld
from rami.position import parse_table
from rami.review import GRADES, grade_for, played_from_tables
from rami.review.game import review_game

DEMO = parse_position(
    "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened"
)
#: The demo's best turn leaves KD: 10 points.
BEST_LEFT = 10
SMALL = parse_position("3H 4H 5H / 6H 2H / rami-chinois opened")  # best: 2H..6H, 0 left


def _table(text: str) -> tuple[Meld, ...]:
    return parse_table(text)


@pytest.mark.parametrize(
    ("lost", "short", "grade"),
    [
        (0, 0, "best"),
        (0, 1, "good"),
        (1, 0, "good"),
        (4, 2, "good"),
        (5, 0, "inaccuracy"),
        (9, 0, "inaccuracy"),
        (10, 0, "mistake"),
        (19, 0, "mistake"),
        (20, 0, "blunder"),
        (-3, 0, "best"),
    ],
)
def test_grade_thresholds(lost: int, short: int, grade: str) -> None:
    assert grade_for(lost, short) == grade
    assert [name for name, _ in GRADES] == ["best", "good", "inaccuracy", "mistake"]


def test_the_best_turn_is_graded_best_and_misses_nothing() -> None:
    best = solve(DEMO)
    result = review(DEMO, best.table, best.played)
    assert result.legal and result.grade == "best" and result.points_lost == 0
    assert result.missed is None


def test_good_two_points_lost() -> None:
    # 6H on the run leaves 2H (2 points); the best plays both (2H 3H 4H 5H 6H).
    result = review(SMALL, _table("3H 4H 5H 6H"))
    assert (result.grade, result.points_lost, result.verdict.penalty_after) == ("good", 2, 2)
    # The best turn's move is one step, 2H and 6H together: the turn played does not make it.
    assert result.missed is not None
    assert result.missed.text == "add 2H 6H from your hand to meld 1"


def test_inaccuracy_six_points_lost() -> None:
    # QH on the queens, 8C on the clubs, 5C to a new set with 5S 5D: 6H and KD left, 16.
    result = review(DEMO, _table("3H 4H 5H 6H 7H 8H 9H | QS QH QD QC | 6C 7C 8C | 5S 5D 5C"))
    assert result.grade == "inaccuracy" and result.points_lost == 16 - BEST_LEFT
    assert result.missed is not None
    assert result.missed.text == "split 3H..9H (meld 1) after 6H: 7H 8H 9H becomes meld 4"


def test_mistake_sixteen_points_lost() -> None:
    result = review(DEMO, _table("3H 4H 5H 6H 7H 8H 9H | QS QH QD QC | 5C 6C 7C 8C"))
    assert (result.grade, result.points_lost) == ("mistake", 26 - BEST_LEFT)
    assert result.played == tuple(sorted(played_from_tables(DEMO, result.table_after)))
    assert [move.kind for move in result.moves] == ["add", "add"]
    assert result.cards_short == 3


def test_blunder_playing_nothing() -> None:
    result = review(DEMO, DEMO.table, ())
    assert (result.grade, result.points_lost) == ("blunder", 44 - BEST_LEFT)
    assert result.moves == ()
    assert result.missed is not None and result.missed.kind == "split"


def test_illegal_turn_gives_the_referees_reason_and_no_grade() -> None:
    result = review(DEMO, _table("3H 4H 5H 6H 7H 8H 9H | QS QH QD | 5C 6C 7C"), ("QH",))
    assert not result.legal and result.grade is None and result.points_lost is None
    assert any("QC" in problem for problem in result.verdict.problems)
    data = result.to_json()
    assert data["legal"] is False and data["grade"] is None and data["problems"]
    assert data["best"]["penalty_after"] == BEST_LEFT


def test_review_takes_the_text_notation_the_cli_takes() -> None:
    """Issue 36: ``rami.review(position, "3H 4H 5H 6H")`` raised a bare AttributeError. The
    table, the cards played and the discard read as ``rami review --table/--played/--discard``
    read them."""
    from rami.review import review as review_turn

    as_melds = review(SMALL, _table("3H 4H 5H 6H"))
    as_text = review(SMALL, "3H 4H 5H 6H")
    assert as_text.table_after == as_melds.table_after
    assert (as_text.grade, as_text.points_lost, as_text.played) == ("good", 2, as_melds.played)
    # The position, each meld, the cards played and the discard as text.
    both = review_turn(
        "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened",
        ["3H 4H 5H 6H 7H 8H 9H", "QS QH QD QC", "5C 6C 7C 8C"],
        "QH 8C",
    )
    assert both.legal and both.played == tuple(sorted(parse_cards("QH 8C")))
    empty = review_turn("- / 7H 8H 9H 2C / bfmania-30 opened", "-", "-", "2C")
    assert empty.legal and empty.played == () and str(empty.discard) == "2C"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("3H 4H 5X", "meld 1 ('3H 4H 5X'): unknown card '5X'"),
        ("3H 4H 5H |", "meld 2 is empty"),
        (["3H 4H 5H 6H", "7X"], "table after the turn, meld 2: unknown card '7X'"),
        (
            [Meld.parse("3H 4H 5H 6H"), 7],
            "table after the turn, meld 2: expected a Meld or its text ('3H 4H 5H'), got int",
        ),
    ],
)
def test_review_bad_text_raises_a_notation_error(table: object, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        review(SMALL, table)


def test_review_json_round_trips_and_names_thresholds() -> None:
    data = review(SMALL, _table("3H 4H 5H 6H")).to_json()
    text = json.dumps(data)
    assert json.loads(text)["grades"] == {"best": 0, "good": 4, "inaccuracy": 9, "mistake": 19}
    assert data["turn"]["moves"][0]["text"] == "add 6H from your hand to meld 1"
    assert data["missed"]["kind"] == "add"


def _rami(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), prog_name="rami")


def test_cli_review_text_and_json() -> None:
    text = str(SMALL)
    done = _rami("review", text, "--table", "3H 4H 5H 6H")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == "Grade: good (2 points lost)"
    assert "Missed: add 2H 6H from your hand to meld 1" in done.stdout
    done = _rami("review", "--json", text, "--table", "3H 4H 5H 6H", "--played", "6H")
    assert done.exit_code == 0 and json.loads(done.stdout)["grade"] == "good"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["review", "3H 4H 5H / 6H / rami-chinois opened"], "missing POSITION and --table"),
        (["review", "3H 4H 5H / 6H / rami-chinois opened", "--table", "3H 4H ZZ"], "--table"),
        (
            ["review", "3H 4H 5H / 6H / rami-chinois opened", "--table", "-", "--played", "6X"],
            "--played",
        ),
        (
            ["review", "3H 4H 5H / 6H / rami-chinois opened", "--table", "-", "--discard", "Q"],
            "--discard",
        ),
    ],
)
def test_cli_review_bad_input(args: list[str], message: str) -> None:
    done = _rami(*args)
    assert done.exit_code == 2 and message in done.stderr and "Traceback" not in done.stderr
    done = _rami(*args, "--json")
    assert done.exit_code == 2 and message in json.loads(done.stdout)["error"]["message"]


def _one_game(tmp_path: Path) -> Path:
    out = tmp_path / "game.jsonl"
    done = _rami(
        "simulate",
        "--out",
        str(out),
        "--players",
        "beginner,confirmed",
        "--games",
        "1",
        "--rounds",
        "1",
        "--seed",
        "5",
    )
    assert done.exit_code == 0, done.output
    return out


def test_game_record_review(tmp_path: Path) -> None:
    path = _one_game(tmp_path)
    record = json.loads(path.read_text().splitlines()[0])
    reviewed = review_game(record, time_limit=5)
    plays = [
        event
        for entry in record["rounds"]
        for event in entry["actions"]
        if isinstance(event, dict) and "played" in event
    ]
    assert len(reviewed.turns) == len(plays) > 0
    for player in reviewed.players:
        turns = [turn for turn in reviewed.turns if turn.seat == player.seat]
        assert sum(player.grades.values()) == len(turns)
        best = sum(t.review.penalty_before - t.review.best.penalty_after for t in turns)
        shed = sum(t.review.penalty_before - t.review.verdict.penalty_after for t in turns)
        assert player.accuracy == (100.0 if best <= 0 else round(100 * min(shed, best) / best, 1))
        for turn in turns:
            assert turn.review.legal
            assert turn.review.grade == grade_for(
                turn.review.points_lost or 0, turn.review.cards_short or 0
            )
    done = _rami("review", "--game", str(path), "--json", "--lang", "fr", "--time-limit", "5")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)["games"][0]
    assert [p["accuracy"] for p in data["players"]] == [p.accuracy for p in reviewed.players]
    assert [t["missed"] for t in data["turns"]] == [
        t.review.missed.said(FRENCH) if t.review.missed is not None else None
        for t in reviewed.turns
    ]
    lines = reviewed.text_lines(FRENCH)
    assert lines[0].endswith(f": {len(reviewed.turns)} tours revus")
    assert sum(line.startswith("  manche ") for line in lines) == len(reviewed.turns)
    assert [
        line.split(" : précision ")[1].split(" %")[0] for line in lines if " : précision " in line
    ] == [f"{p.accuracy:g}" for p in reviewed.players]


def test_a_record_that_does_not_replay_is_refused(tmp_path: Path) -> None:
    path = _one_game(tmp_path)
    record = json.loads(path.read_text().splitlines()[0])
    record["rounds"][0]["scores"] = [999, 999]
    with pytest.raises(RecordError):
        review_game(record)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(record) + "\n")
    done = _rami("review", "--game", str(broken))
    assert done.exit_code == 2 and "does not replay" in done.stderr


def test_rami_review_stays_the_function_whatever_was_imported_first() -> None:
    """Loading the package rami.review after rami would replace the function rami.review."""
    import subprocess
    import sys

    code = "import rami.review.game, rami; assert callable(rami.review), rami.review"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
