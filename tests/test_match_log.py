"""A match's log (rami.game.match_log; docs/game.md, "Matches"): every finished pair kept as it
ends, a killed match resumed from its log to the report an unbroken run gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.game import GameError
from rami.game.match_log import MatchLog, read_log
from rami.game.paired import FIXED, Match, run_match
from rami.game.presets import GameOptions

ONE_ROUND = GameOptions(max_rounds=1)
#: What a resumed report may differ in: the time it took (the pairs replayed are timed again).
TIMED = {"move_ms", "games_per_minute", "seconds", "resumed"}


def logged_match(match: Match, path: Path) -> dict[str, Any]:
    logged, keep = read_log(path, match)
    log = MatchLog(path, match, keep)
    try:
        return run_match(match, logged=logged, log=log.pair)
    finally:
        log.close()


def untimed(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key not in TIMED}


def pair_lines(path: Path) -> list[tuple[int, list[float], int]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return [(line["index"], line["scores"], line["turns"]) for line in lines]


def test_a_match_cut_short_goes_on_from_its_log_to_the_same_report(tmp_path: Path) -> None:
    match = Match("rami-chinois", "beginner", "intermediate", 4, 5, 2, ONE_ROUND, FIXED)
    whole = tmp_path / "whole.jsonl"
    unbroken = logged_match(match, whole)
    assert unbroken["pairs"] == 4 and unbroken["resumed"] == 0
    assert [index for index, _, _ in pair_lines(whole)] == [0, 1, 2, 3]
    lines = whole.read_text().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:3]) + lines[3][:40])  # killed while writing pair 2
    resumed = logged_match(match, cut)
    assert resumed["resumed"] == 2
    assert untimed(resumed) == untimed(unbroken)
    assert pair_lines(cut) == pair_lines(whole)  # the cut line dropped, pairs 2 and 3 again
    more = logged_match(Match(**{**match.__dict__, "pairs": 5}), cut)  # a longer match
    assert more["pairs"] == 5 and more["resumed"] == 4
    assert pair_lines(cut)[:4] == pair_lines(whole)


def test_a_decided_match_plays_nothing_more(tmp_path: Path) -> None:
    match = Match("rami-chinois", "beginner", "intermediate", 30, 1, 2, ONE_ROUND)
    path = tmp_path / "log.jsonl"
    first = logged_match(match, path)
    assert first["sprt"]["result"] == "rejected" and first["pairs"] < 30
    text = path.read_text()
    again = logged_match(match, path)
    assert path.read_text() == text and again["resumed"] == first["pairs"]
    assert again == {**first, "resumed": first["pairs"]}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("garbage\n", "line 1: not a JSON line of a match log"),
        ("[1]\n", "line 1: not a JSON object"),
        ('{"match": 1}\n', "logs another match: its first line is not a match"),
        ("{}", "its first line is not whole"),
    ],
)
def test_a_file_that_is_not_this_match_s_log_is_refused(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text(text)
    match = Match("rami-chinois", "beginner", "beginner", 2, 1, 2, ONE_ROUND, FIXED)
    with pytest.raises(GameError, match=words):
        read_log(path, match)


def test_the_command_names_what_differs_and_keeps_the_file(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "log.jsonl"
    common = ["--pairs", "2", "--rounds", "1", "--fixed", "--log", str(path), "--json"]
    done = runner.invoke(app, ["match", "beginner", "beginner", *common])
    assert done.exit_code == 0, done.output
    text = path.read_text()
    other = runner.invoke(app, ["match", "beginner", "intermediate", *common])
    assert other.exit_code == 2
    error = json.loads(other.stdout)["error"]
    assert error["type"] == "GameError"
    assert error["message"] == (
        f'{path} logs another match: its baseline is "beginner", not "intermediate"'
    )
    assert path.read_text() == text
    lines = text.splitlines(keepends=True)
    path.write_text(lines[0] + lines[2])  # pair 1 where pair 0 should be
    skipped = runner.invoke(app, ["match", "beginner", "beginner", *common])
    assert skipped.exit_code == 2 and "line 2: not the log of pair 0" in skipped.stdout
