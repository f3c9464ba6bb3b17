"""The page in Debian's Chromium (as tests/test_page_puzzle.py): a puzzle's texts in French (the
goal, the themes, the solution's moves and the verdicts, asked of the service with ``lang=fr``),
and a phone on its side during the bots' turns, where the messages never lie over the table
(docs/page.md)."""

from __future__ import annotations

from typing import Any

import support.page as shared
from support.page import EASY, VIEWPORTS, Page, set_pace

from rami.lang import FRENCH
from rami.puzzles import record
from rami.puzzles.words import goal_text, theme_name

#: The page's fixtures (tests/support/page.py): the session's ``rami serve`` on loopback, Debian's
#: Chromium.
server = shared.server
browser = shared.browser

VIEWPORTS.setdefault("desktop-fr", {**VIEWPORTS["desktop"], "locale": "fr-FR"})
VIEWPORTS.setdefault(
    "landscape",
    {
        "viewport": {"width": 844, "height": 390},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
)


def _verdict(page: Page) -> str:
    page.press("#check")
    page.page.wait_for_function(
        "() => document.querySelector('#status strong') !== null"
        " && document.querySelector('#status li') !== null"
    )
    return page.status()


def test_a_french_page_shows_the_puzzle_s_texts_in_french(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop-fr")  # a browser that asks for French
    try:
        page.open(EASY)  # TS TD TC | 7C 8C 9C TC / TH 6C 8C
        view = page.page
        puzzle = record.find(EASY)
        assert view.locator("#goal").inner_text() == goal_text(puzzle.kind, puzzle.goal, FRENCH)
        chips = view.eval_on_selector_all(".chip.theme", "cs => cs.map(c => c.textContent)")
        assert chips == [theme_name(theme, FRENCH) for theme in puzzle.themes]
        assert "split-run" not in chips and chips  # the tags themselves are not shown
        assert any("lang=fr" in url and "/puzzles/" in url for url in page.requests), page.requests
        # A wrong answer, then an illegal one: the verdicts in French.
        page.press(page.card("TH"))
        page.put(1)
        verdict = _verdict(page)
        assert verdict.startswith("Pas encore résolu."), verdict
        assert "légal, mais il joue 1 sur 3 cartes : le but est de toutes les jouer" in verdict
        assert "(reste : 6\u2663 8\u2663)" in verdict
        # The solution's moves in French, played step by step.
        page.press("#reset")
        page.press("#show-solution")
        steps = view.locator("#replay-moves li")
        steps.nth(0).wait_for(state="attached")
        texts = steps.all_inner_texts()
        english = [m["text"] for m in record.solution_json(puzzle)["moves"]]
        assert len(texts) == len(english) and texts != english
        assert all("from your hand" not in text and "meld" not in text for text in texts), texts
        for _ in texts:
            page.press("#step")
        assert "C'est la solution" in page.status(), page.status()
        # Solved (the solution was shown): the verdict's reason in French.
        verdict = _verdict(page)
        assert "résolu : c'est la solution prévue" in verdict, verdict
        # Switched to English: the goal and the themes are asked again.
        view.select_option("#lang", "en")
        view.wait_for_function(
            "text => document.querySelector('#goal').textContent === text",
            arg=puzzle.goal["text"],
        )
        chips = view.eval_on_selector_all(".chip.theme", "cs => cs.map(c => c.textContent)")
        assert chips == list(puzzle.themes)
    finally:
        page.close()
    assert page.errors == [], page.errors


def _overlap(first: dict[str, float], second: dict[str, float]) -> float:
    """The area two boxes share (0: none)."""
    width = min(first["x"] + first["width"], second["x"] + second["width"]) - max(
        first["x"], second["x"]
    )
    height = min(first["y"] + first["height"], second["y"] + second["height"]) - max(
        first["y"], second["y"]
    )
    return max(0.0, width) * max(0.0, height)


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


def _a_seed_where_the_bots_play_after_you() -> int:
    """A rami chinois seed (you and two beginners) where you play first."""
    from rami.game.session import GameSession

    for seed in range(100):
        session = GameSession("rami-chinois", ["beginner", "beginner"], seed)
        if not session.round.turns:
            return seed
    raise AssertionError("no seed where you play first")


def test_a_phone_on_its_side_shows_the_bots_turns_beside_the_table(
    browser: Any, server: str
) -> None:
    page = Page(browser, server, "landscape")
    page.device = "phone"
    try:
        view = page.page
        page.page.goto(server + "/")
        view.wait_for_selector("#hand .card")
        page.press("#mode-game")
        view.wait_for_selector("#game-start")
        view.select_option("#game-bots", "2")
        view.select_option("#game-level-1", "beginner")
        view.select_option("#game-level-2", "beginner")
        view.fill("#game-seed", str(_a_seed_where_the_bots_play_after_you()))
        set_pace(page, "step")
        page.press("#game-start")
        view.wait_for_function("() => window.ramiGame.state() !== null")
        view.wait_for_selector("#hand .card")
        page.press("#end-turn")  # nothing laid: the bots play, one turn at a time
        view.wait_for_function("() => window.ramiBots.playing()")
        for _ in range(2):
            status, table = _box(page, "#status"), _box(page, "#table")
            assert _overlap(status, table) == 0, (status, table)
            height = view.evaluate("() => innerHeight")
            bar = _box(page, ".actions")
            assert status["y"] >= 0 and status["y"] + status["height"] <= bar["y"] + 1, status
            assert table["y"] < height and table["y"] + table["height"] > 0  # on screen
            assert "(1 of 2)" in page.status() or "(2 of 2)" in page.status()
            page.press("#go-on")
        view.wait_for_function("() => !window.ramiBots.playing()")
        # The bots' turns over: the hand and the messages stick above the action bar again,
        # and your turn starts with the table's top on screen above them (the game found
        # again by a reload, from the top of the page).
        assert view.evaluate("() => document.body.classList.contains('bots-turn')") is False
        view.reload()
        view.wait_for_function("() => window.ramiGame.state()?.phase === 'play'")
        view.wait_for_selector("#hand .card")
        table, dock = _box(page, "#table"), _box(page, ".dock")
        assert 0 <= table["y"] < dock["y"] - 40, (table, dock)
    finally:
        page.close()
    assert page.errors == [], page.errors


def test_the_hint_laid_on_the_board_moves_the_table_s_copy(browser: Any, server: str) -> None:
    """Two decks: the hand holds a TD and meld 1 another. The expert's advice (a whole game of
    rami chinois, seed 11, turn 40) moves meld 1's 9D TD to meld 5 and lays only the 8C: the
    board lays out the advised table with the table's TD, not the hand's (which the referee
    refused: "run 8S 8D TD 8C mixes suits")."""
    page = Page(browser, server, "desktop")
    try:
        view = page.page
        page.open(EASY)
        table = [["8D", "9D", "TD"], ["6D", "7D", "8D"], ["8S", "9S", "TS", "JS"]]
        hand = ["TD", "8C", "QH"]
        advised = [["8S", "8D", "8C"], ["6D", "7D", "8D", "9D", "TD"], ["9S", "TS", "JS"]]
        laid = view.evaluate(
            """([table, hand, advised]) => {
                const board = window.ramiBoard;
                board.setMode("game", () => true, true);
                board.load({ table, hand }, null, [], []);
                board.arrange(advised, null);
                return { table: board.table(), hand: board.handSize() };
            }""",
            [table, hand, advised],
        )
        assert laid == {"table": advised, "hand": 2}, laid
    finally:
        page.close()
    assert page.errors == [], page.errors
