"""Puzzles mined from play (rami.puzzles.mine, ``rami puzzle mine``): the turns of the games
``rami simulate`` plays, judged by the generator's judge, each traced back to its game and turn;
the same pack here and on Ray; the shipped mined pack sound; the daily puzzle from both packs."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date, timedelta

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.game.simulate import Simulation, run_game
from rami.notation import format_position, parse_position
from rami.puzzles.difficulty import TIERS
from rami.puzzles.mine import played_turns, source_game
from rami.puzzles.recheck import verify
from rami.puzzles.record import (
    DAILY_EPOCH,
    DAILY_MINED_SINCE,
    Puzzle,
    daily,
    daily_order,
    mined_pack,
    shipped_pack,
    shipped_packs,
)
from rami.puzzles.themes import THEMES

#: One round of a two-beginner game without jokers: a few seconds, and it holds puzzles.
SMALL = [
    "--games",
    "1",
    "--seed",
    "3",
    "--rounds",
    "1",
    "--players",
    "beginner,beginner",
    "--rules",
    "rami-chinois[jokers=0]",
]


def rami(*args: str):
    return CliRunner().invoke(app, list(args))


def _melds(position) -> Counter:
    return Counter(tuple(sorted(meld.cards)) for meld in position.table)


def test_the_turns_mined_are_those_of_the_simulated_game():
    simulation = Simulation("rami-chinois", ("beginner", "beginner"), 2, 9).checked()
    record, turns = played_turns(simulation, 1)
    assert record == run_game(simulation, 1).record  # game i of 'rami simulate --seed S'
    plays = sum(1 for entry in record["rounds"] for event in entry["actions"] if "played" in event)
    assert len(turns) >= plays > 0
    assert {turn.round for turn in turns} == set(range(1, len(record["rounds"]) + 1))


@pytest.fixture(scope="module")
def small_pack(tmp_path_factory):
    out = tmp_path_factory.mktemp("mine") / "mined.jsonl"
    result = rami("puzzle", "mine", *SMALL, "--json", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, json.loads(result.stdout)


def test_mining_keeps_sound_rated_puzzles_with_their_source(small_pack):
    out, summary = small_pack
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert summary["puzzles"] == len(records) >= 1
    assert summary["positions"] > summary["candidates"] >= len(records)
    assert sum(summary["tiers"].values()) == len(records)
    assert summary["per_1000_games"]["all"] == len(records) * 1000
    assert len({r["id"] for r in records}) == len(records)
    for record in records:
        assert record["profile"] == "mined" and record["difficulty"]["tier"] in TIERS
        assert set(record["themes"]) <= set(THEMES)
        assert record["source"]["simulation"]["seed"] == 3 and record["source"]["game"] == 0
    first = Puzzle.from_record(records[0])
    assert verify(first) == []  # sound, unique (no cook), metrics reproduce


def test_a_mined_puzzle_is_its_game_position_without_the_melds_that_play_no_part(small_pack):
    out, _ = small_pack
    for line in out.read_text().splitlines():
        record = json.loads(line)
        _game, turn = source_game(record)
        assert format_position(turn.position) == record["source"]["position"]
        puzzle = Puzzle.from_record(record)
        assert sorted(puzzle.position.hand) == sorted(turn.position.hand)
        assert not _melds(puzzle.position) - _melds(turn.position)


def test_mining_on_ray_writes_the_local_pack(ray_cluster, small_pack, tmp_path):
    out, summary = small_pack
    remote = tmp_path / "ray.jsonl"
    result = rami("puzzle", "mine", *SMALL, "--ray", "auto", "--json", "--out", str(remote))
    assert result.exit_code == 0, result.output
    assert remote.read_text() == out.read_text()
    there = json.loads(result.stdout)
    assert there["executor"] == "ray" and there["tiers"] == summary["tiers"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "rami-fou"], "rami-chinois"),
        (["--players", "beginner,grandmaster"], "unknown bot level"),
        (["--players", "beginner"], "2 to"),
    ],
)
def test_mine_refuses_bad_input(tmp_path, args, message):
    result = rami("puzzle", "mine", "--games", "1", *args, "--out", str(tmp_path / "x.jsonl"))
    assert result.exit_code == 2 and message in result.output, result.output


def test_the_shipped_mined_pack_is_mined_and_apart_from_the_generated_one():
    mined = mined_pack()
    assert len(mined) >= 10 and all(p.mined for p in mined)
    assert not {p.id for p in mined} & {p.id for p in shipped_pack()}
    assert len({p.id for p in mined}) == len(mined)
    assert {p.position.rules.jokers for p in mined} == {0, 4}
    for puzzle in mined[:2]:  # each replays a whole game: two of them here, every one in slow
        _game, turn = source_game(puzzle.record)
        assert sorted(puzzle.position.hand) == sorted(turn.position.hand)
        assert not _melds(puzzle.position) - _melds(turn.position)
        assert parse_position(puzzle.record["source"]["position"]) == turn.position


#: The mined puzzles ``make test`` re-verifies on every run (every tenth, by id: about 10 s); the
#: slow suite re-verifies them all (about 100 s for the 198).
SAMPLED_MINED = sorted(mined_pack(), key=lambda puzzle: puzzle.id)[::10]


@pytest.mark.parametrize("puzzle", SAMPLED_MINED, ids=lambda puzzle: puzzle.id)
def test_shipped_mined_puzzles_reverify(puzzle):
    """Sound, unique (0 cooks), nothing superfluous, metrics and tier reproduce."""
    assert verify(puzzle) == []


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", mined_pack(), ids=lambda puzzle: puzzle.id)
def test_every_shipped_mined_puzzle_reverifies(puzzle):
    assert verify(puzzle) == []


@pytest.mark.parametrize("puzzle", mined_pack(), ids=lambda puzzle: puzzle.id)
def test_every_shipped_mined_puzzle_comes_from_its_game(puzzle):
    """Its stored source game replays clean through today's engine and referee and reaches the
    puzzle's whole position at the recorded turn (rami.puzzles.mine_sources)."""
    _game, turn = source_game(puzzle.record)
    assert format_position(turn.position) == puzzle.record["source"]["position"]


def test_the_daily_puzzle_draws_from_both_packs_from_its_day():
    generated, everything = shipped_pack(), shipped_packs()
    before = DAILY_MINED_SINCE - timedelta(days=1)
    assert daily(before) is daily_order(generated)[(before - DAILY_EPOCH).days % len(generated)]
    cycle = {daily(DAILY_MINED_SINCE + timedelta(days=n)).id for n in range(len(everything))}
    assert cycle == {p.id for p in everything}  # a full cycle shows every puzzle once
    assert daily(date(2027, 3, 1)) == daily(date(2027, 3, 1))
    # A pack of generated puzzles only keeps its days whatever the date.
    assert (
        daily(date(2027, 3, 1), generated)
        is daily_order(generated)[(date(2027, 3, 1) - DAILY_EPOCH).days % len(generated)]
    )
