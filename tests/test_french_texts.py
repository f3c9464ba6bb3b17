"""The puzzles' texts, the cards' pictures and the bots' names in French (docs/page.md,
"Languages"): ``lang=fr`` on the puzzle endpoints, ``?lang=fr`` on a card's picture, and the
bots' levels in the words of the page in ``rami play --lang fr``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from rami.cli.main import app
from rami.lang import ENGLISH, FRENCH
from rami.phrasebook import template
from rami.puzzles import record
from rami.puzzles.themes import THEMES
from rami.puzzles.words import goal_text
from rami.service import Settings, create_app
from rami.service.testing import BackgroundServer
from rami.svg import card


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with BackgroundServer(create_app(Settings(default_time_limit=5.0))) as running:
        yield running.url


def call(base: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw = response.read()
            kind = response.headers.get("Content-Type", "")
            return response.status, json.loads(raw) if "json" in kind else raw.decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


def _theme_name(theme: str) -> str:
    return template(f"theme-name.{theme}", FRENCH)


def _puzzle(kind: str) -> record.Puzzle:
    return next(puzzle for puzzle in record.shipped_pack() if puzzle.kind == kind)


def test_every_theme_has_its_name_and_sentence_in_both_books() -> None:
    for theme in THEMES:
        for language in (ENGLISH, FRENCH):
            assert template(f"theme-name.{theme}", language)
            assert template(f"theme.{theme}", language)


@pytest.mark.parametrize("kind", ["empty-hand", "best-score"])
def test_the_goal_in_english_is_the_records_own(kind: str) -> None:
    puzzle = _puzzle(kind)
    assert goal_text(puzzle.kind, puzzle.goal, ENGLISH) == puzzle.goal["text"]
    french = goal_text(puzzle.kind, puzzle.goal, FRENCH)
    assert french != puzzle.goal["text"] and ("Jouez" in french or "Votre main" in french)


def test_a_puzzle_and_its_solution_in_both_languages(url: str) -> None:
    puzzle = _puzzle("empty-hand")
    status, english = call(url, f"/puzzles/{puzzle.id}")
    assert status == 200 and english["goal"]["text"] == puzzle.goal["text"]
    assert english["theme_names"] == english["themes"] == list(puzzle.themes)
    status, french = call(url, f"/puzzles/{puzzle.id}?lang=fr")
    assert status == 200 and french["themes"] == english["themes"]
    assert french["goal"]["text"] == goal_text(puzzle.kind, puzzle.goal, FRENCH)
    assert french["theme_names"] == [_theme_name(theme) for theme in puzzle.themes]
    assert french["position"] == english["position"]  # cards stay codes
    status, solution = call(url, f"/puzzles/{puzzle.id}/solution?lang=fr")
    assert status == 200
    english_moves = call(url, f"/puzzles/{puzzle.id}/solution")[1]["moves"]
    assert [m["text"] for m in solution["moves"]] != [m["text"] for m in english_moves]
    assert all(
        m["cards"] == e["cards"] for m, e in zip(solution["moves"], english_moves, strict=True)
    )
    assert any(word in move["text"] for move in solution["moves"] for word in ("posez", "ajoutez"))
    status, error = call(url, f"/puzzles/{puzzle.id}?lang=de")
    assert status == 422 and error["field"] == "query.lang", error


def test_the_daily_puzzle_and_the_themes_in_french(url: str) -> None:
    status, daily = call(url, "/puzzles/daily/2025-03-14?lang=fr")
    assert status == 200
    english = call(url, "/puzzles/daily/2025-03-14")[1]
    assert daily["id"] == english["id"] and daily["goal"]["text"] != english["goal"]["text"]
    assert daily["theme_names"] == [_theme_name(theme) for theme in daily["themes"]]
    status, themes = call(url, "/puzzles/themes?lang=fr")
    assert status == 200
    split = next(theme for theme in themes if theme["name"] == "split-run")
    assert split["title"] == "suite coupée" and split["description"] == (
        "Une suite est coupée en deux."
    )
    english_split = next(t for t in call(url, "/puzzles/themes")[1] if t["name"] == "split-run")
    assert english_split["title"] == "split-run"
    assert english_split["description"] == THEMES["split-run"][0]


def test_the_verdicts_in_french(url: str) -> None:
    puzzle = _puzzle("empty-hand")
    moves = [m["text"] for m in record.solution_json(puzzle)["moves"]]
    body = {"id": puzzle.id, "moves": moves}
    status, solved = call(url, "/puzzles/check", {**body, "lang": "fr"})
    assert status == 200 and solved["solved"] and solved["intended"], solved
    assert solved["reasons"] == ["résolu : c'est la solution prévue"]
    assert call(url, "/puzzles/check", body)[1]["reasons"] == [
        "solved: this is the intended solution"
    ]
    # The table as it was: legal, nothing played, the hand left in French cards.
    table = " | ".join(str(meld) for meld in puzzle.position.table)
    status, short = call(url, "/puzzles/check", {"id": puzzle.id, "table": table, "lang": "fr"})
    assert status == 200 and short["legal"] and not short["solved"], short
    (reason,) = short["reasons"]
    assert reason.startswith("légal, mais il joue 0 sur "), reason
    hand = " ".join(card.text(FRENCH) for card in sorted(puzzle.position.hand))
    assert reason.endswith(f"(reste : {hand})"), (reason, hand)
    status, error = call(url, "/puzzles/check", {**body, "lang": "es"})
    assert status == 422 and error["field"] == "lang", error


def test_a_card_picture_in_french(url: str) -> None:
    french = card("QS", language=FRENCH)
    assert ">D</text>" in french and ">Q</text>" not in french
    assert 'aria-label="dame de pique"' in french
    english = card("QS")
    assert ">Q</text>" in english and 'aria-label="queen of spades"' in english
    status, served = call(url, "/svg/cards/KH.svg?lang=fr")
    assert status == 200 and ">R</text>" in served and "roi de cœur" in served
    status, served = call(url, "/svg/cards/KH.svg")
    assert status == 200 and ">K</text>" in served and "king of hearts" in served


def test_rami_play_names_the_bots_levels_in_french() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "--vs", "confirmed", "--seed", "3", "--rounds", "1", "--lang", "fr"],
        input="quit\ny\n",
        prog_name="rami",
    )
    assert result.exit_code == 0, result.output
    assert "P2 (confirmé)" in result.stdout
    header = next(line for line in result.stdout.splitlines() if line.startswith("==="))
    assert "(confirmed)" not in header, header
