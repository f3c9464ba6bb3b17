"""The puzzle page in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

A real ``rami serve`` runs on a free loopback port; the page is opened on a desktop and a phone
viewport, every request it makes is recorded (all must go to 127.0.0.1), and a puzzle is played
by clicks (taps on the phone) and by the keyboard. Playwright never downloads a browser here: it
drives /usr/bin/chromium (``make browser`` installs it with apt-get).

Without Chromium or Playwright these tests are skipped, unless ``RAMI_BROWSER_TESTS=required``
(what ``make test`` sets), where they fail instead.
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
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-gpu"]
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
              "is_mobile": True, "has_touch": True},
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


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """``rami serve`` on a free loopback port, stopped at the end."""
    port = free_port()
    with tempfile.TemporaryFile() as log:
        command = [*_rami_command(), "serve", "--host", LOOPBACK, "--port", str(port)]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        yield from _serving(process, f"http://{LOOPBACK}:{port}", log)


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
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=CHROMIUM_ARGS)
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
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: message.type == "error"
                     and self.errors.append(message.text))

    def open(self, puzzle: str = "") -> Page:
        self.page.goto(self.base + "/" + (f"#{puzzle}" if puzzle else ""))
        self.page.wait_for_selector("#hand .card")
        if puzzle:
            self.page.wait_for_function(
                "id => document.querySelector('.chip.id')?.textContent === id", arg=puzzle)
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
            f"{self.meld(number)} .card", "cards => cards.map(c => c.dataset.card)")

    def status(self) -> str:
        return self.page.locator("#status").inner_text()

    def check(self) -> str:
        self.press("#check")
        self.page.wait_for_function(
            "() => !document.querySelector('#status').textContent.startsWith('Checking')"
            " && document.querySelector('#status').textContent.length > 0")
        return self.status()

    def close(self) -> None:
        self.context.close()


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Page]:
    opened = Page(browser, server, request.param)
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


def test_page_loads_from_this_server_only(page: Page) -> None:
    page.open()
    view = page.page
    assert view.locator("#title").inner_text().startswith("Daily puzzle, ")
    daily = json.load(urllib.request.urlopen(page.base + "/puzzles/daily"))
    position = daily["position"]
    shown = view.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.card)")
    expected = [card for meld in position["table"]
                for card in (meld if isinstance(meld, list) else meld["cards"])]
    assert sorted(shown) == sorted(expected + position["hand"])
    view.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth)")
    view.wait_for_function("() => document.querySelectorAll('#theme option').length > 5")
    assert page.requests, "no request recorded"
    hosts = {url.split("/")[2] for url in page.requests}
    assert hosts == {page.base.split("/")[2]}, hosts
    assert all(url.startswith(f"http://{LOOPBACK}:") for url in page.requests)
    # Phone: nothing wider than the screen.
    width = view.evaluate("() => document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[page.device]["viewport"]["width"]


def test_a_puzzle_solved_by_clicks(page: Page) -> None:
    page.open(EASY)  # TS TD TC | 7C 8C 9C TC / TH 6C 8C
    page.press(page.card("7C", page.meld(2)))
    page.press("#new-meld-zone")
    assert page.meld_cards(3) == ["7C"]
    page.press(page.card("TH"))
    page.put(1)
    page.press(page.card("6C"))
    page.press(page.card("8C"))
    page.put(3)
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    assert page.meld_cards(2) == ["8C", "9C", "TC"]
    assert page.page.locator("#hand .card").count() == 0
    verdict = page.check()
    assert verdict.startswith("Solved!"), verdict
    assert "intended solution" in verdict
    assert "is-solved" in page.page.get_attribute("body", "class")


def test_a_wrong_answer_shows_its_reason(page: Page) -> None:
    page.open(EASY)
    page.press(page.card("TH"))
    page.put(1)
    verdict = page.check()
    assert verdict.startswith("Not solved yet."), verdict
    assert "plays 1 of 3 cards: the goal is to play them all (left: 6C 8C)" in verdict
    page.press(page.card("7C", page.meld(2)))
    page.press("#new-meld-zone")
    assert "invalid" in page.page.get_attribute(page.meld(3), "class")
    verdict = page.check()
    assert verdict.startswith("That table is not legal."), verdict
    assert "meld 3 after the moves: meld 7C has 1 card" in verdict
    page.press("#undo")
    assert page.meld_cards(2) == ["7C", "8C", "9C", "TC"]
    page.press("#reset")
    assert page.meld_cards(1) == ["TS", "TD", "TC"]
    assert page.page.locator("#hand .card").count() == 3


def test_a_run_is_split_and_a_table_card_stays_on_the_table(page: Page) -> None:
    page.open(SPLIT)  # 4D 5D 6D 7D 8D / 6D
    page.press(page.card("6D", page.meld(1)))
    page.press("#split")
    assert page.meld_cards(1) == ["4D", "5D", "6D"]
    assert page.meld_cards(2) == ["7D", "8D"]
    page.press(page.card("7D", page.meld(2)))
    page.press("#hand")
    assert "never goes back to the hand" in page.status()
    page.press(page.card("7D", page.meld(2)))  # unselect
    page.press(page.card("6D"))
    page.put(2)
    assert page.meld_cards(2) == ["6D", "7D", "8D"]
    assert page.check().startswith("Solved!")


def test_hints_one_level_at_a_time(page: Page) -> None:
    page.open(EASY)
    hints = page.page.locator("#hints .hint")
    page.press("#hint")
    hints.nth(0).wait_for()
    first = hints.nth(0).inner_text()
    assert first.startswith("Hint 1 of 3") and first.endswith("You can play all 3 cards.")
    page.press("#hint")
    hints.nth(1).wait_for()
    assert "Key move: move 7C from meld 2 to meld 3" in hints.nth(1).inner_text()
    page.press("#hint")
    hints.nth(2).wait_for()
    assert "Moves (3):" in hints.nth(2).inner_text()
    assert page.page.locator("#hint").is_disabled()


def test_the_solution_step_by_step(page: Page) -> None:
    page.open(EASY)
    page.press("#show-solution")
    steps = page.page.locator("#replay-moves li")
    steps.nth(0).wait_for()
    assert steps.all_inner_texts() == ["move 7C from meld 2 to meld 3",
                                       "add TH from your hand to meld 1",
                                       "add 6C 8C from your hand to meld 3"]
    page.press("#step")
    assert page.meld_cards(3) == ["7C"] and "Step 1 of 3" in page.status()
    page.press("#step")
    assert page.meld_cards(1) == ["TS", "TH", "TD", "TC"]
    page.press("#step-back")
    assert page.meld_cards(1) == ["TS", "TD", "TC"]
    page.press("#step")
    page.press("#step")
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    assert "That is the solution" in page.status()
    assert page.page.locator("#step").is_disabled()
    assert page.check().startswith("Solved!")


def test_pick_by_tier_and_theme(page: Page) -> None:
    page.open(EASY)
    view = page.page
    view.wait_for_function("() => document.querySelectorAll('#theme option').length > 5")
    view.select_option("#tier", "hard")
    view.wait_for_function("() => document.querySelector('.chip.tier')?.textContent === 'hard'")
    view.select_option("#theme", "split-run")
    view.wait_for_function("() => [...document.querySelectorAll('.chip.theme')]"
                           ".some(c => c.textContent === 'split-run')")
    assert view.locator(".chip.tier").inner_text() == "hard"
    chosen = view.locator(".chip.id").inner_text()
    listed = json.load(urllib.request.urlopen(page.base + "/puzzles?tier=hard&theme=split-run"))
    assert chosen in [p["id"] for p in listed["puzzles"]]
    assert view.locator("#count").inner_text() == f"{listed['count']} puzzles"


def test_the_keyboard_alone(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop").open(EASY)
    view = page.page
    view.keyboard.press("Tab")  # from the page into the controls
    for _ in range(40):  # Tab until the 7C of meld 2 has the focus
        if view.evaluate("() => document.activeElement?.dataset?.card") == "7C":
            break
        view.keyboard.press("Tab")
    assert view.evaluate("() => document.activeElement.closest('.meld').dataset.number") == "2"
    view.keyboard.press("Enter")
    view.keyboard.press("n")
    view.focus(page.card("TH"))
    view.keyboard.press("Space")
    view.keyboard.press("1")
    view.focus(page.card("6C"))
    view.keyboard.press("Enter")
    view.focus(page.card("8C"))
    view.keyboard.press("Enter")
    view.keyboard.press("3")
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    view.keyboard.press("u")
    assert page.meld_cards(3) == ["7C"]
    view.focus(page.card("6C"))
    view.keyboard.press("Enter")
    view.focus(page.card("8C"))
    view.keyboard.press("Enter")
    view.keyboard.press("3")
    view.keyboard.press("c")
    view.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Solved')")
    page.close()
    assert page.errors == []


def test_cards_dragged_with_the_mouse(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop").open(EASY)
    view = page.page
    view.drag_and_drop(page.card("7C", page.meld(2)), "#new-meld-zone",
                       source_position={"x": 8, "y": 24})
    assert page.meld_cards(3) == ["7C"]
    view.drag_and_drop(page.card("TH"), page.meld(1), source_position={"x": 8, "y": 24})
    assert page.meld_cards(1) == ["TS", "TH", "TD", "TC"]
    page.press(page.card("6C"))  # a selection is dragged as a whole
    page.press(page.card("8C"))
    view.drag_and_drop(page.card("8C"), page.meld(3), source_position={"x": 8, "y": 24})
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    view.drag_and_drop(page.card("6C", page.meld(3)), "#hand", source_position={"x": 8, "y": 24})
    assert view.locator("#hand .card").count() == 1  # a hand card may go back to the hand
    view.keyboard.press("?")
    assert view.locator("#help").is_visible()
    page.close()
    assert page.errors == []
