"""``rami play --out / --resume / --target / --rounds / --lang``: a game kept, continued, set."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.game.actions import GameInternalError
from rami.game.human_game import play_in_terminal


def play(*args: str, stdin: str, env: dict[str, str] | None = None):
    result = CliRunner().invoke(app, ["play", *args], input=stdin, prog_name="rami", env=env)
    assert "Traceback" not in result.output
    return result


def record(path: Path) -> dict:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def actions(path: Path) -> list[dict]:
    return [event for entry in record(path)["rounds"] for event in entry["actions"]]


def test_the_record_is_written_as_the_game_goes_and_a_quit_keeps_it(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    result = play("--vs", "beginner", "--seed", "3", "--out", str(out), stdin="done\ndone\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"The game so far is kept in {out}: 'rami play --resume {out}'" in result.stdout
    kept = record(out)
    assert kept["format"] == "rami-game" and kept["seed"] == 3 and "winners" not in kept
    assert [player["level"] for player in kept["players"]] == ["human", "beginner"]
    assert kept["options"]["target"] == 100
    # Two turns of each player, and the person's third draw: nothing played is lost.
    assert [(event["seat"], "draw" in event) for event in actions(out)] == [
        (0, True),
        (0, False),
        (1, True),
        (1, False),
        (0, True),
        (0, False),
        (1, True),
        (1, False),
        (0, True),
    ]


def test_resume_goes_on_where_the_record_stops(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    play("--vs", "beginner", "--seed", "3", "--out", str(out), stdin="done\ndone\nquit\n")
    before = actions(out)
    result = play("--resume", str(out), stdin="hand\ndone\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Game resumed from" in result.stdout and "9 recorded actions" in result.stdout
    assert "You draw 9C" in result.stdout  # the draw the record stopped after
    after = actions(out)
    assert after[: len(before)] == before and len(after) == len(before) + 4
    # The same table again: the rules, the players and the seed come from the record.
    result = play("--resume", str(out), "--seed", "4", stdin="")
    assert result.exit_code == 2 and "--seed: a resumed game keeps" in result.stderr


def test_a_whole_game_kept_replays_clean_and_cannot_be_resumed(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    result = play(
        "--vs", "beginner", "--seed", "3", "--target", "1", "--out", str(out), stdin="done\n" * 300
    )
    assert result.exit_code == 0, result.output
    assert (
        "Game over: P2 (beginner) wins. Totals: You 565 points, P2 (beginner) 93 points."
        in result.stdout
    )
    replayed = CliRunner().invoke(app, ["replay", str(out)])
    assert replayed.exit_code == 0 and "1 record replayed clean" in replayed.output
    result = play("--resume", str(out), stdin="")
    assert result.exit_code == 2 and "that game is over" in result.stderr


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    out.write_text("precious\n")
    result = play("--vs", "beginner", "--seed", "3", "--out", str(out), stdin="quit\n")
    assert result.exit_code == 2 and f"--resume {out}" in result.stderr
    assert out.read_text() == "precious\n"
    result = play("--vs", "beginner", "--seed", "3", "--out", str(out), "--force", stdin="quit\n")
    assert result.exit_code == 0 and record(out)["seed"] == 3
    result = play("--out", str(tmp_path / "no" / "such.jsonl"), stdin="quit\n")
    assert result.exit_code == 2 and "cannot write" in result.stderr


def test_a_record_that_does_not_continue_is_refused_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    play("--vs", "beginner", "--seed", "3", "--out", str(out), stdin="done\ndone\nquit\n")
    kept = record(out)
    kept["rounds"][0]["actions"][2]["card"] = "KS"  # not the card the seed deals there
    text = json.dumps(kept) + "\n"
    out.write_text(text)
    result = play("--resume", str(out), stdin="done\n")
    assert result.exit_code == 2
    assert "does not continue: round 1, action 3: the engine gives" in result.stderr
    assert out.read_text() == text
    out.write_text("{not json\n")
    result = play("--resume", str(out), stdin="")
    assert result.exit_code == 2 and "malformed JSON" in result.stderr
    result = play("--resume", str(tmp_path / "missing.jsonl"), stdin="")
    # The message names the file (a long path is shortened in the middle): what it says of it
    # is what the test holds to, whatever the temporary directory's length.
    assert result.exit_code == 2
    assert "cannot read" in result.stderr and "no such file" in result.stderr


def test_ctrl_c_and_a_crash_keep_the_game(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "game.jsonl"

    class Interrupted(io.StringIO):
        def readline(self, *args) -> str:  # type: ignore[override]
            line = super().readline(*args)
            if not line:
                raise KeyboardInterrupt
            return line

    lines: list[str] = []
    code = play_in_terminal(
        "rami-chinois", ("beginner",), 3, Interrupted("done\n"), lines.append, out=str(out)
    )
    assert code == 130 and lines[-1].startswith("Interrupted. The game so far is kept in")
    assert len(actions(out)) == 5  # turn 1 of each, the person's second draw

    import rami.game.human_game as human
    from rami.game.levels import make_bot

    class Failing:
        level = "beginner"

        def __init__(self) -> None:
            self.bot = make_bot("beginner", 4)
            self.calls = 0

        def act(self, view):
            self.calls += 1
            if self.calls > 2:
                raise GameInternalError("the bot lost a card")
            return self.bot.act(view)

    monkeypatch.setattr(human, "make_bot", lambda level, seed: Failing())
    result = play(
        "--vs", "beginner", "--seed", "3", "--out", str(out), "--force", stdin="done\n" * 5
    )
    assert result.exit_code == 1
    assert "Internal error (a bug, please report it): the bot lost a card" in result.stderr
    assert f"kept in {out}" in result.stderr
    assert len(actions(out)) == 11  # up to the third turn of the bot, which never came


def test_target_and_rounds_where_the_preset_allows_them(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    result = play("--rules", "bfmania-30", "--vs", "beginner", "--target", "300", stdin="")
    assert result.exit_code == 2 and "played to 250, 500, 1000 points, not 300" in result.stderr
    result = play("--rules", "rummikub", "--vs", "beginner", "--target", "300", stdin="")
    assert result.exit_code == 2 and "number of rounds, not a target" in result.stderr
    result = play(
        "--rules",
        "bfmania-30",
        "--vs",
        "beginner",
        "--target",
        "500",
        "--seed",
        "5",
        "--out",
        str(out),
        stdin="quit\n",
    )
    assert result.exit_code == 0 and record(out)["options"]["target"] == 500
    result = play(
        "--rules",
        "rummikub",
        "--vs",
        "beginner",
        "--rounds",
        "3",
        "--seed",
        "5",
        "--out",
        str(out),
        "--force",
        stdin="quit\n",
    )
    assert result.exit_code == 0 and record(out)["options"]["rounds"] == 3
    result = play(
        "--rules",
        "rami-chinois",
        "--vs",
        "beginner",
        "--rounds",
        "2",
        "--seed",
        "5",
        "--out",
        str(out),
        "--force",
        stdin="quit\n",
    )
    assert result.exit_code == 0 and record(out)["options"]["max_rounds"] == 2


@pytest.mark.parametrize("how", ["option", "environment"])
def test_french_cards_shown_and_read(how: str) -> None:
    args = ("--lang", "fr") if how == "option" else ()
    env = {"RAMI_LANG": "fr"} if how == "environment" else {"RAMI_LANG": ""}
    result = play(
        "--vs",
        "beginner",
        "--seed",
        "3",
        *args,
        stdin="lay 7P 8P 9P\nlay AC 2C 3C\nlay 2C 3C *\nadd 8P to 1\nlay KS\nquit\n",
        env=env,
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Votre main (14) : 7♠ 8♠ 8♠ 2♥ 3♥ R♥ A♦ 2♦ V♦ A♣ 5♣ 7♣ * *" in out
    assert "your hand does not hold 9♠" in out
    assert "your hand does not hold A♥" in out  # AC is the ace of hearts in French
    assert "posé 2♥ 3♥ * comme combinaison 1" in out
    assert "ajouté 8♠ à la combinaison 1" in out
    assert "it reads as English notation" in out  # KS: not a French card


def test_a_table_that_cannot_be_seated_writes_no_file(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    result = play(
        "--rules",
        "rami-fou",
        "--vs",
        "beginner,beginner,beginner,beginner",
        "--out",
        str(out),
        stdin="",
    )
    assert result.exit_code == 2 and "2 to 4 players" in result.stderr
    result = play("--vs", "grandmaster", "--out", str(out), stdin="")
    assert result.exit_code == 2 and "unknown bot level" in result.stderr
    assert not out.exists()
