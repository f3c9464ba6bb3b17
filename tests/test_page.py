"""The puzzle page in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

A real ``rami serve`` runs on a free loopback port; the page is opened on a desktop and a phone
viewport, every request it makes is recorded (all must go to 127.0.0.1), and a puzzle is played
by clicks (taps on the phone), by the keyboard, by mouse drags and by finger drags; in the game
mode a game against a bot is dealt, refused an illegal turn with the referee's reason, played a
legal turn by clicks, and shows the bot's turn. Playwright never downloads a browser here: it
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


def test_a_hash_that_is_no_puzzle_id_asks_nothing(page: Page) -> None:
    """Issue 36: ``/#themes`` asked ``GET /puzzles/themes`` as if ``themes`` were a puzzle id
    (the themes list came back, not a puzzle); only an id as the API documents it is asked."""
    page.page.goto(page.base + "/#themes")
    page.page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('No puzzle')"
    )
    assert page.status() == 'No puzzle "themes": a puzzle id is rc- and 10 hex digits.'


def test_page_loads_from_this_server_only(page: Page) -> None:
    page.open()
    view = page.page
    assert view.locator("#title").inner_text().startswith("Daily puzzle, ")
    daily = json.load(urllib.request.urlopen(page.base + "/puzzles/daily"))
    position = daily["position"]
    shown = view.eval_on_selector_all(".card", "cards => cards.map(c => c.dataset.card)")
    expected = [
        card
        for meld in position["table"]
        for card in (meld if isinstance(meld, list) else meld["cards"])
    ]
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
    # The whole turn as its moves (not the solver's report), which the board can play.
    assert "Status:" not in hints.nth(2).inner_text()
    assert hints.nth(2).locator("li").all_inner_texts() == [
        "move 7C from meld 2 to meld 3",
        "add TH from your hand to meld 1",
        "add 6C 8C from your hand to meld 3",
    ]
    assert page.page.locator("#hint").is_disabled()
    page.press("#hints .play-hint")
    for _ in range(3):
        page.press("#step")
    assert page.meld_cards(3) == ["6C", "7C", "8C"]


def test_the_solution_step_by_step(page: Page) -> None:
    page.open(EASY)
    page.press("#show-solution")
    steps = page.page.locator("#replay-moves li")
    steps.nth(0).wait_for(state="attached")  # on a phone the status line says the step
    assert steps.all_inner_texts() == [
        "move 7C from meld 2 to meld 3",
        "add TH from your hand to meld 1",
        "add 6C 8C from your hand to meld 3",
    ]
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
    # Right, but the solution was shown: not counted as solved.
    assert page.check().startswith("Solved, with the solution shown: not counted.")
    assert "is-solved" not in (page.page.get_attribute("body", "class") or "")


def test_pick_by_tier_and_theme(page: Page) -> None:
    page.open(EASY)
    view = page.page
    view.wait_for_function("() => document.querySelectorAll('#theme option').length > 5")
    view.select_option("#tier", "hard")
    view.wait_for_function("() => document.querySelector('.chip.tier')?.textContent === 'hard'")
    view.select_option("#theme", "split-run")
    view.wait_for_function(
        "() => [...document.querySelectorAll('.chip.theme')]"
        ".some(c => c.textContent === 'split-run')"
    )
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
        "() => document.querySelector('#status').textContent.startsWith('Solved')"
    )
    page.close()
    assert page.errors == []


def test_cards_dragged_with_the_mouse(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop").open(EASY)
    view = page.page
    view.drag_and_drop(
        page.card("7C", page.meld(2)), "#new-meld-zone", source_position={"x": 8, "y": 24}
    )
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


# ------------------------------------------------------------------------------ touch


def touch_drag(page: Page, source: str, target: str) -> None:
    """A finger drag, as Chromium's touch emulation sends it (touch start, moves, end: the page
    sees pointer events of type touch)."""
    view = page.page
    # Both in view, clear of the hand and the action bar that stay at the bottom of the screen.
    view.locator(target).first.evaluate("e => e.scrollIntoView({block: 'nearest'})")
    view.locator(source).first.evaluate("e => e.scrollIntoView({block: 'nearest'})")
    start = view.locator(source).first.bounding_box()
    end = view.locator(target).first.bounding_box()
    assert start is not None and end is not None
    x0, y0 = start["x"] + 8, start["y"] + 24
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    session = page.context.new_cdp_session(view)
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for step in range(1, 9):
        session.send(
            "Input.dispatchTouchEvent",
            {
                "type": "touchMove",
                "touchPoints": [{"x": x0 + (x1 - x0) * step / 8, "y": y0 + (y1 - y0) * step / 8}],
            },
        )
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()


def test_cards_dragged_with_a_finger(browser: Any, server: str) -> None:
    page = Page(browser, server, "phone").open(EASY)  # TS TD TC | 7C 8C 9C TC / TH 6C 8C
    touch_drag(page, page.card("7C", page.meld(2)), "#new-meld-zone")
    assert page.meld_cards(3) == ["7C"]
    touch_drag(page, page.card("TH"), page.meld(1))
    assert page.meld_cards(1) == ["TS", "TH", "TD", "TC"]
    page.press(page.card("6C"))  # a selection is dragged as a whole
    page.press(page.card("8C"))
    touch_drag(page, page.card("8C"), page.meld(3))
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    assert page.page.locator(".drag-ghost").count() == 0
    touch_drag(page, page.card("6C", page.meld(3)), page.meld(3))  # let go where it was
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    assert page.status() == "Already in meld 3."
    page.press(page.card("6C", page.meld(3)))  # a tap: unselected
    assert page.page.locator(".card.selected").count() == 0
    assert page.check().startswith("Solved!")
    page.close()
    assert page.errors == []


# ------------------------------------------------------------------------------ the game


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


def test_a_game_against_a_bot(page: Page) -> None:
    page.allowed.add(422)  # the illegal turn
    state = start_game(page)
    view = page.page
    assert state["phase"] == "play" and state["rules"] == "rami-chinois"
    assert view.locator("#hand .card").count() == 14
    assert sorted(
        view.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    ) == sorted(state["view"]["hand"])
    assert view.locator(".player").count() == 2
    assert "13 cards" in view.locator(".player[data-seat='1']").inner_text()
    assert view.locator("#stock-count").inner_text() == f"stock {state['view']['stock_size']}"
    assert log_lines(page)[-1].startswith("You draw ")
    # An illegal turn: two cards are no meld; the referee's reason, and the board stays.
    hand = [code for code in state["view"]["hand"] if code not in RUN and code != "*"]
    page.press(page.card(hand[0]))
    page.press(page.card(hand[1]))
    page.press("#new-meld-zone")
    page.press("#end-turn")
    view.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('The referee refuses')"
    )
    assert "meld" in page.status().split("this turn.", 1)[1]
    assert view.locator("#hand .card").count() == 12
    # A legal turn by clicks: the run as a new meld.
    page.press("#reset")
    assert view.locator("#hand .card").count() == 14
    for code in RUN:
        page.press(page.card(code))
    page.press("#new-meld-zone")
    assert page.meld_cards(1) == RUN
    page.press("#end-turn")
    view.wait_for_function("() => window.ramiGame.state().view.turn >= 2")
    lines = log_lines(page)
    assert f"You lay {' '.join(RUN)} (11 cards left)." in lines
    # The bot's turn, as the table saw it: its stock draw without the card.
    assert "P2 (beginner) draws a card from the stock." in lines
    assert any(line.startswith("P2 (beginner) lays ") for line in lines)
    assert page.meld_cards(1) == RUN  # the table the bot left, our meld on it
    now = view.evaluate("() => window.ramiGame.state()")
    laid = sorted(
        card
        for entry in now["events"]
        if entry["kind"] == "play" and entry["seat"]
        for card in entry["played"]
    )
    assert (
        laid
        and sorted(
            view.eval_on_selector_all("#table .card.fresh", "cs => cs.map(c => c.dataset.card)")
        )
        == laid
    )
    assert view.locator("#hand .card").count() == 12  # 11 and the card drawn
    assert view.locator("#hand .card.drawn").count() >= 1
    hosts = {url.split("/")[2] for url in page.requests}
    assert hosts == {page.base.split("/")[2]}, hosts
    width = view.evaluate("() => document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[page.device]["viewport"]["width"]


def test_a_game_draw_from_the_discard_pile(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    page.allowed.add(422)  # the illegal turn
    view = page.page
    page.page.goto(page.base + "/#game")
    view.wait_for_selector("#game-start")
    view.wait_for_function("() => document.querySelectorAll('#game-rules option').length > 3")
    view.select_option("#game-rules", "bfmania-30")
    view.select_option("#game-bots", "1")
    view.select_option("#game-level-1", "beginner")
    view.fill("#game-seed", "5")
    set_pace(page, "fast")
    page.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state() !== null")
    state = view.evaluate("() => window.ramiGame.state()")
    while state["phase"] != "draw":  # the bot played first: wait for our draw (it is there)
        raise AssertionError(state["phase"])
    top = state["view"]["discard_pile"][-1]
    assert view.locator("#discard-top img").get_attribute("data-card") == top
    page.press("#draw-discard")
    view.wait_for_function("() => window.ramiGame.state().phase === 'play'")
    assert view.locator(f"#hand .card.drawn[data-card='{top}']").count() >= 1
    # The card just taken may not be discarded the same turn: the referee says so.
    page.press(f"#hand .card.drawn[data-card='{top}']")
    page.press("#discard")
    view.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('The referee refuses')"
    )
    page.press(f"#hand .card.drawn[data-card='{top}']")
    other = view.eval_on_selector_all(
        "#hand .card:not(.drawn)", "cs => cs.map(c => c.dataset.card)"
    )[0]
    page.press(page.card(other))
    page.press("#discard")
    view.wait_for_function("() => window.ramiGame.state().view.turn >= 2")
    assert any(line.startswith(f"You lay nothing, discard {other}") for line in log_lines(page))
    page.close()
    assert page.errors == []


def test_a_reload_finds_the_game_again(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    state = start_game(page)
    view = page.page
    view.reload()
    view.wait_for_function("() => window.ramiGame.state() !== null")
    again = view.evaluate("() => window.ramiGame.state()")
    assert again["id"] == state["id"] and again["view"]["hand"] == state["view"]["hand"]
    assert view.locator("#game-log li").count() == state["event_count"]
    page.press("#new-game")  # a game in play: the page asks first
    assert view.locator("#confirm-new").is_visible()
    page.press("#confirm-keep")
    assert not view.locator("#confirm-new").is_visible() and view.locator("#hand .card").count()
    page.press("#new-game")
    page.press("#confirm-throw")  # forgets it: a reload offers a new deal
    view.wait_for_selector("#game-start")
    view.reload()
    view.wait_for_selector("#game-start")
    assert view.evaluate("() => window.ramiGame.state()") is None
    page.close()
    assert page.errors == []


def open_setup(page: Page) -> Any:
    """The game's set-up, the presets loaded."""
    view = page.page
    view.goto(page.base + "/#game")
    view.wait_for_selector("#game-start")
    view.wait_for_function("() => document.querySelectorAll('#game-rules option').length > 3")
    return view


def test_a_bot_asked_by_target_elo(page: Page) -> None:
    view = open_setup(page)
    view.select_option("#game-bots", "1")
    assert not view.is_visible("#game-elo-1") and not view.is_visible("#setup-note")
    view.select_option("#game-level-1", "elo")
    assert view.is_visible("#game-elo-1") and view.is_visible("#setup-note")
    assert view.get_by_label("Target Elo of bot 1").count() == 1
    assert not view.is_visible("#game-elo-2")
    page.press("#game-start")  # no Elo typed: the form asks it, nothing is sent
    assert view.evaluate("() => document.querySelector('#game-elo-1').validity.valueMissing")
    assert not any("/games" in url for url in page.requests)
    view.fill("#game-elo-1", "500")
    view.select_option("#game-rules", "bfmania-30")  # a whole-game ladder (docs/game.md)
    page.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state() !== null")
    view.wait_for_selector("#hand .card")
    state = view.evaluate("() => window.ramiGame.state()")
    assert [player["level"] for player in state["players"]] == ["human", "elo:500"]
    assert state["phase"] in ("draw", "play") and not view.is_visible("#game-notes")
    assert "P2 (elo:500)" in view.locator(".player[data-seat='1']").inner_text()
    width = view.evaluate("() => document.documentElement.scrollWidth")
    assert width <= VIEWPORTS[page.device]["viewport"]["width"]


def test_the_expert_s_note_is_shown(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    view = open_setup(page)
    view.select_option("#game-bots", "2")
    view.select_option("#game-level-1", "expert")
    view.select_option("#game-level-2", "expert")
    view.fill("#game-seed", str(SEED))
    page.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state() !== null")
    note = view.locator("#game-notes")
    assert note.is_visible()
    assert note.inner_text() == (
        "Note: in rami-chinois the expert opens with as few cards as it "
        "can and keeps its melds in the hand until it can go out in "
        "one turn."
    )  # once for the two experts
    page.close()
    assert page.errors == []
