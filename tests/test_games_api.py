"""``/games`` over real HTTP (a server in a thread on loopback): a game against bots held by the
server, the person at seat 0 (docs/service.md, docs/page.md). Plus the library under it,
:class:`rami.game.session.GameSession`: the same game as :func:`rami.game.play_game` from the
same seed, and nothing of the other hands or the stock in what seat 0 is sent."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from rami.cards import Card
from rami.game import Claim, Draw, GameOptions, IllegalActionError, Play, make_bot, play_game
from rami.game.mixed import LADDERS
from rami.game.session import GameSession, NotAskedError
from rami.game.state import View
from rami.lang import Language
from rami.service import Settings, create_app
from rami.service.game_store import GameStore
from rami.service.testing import BackgroundServer, SchemaChecker


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = tmp_path_factory.mktemp("games") / "rami.db"
    with pytest.MonkeyPatch.context() as patch:  # not the user's default database
        patch.setenv("RAMI_SERVICE_GAMES_DB", str(path))
        with BackgroundServer(create_app(Settings(default_time_limit=5.0))) as running:
            yield running.url


def call(base: str, path: str, body: Any = None, method: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method or ("GET" if body is None else "POST"),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _cards_in(data: Any) -> set[str]:
    """Every string of ``data`` (keys aside) that is a card."""
    if isinstance(data, dict):
        return set().union(*(_cards_in(value) for value in data.values()))
    if isinstance(data, list):
        return set().union(*(_cards_in(value) for value in data))
    if isinstance(data, str) and 2 <= len(data) <= 3:
        try:
            Card.parse(data)
        except Exception:
            return set()
        return {data}
    return set()


def drive(session: GameSession, seed: int) -> None:
    """Seat 0 played by a beginner bot through the session's own calls."""
    me = make_bot("beginner", seed)
    while session.phase != "game-over":
        if session.phase == "round-over":
            session.next_round()
            continue
        action = me.act(session.round.view())
        if isinstance(action, Draw):
            session.draw(action.source)
        elif isinstance(action, Claim):
            session.claim(action.take)
        else:
            session.play([list(meld.cards) for meld in action.table], action.discard)


@pytest.mark.parametrize("rules", ["rami-chinois", "bfmania-30", "rami-fou", "rummikub"])
def test_a_session_is_the_game_play_game_plays(rules: str) -> None:
    options = GameOptions(max_rounds=2)
    session = GameSession(rules, ["beginner", "beginner"], 4, options)
    drive(session, 4)
    record = play_game(
        rules, [make_bot("beginner", 4 + seat) for seat in range(3)], 4, options=options
    )
    assert session.result is not None
    assert session.result["totals"] == record["totals"]
    assert session.result["winners"] == record["winners"]
    assert [r["scores"] for r in session.rounds] == [r["scores"] for r in record["rounds"]]


def test_seat_0_sees_no_other_hand_and_no_stock() -> None:
    session = GameSession("bfmania-30", ["beginner", "beginner"], 9, GameOptions(max_rounds=1))
    for _ in range(12):
        if session.phase != "draw":
            break
        rnd = session.round
        sent = session.to_json()
        assert sorted(sent["view"]["hand"]) == sorted(map(str, rnd.state.hands[0].elements()))
        assert sent["view"]["stock_size"] == len(rnd.state.stock)
        assert set(sent["view"]) == set(View.__dataclass_fields__)
        seen = {
            *sent["view"]["hand"],
            *sent["view"]["discard_pile"],
            *_cards_in(sent["view"]["table"]),
            *(card for entry in session.log for card in _cards_in(entry.get("table"))),
            *(entry.get("card") for entry in session.log),
            *(card for entry in session.log for card in entry.get("played") or ()),
            *(entry.get("discard") for entry in session.log),
        }
        assert _cards_in(sent) <= seen  # every card named was seen by seat 0
        stock = [str(card) for card in rnd.state.stock]
        assert stock[-3:] and not set(stock[-3:]) <= seen | set(map(str, rnd.state.hands[0]))
        for entry in sent["events"]:
            if entry["kind"] == "draw" and entry["seat"] != 0 and entry["source"] == "stock":
                assert entry["card"] is None and "from the stock" in entry["text"]
        session.draw("stock")
        hand = session.round.view().hand
        session.play([list(meld.cards) for meld in session.round.state.table], hand[-1])
    drawn = [entry for entry in session.log if entry["kind"] == "draw" and entry["seat"] == 1]
    assert drawn and all(entry["card"] is None for entry in drawn if entry["source"] == "stock")


def test_an_illegal_turn_changes_nothing() -> None:
    session = GameSession("rami-chinois", ["beginner"], 3)
    assert session.phase == "play"
    hand = session.round.view().hand
    before = session.to_json()
    with pytest.raises(IllegalActionError) as refused:
        session.play([[hand[0], hand[1]]])
    assert refused.value.problems and not isinstance(refused.value, NotAskedError)
    with pytest.raises(NotAskedError):
        session.draw("stock")
    assert session.to_json() == before


def test_the_store_is_bounded_and_expires() -> None:
    now = [0.0]
    store = GameStore(max_games=2, ttl=100, clock=lambda: now[0])
    first = store.add(GameSession("rami-chinois", ["beginner"], 1))
    second = store.add(GameSession("rami-chinois", ["beginner"], 2))
    now[0] = 50
    store.get(first)  # used: the second is now the one left longest unused
    third = store.add(GameSession("rami-chinois", ["beginner"], 3))
    assert set(store.games) == {first, third}
    now[0] = 140  # first used at 50, third made at 50 (+100 is the limit)
    store.get(third)
    now[0] = 151
    assert set(store.games) == {first, third}
    store.get(third)
    assert set(store.games) == {third}
    with pytest.raises(Exception, match="no game"):
        store.get(second)


# ------------------------------------------------------------------------------ over HTTP


def test_a_game_over_http(url: str) -> None:
    status, game = call(url, "/games", {"rules": "rami-chinois", "bots": ["beginner"], "seed": 3})
    assert status == 200, game
    assert game["phase"] == "play" and game["to_move"] == 0
    assert [p["level"] for p in game["players"]] == ["human", "beginner"]
    assert game["view"]["hand_sizes"] == [14, 13] and len(game["view"]["hand"]) == 14
    assert "stock" not in game["view"] and game["view"]["stock_size"] > 0
    assert game["events"][-1]["text"].startswith("You draw ")
    game_id = game["id"]
    # The same seed, the same deal.
    assert (
        call(url, "/games", {"bots": ["beginner"], "seed": 3})[1]["view"]["hand"]
        == game["view"]["hand"]
    )
    # An illegal turn: the referee's reasons, nothing changed.
    hand = game["view"]["hand"]
    status, error = call(url, f"/games/{game_id}/play", {"table": [hand[:2]]})
    assert status == 422, error
    assert error["error"].startswith("the referee refuses this turn: ")
    assert error["field"] == "table" and error["problems"]
    assert call(url, f"/games/{game_id}")[1]["view"]["hand"] == hand
    # Not what is asked: a 409.
    status, error = call(url, f"/games/{game_id}/draw", {"source": "stock"})
    assert status == 409 and "you are asked to play your turn" in error["error"]
    # A legal turn (nothing laid): the bot plays, and it is our turn again.
    status, after = call(url, f"/games/{game_id}/play", {"table": []})
    assert status == 200, after
    kinds = [(entry["kind"], entry.get("seat")) for entry in after["events"]]
    assert kinds[0] == ("play", 0) and ("play", 1) in kinds and kinds[-1] == ("draw", 0)
    bot_draw = next(e for e in after["events"] if e["kind"] == "draw" and e["seat"] == 1)
    assert bot_draw["card"] is None
    assert after["view"]["turn"] == 2 and after["phase"] == "play"
    assert call(url, f"/games/{game_id}?since=0")[1]["event_count"] == after["event_count"]


def test_a_game_played_to_its_end_over_http(url: str) -> None:
    status, game = call(
        url,
        "/games",
        {"rules": "bfmania-30", "bots": ["beginner", "beginner"], "seed": 11, "max_rounds": 1},
    )
    assert status == 200, game
    me = make_bot("beginner", 11)
    for _ in range(400):
        if game["phase"] == "game-over":
            break
        view = View.from_json({**game["view"], "phase": game["phase"]})
        action = me.act(view)
        if isinstance(action, Draw):
            status, game = call(url, f"/games/{game['id']}/draw", {"source": action.source})
        else:
            assert isinstance(action, Play)
            table = [[str(c) for c in meld.cards] for meld in action.table]
            status, game = call(
                url,
                f"/games/{game['id']}/play",
                {
                    "table": table,
                    "discard": None if action.discard is None else str(action.discard),
                },
            )
        assert status == 200, game
    assert game["phase"] == "game-over" and game["result"]["winners"]
    (summary,) = game["rounds"]
    assert summary["totals"] == game["totals"] == game["result"]["totals"]
    assert sum(len(hand) for hand in summary["hands"]) > 0  # laid down to be counted
    status, error = call(url, f"/games/{game['id']}/next", {})
    assert status == 409 and "this one is over" in error["error"]


@pytest.mark.parametrize(
    ("path", "body", "status", "field"),
    [
        ("/games", {"rules": "rami-99"}, 422, "rules"),
        ("/games", {"bots": ["beginner"] * 4}, 422, "bots"),
        ("/games", {"bots": ["grandmaster"]}, 422, "bots[0]"),
        ("/games", {"bots": []}, 422, "bots"),
        ("/games", {"seed": -1}, 422, "seed"),
        ("/games", {"colour": "red"}, 422, "colour"),
        ("/games/nope/play", {"table": []}, 404, "id"),
        ("/games/bad%20id", None, 422, "path.game_id"),
        ("/games/nope/draw", {"source": "pile"}, 422, "source"),
    ],
)
def test_bad_requests_are_json_errors(
    url: str, path: str, body: Any, status: int, field: str | None
) -> None:
    got, error = call(url, path, body)
    assert got == status, error
    assert set(error) == {"error", "field", "problems"} and error["error"]
    if field is not None:
        assert error["field"] == field


def test_a_bot_asked_by_target_elo(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for rules in ("rami-chinois", "bfmania-30"):
        status, game = call(url, "/games", {"rules": rules, "bots": ["elo:500"], "seed": 3})
        assert status == 200, game
        assert [p["level"] for p in game["players"]] == ["human", "elo:500"]
        assert game["phase"] in ("draw", "play") and game["notes"] == []
    # A preset with no measured ladder (here bfmania-30's taken away) is refused at once, even
    # where you play first (seed 0) and the bot would only have met it at its first turn.
    monkeypatch.delitem(LADDERS, "bfmania-30")
    for seed in (0, 1):
        status, error = call(
            url, "/games", {"rules": "bfmania-30", "seed": seed, "bots": ["beginner", "elo:500"]}
        )
        assert status == 422, error
        assert error["field"] == "bots[1]"
        assert error["error"].startswith("no measured ladder for bfmania-30: ask a level by name")


def test_the_levels_notes(url: str) -> None:
    from rami.game.levels import level_note
    from rami.rules import get_ruleset

    note = level_note("expert", get_ruleset("rami-chinois"))
    assert note and "keeps its melds in the hand until it can go out in one turn" in note
    status, game = call(
        url,
        "/games",
        {"rules": "rami-chinois", "seed": 3, "bots": ["expert", "beginner", "expert"]},
    )
    assert status == 200, game
    assert game["notes"] == [note]  # once, though two experts are seated
    assert call(url, f"/games/{game['id']}")[1]["notes"] == [note]
    # In French, the same note in French words.
    french = level_note("expert", get_ruleset("rami-chinois"), Language.FR)
    assert french and "garde ses combinaisons en main" in french
    assert call(url, f"/games/{game['id']}?lang=fr")[1]["notes"] == [french]
    status, dealt = call(url, "/games", {"bots": ["expert"], "seed": 3, "lang": "fr"})
    assert status == 200 and dealt["notes"] == [french], dealt
    for rules, bots in (("bfmania-51", ["expert"]), ("rami-chinois", ["confirmed"])):
        status, game = call(url, "/games", {"rules": rules, "bots": bots, "seed": 3})
        assert status == 200 and game["notes"] == [], (rules, game)


def test_the_lookahead_is_seated_only_at_a_rami_chinois_table_of_four(url: str) -> None:
    """docs/game.md: offered where it was measured stronger than the expert, refused at once
    elsewhere, naming the bot."""
    from rami.game.levels import level_note
    from rami.rules import get_ruleset

    for rules, bots, field in (
        ("rami-chinois", ["expert", "lookahead"], "bots[1]"),  # a table of three
        ("rami-51", ["lookahead"] * 3, "bots[0]"),
    ):
        status, error = call(url, "/games", {"rules": rules, "bots": bots, "seed": 3})
        assert status == 422 and error["field"] == field, error
        assert "offered only where it was measured stronger" in error["error"], error
    status, game = call(
        url,
        "/games",
        {"rules": "rami-chinois", "seed": 3, "bots": ["lookahead", "expert", "expert"]},
    )
    assert status == 200, game
    assert [p["level"] for p in game["players"]] == ["human", "lookahead", "expert", "expert"]
    note = level_note("lookahead", get_ruleset("rami-chinois"))
    assert note and "random deals of the cards it cannot see" in note and note in game["notes"]


def test_bad_plays_are_json_errors(url: str) -> None:
    _, game = call(url, "/games", {"bots": ["beginner"], "seed": 5})
    path = f"/games/{game['id']}/play"
    for body, field in [
        ({"table": [["ZZ"]]}, "table[0]"),
        ({"table": [], "discard": "1X"}, "discard"),
        ({"table": "7H 8H 9H"}, "table"),
        ({"table": [[7]]}, "table[0][0]"),
        ({"table": [["7H"] * 31]}, "table[0]"),
    ]:
        status, error = call(url, path, body)
        assert status == 422, (body, error)
        assert error["field"] == field, (body, error)
    status, error = call(url, path, {"table": [], "discard": "7H"})
    assert status == 422 and error["problems"], error  # rami chinois has no discard


def test_the_answers_match_the_openapi_document(url: str) -> None:
    _, document = call(url, "/openapi.json")
    checker = SchemaChecker(document)
    status, game = call(url, "/games", {"bots": ["beginner", "beginner"], "seed": 8})
    assert checker.check("post", "/games", status, game)
    notes = document["components"]["schemas"]["GameOut"]["properties"]["notes"]
    assert notes["type"] == "array" and "level_note" in notes["description"]
    status, error = call(url, f"/games/{game['id']}/play", {"table": [["2H"]]})
    assert checker.check("post", "/games/{game_id}/play", status, error)
    cards = Counter(game["view"]["hand"])
    assert all(Card.parse(card) for card in cards)


def _first_discard_choice(seed: int) -> GameSession:
    """A rami-51 game (you and a beginner) run to your first draw with the discard pile open
    (you draw the stock and discard your last card until then)."""
    session = GameSession("rami-51", ["beginner"], seed)
    for _ in range(30):
        if session.phase == "draw" and "discard" in session.round.view().draws:
            return session
        if session.phase == "draw":
            session.draw("stock")
        view = session.round.view()
        session.play([list(meld.cards) for meld in view.table], view.hand[-1])
    raise AssertionError("no discard to take")


def test_rami_51_refuses_a_discard_that_cannot_be_laid() -> None:
    session = _first_discard_choice(0)
    before = session.to_json()
    with pytest.raises(IllegalActionError, match="must be laid in the same turn") as refused:
        session.draw("discard")
    assert not isinstance(refused.value, NotAskedError)
    assert session.to_json() == before
    taken = _first_discard_choice(7)  # here the solver's best turn lays it, in an opening
    top = taken.round.view().top_discard
    taken.draw("discard")
    view = taken.round.view()
    assert view.taken_discard == top and not view.is_opened
    from rami.solver.api import solve

    best = solve(view.position(), min_moves=False, time_limit=2.0)
    taken.play([list(meld.cards) for meld in best.table], best.discard)
    assert taken.round.state.opened[0] or taken.phase in ("round-over", "game-over")
