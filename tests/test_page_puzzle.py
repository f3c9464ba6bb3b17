"""The puzzle page in a real headless Chromium (Debian's ``chromium``, driven by Playwright; the
server, browser and helpers are tests/support/page.py's).

A real ``rami serve`` runs on a free loopback port; the page is opened on a desktop and a phone
viewport, every request it makes is recorded (all must go to 127.0.0.1), and a puzzle is played
by clicks (taps on the phone), by the keyboard, by mouse drags and by finger drags; a wrong answer
shows its reason, a run is split, hints come one level at a time, the solution step by step, and
puzzles are picked by tier and theme.

Without Chromium or Playwright these tests are skipped, unless ``RAMI_BROWSER_TESTS=required``
(what ``make test`` sets), where they fail instead.
"""

from __future__ import annotations

from typing import Any

import support.page as shared
from support.page import EASY, SPLIT, VIEWPORTS, Page

from rami.service.testing import LOOPBACK, get_ok

#: The page's fixtures (tests/support/page.py): the session's ``rami serve`` on loopback, Debian's
#: Chromium, a page on each viewport.
server = shared.server
browser = shared.browser
page = shared.page


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
    daily = get_ok(page.base + "/puzzles/daily")
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
    listed = get_ok(page.base + "/puzzles?tier=hard&theme=split-run")
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
