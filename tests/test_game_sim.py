"""Simulated games: every record replays clean, cards are conserved, records are the same for a
seed whatever the number of workers; ``rami simulate`` and ``rami replay`` end to end.

The bulk is beginner bots (no solver) in one-round games at 2, 3 and 4 players (BFmania also 6):
200 games per preset. A ``slow`` run plays 5,000 games per preset (``make test-slow``). Every
round must end by the rules, never at the engine's safety cap (docs/game.md, "Safety nets").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.game import GameOptions, make_bot, play_game
from rami.game.record import RecordError, replay
from rami.game.scoring import TURN_LIMIT
from rami.game.simulate import Simulation, process_pool, simulate
from rami.rules import PRESETS

ALL = list(PRESETS)
#: Games per player count in the bulk run: 200 per preset.
BULK = {2: 40, 3: 80, 4: 80}


def _counts(name: str, total: dict[int, int]) -> dict[int, int]:
    if name.startswith("bfmania"):  # 2 to 6 players
        return {2: total[2], 3: total[3] // 2, 4: total[4], 6: total[3] - total[3] // 2}
    return total


@pytest.fixture(scope="module")
def pool():
    """Two worker processes shared by the bulk runs (spawning costs a second or so)."""
    with process_pool(2) as executor:
        yield executor


def _check(name: str, players: int, games: int, seed: int, pool) -> dict:
    records: list[dict] = []
    simulation = Simulation(
        name, ("beginner",) * players, games, seed, GameOptions(max_rounds=1), verify=True
    )
    summary = simulate(simulation, 2, records.append, pool)
    assert summary["errors"] == []
    assert len(records) == games
    capped = [
        (game, number)
        for game, record in enumerate(records)
        for number, entry in enumerate(record["rounds"], 1)
        if entry["end"]["reason"] == TURN_LIMIT
    ]
    assert capped == [], f"{name}, {players} players: rounds at the safety cap {capped[:5]}"
    return summary


@pytest.mark.parametrize("name", ALL)
def test_bulk_beginner_games_replay_clean(name: str, pool) -> None:
    played = 0
    for players, games in _counts(name, BULK).items():
        _check(name, players, games, seed=players, pool=pool)
        played += games
    assert played >= 200


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL)
def test_many_games_replay_clean(name: str, pool) -> None:
    for players, games in _counts(name, {2: 1000, 3: 2000, 4: 2000}).items():
        _check(name, players, games, seed=1000 + players, pool=pool)


@pytest.mark.parametrize("name", ALL)
def test_full_games_to_the_end(name: str) -> None:
    """Whole games (to the target, or Rummikub's rounds) between beginners replay clean."""
    for seed in range(2):
        record = play_game(name, [make_bot("beginner", 1), make_bot("beginner", 2)], seed=seed)
        summary = replay(json.loads(json.dumps(record)))
        assert summary.rounds == len(record["rounds"])
        assert record["end"] in ("target", "elimination", "rounds", "max-rounds")


@pytest.mark.parametrize("name", ALL)
def test_solver_bots_games_replay_clean(name: str) -> None:
    """The confirmed bot's turns are the solver's, each judged by the referee."""
    records: list[dict] = []
    simulation = Simulation(
        name, ("confirmed", "beginner"), 2, 5, GameOptions(max_rounds=1), verify=True
    )
    summary = simulate(simulation, 1, records.append)
    assert summary["errors"] == [], summary["errors"]
    assert summary["solver_calls_per_turn"] > 0


def test_same_records_with_one_or_two_workers() -> None:
    runs = []
    for workers in (1, 2):
        records: list[dict] = []
        simulation = Simulation(
            "bfmania-30", ("confirmed", "beginner", "beginner"), 6, 42, GameOptions(max_rounds=2)
        )
        simulate(simulation, workers, records.append)
        runs.append([json.dumps(record) for record in records])
    assert runs[0] == runs[1]
    assert len(set(runs[0])) == 6


# ---------------------------------------------------------------- the CLI


def rami(*args: str):
    result = CliRunner().invoke(app, list(args), prog_name="rami")
    assert "Traceback" not in result.output
    return result


def test_simulate_and_replay_cli(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    result = rami(
        "simulate",
        "--rules",
        "rami-fou",
        "--players",
        "beginner,confirmed",
        "--games",
        "3",
        "--seed",
        "7",
        "--out",
        str(out),
        "--rounds",
        "1",
        "--json",
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 3 and [p["level"] for p in summary["players"]] == [
        "beginner",
        "confirmed",
    ]
    assert {level["level"] for level in summary["levels"]} == {"beginner", "confirmed"}
    lines = out.read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["rules"] == "rami-fou" for line in lines)
    refused = rami("simulate", "--rules", "rami-fou", "--games", "1", "--out", str(out))
    assert refused.exit_code == 2 and "--force" in refused.stderr
    text = rami(
        "simulate",
        "--rules",
        "rami-fou",
        "--games",
        "1",
        "--out",
        str(out),
        "--force",
        "--rounds",
        "1",
    )
    assert text.exit_code == 0 and "Elo" in text.stdout and "games/min" in text.stdout
    replayed = rami("replay", str(out))
    assert replayed.exit_code == 0, replayed.output
    assert "1 record replayed clean" in replayed.stdout


def test_replay_names_the_game_round_and_turn_of_a_corrupted_record(tmp_path: Path) -> None:
    records = [
        play_game(
            "rami-chinois",
            [make_bot("beginner", 1), make_bot("beginner", 2)],
            seed=s,
            options=GameOptions(max_rounds=1),
            game=s,
        )
        for s in range(2)
    ]
    # Corrupt game 1: a card of a table after some turn is changed.
    actions = records[1]["rounds"][0]["actions"]
    index = next(i for i, event in enumerate(actions) if event.get("table"))
    meld = actions[index]["table"][-1]
    cards = meld["cards"] if isinstance(meld, dict) else meld
    cards[0] = "KD" if cards[0] != "KD" else "QD"
    turn = sum(1 for event in actions[: index + 1] if "played" in event)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    result = rami("replay", str(path))
    assert result.exit_code == 1, result.output
    assert "1 of 2 record(s) do not replay" in result.stderr
    assert f"line 2 (game 1), round 1, turn {turn}, action {index + 1}: illegal" in result.stderr
    with pytest.raises(RecordError) as caught:
        replay(records[1])
    assert caught.value.round == 1 and caught.value.turn == turn


def test_replay_catches_a_changed_drawn_card_and_a_changed_score(tmp_path: Path) -> None:
    record = play_game(
        "bfmania-30",
        [make_bot("beginner", 1), make_bot("beginner", 2)],
        seed=3,
        options=GameOptions(max_rounds=1),
    )
    drawn = json.loads(json.dumps(record))
    event = next(e for e in drawn["rounds"][0]["actions"] if e.get("draw") == "stock")
    event["card"] = "KD" if event["card"] != "KD" else "QD"
    with pytest.raises(RecordError, match="the engine gives"):
        replay(drawn)
    scored = json.loads(json.dumps(record))
    scored["rounds"][0]["scores"][1] += 1
    with pytest.raises(RecordError, match="scores recorded"):
        replay(scored)
    dealt = json.loads(json.dumps(record))
    dealt["rounds"][0]["deal"]["stock"][0], dealt["rounds"][0]["deal"]["stock"][1] = (
        dealt["rounds"][0]["deal"]["stock"][1],
        dealt["rounds"][0]["deal"]["stock"][0],
    )
    if dealt != record:
        with pytest.raises(RecordError, match="deal"):
            replay(dealt)


def test_replay_unreadable_input_exits_2(tmp_path: Path) -> None:
    missing = rami("replay", str(tmp_path / "nothing.jsonl"))
    assert missing.exit_code == 2 and missing.stderr.startswith("error: ")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "rami-game"\n')
    result = rami("replay", str(bad))
    assert result.exit_code == 2 and "line 1" in result.stderr


@pytest.mark.parametrize("name", ALL)
def test_expert_games_replay_clean(name: str) -> None:
    """The expert's turns (solver turns with its own draws, discards and hold-backs)."""
    simulation = Simulation(
        name, ("expert", "beginner"), 1, 8, GameOptions(max_rounds=1), verify=True
    )
    summary = simulate(simulation, 1)
    assert summary["errors"] == [], summary["errors"]


def test_expert_is_deterministic() -> None:
    def one() -> str:
        bots = [make_bot("expert", 3), make_bot("confirmed", 4)]
        return json.dumps(play_game("cafe-rummy", bots, seed=21, options=GameOptions(max_rounds=1)))

    assert one() == one()


class _Cheat:
    """A bot whose turn the referee refuses (it lays cards it does not hold)."""

    level = "beginner"

    def act(self, view):
        from rami.game import Draw, Play
        from rami.notation import parse_table

        if view.phase == "draw":
            return Draw("stock")
        return Play(parse_table("AS 2S 3S"), parse_cards_("AS 2S 3S"), None)


def parse_cards_(text: str):
    from rami.cards import parse_cards

    return parse_cards(text)


def test_a_refused_bot_turn_is_an_internal_error_named_by_game(tmp_path: Path, monkeypatch) -> None:
    import rami.game.simulate as simulate_module

    monkeypatch.setattr(simulate_module, "make_bot", lambda level, seed: _Cheat())
    out = tmp_path / "games.jsonl"
    result = rami("simulate", "--rules", "rami-chinois", "--games", "2", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert "Game 0 (seed " in result.stdout and "GameInternalError" in result.stdout
    assert "proposed an illegal play at round 1, turn 1" in result.stdout
    assert "2 game(s) failed" in result.stderr
    assert out.read_text() == ""
