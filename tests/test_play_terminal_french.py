"""``rami play --lang fr``: the whole terminal in French, from the phrase book (the command words
and the referee's reasons stay English, their cards in French), the bots' levels in the page's
words (P2 (confirmé)) from the first line to the game's end, and the levels' notes in French."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.lang import FRENCH
from rami.phrasebook import BOOKS, say
from rami.phrasebook import en as english_book
from rami.rules import PRESETS

_WORD = re.compile(r"[^\W\d_]{3,}")
_FIELD = re.compile(r"\{[^{}]*\}")


def play(*args: str, stdin: str) -> str:
    result = CliRunner().invoke(app, ["play", *args], input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exit_code == 0, result.output
    return result.stdout


def words(texts: Iterable[str]) -> set[str]:
    """The words (three letters or more, lower case) of ``texts``, their fields left out."""
    return {word.lower() for text in texts for word in _WORD.findall(_FIELD.sub(" ", text))}


def english_only() -> set[str]:
    """The words of the English book that no French template holds (the command words, said
    in the French help, and words both languages share, such as "table" or "joker", are not
    among them)."""
    return words(english_book.BOOK.values()) - words(BOOKS[FRENCH].values())


#: A few commands besides ``ph`` (play the hint): help, the hand, a claim at a draw (not asked
#: now), ``draw`` alone where two places are open, an empty line, an undo with nothing to undo.
_TYPED = "help\nhand\nclaim\ndraw\n\n" + "ph\nundo\n" * 300


@pytest.mark.parametrize(
    "game",
    [
        ("--rules", "rami-51", "--vs", "expert", "--seed", "7", "--rounds", "1"),
        ("--rules", "rami-fou", "--vs", "confirmed,beginner", "--seed", "4", "--rounds", "1"),
    ],
)
def test_a_whole_game_leaves_no_line_in_english(game: tuple[str, ...]) -> None:
    out = play(*game, "--lang", "fr", stdin=_TYPED)
    english = english_only()
    assert {"round", "turn", "your", "draws", "accepted", "totals", "over"} <= english
    shown = [line for line in out.splitlines() if not line.startswith("> ")]  # not typed lines
    left = [(line, words([line]) & english) for line in shown if words([line]) & english]
    assert not left, left[:5]
    assert "Tour accepté par l'arbitre." in shown
    assert "Commandes (les mots des commandes restent en anglais) :" in shown
    assert "  rien à annuler ce tour-ci" in shown
    assert any(line.startswith("Fin de la partie : ") for line in shown)
    assert any(line.startswith("=== Fin de la manche 1 : ") for line in shown)


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_every_preset_opens_in_french(rules: str) -> None:
    """The first lines of each preset (its title, what ends its game, the help) in French."""
    out = play(
        "--rules", rules, "--vs", "beginner", "--seed", "1", "--lang", "fr", stdin="help\nquit\n"
    )
    english = english_only()
    shown = [line for line in out.splitlines() if not line.startswith("> ")]
    assert not [line for line in shown if words([line]) & english]
    assert shown[-1] == "Partie abandonnée."


def test_known_lines_in_french() -> None:
    out = play(
        *("--rules", "rami-51", "--vs", "expert", "--seed", "7", "--rounds", "1"),
        "--lang",
        "fr",
        stdin=_TYPED,
    )
    lines = out.splitlines()
    assert lines[0] == "Rami 51 : vous contre expert (graine 7). Tapez 'help'."
    assert lines[1] == (
        "=== Manche 1 : P2 (expert) commence. Totaux : Vous 0 point, P2 (expert) 0 point ; "
        "la partie finit avec la manche où un joueur atteint 500 points ; le plus petit total "
        "gagne ; 1 manche au plus. ==="
    )
    assert "P2 (expert) pioche dans le talon." in lines
    assert "Piocher dans le talon (stock) ou la défausse (discard) ? " in lines
    assert (
        "  aucune réclamation à répondre maintenant : votre tour commence par piocher "
        "('draw stock' ou 'draw discard')"
    ) in lines
    assert "  piocher où ? draw stock ou draw discard" in lines
    assert "  commande vide : tapez 'help' pour la liste" in lines
    assert say("play.you-take", FRENCH, card="4♣") in lines


def test_a_whole_game_names_the_bots_levels_in_french() -> None:
    out = play(
        *("--vs", "confirmed", "--seed", "3", "--rounds", "1", "--target", "1000"),
        *("--lang", "fr"),
        stdin="done\n" * 400,
    )
    over = next(line for line in out.splitlines() if line.startswith("Fin de la partie : "))
    assert "P2 (confirmé)" in over, over
    assert "(confirmed)" not in out
    assert out.startswith("Rami chinois (rami voleur) : vous contre confirmé (graine 3).")


def test_the_expert_s_note_in_french() -> None:
    out = play("--vs", "expert", "--seed", "3", "--lang", "fr", stdin="quit\ny\n")
    assert "Note : en rami-chinois, l'expert ouvre avec le moins de cartes possible" in out
    english = play("--vs", "expert", "--seed", "3", stdin="quit\ny\n")
    assert "Note: in rami-chinois the expert opens with as few cards as it can" in english


def test_a_refused_turn_and_a_resumed_game_in_french(tmp_path: Path) -> None:
    """The refusal's framing in French around the referee's reason (English words, French
    cards); a game kept, and resumed, said in French."""
    kept = tmp_path / "game.jsonl"
    game = ("--vs", "beginner", "--seed", "3", "--lang", "fr")
    out = play(*game, "--out", str(kept), stdin="lay 2C 3C *\ndone\nundo\ndone\nquit\n")
    lines = out.splitlines()
    refused = lines.index("Refusé par l'arbitre :")
    assert lines[refused + 1].startswith("  - opening needs a pure run")
    assert (
        lines[refused + 2] == "Corrigez le tour (undo, d'autres coups) et soumettez-le à nouveau."
    )
    assert "  posé 2♥ 3♥ * comme combinaison 1" in lines
    assert lines[-1] == (
        f"Partie abandonnée. La partie jusqu'ici est gardée dans {kept} : "
        f"'rami play --resume {kept}' la reprend."
    )
    again = play("--resume", str(kept), "--lang", "fr", stdin="quit\n").splitlines()
    assert again[1] == (
        f"Partie reprise de {kept} : 5 actions enregistrées rejouées devant l'arbitre."
    )
