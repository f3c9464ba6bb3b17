"""``rami play``: a person against bots in the terminal (scripted standard input)."""

from __future__ import annotations

from typer.testing import CliRunner

from rami.cli.main import app


def play(*args: str, stdin: str):
    result = CliRunner().invoke(app, ["play", *args], input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    return result


def test_an_illegal_turn_gets_the_referees_reason_then_a_legal_one_is_accepted() -> None:
    result = play(
        "--rules",
        "rami-chinois",
        "--vs",
        "beginner",
        "--seed",
        "3",
        stdin="hand\nlay 2H 3H *\ndone\nundo\nfoo\ndone\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Your hand (14): 7S 8S 8S 2H 3H KH AD 2D JD AC 5C 7C * *" in out
    assert "Refused by the referee:\n  - opening needs a pure run" in out
    assert "not understood: 'foo'" in out
    assert "Turn accepted by the referee." in out
    assert "P2 (beginner) draws from the stock." in out  # never the card drawn
    assert "Game abandoned." in out


def test_hint_and_moves_that_are_not_possible() -> None:
    result = play(
        "--rules",
        "rami-chinois",
        "--vs",
        "beginner",
        "--seed",
        "3",
        stdin="hint 1\nlay 2S 3S 4S\nadd KH to 1\ndiscard KH\nhelp\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "You cannot open this turn." in out
    assert "your hand does not hold 2S 3S 4S" in out
    assert "added KH to meld 1" in out  # the next number is a new meld (docs/notation.md, "Moves")
    assert "rami-chinois has no discard" in out
    assert "split 1 after 6H" in out  # the help
    assert out.rstrip().endswith("Game abandoned.")  # the input ran out


def test_draw_choice_in_a_discard_preset() -> None:
    result = play(
        "--rules",
        "bfmania-30",
        "--vs",
        "confirmed,beginner",
        "--seed",
        "5",
        stdin="draw discard\nquit\n",
    )
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


def test_short_words_and_commands_that_are_not_asked_now() -> None:
    result = play(
        "--rules",
        "bfmania-30",
        "--vs",
        "beginner",
        "--seed",
        "5",
        stdin="lay 2D 3D 4D\nhint\nclaim\ndraw\n?\npile\nstock\ndraw\npass\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "you draw first ('draw stock' or 'draw discard'), then play your moves" in out
    # A hint at the draw: take the top discard or draw from the stock, and why.
    assert out.split("> hint\n")[1].startswith(
        ("Take 6H from the discard pile", "Draw from the stock: 6H")
    )
    assert "there is no claim to answer now: your turn starts with a draw" in out
    assert "draw from where? draw stock or draw discard" in out
    assert "short: stock, pile" in out  # ? is help
    assert "You draw 6H from the discard pile" in out  # pile
    assert (
        out.count(
            "you have drawn already this turn (6H from the discard pile): play your "
            "moves, then 'discard CARD'"
        )
        == 2
    )  # stock, draw
    assert "there is no claim to answer now: it is your turn to play" in out
    result = play("--vs", "beginner", "--seed", "3", stdin="stock\nquit\n")
    assert "you have drawn already this turn (7S): play your moves, then 'done'" in result.stdout


def test_a_claim_is_answered_first_and_asked_with_the_hand_shown() -> None:
    result = play(
        "--rules",
        "rami-fou",
        "--vs",
        "beginner",
        "--seed",
        "1",
        stdin="lay 2H 3H\nhint\nstock\npass\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    claim = out.index("Claim JS (and a penalty card from the stock)?")
    assert "Your hand (13): 4S 9S KS 4H TD QD KD AC 3C 8C QC KC *" in out[:claim]
    assert (
        out.count(
            "JS has just been discarded: answer 'claim' (take it, and a penalty "
            "card) or 'pass' first"
        )
        == 2
    )
    assert out.split("> hint\n")[1].startswith(("Claim JS:", "Pass: JS"))  # a hint at a claim
    assert "Game abandoned." in out
