"""Bad input once let through, at the command line and in the library: an option given twice, a
JSON key given twice (the CLI, a batch line), a time limit that is not finite (the commands, a
batch, a game's review, the Python API), a batch line that is not UTF-8.

Each gets a clear, specific error (JSON under ``--json``) and a non-zero exit, never a traceback,
a hang or a wrong answer.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from support.cli import rami
from support.input_faults import json_error

from rami.cli.batch import solve_task
from rami.errors import NotationError, RamiError, UnknownRulesetError
from rami.notation import duplicate_key_path, loads_json
from rami.review.game import review_game
from rami.rules import get_ruleset

# ------------------------------------------------------------------ 5: an option given twice


@pytest.mark.parametrize(
    "spec",
    [
        "rami-chinois[jokers=0,jokers=4]",
        "rami-chinois[jokers=4, jokers=4]",
        "RAMI-CHINOIS[Jokers=0,jokers=4]",
        "bfmania-51[opening_pure_run=true,opening_pure_run=false]",
    ],
)
def test_an_option_given_twice_is_refused_naming_it(spec: str) -> None:
    name = spec.split("[")[1].split("=")[0].strip().lower()
    with pytest.raises(UnknownRulesetError, match=f"option '{name}' is given twice"):
        get_ruleset(spec)


def test_rules_and_solve_refuse_an_option_given_twice() -> None:
    result = rami("rules", "rami-chinois[jokers=0,jokers=4]")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: option 'jokers' is given twice in 'rami-chinois[jokers=0,jokers=4]'\n"
    )
    error = json_error(rami("solve", "--json", "- / TH / rami-chinois[jokers=0,jokers=4]"))
    assert "'jokers' is given twice" in str(error["message"])
    # Each option once is still fine.
    assert get_ruleset("rami-chinois[jokers=0]").jokers == 0


# ------------------------------------------------------------------ 4: a JSON key given twice


def test_loads_json_refuses_a_key_given_twice_naming_it() -> None:
    with pytest.raises(NotationError, match="duplicate key 'hand'") as caught:
        loads_json('{"hand": ["TH"], "hand": ["KS"]}')
    assert caught.value.loc == ("hand",)
    with pytest.raises(NotationError, match="duplicate key 'kind' in table\\[1\\]") as caught:
        loads_json('{"table": [["3H", "4H", "5H"], {"kind": "run", "kind": "set"}]}')
    assert caught.value.loc == ("table", 1, "kind")
    # The same key in two objects is no duplicate.
    assert loads_json('[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]


def test_duplicate_key_path_finds_the_key_the_decoder_stops_at() -> None:
    # The decoder completes the inner object first: its key is the one refused.
    text = '{"c": 1, "c": 2, "a": {"b": 1, "b": 2}}'
    assert duplicate_key_path(text) == ("a", "b")
    with pytest.raises(NotationError, match="duplicate key 'b' in a:"):
        loads_json(text)
    assert duplicate_key_path('{"a": {"b": 1}, "c": 1, "c": 2}') == ("c",)
    assert duplicate_key_path(b'[0, {"x": [{"y": 1, "y": 1}]}]') == (1, "x", 0, "y")
    assert duplicate_key_path('{"a": 1}') is None
    assert duplicate_key_path("{not json") is None


def test_the_cli_refuses_a_key_given_twice_instead_of_keeping_the_last() -> None:
    text = '{"table": [], "hand": ["TH"], "hand": ["KS"]}'
    result = rami("solve", text)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: duplicate key 'hand'")
    error = json_error(rami("solve", "--json", text))
    assert error["type"] == "NotationError" and error["loc"] == ["hand"]
    assert "duplicate key 'hand'" in str(error["message"])
    verdict = json.loads(rami("validate", "--json", text).stdout)
    assert verdict["valid"] is False and verdict["error"]["loc"] == ["hand"]


def test_a_batch_line_with_a_key_given_twice_gets_its_own_error(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text('{"table": [], "hand": ["TH"], "hand": ["KS"]}\n- / KS\n', encoding="utf-8")
    result = rami("solve", "--batch", str(batch), "--time-limit", "2")
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert "duplicate key 'hand'" in lines[0]["error"]
    assert lines[1]["hand"] == ["KS"] and "error" not in lines[1]


# ------------------------------------------------------------------ 3: only finite time limits

UNBOUNDED = ["inf", "1e309", "nan", "-inf", "Infinity"]


@pytest.mark.parametrize("limit", UNBOUNDED)
@pytest.mark.parametrize(
    "command",
    [
        ["solve", "- / TH"],
        ["solve", "--top", "3", "- / TH"],
        ["hint", "- / TH"],
    ],
)
def test_a_time_limit_that_is_not_finite_is_refused(command: list[str], limit: str) -> None:
    result = rami(*command, "--time-limit", limit)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --time-limit must be a finite number of seconds")
    error = json_error(rami(*command, "--json", "--time-limit", limit))
    assert "--time-limit must be a finite number" in str(error["message"])


def test_a_batch_with_an_unbounded_time_limit_solves_nothing(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text("- / TH\n", encoding="utf-8")
    result = rami("solve", "--batch", str(batch), "--time-limit", "inf")
    assert result.exit_code == 2 and result.stdout == ""
    assert "finite" in result.stderr


def test_review_game_refuses_an_unbounded_time_limit(tmp_path: Path) -> None:
    with pytest.raises(RamiError, match="finite positive"):
        review_game({}, time_limit=math.inf)
    records = tmp_path / "games.jsonl"
    records.write_text("{}\n", encoding="utf-8")
    error = json_error(rami("review", "--game", str(records), "--time-limit", "1e309", "--json"))
    assert "finite" in str(error["message"])


# ------------------------------------------------------------------ 2: a batch line not UTF-8


def test_a_batch_line_that_is_not_utf8_gets_its_own_error(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(
        b"\xef\xbb\xbf- / KS\n"
        + "- / 9\u2665 T\u2665\n".encode()[:10]
        + b"\xff TH\n"
        + b'{"table": [], "hand": ["QH"]}\n\n- / \xc3\n'
    )
    for source, stdin in ((str(batch), None), ("-", batch.read_bytes())):
        result = rami("solve", "--batch", source, "--time-limit", "2", stdin=stdin)
        assert result.exit_code == 2, result.output
        lines = [json.loads(line) for line in result.stdout.splitlines()]
        assert [line["line"] for line in lines] == [1, 2, 3, 5]
        assert lines[0]["hand"] == ["KS"] and lines[2]["hand"] == ["QH"]
        assert lines[1] == {"line": 2, "error": "not UTF-8 text (byte 0xFF, the line's byte 11)"}
        assert lines[3] == {"line": 5, "error": "not UTF-8 text (byte 0xC3, the line's byte 5)"}
        assert result.stderr == "error: 2 of 4 positions failed\n"


def test_solve_task_gives_an_undecodable_line_its_error_too() -> None:
    """The same line sent to a worker (--ray) as plain data."""
    answer = solve_task(
        {
            "line": 7,
            "text": b"- / \xffKS".decode("utf-8", "surrogateescape"),
            "objective": "points",
            "time_limit": 1.0,
            "min_moves": True,
        }
    )
    assert answer == {
        "result": {"line": 7, "error": "not UTF-8 text (byte 0xFF, the line's byte 5)"},
        "internal": False,
    }


@pytest.mark.parametrize("limit", [float("inf"), float("nan"), 0.0, -1.0])
def test_the_python_api_refuses_an_unbounded_or_empty_time_limit(limit: float) -> None:
    from rami.errors import RamiError
    from rami.notation import parse_position
    from rami.solver.api import solve

    with pytest.raises(RamiError, match="finite positive number of seconds"):
        solve(parse_position("- / 7H 8H 9H / rami-chinois"), time_limit=limit)
