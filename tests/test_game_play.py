"""``rami play``: a person against bots in the terminal (scripted standard input)."""

from __future__ import annotations

from typer.testing import CliRunner

from rami.cli.main import app


def play(*args: str, stdin: str):
    result = CliRunner().invoke(app, ["play", *args], input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    return result


def test_an_illegal_turn_gets_the_referees_reason_then_a_legal_one_is_accepted() -> None:
    result = play("--rules", "rami-chinois", "--vs", "beginner", "--seed", "3",
                  stdin="hand\nlay 2H 3H *\ndone\nundo\nfoo\ndone\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Your hand (14): 7S 8S 8S 2H 3H KH AD 2D JD AC 5C 7C * *" in out
    assert "Refused by the referee:\n  - opening needs a pure run" in out
    assert "not understood: 'foo'" in out
    assert "Turn accepted by the referee." in out
    assert "P2 (beginner) draws from the stock." in out  # never the card drawn
    assert "Game abandoned." in out


def test_hint_and_moves_that_are_not_possible() -> None:
    result = play("--rules", "rami-chinois", "--vs", "beginner", "--seed", "3",
                  stdin="hint 1\nlay 2S 3S 4S\nadd KH to 1\ndiscard KH\nhelp\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "You cannot open this turn." in out
    assert "your hand does not hold 2S 3S 4S" in out
    assert "there is no meld 1" in out
    assert "rami-chinois has no discard" in out
    assert "split 1 after 6H" in out  # the help
    assert out.rstrip().endswith("Game abandoned.")  # the input ran out


def test_draw_choice_in_a_discard_preset() -> None:
    result = play("--rules", "bfmania-30", "--vs", "confirmed,beginner", "--seed", "5",
                  stdin="draw discard\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Draw from stock or discard?" in result.stdout
    assert "You draw 2D from the discard pile" in result.stdout
    assert "Game abandoned." in result.stdout


def test_bad_options_exit_2() -> None:
    result = play("--rules", "nope", stdin="")
    assert result.exit_code == 2 and "unknown ruleset" in result.stderr
    result = play("--vs", "grandmaster", stdin="")
    assert result.exit_code == 2 and "unknown bot level" in result.stderr
    result = play("--rules", "rami-fou", "--vs", "beginner,beginner,beginner,beginner", stdin="")
    assert result.exit_code == 2 and "2 to 4 players" in result.stderr
