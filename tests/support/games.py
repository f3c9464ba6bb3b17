"""Playing games in tests: ``/games`` over HTTP (a request, and seat 0's answer by a beginner
bot), and a :class:`rami.game.session.GameSession` driven through its own calls."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from rami.game import Claim, Draw, make_bot
from rami.game.session import GameSession
from rami.game.state import View


def call(base: str, path: str, body: Any = None, timeout: float = 60) -> tuple[int, Any]:
    """GET ``path`` (POST ``body`` as JSON when given): (status, JSON answer)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        method="GET" if body is None else "POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def answer(view: dict[str, Any], seed: int) -> tuple[str, dict[str, Any]]:
    """What a beginner in seat 0 answers to ``view`` (a game's ``view``), as a request: (the
    path's last part, the body)."""
    action = make_bot("beginner", seed).act(View.from_json(view))
    if isinstance(action, Draw):
        return "draw", {"source": action.source}
    if isinstance(action, Claim):
        return "claim", {"take": action.take}
    return "play", {
        "table": [[str(card) for card in meld.cards] for meld in action.table],
        "discard": None if action.discard is None else str(action.discard),
    }


def next_request(game: dict[str, Any], seed: int) -> tuple[str, dict[str, Any]]:
    """The request that answers what ``game`` asks (the next round at a round's end)."""
    return ("next", {}) if game["phase"] == "round-over" else answer(game["view"], seed)


def drive(
    session: GameSession, seed: int, level: str = "beginner", decisions: int | None = None
) -> list[int]:
    """Seat 0 played by a bot through the session's own calls (at most ``decisions`` answers);
    the journal's length after each answer."""
    me = make_bot(level, seed)
    marks = []
    while session.phase != "game-over" and (decisions is None or len(marks) < decisions):
        if session.phase == "round-over":
            session.next_round()
        else:
            action = me.act(session.round.view())
            if isinstance(action, Draw):
                session.draw(action.source)
            elif isinstance(action, Claim):
                session.claim(action.take)
            else:
                session.play([list(meld.cards) for meld in action.table], action.discard)
        marks.append(len(session.journal))
    return marks
