"""The command line in French (docs/notation.md, "French"): ``--lang fr`` or the environment,
JSON that keeps the codes and says the texts in French, a mix-up refused (exit 2, and JSON), an
unknown language a usage error, validate, score, review and ``solve --top`` in French, a shipped
puzzle the same in every language."""

from __future__ import annotations

import json

from support.french import _ENGLISH_CARD, FRENCH_SPLIT
from typer.testing import CliRunner

from rami.cli.main import app
from rami.notation import position_to_json


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), prog_name="rami", env=env)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_rami_solve_speaks_french_with_lang_fr() -> None:
    code, output = _run("solve", "--lang", "fr", FRENCH_SPLIT)
    assert code == 0, output
    assert "  1. coupez 3♥..9♥ (combinaison 1) après 6♥ : 7♥ 8♥ 9♥ devient la combinaison 3" in (
        output.splitlines()
    )
    assert "Cartes jouées (1) : 6♥" in output


def test_rami_lang_comes_from_the_environment() -> None:
    code, output = _run("hint", "--level", "2", FRENCH_SPLIT, env={"RAMI_LANG": "fr"})
    assert code == 0, output
    assert output.startswith("Coup clé : coupez 3♥..9♥")
    code, output = _run("hint", FRENCH_SPLIT, env={"RAMI_LANG": "en"})
    assert code == 2 and "reads as French notation" in output


def test_rami_json_keeps_the_codes_and_says_the_texts_in_french() -> None:
    code, output = _run("solve", "--lang", "fr", "--json", FRENCH_SPLIT)
    assert code == 0, output
    data = json.loads(output)
    assert data["hand"] == ["KS"] and data["moves"][1]["cards"] == ["6H"]
    assert data["moves"][1]["text"] == "ajoutez 6♥ de votre main à la combinaison 3"
    assert data["message"] == "1 carte jouée sur 2, 10 points restants"


def test_rami_refuses_a_mix_up_with_exit_2_and_json() -> None:
    code, output = _run("solve", "--json", FRENCH_SPLIT)
    assert code == 2
    error = json.loads(output)["error"]
    assert error["type"] == "NotationError" and error["loc"] == ["table", 1]
    assert "reads as French notation (D♠, QS in English)" in error["message"]
    code, output = _run("solve", "--lang", "fr", "- / 7H 8H 9H")
    assert code == 2 and "reads as English notation (7H, 7♥ in French)" in output


def test_an_unknown_language_is_a_usage_error() -> None:
    code, output = _run("solve", "--lang", "de", "- / 7H 8H 9H")
    assert code == 2 and "'de' is not one of 'en', 'fr'" in output
    code, output = _run("solve", "--json", "- / 7H 8H 9H", env={"RAMI_LANG": "xx"})
    assert code == 2 and json.loads(output)["error"]["type"] == "UsageError"


def test_rami_validate_and_score_write_french_cards() -> None:
    code, output = _run("validate", "--lang", "fr", "- / RC RC RC")
    assert code == 2 and "R♥" in output and "KH" not in output
    code, output = _run("score", "--lang", "fr", "- / RC 10T / rami-chinois opened")
    assert code == 0 and "R♥ 10" in output and "10♣ 10" in output


def test_rami_review_in_french() -> None:
    code, output = _run(
        "review", "--lang", "fr", "3C 4C 5C / 6C 2C / rami-chinois opened", "--table", "3C 4C 5C 6C"
    )
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0] == "Appréciation : bon coup (2 points perdus)"
    assert "Manqué : ajoutez 2♥ 6♥ de votre main à la combinaison 1" in lines


def test_rami_solve_top_in_french() -> None:
    code, output = _run(
        "solve", "--lang", "fr", "--top", "2", "3C 4C 5C 6C 7C 8C 9C / 6C 2C / rami-chinois opened"
    )
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0].startswith("Réponses : les 2 meilleures réponses (")
    assert lines[2].startswith("Réponse 1 sur 2 : 0 point restant, 2 cartes jouées, ")
    assert not any(_ENGLISH_CARD.search(line) for line in lines)


def test_a_shipped_puzzle_reads_the_same_in_every_language() -> None:
    """A puzzle id names a position rami wrote, in the contract's codes (9D, TD: no French
    cards), whatever language the person reads."""
    from rami.puzzles.record import shipped_pack

    puzzle = shipped_pack()[0]
    assert "9D" in json.dumps(position_to_json(puzzle.position))
    code, output = _run("hint", "--lang", "fr", puzzle.id)
    assert code == 0, output
    assert output.startswith("Vous pouvez")
