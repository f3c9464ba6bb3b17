"""The page as a player uses it, in a real headless Chromium (as tests/test_page_puzzle.py; the
server, browser and helpers are tests/support/page.py's).

On a phone upright and on its side (touch): the table does not move when a card is tapped, the
hand and the messages stay on screen above the action bar, every card and button leaves at least
44 px to touch, and a meld's card places the selection there. On the desktop: every move is said
in the status line, an address typed into the open tab (#game, a puzzle id) is followed, the
solved puzzles are kept across reloads (marked when the solution was shown, and then not
counted).

Without Chromium or Playwright these tests are skipped, unless ``RAMI_BROWSER_TESTS=required``
(what ``make test`` sets), where they fail instead.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import support.page as shared
from support.page import EASY, SPLIT, VIEWPORTS, Page

#: The page's fixtures (tests/support/page.py): the session's ``rami serve`` on loopback, Debian's
#: Chromium, a page on a phone.
server = shared.server
browser = shared.browser
phone = shared.phone


#: A phone on its side.
LANDSCAPE = {
    "viewport": {"width": 844, "height": 390},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
VIEWPORTS.setdefault("landscape", LANDSCAPE)
#: The least a finger is given: a card's visible part, a button (px).
TOUCH = 44


def _box(page: Page, selector: str) -> dict[str, float]:
    box = page.page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return dict(box)


def _bar_top(page: Page) -> float:
    return _box(page, ".actions")["y"]


def _touch_widths(page: Page, selector: str) -> list[float]:
    """The width a finger can touch of each card in `selector`: up to the next card's edge
    (cards overlap in a meld), the whole card for the last one."""
    widths: list[float] = page.page.eval_on_selector_all(
        selector,
        """cards => cards.map((c, i) => {
        const box = c.getBoundingClientRect();
        const next = cards[i + 1];
        if (!next || next.parentElement !== c.parentElement) return box.width;
        const after = next.getBoundingClientRect();
        return after.top > box.top + 4 ? box.width : after.left - box.left;
    })""",
    )
    return widths


@pytest.mark.parametrize("phone", ["phone", "landscape"], indirect=True)
def test_a_phone_table_that_keeps_still(phone: Page) -> None:
    page = phone.open(EASY)  # TS TD TC | 7C 8C 9C TC / TH 6C 8C
    view = page.page
    height = view.evaluate("() => innerHeight")
    # The hand and the messages on screen, above the action bar.
    bar = _bar_top(page)
    for selector in ("#hand", "#status"):
        box = _box(page, selector)
        assert box["y"] >= 0 and box["y"] + box["height"] <= bar + 1, (selector, box, bar)
    assert bar < height
    table, hand = _box(page, "#table"), _box(page, "#hand")
    page.press(page.card("TH"))
    # Nothing moved: not the table, not the hand, not the card just tapped.
    assert _box(page, "#table") == table and _box(page, "#hand") == hand
    tapped = _box(page, page.card("TH"))
    assert tapped["y"] >= 0 and tapped["y"] + tapped["height"] <= _bar_top(page)
    assert page.status() == "Selected TH: now choose a meld (or New meld)."
    # Touch targets: every card, Put here, every button of the bar.
    assert min(_touch_widths(page, ".meld .card")) >= TOUCH
    assert min(_touch_widths(page, "#hand .card")) >= TOUCH
    here = _box(page, f"{page.meld(1)} .here")
    assert here["width"] >= TOUCH and here["height"] >= TOUCH
    heights = view.eval_on_selector_all(
        ".actions button", "bs => bs.filter(b => b.offsetParent).map(b => b.offsetHeight)"
    )
    assert heights and min(heights) >= TOUCH
    # A card of a meld takes the selection there.
    page.press(page.card("TS", page.meld(1)))
    assert page.meld_cards(1) == ["TS", "TH", "TD", "TC"]
    assert page.status() == "TH to meld 1."
    width = view.evaluate("() => document.documentElement.scrollWidth")
    assert width <= view.evaluate("() => innerWidth")
    # The solution's steps: the meld each one changes is in view, above the hand.
    page.press("#reset")
    page.press("#show-solution")
    view.wait_for_selector("#replay-moves li", state="attached")
    page.press("#step")  # move 7C from meld 2 to meld 3
    meld, dock = _box(page, page.meld(3)), _box(page, ".dock")
    assert meld["y"] >= 0 and meld["y"] + meld["height"] <= dock["y"] + 1, (meld, dock)


def test_every_move_is_said_and_the_address_followed(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop").open(EASY)
    view = page.page
    assert page.page.get_attribute("#status", "aria-live") == "polite"
    page.press(page.card("7C", page.meld(2)))
    page.press("#new-meld-zone")
    assert page.status() == "7C to a new meld 3."
    page.press(page.card("6C"))
    page.press(page.card("8C"))
    page.press(page.card("7C", page.meld(3)))  # a meld's card: the selection goes there
    assert page.meld_cards(3) == ["6C", "7C", "8C"]
    assert page.status() == "6C 8C to meld 3."
    page.press("#undo")
    assert page.status() == "Undone." and page.meld_cards(3) == ["7C"]
    page.press(page.card("6C"))
    page.press(page.card("7C", page.meld(3)))
    page.press(page.card("8C"))  # a hand card: added to the selection, not moved
    assert page.status() == "Selected 8C: now choose a meld (or New meld)."
    # An address typed into the open tab.
    view.evaluate("() => { location.hash = '#game'; }")
    view.wait_for_selector("#game-start")
    assert view.locator("#mode-game").get_attribute("aria-pressed") == "true"
    view.evaluate(f"() => {{ location.hash = '#{SPLIT}'; }}")
    view.wait_for_function(
        "id => document.querySelector('.chip.id')?.textContent === id", arg=SPLIT
    )
    assert view.locator("#mode-puzzle").get_attribute("aria-pressed") == "true"
    assert view.is_visible("#check") and not view.is_visible("#game-start")
    page.close()
    assert page.errors == []


def _chips(page: Page) -> list[str]:
    chips: list[str] = page.page.locator("#tags .chip.solved").all_inner_texts()
    return chips


def _solve_easy(page: Page) -> str:
    page.press(page.card("7C", page.meld(2)))
    page.press("#new-meld-zone")
    page.press(page.card("TH"))
    page.put(1)
    page.press(page.card("6C"))
    page.press(page.card("8C"))
    page.put(3)
    return page.check()


def test_solved_puzzles_are_kept(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop").open(EASY)
    view = page.page
    assert _chips(page) == []
    assert _solve_easy(page).startswith("Solved!")
    assert _chips(page) == ["solved"]
    view.reload()
    view.wait_for_function("() => document.querySelector('.chip.solved')")
    assert _chips(page) == ["solved"] and view.locator("#solved-count").inner_text() == "1 solved"
    kept = json.loads(view.evaluate("() => localStorage.getItem('rami-solved')"))
    assert kept[EASY]["hints"] == 0 and kept[EASY]["solution"] is False
    # With a hint: marked so.
    page.open(SPLIT)
    page.press("#hint")
    view.locator("#hints .hint").first.wait_for()
    page.press(page.card("6D", page.meld(1)))
    page.press("#split")
    page.press(page.card("6D"))
    page.put(2)
    assert page.check().startswith("Solved!")
    assert _chips(page) == ["solved with a hint"]
    assert view.locator("#solved-count").inner_text() == "2 solved"
    page.close()
    assert page.errors == []
    # Another browser: the solution shown, then checked: marked, and not counted as solved.
    other = Page(browser, server, "desktop").open(EASY)
    other.press("#show-solution")
    other.page.locator("#replay-moves li").nth(2).wait_for()
    for _ in range(3):
        other.press("#step")
    assert other.check().startswith("Solved, with the solution shown: not counted.")
    assert _chips(other) == ["solution seen"]
    assert other.page.locator("#solved-count").inner_text() == "0 solved"
    other.close()
    assert other.errors == []
