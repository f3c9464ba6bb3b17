"""``rami play --lang fr``: the bots' levels in the page's words (P2 (confirmé)) from the first
line to the game's end, and the levels' notes in French."""

from __future__ import annotations

from typer.testing import CliRunner

from rami.cli.main import app


def play(*args: str, stdin: str) -> str:
    result = CliRunner().invoke(app, ["play", *args], input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_whole_game_names_the_bots_levels_in_french() -> None:
    out = play(
        *("--vs", "confirmed", "--seed", "3", "--rounds", "1", "--target", "1000"),
        *("--lang", "fr"),
        stdin="done\n" * 400,
    )
    over = next(line for line in out.splitlines() if line.startswith("Game over: "))
    assert "P2 (confirmé)" in over, over
    assert "(confirmed)" not in out.split(". Type 'help'.", 1)[1]


def test_the_expert_s_note_in_french() -> None:
    out = play("--vs", "expert", "--seed", "3", "--lang", "fr", stdin="quit\ny\n")
    assert "Note: en rami-chinois, l'expert ouvre avec le moins de cartes possible" in out
    english = play("--vs", "expert", "--seed", "3", stdin="quit\ny\n")
    assert "Note: in rami-chinois the expert opens with as few cards as it can" in english
