"""The puzzle page reports attempts and shows ratings, in a real headless Chromium (as
tests/test_page_puzzle.py, whose server keeps no attempts: there the page reports nothing).

A real ``rami serve`` on a free loopback port with ``RAMI_SERVICE_DB``: a wrong check and the
solution shown make one attempt in the database, under the random id the page keeps in
localStorage; the page shows the player's rating and the puzzle's; "Next puzzle" asks
``GET /puzzles/next``; a puzzle left untouched reports nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rami.puzzles.attempts import AttemptStore
from rami.puzzles.ratings import MODEL_DEVIATION, shipped_starts
from rami.service.testing import LOOPBACK, free_port, get_ok

CHROMIUM = "/usr/bin/chromium"
EASY = "rc-b5304c3325"  # TS TD TC | 7C 8C 9C TC / TH 6C 8C
SPLIT = "rc-ebaa98cc9c"  # 4D 5D 6D 7D 8D / 6D

try:
    import playwright.sync_api  # noqa: F401

    MISSING = None if Path(CHROMIUM).exists() else f"{CHROMIUM} is missing"
except ImportError:
    MISSING = "playwright is not installed"
if MISSING:
    if os.environ.get("RAMI_BROWSER_TESTS") == "required":
        raise RuntimeError(f"browser tests required but {MISSING}")
    pytest.skip(MISSING, allow_module_level=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    database = tmp_path_factory.mktemp("page") / "attempts.db"
    port = free_port()
    url = f"http://{LOOPBACK}:{port}"
    command = [
        sys.executable,
        "-m",
        "rami.service",
        "--host",
        LOOPBACK,
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ, "RAMI_SERVICE_DB": str(database)},
        )
        try:
            for _ in range(600):
                if process.poll() is not None:
                    log.seek(0)
                    raise RuntimeError("the server did not start: " + log.read().decode())
                try:
                    with urllib.request.urlopen(url + "/health", timeout=2):
                        break
                except OSError:
                    time.sleep(0.1)
            yield url, database
        finally:
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def view(served: tuple[str, Path]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        requests: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("request", lambda request: requests.append(request.url))
        page.errors, page.sent = errors, requests
        yield page
        browser.close()
    assert errors == [], errors


#: Notes, at the first DOM change that put a card in the hand (before the browser paints it),
#: whether the ratings line is shown and where the table's top is.
FIRST_PAINT = """
new MutationObserver((changes, observer) => {
  if (window.firstPaint || !document.querySelector('#hand .card')) return;
  const box = document.querySelector('#ratings');
  window.firstPaint = {
    ratings: Boolean(box && !box.hidden),
    table: document.querySelector('#table').getBoundingClientRect().top,
  };
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
"""


def _press(page: Any, selector: str) -> None:
    page.locator(selector).first.click(
        **({"position": {"x": 8, "y": 24}} if ".card" in selector else {})
    )


def _ratings(page: Any) -> str:
    return str(page.locator("#ratings").inner_text())


def test_an_attempt_is_reported_and_the_ratings_shown(served: tuple[str, Path], view: Any) -> None:
    base, database = served
    view.add_init_script(FIRST_PAINT)
    view.goto(f"{base}/#{EASY}")
    view.wait_for_selector("#hand .card")
    view.wait_for_function(
        "() => document.querySelector('#ratings')?.textContent.includes('This puzzle')"
    )
    # The ratings line was in its place when the puzzle was first drawn: the table did not move.
    first = view.evaluate("() => window.firstPaint")
    now = view.evaluate("() => document.querySelector('#table').getBoundingClientRect().top")
    assert first["ratings"] and first["table"] == now, (first, now)
    start = round(shipped_starts()[EASY])  # the model of human solvers' starting rating
    assert _ratings(view) == (
        f"Your rating: 1500 \u00b1 350 \u00b7 This puzzle: {start} "
        f"\u00b1 {round(MODEL_DEVIATION)} (0 rated plays)"
    )
    # A wrong answer checked, then the solution shown: one attempt, reported at once.
    _press(view, "#hand .card[data-card='TH']")
    _press(view, ".meld[data-number='1'] .here")
    _press(view, "#check")
    view.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Not solved yet.')"
    )
    _press(view, "#show-solution")
    view.wait_for_function(
        "() => document.querySelector('#ratings').textContent.includes('1 rated play')"
    )
    shown = _ratings(view)
    assert shown.startswith("Your rating: ") and int(shown.split()[2]) < 1500, shown
    player = view.evaluate("() => localStorage.getItem('rami-player')")
    with AttemptStore(database, create=False) as store:
        stored = store.attempts()
    assert len(stored) == 1
    made = stored[0]
    assert (
        made.puzzle,
        made.player,
        made.solved,
        made.solution_shown,
        made.wrong_checks,
        made.hints,
    ) == (EASY, player, False, True, 1, 0)
    assert made.first_check_ms is not None and made.first_check_ms >= 0
    # Next puzzle: one near the player's rating, from GET /puzzles/next; left untouched, the
    # puzzle reports nothing.
    _press(view, "#next")
    view.wait_for_function("id => document.querySelector('.chip.id')?.textContent !== id", arg=EASY)
    assert any("/puzzles/next?player=" in url for url in view.sent)
    offered = view.locator(".chip.id").inner_text()
    asked = get_ok(f"{base}/puzzles/next?player={player}")
    assert asked["puzzle"]["id"] == offered
    view.wait_for_function(
        "() => document.querySelector('#ratings').textContent.includes('This puzzle')"
    )
    other = SPLIT if offered != SPLIT else EASY
    view.evaluate("id => { location.hash = '#' + id; }", other)
    view.wait_for_function(
        "id => document.querySelector('.chip.id')?.textContent === id", arg=other
    )
    with AttemptStore(database, create=False) as store:
        assert store.count() == 1
