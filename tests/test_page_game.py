"""The page's game mode in a real headless Chromium (as tests/test_page_puzzle.py; the server,
browser and helpers are tests/support/page.py's): a game against a bot is dealt, refused an
illegal turn with the referee's reason, played a legal turn by clicks, and shows the bot's turn;
a card is drawn from the discard pile, a reload finds the game again, a bot is asked by target
Elo and the expert's note is shown.

Without Chromium or Playwright these tests are skipped, unless ``RAMI_BROWSER_TESTS=required``
(what ``make test`` sets), where they fail instead.
"""

from __future__ import annotations

from typing import Any

import support.page as shared
from support.page import RUN, SEED, VIEWPORTS, Page, log_lines, set_pace, start_game

#: The page's fixtures (tests/support/page.py): the session's ``rami serve`` on loopback, Debian's
#: Chromium, a page on each viewport.
server = shared.server
browser = shared.browser
page = shared.page


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


def deal_against(page: Page, view: Any, levels: list[str]) -> None:
    """Deal rami chinois (the default) at seed SEED against bots of these levels."""
    view.select_option("#game-bots", str(len(levels)))
    for number, level in enumerate(levels, start=1):
        view.select_option(f"#game-level-{number}", level)
    view.fill("#game-seed", str(SEED))
    page.press("#game-start")


def test_the_expert_s_note_is_shown(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    view = open_setup(page)
    deal_against(page, view, ["expert", "expert"])
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


def test_the_lookahead_is_offered_at_its_tables_only(browser: Any, server: str) -> None:
    """docs/page.md: the level menus offer what the server seats at the chosen table (GET
    /bot/levels): the look-ahead at a rami chinois table of four, not of three nor in rami 51;
    a choice the new table does not seat falls back to the expert."""
    page = Page(browser, server, "desktop")
    view = open_setup(page)
    look = "#game-level-1 option[value='lookahead']"
    view.select_option("#game-bots", "2")
    view.wait_for_function(f'() => document.querySelector("{look}").disabled')
    assert view.get_attribute(look, "title") == "not offered at this table"
    view.select_option("#game-bots", "3")
    view.wait_for_function(f'() => !document.querySelector("{look}").disabled')
    view.select_option("#game-level-1", "lookahead")
    view.select_option("#game-rules", "rami-51")
    view.wait_for_function(f'() => document.querySelector("{look}").disabled')
    assert view.input_value("#game-level-1") == "expert"
    view.select_option("#game-rules", "rami-chinois")
    view.wait_for_function(f'() => !document.querySelector("{look}").disabled')
    deal_against(page, view, ["lookahead", "expert", "expert"])
    view.wait_for_function("() => window.ramiGame.state() !== null")
    state = view.evaluate("() => window.ramiGame.state()")
    assert [player["level"] for player in state["players"]] == [
        "human",
        "lookahead",
        "expert",
        "expert",
    ]
    assert "random deals of the cards it cannot see" in view.locator("#game-notes").inner_text()
    page.close()
    assert page.errors == []
