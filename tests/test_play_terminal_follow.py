"""``rami play``: following the game (rounds opened and closed, bots' turns told as moves)."""

from __future__ import annotations

import io
import re

from typer.testing import CliRunner

from rami.cli.main import app
from rami.game.human_game import play_in_terminal
from rami.game.presets import GameOptions


def play(*args: str, stdin: str) -> str:
    result = CliRunner().invoke(app, ["play", *args], input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exit_code == 0, result.output
    return result.stdout


def test_rounds_are_opened_and_closed_with_the_totals_and_the_target() -> None:
    out = play(
        "--vs",
        "confirmed",
        "--seed",
        "3",
        "--rounds",
        "2",
        "--target",
        "1000",
        stdin="done\n" * 400,
    )
    assert (
        out.count(
            "=== Round 1: You play first. Totals: You 0 points, P2 (confirmed) 0 "
            "points; the game ends with the round in which a player reaches 1000 "
            "points; the lowest total wins; 2 rounds at most. ==="
        )
        == 1
    )
    assert (
        "=== Round 1 over: the stock ran out. ===\n"
        "  You: AS AS 2S 3S 4S 5S 5S 6S 7S 8S 8S 9S 9S QS KS AH AH 2H 3H 4H 6H 6H 7H 8H 8H "
        "9H JH JH QH QH KH AD 2D 3D 5D 6D 7D 7D JD AC 2C 5C 5C 6C 6C 7C 9C JC QC QC * * * * "
        "-> +565 (total 565)\n"
        "  P2 (confirmed): 6S 5H 9H QD 8C 8C 9C KC -> +65 (total 65)\n"
        "Totals: You 565 points, P2 (confirmed) 65 points.\n"
        "=== Round 2: P2 (confirmed) plays first. Totals: You 565 points, P2 (confirmed) 65 "
        "points;"
    ) in out
    # The first draw of round 2 is told (the engine makes it when it deals).
    round_two = out[out.index("=== Round 2:") :]
    assert round_two.splitlines()[1] == "P2 (confirmed) draws from the stock."
    assert out.rstrip().endswith(
        "Game over: P2 (confirmed) wins. Totals: You 1041 points, P2 (confirmed) 93 points."
    )
    assert "[" not in out.splitlines()[-1]  # not a Python list


def test_a_bots_turn_is_told_as_moves_numbered_as_the_table_was_shown() -> None:
    out = play(
        "--vs",
        "confirmed",
        "--seed",
        "3",
        "--rounds",
        "2",
        "--target",
        "1000",
        stdin="done\n" * 400,
    )
    assert (
        "P2 (confirmed) plays 3S 3C (13 cards left), moves (2):\n"
        "  1. move 3D from meld 6 to meld 11\n"
        "  2. add 3S 3C to meld 11\n"
    ) in out
    assert (
        "P2 (confirmed) plays 2C 3C 4C 5C (15 cards left), moves (1):\n"
        "  1. lay 2C 3C 4C 5C as meld 2\n"
    ) in out  # not "from your hand"
    # Each move list uses the numbers of the table the person was last shown, and the next
    # table shown keeps them: check every bot turn against the tables around it.
    tables = [
        (match.start(), dict(re.findall(r"^  (\d+)\. (.+)$", match.group(1), re.M)))
        for match in re.finditer(r"Table:\n((?:  \d+\. .+\n)+)", out)
    ]
    turns = list(re.finditer(r"plays .*, moves \(\d+\):\n((?:  \d+\. .+\n)+)", out))
    rounds = [match.start() for match in re.finditer("=== Round", out)]
    checked = 0
    for turn in turns:
        start = max(at for at in rounds if at < turn.start())
        end = min([at for at in rounds if at > turn.end()] + [len(out)])
        before = [table for at, table in tables if start < at < turn.start()]
        after = [table for at, table in tables if turn.end() < at < end]
        if not before or not after:
            continue
        for source, target in re.findall(r"move .+ from meld (\d+) to meld (\d+)", turn.group(1)):
            assert source in before[-1]
            assert target in after[0] or target in before[-1]
            checked += 1
        for cards, target in re.findall(r"lay (.+) as meld (\d+)", turn.group(1)):
            assert target not in before[-1]
            assert sorted(after[0][target].split()) == sorted(cards.split())
    assert checked > 10


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_at_a_terminal_the_next_round_waits_for_the_person() -> None:
    lines: list[str] = []
    # Round 1 takes 41 turns of the person; the 42nd line answers the pause.
    code = play_in_terminal(
        "rami-chinois",
        ("beginner",),
        3,
        Terminal("done\n" * 41 + "\ndone\nquit\n"),
        lines.append,
        options=GameOptions(target=1000),
    )
    assert code == 0
    pause = lines.index("Press Enter to deal round 2 (or type quit). ")
    assert lines[pause - 1].startswith("Totals: You 565 points")
    assert lines[pause + 1].startswith("=== Round 2: P2 (beginner) plays first.")
    assert not any(line.startswith("> ") for line in lines)  # a terminal echoes the typing
    lines.clear()
    code = play_in_terminal(
        "rami-chinois",
        ("beginner",),
        3,
        Terminal("done\n" * 41 + "quit\n"),
        lines.append,
        options=GameOptions(target=1000),
    )
    assert code == 0
    assert lines[-2:] == ["Press Enter to deal round 2 (or type quit). ", "Game abandoned."]


def test_a_resumed_game_opens_with_its_round_and_does_not_tell_it_again(tmp_path) -> None:
    out = tmp_path / "game.jsonl"
    play("--vs", "beginner", "--seed", "3", "--out", str(out), stdin="done\ndone\nquit\n")
    lines = play("--resume", str(out), stdin="done\nquit\n").splitlines()
    resumed = next(at for at, line in enumerate(lines) if line.startswith("Game resumed"))
    assert lines[resumed + 1].startswith("=== Round 1: You play first. Totals: You 0 points")
    assert lines[resumed + 2] == "You draw 9C"
    assert not any("draws from the stock" in line for line in lines[:resumed])
