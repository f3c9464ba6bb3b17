"""The page's browser tests (test_page_puzzle.py, test_page_game.py, test_page_player.py,
test_page_game_table.py and test_page_lang.py) in a real headless Chromium (Debian's ``chromium``,
driven by Playwright): a real ``rami serve`` on a free loopback port (one for the session,
tests/conftest.py), the browser (one per module), a page in a fresh context that records every
request and console error, and a game dealt at the page. Playwright never downloads a browser here:
it drives /usr/bin/chromium (``make browser`` installs it with apt-get).

Without Chromium or Playwright a test module that imports this one is skipped, unless
``RAMI_BROWSER_TESTS=required`` (what ``make test`` sets), where it fails instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rami.service.testing import LOOPBACK, free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
]
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
#: The daily puzzle of 2025-06-01: TS TD TC | 7C 8C 9C TC / TH 6C 8C (easy, no jokers).
EASY = "rc-b5304c3325"
#: 4D 5D 6D 7D 8D / 6D: split the run after the 6D (easy, no jokers).
SPLIT = "rc-ebaa98cc9c"


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (make browser installs Debian's chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


MISSING = _missing()
if MISSING:
    if os.environ.get("RAMI_BROWSER_TESTS") == "required":
        raise RuntimeError(f"browser tests required but {MISSING}")
    pytest.skip(MISSING, allow_module_level=True)


def _rami_command() -> list[str]:
    script = Path(sys.executable).with_name("rami")
    if script.exists():
        return [str(script)]
    found = shutil.which("rami")
    return [found] if found else [sys.executable, "-c", "from rami.cli.main import run; run()"]


def serve() -> Iterator[str]:
    """``rami serve`` on a free loopback port, stopped at the end (``page_server`` in
    tests/conftest.py runs it once a session)."""
    port = free_port()
    with tempfile.TemporaryFile() as log:
        command = [*_rami_command(), "serve", "--host", LOOPBACK, "--port", str(port)]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        yield from _serving(process, f"http://{LOOPBACK}:{port}", log)


@pytest.fixture(scope="module")
def server(page_server: str) -> str:
    """The session's ``rami serve`` (``page_server`` in tests/conftest.py: one for every module of
    the page's tests), as this module's fixture. Under ``pytest -n`` every module that uses it runs
    in one worker (tests/conftest.py), which starts it once."""
    return page_server


def _serving(process: subprocess.Popen[bytes], url: str, log: Any) -> Iterator[str]:
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError("rami serve did not start:\n" + log.read().decode()[-2000:])
            try:
                with urllib.request.urlopen(url + "/health", timeout=2) as response:
                    if json.load(response)["status"] == "ok":
                        break
            except OSError:
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


class Page:
    """One page in a fresh context: every request and console error recorded."""

    def __init__(self, browser: Any, base: str, device: str) -> None:
        self.base = base
        self.device = device
        self.context = browser.new_context(**VIEWPORTS[device])
        self.page = self.context.new_page()
        self.page.set_default_timeout(10_000)
        self.requests: list[str] = []
        self.errors: list[str] = []
        #: Statuses a test expects the page to be answered (a turn the referee refuses is a
        #: 422, which Chromium logs as a console error).
        self.allowed: set[int] = set()
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on(
            "console",
            lambda message: (
                message.type == "error"
                and not self._expected(message.text)
                and self.errors.append(message.text)
            ),
        )

    def _expected(self, text: str) -> bool:
        return any(f"responded with a status of {status} " in text for status in self.allowed)

    def open(self, puzzle: str = "") -> Page:
        self.page.goto(self.base + "/" + (f"#{puzzle}" if puzzle else ""))
        self.page.wait_for_selector("#hand .card")
        if puzzle:
            self.page.wait_for_function(
                "id => document.querySelector('.chip.id')?.textContent === id", arg=puzzle
            )
        # Settled: the puzzle's ratings, asked once it shows, add a line above the table when
        # they come (a drag measured before would land a line too high).
        self.page.wait_for_load_state("networkidle")
        return self

    def press(self, selector: str) -> None:
        """A click on the desktop, a tap on the phone."""
        element = self.page.locator(selector).first
        # Cards overlap in a meld: press the part a player sees, the corner with the index.
        where = {"position": {"x": 8, "y": 24}} if ".card" in selector else {}
        if self.device == "phone":
            element.tap(**where)
        else:
            element.click(**where)

    def card(self, code: str, where: str = "#hand") -> str:
        return f"{where} .card[data-card='{code}']"

    def meld(self, number: int) -> str:
        return f".meld[data-number='{number}']"

    def put(self, number: int) -> None:
        self.press(f"{self.meld(number)} .here")

    def meld_cards(self, number: int) -> list[str]:
        return self.page.eval_on_selector_all(
            f"{self.meld(number)} .card", "cards => cards.map(c => c.dataset.card)"
        )

    def status(self) -> str:
        return self.page.locator("#status").inner_text()

    def check(self) -> str:
        self.press("#check")
        self.page.wait_for_function(
            "() => !document.querySelector('#status').textContent.startsWith('Checking')"
            " && document.querySelector('#status').textContent.length > 0"
        )
        return self.status()

    def close(self) -> None:
        self.context.close()


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Page]:
    opened = Page(browser, server, request.param)
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


@pytest.fixture
def phone(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Page]:
    opened = Page(browser, server, request.param)
    opened.device = "phone"  # taps, as on the phone
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


def _seed_with_a_run() -> tuple[int, list[str]]:
    """A rami-chinois seed (you and one beginner) where you play first holding a pure run of
    three (its cards, as the page shows them), and the bot lays cards in its turn after you lay
    the run."""
    from rami.cards import Card
    from rami.game.session import GameSession

    for seed in range(200):
        session = GameSession("rami-chinois", ["beginner"], seed)
        if session.round.turns:
            continue
        hand = {str(card) for card in session.round.view().hand}
        for card in sorted(hand):
            if card == "*" or card[0] in "QKA":
                continue
            ranks = "23456789TJQKA"
            at = ranks.index(card[0])
            run = [ranks[at + step] + card[1] for step in range(3)]
            if all(code in hand for code in run):
                before = len(session.log)
                session.play([[Card.parse(code) for code in run]])
                if any(
                    entry["kind"] == "play" and entry["seat"] == 1 and entry["played"]
                    for entry in session.log[before:]
                ):
                    return seed, run
                break
    raise AssertionError("no seed with a run in the first 200")


SEED, RUN = _seed_with_a_run()


def start_game(page: Page, seed: int = SEED, pace: str = "fast") -> dict[str, Any]:
    view = page.page
    page.page.goto(page.base + "/")
    view.wait_for_selector("#hand .card")
    page.press("#mode-game")
    view.wait_for_selector("#game-start")
    view.select_option("#game-bots", "1")
    view.select_option("#game-level-1", "beginner")
    view.fill("#game-seed", str(seed))
    set_pace(page, pace)
    page.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state() !== null")
    view.wait_for_selector("#hand .card")
    state: dict[str, Any] = view.evaluate("() => window.ramiGame.state()")
    return state


def set_pace(page: Page, pace: str) -> None:
    """The bots' pace (its menu shows once a game is dealt; the choice is kept)."""
    page.page.eval_on_selector(
        "#pace",
        "(menu, pace) => { menu.value = pace; menu.dispatchEvent(new Event('change')); }",
        pace,
    )


def log_lines(page: Page) -> list[str]:
    """The log's lines as the server told them (without the moves the page adds)."""
    lines: list[str] = page.page.eval_on_selector_all(
        "#game-log li", "items => items.map(i => i.firstChild.textContent)"
    )
    return lines
