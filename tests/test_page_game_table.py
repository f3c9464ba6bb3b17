"""The page as a player at a game's table uses it, in a real headless Chromium (as
tests/test_page_game.py; the server, browser and helpers are tests/support/page.py's).

The bots' turns one at a time, the running totals and the round's pause, the whole discard pile,
rami fou's claim asked once the hand is shown, New game asked before a game in play is thrown
away, a hint at every decision; and the page in French.

Without Chromium or Playwright these tests are skipped, unless ``RAMI_BROWSER_TESTS=required``
(what ``make test`` sets), where they fail instead.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
import support.page as shared
from support.page import EASY, RUN, VIEWPORTS, Page, log_lines, set_pace, start_game

#: The page's fixtures (tests/support/page.py): the session's ``rami serve`` on loopback, Debian's
#: Chromium, a page on a phone.
server = shared.server
browser = shared.browser
phone = shared.phone


VIEWPORTS.setdefault("phone-fr", {**VIEWPORTS["phone"], "locale": "fr-FR"})


def _call(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def _play_until(base: str, state: dict[str, Any], phases: tuple[str, ...]) -> dict[str, Any]:
    """Seat 0's turns over HTTP (draw the stock, lay nothing, discard the card drawn) until the
    game asks one of `phases`."""
    for _ in range(400):
        if state["phase"] in phases:
            return state
        game, view = f"/games/{state['id']}", state["view"]
        if state["phase"] == "draw":
            state = _call(base, f"{game}/draw", {"source": "stock"})
        elif state["phase"] == "claim":
            state = _call(base, f"{game}/claim", {"take": False})
        elif state["phase"] == "round-over":
            state = _call(base, f"{game}/next", {})
        else:
            table = [meld if isinstance(meld, list) else meld["cards"] for meld in view["table"]]
            discard = (view["drawn"] or view["hand"][-1]) if state["discard_rule"] else None
            state = _call(base, f"{game}/play", {"table": table, "discard": discard})
    raise AssertionError(f"no {phases} in 400 answers")


def _open_game(page: Page, game_id: str) -> dict[str, Any]:
    """The page on a game dealt elsewhere (as a reload finds the tab's game)."""
    view = page.page
    view.goto(page.base + "/")
    view.wait_for_selector("#hand .card")
    view.evaluate("id => sessionStorage.setItem('rami-game', id)", game_id)
    view.evaluate("() => { location.hash = '#game'; }")
    view.wait_for_function("id => window.ramiGame.state()?.id === id", arg=game_id)
    state: dict[str, Any] = view.evaluate("() => window.ramiGame.state()")
    return state


def _chip_totals(page: Page) -> list[str]:
    texts: list[str] = page.page.locator(".player .totals").all_inner_texts()
    return [text.rsplit("\u00b7", 1)[1].strip() for text in texts]


def test_the_table_a_player_sees_and_the_round_s_pause(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    view = page.page
    dealt = _call(
        server, "/games", {"rules": "bfmania-30", "bots": ["beginner"], "seed": 3, "max_rounds": 2}
    )
    played = _play_until(server, dealt, ("draw",))
    while len(played["view"]["discard_pile"]) < 2:
        played = _call(server, f"/games/{dealt['id']}/draw", {"source": "stock"})
        played = _play_until(server, played, ("draw",))
    state = _open_game(page, dealt["id"])
    set_pace(page, "fast")
    info = view.locator("#game-info").inner_text()
    assert "Round 1" in info and "played first" in info and "game to 250" in info
    pile = state["view"]["discard_pile"]
    assert (
        len(pile) >= 2
        and view.eval_on_selector_all("#discard-row img", "is => is.map(i => i.dataset.card)")
        == pile
    )
    assert view.locator("#discard-top img").get_attribute("data-card") == pile[-1]
    known = state["view"]["known"]
    took = view.locator(".player .took")
    assert took.count() == sum(1 for cards in known if cards)
    # The round's end: the totals counted at once (not the deal's), and a pause.
    over = _play_until(server, state, ("round-over",))
    view.reload()
    view.wait_for_function("() => window.ramiGame.state()?.phase === 'round-over'")
    assert over["totals"] != over["view"]["scores"]  # what the chips showed before
    assert _chip_totals(page) == [f"{total} pts" for total in over["totals"]]
    assert view.is_visible("#round-summary") and view.is_visible("#next-round")
    assert view.locator("#round-summary h3").inner_text() == "Round 1 over"
    page.press("#next-round")
    view.wait_for_function("() => window.ramiGame.state()?.view.round === 2")
    assert "Round 2" in view.locator("#game-info").inner_text()
    # Game over: the final totals; New game asks nothing then.
    done = _play_until(server, view.evaluate("() => window.ramiGame.state()"), ("game-over",))
    view.reload()
    view.wait_for_function("() => window.ramiGame.state()?.phase === 'game-over'")
    assert _chip_totals(page) == [f"{total} pts" for total in done["result"]["totals"]]
    assert view.locator("#round-summary h3").inner_text() == "Game over"
    page.press("#new-game")
    view.wait_for_selector("#game-start")
    assert not view.locator("#confirm-new").is_visible()
    page.close()
    assert page.errors == []


def test_the_bots_turns_one_at_a_time(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    view = page.page
    state = start_game(page, pace="step")
    assert state["phase"] == "play"
    for code in RUN:
        page.press(page.card(code))
    page.press("#new-meld-zone")
    page.press("#end-turn")
    view.wait_for_function("() => !document.querySelector('#go-on').hidden")
    after = view.evaluate("() => window.ramiGame.state()")
    bot = next(entry for entry in after["events"] if entry["kind"] == "play" and entry["seat"])
    # The bot's turn, told in the status line, with the table as it stood after it; the
    # person's draw that follows is not shown yet, and nothing can be moved.
    told = page.status()
    assert bot["text"] in told and "P2 (beginner)'s turn (1 of 1): press Go on" in told
    if bot.get("moves"):
        assert "Moves: " + "; ".join(bot["moves"]) in told
    assert view.locator("#hand .card").count() == 11
    assert sorted(
        view.eval_on_selector_all("#table .card.fresh", "cs => cs.map(c => c.dataset.card)")
    ) == sorted(bot["played"])
    assert not view.is_visible("#end-turn")
    assert not any(line.startswith("You draw") for line in log_lines(page)[-1:])
    page.press("#go-on")
    assert view.locator("#hand .card").count() == 12 and view.is_visible("#end-turn")
    assert log_lines(page)[-1].startswith("You draw ")
    # A card a bot took from a meld is pointed out (the tables before and after its turn).
    taken = view.evaluate(
        "() => window.ramiBots.takenFrom([['7C', '8C', '9C', 'TC'], "
        "['JD', 'JS', 'JH']], [['8C', '9C', 'TC'], ['JS', 'JH', 'JC'], "
        "['6C', '7C', '8C'], ['QD', 'KD', 'JD']])"
    )
    assert taken == [{"from": 1, "cards": ["7C"]}, {"from": 2, "cards": ["JD"]}]
    # A bot's turn that took cards out of your melds (the event's took): edged in red, named.
    view.evaluate("""() => {
        const state = window.ramiGame.state();
        const board = window.ramiBoard;
        const event = {kind: 'play', round: 1, seat: 1, text: 'P2 (beginner) lays 9C.',
                       played: ['9C'], table: [['8C', '9C', 'TC'], ['6C', '7C', '9C']],
                       took: ['7C'], moves: ['move 7C from 1 to 2']};
        window.ramiBots.start(state, [['7C', '8C', '9C', 'TC']], [event], {
            addLog: () => {}, showButtons: () => {},
            showBoard: (position, drawn, laid, taken) => board.load(position, drawn, laid, taken),
        });
    }""")
    assert view.eval_on_selector_all("#table .card.taken", "cs => cs.map(c => c.dataset.card)") == [
        "7C"
    ]
    assert "7C taken from your melds" in page.status()
    assert "Moves: move 7C from 1 to 2" in page.status()
    view.evaluate("() => window.ramiBots.finish()")
    page.close()
    assert page.errors == []


@pytest.mark.parametrize("phone", ["phone"], indirect=True)
def test_rami_fou_asks_the_claim_once_the_hand_is_shown(phone: Page) -> None:
    view = phone.page
    view.goto(phone.base + "/#game")
    view.wait_for_function("() => document.querySelectorAll('#game-rules option').length > 3")
    view.select_option("#game-rules", "rami-fou")
    view.fill("#game-seed", "0")
    set_pace(phone, "fast")
    phone.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state() !== null")
    state = view.evaluate("() => window.ramiGame.state()")
    assert state["phase"] == "claim"
    assert view.locator("#hand .card").count() == 13
    assert phone.status() == (
        "Round 1: your 13 cards are dealt. Look at your hand, then press Go on."
    )
    assert not view.is_visible("#claim-take") and view.is_visible("#go-on")
    phone.press("#go-on")
    assert view.is_visible("#claim-take") and view.is_visible("#claim-pass")
    assert phone.status().startswith(f"Claim the {state['view']['claim_card']} ")
    # The hint at the claim, played: the claim is answered as advised.
    with view.expect_response(lambda response: response.url.endswith("/hint")) as answer:
        phone.press("#game-hint")
    advice = answer.value.json()
    assert advice["phase"] == "claim" and advice["claim"] in (True, False)
    phone.press("#play-hint")
    view.wait_for_function(
        "count => window.ramiGame.state().event_count > count", arg=state["event_count"]
    )
    answered = [
        entry
        for entry in view.evaluate("() => window.ramiGame.state().events")
        if entry["kind"] == "claim" and entry["seat"] == 0
    ]
    assert bool(answered) == advice["claim"]
    # A game in play: New game asks first.
    phone.press("#new-game")
    assert view.locator("#confirm-new").is_visible()
    phone.press("#confirm-keep")
    assert view.locator("#hand .card").count() and view.is_visible("#new-game")


def test_the_page_in_french(browser: Any, server: str) -> None:
    page = Page(browser, server, "phone-fr")  # a browser that asks for French
    page.device = "phone"
    page.open(EASY)
    view = page.page
    assert view.evaluate("() => document.documentElement.lang") == "fr"
    assert view.locator("#check").inner_text() == "V\u00e9rifier"
    assert view.locator(f"{page.meld(1)} .kind").inner_text() == "s\u00e9rie"
    assert view.locator(f"{page.meld(2)} .kind").inner_text() == "suite"
    page.press(page.card("TH"))
    assert page.status().startswith("Choisi : 10\u2665.")
    assert (
        view.locator(page.card("TH")).get_attribute("aria-label")
        == "10 de c\u0153ur, dans votre main"
    )
    page.press(page.card("TS", page.meld(1)))
    assert page.status() == "10\u2665 dans la combinaison 1."
    # Switched to English, and remembered.
    view.select_option("#lang", "en")
    assert view.evaluate("() => document.documentElement.lang") == "en"
    assert view.locator("#check").inner_text() == "Check"
    assert view.locator(f"{page.meld(1)} .kind").inner_text() == "set"
    view.reload()
    view.wait_for_selector("#hand .card")
    assert view.evaluate("() => document.documentElement.lang") == "en"
    view.select_option("#lang", "fr")
    # A game in French: the page's words, the cards, and the service asked in French.
    page.press("#mode-game")
    view.wait_for_selector("#game-start")
    assert view.locator("#game-start").inner_text() == "Distribuer"
    assert view.locator("#game-level-1 option[value='beginner']").inner_text() == "d\u00e9butant"
    view.select_option("#game-bots", "1")
    view.select_option("#game-level-1", "beginner")
    view.fill("#game-seed", str(shared.SEED))  # your hand holds a jack, a queen and a king
    set_pace(page, "fast")
    page.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state() !== null")
    # A king drawn with the French letter (the server's picture, asked in French).
    king = f"#hand .card[data-card='{RUN[-1]}'] img"
    assert RUN[-1].startswith("K")
    view.wait_for_function("s => document.querySelector(s)?.src.endsWith('?lang=fr')", arg=king)
    drawn = view.evaluate("s => fetch(document.querySelector(s).src).then(r => r.text())", king)
    assert ">R</text>" in drawn and ">K</text>" not in drawn and "roi de" in drawn
    assert view.is_visible("#end-turn")
    assert view.locator("#end-turn").inner_text() == "Finir le tour"
    assert "Manche 1" in view.locator("#game-info").inner_text()
    assert log_lines(page)[0].startswith("Manche 1 : ")  # the service's log, in French
    assert all("lang=fr" in url for url in page.requests if "/games" in url)
    page.close()
    assert page.errors == []


def _hint(page: Page) -> dict[str, Any]:
    """Press Hint; the advice the service answered."""
    with page.page.expect_response(lambda response: response.url.endswith("/hint")) as answer:
        page.press("#game-hint")
    advice: dict[str, Any] = answer.value.json()
    page.page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Hint: ')"
    )
    return advice


def test_a_hint_at_every_decision(browser: Any, server: str) -> None:
    page = Page(browser, server, "desktop")
    view = page.page
    state = start_game(page)  # rami chinois: you hold a run, and play
    assert state["phase"] == "play" and view.is_visible("#game-hint")
    nudge = _hint(page)
    assert nudge["phase"] == "play" and page.status() == f"Hint: {nudge['text']}"
    _hint(page)
    whole = _hint(page)  # the third: the whole turn, as moves, and a table to lay
    assert whole["table"] and whole["moves"]
    assert all(move in page.status() for move in whole["moves"])  # the words list them
    page.press("#play-hint")
    laid = [meld for meld in view.evaluate("() => window.ramiBoard.table()") if meld]
    assert sorted(map(sorted, laid)) == sorted(map(sorted, whole["table"]))
    assert page.status() == "The hint is filled in: press End turn to play it."
    page.press("#end-turn")  # the person plays it
    view.wait_for_function("() => window.ramiGame.state().view.turn >= 2")
    assert any(line.startswith("You lay ") for line in log_lines(page))
    # At the draw (BFmania 30 lets you take the discard): the advised draw, played.
    page.press("#new-game")
    page.press("#confirm-throw")
    view.wait_for_function("() => document.querySelectorAll('#game-rules option').length > 3")
    view.select_option("#game-rules", "bfmania-30")
    view.select_option("#game-bots", "1")
    view.fill("#game-seed", "5")
    page.press("#game-start")
    view.wait_for_function("() => window.ramiGame.state()?.phase === 'draw'")
    advice = _hint(page)
    assert advice["phase"] == "draw" and advice["draw"] in ("stock", "discard")
    page.press("#play-hint")
    view.wait_for_function("() => window.ramiGame.state().phase === 'play'")
    source = "discard pile" if advice["draw"] == "discard" else "stock"
    assert log_lines(page)[-1].startswith("You ") and log_lines(page)[-1].endswith(f"{source}.")
    page.close()
    assert page.errors == []
