"""A whole game: rounds until the game ends (docs/rules.md "The whole game", decisions 11-13).

:func:`play_game` seats the players, draws the first player by lot from the seed, deals each
round from the seed, asks each player for its actions through its :class:`View` only, and
returns the game record (:mod:`rami.game.record`). The first player moves one seat each round
(decision 12).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rami.errors import SolverBugError
from rami.game.actions import Action, GameInternalError, IllegalActionError
from rami.game.deck import deal, random_reshuffler, stream
from rami.game.presets import GameOptions, check_players
from rami.game.rounds import Round
from rami.game.scoring import game_after_round
from rami.game.state import View
from rami.rules import Ruleset, get_ruleset

RECORD_FORMAT = "rami-game"
RECORD_VERSION = 1
#: How the deal and reshuffles are drawn from the seed (checked by the replay).
SHUFFLE = "sha256-streams-v1"


class Player(Protocol):
    """Anything that answers a request from its visible state only."""

    def act(self, view: View) -> Action: ...


#: Called after each applied step with the round and the new event(s).
Listener = Callable[[Round, list[dict[str, Any]]], None]


def first_seat(seed: int | str, players: int) -> int:
    """The first player of the first round, drawn by lot from the seed (decision 12)."""
    return stream(seed, "first").randrange(players)


def next_active(seat: int, active: Sequence[bool]) -> int:
    for step in range(1, len(active) + 1):
        other = (seat + step) % len(active)
        if active[other]:
            return other
    return seat


def round_first(previous: int, active: Sequence[bool]) -> int:
    """The first player of the next round: one seat on, skipping eliminated seats."""
    return next_active(previous, active)


def play_round(
    rnd: Round,
    players: Sequence[Player],
    names: Sequence[str],
    listener: Listener | None = None,
) -> None:
    """Ask the players for actions until the round is over."""
    while not rnd.over:
        seat = rnd.to_move
        player = players[seat]
        see = getattr(player, "see", None)
        if see is not None:
            see(rnd)  # a yardstick that sees every card (rami.game.lookahead.Ceiling)
        view = rnd.view()
        action = player.act(view)
        before = len(rnd.events)
        try:
            rnd.apply(action)
        except IllegalActionError as error:
            refused = getattr(player, "refused", None)
            if refused is not None:
                refused(error)  # a person: told why, asked again
                continue
            raise GameInternalError(
                f"{names[seat]} proposed an illegal {view.phase} at {error.where}: "
                f"{'; '.join(error.problems)}; position {rnd.position()}; "
                f"action {action.to_json()}"
            ) from error
        if listener is not None:
            listener(rnd, rnd.events[before:])


def play_game(
    rules: str | Ruleset,
    players: Sequence[Player],
    seed: int,
    *,
    options: GameOptions | None = None,
    names: Sequence[str] | None = None,
    levels: Sequence[str] | None = None,
    game: int | None = None,
    listener: Listener | None = None,
    round_listener: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play one game to its end and return its record (a JSON-ready dict)."""
    ruleset = get_ruleset(rules)
    options = (options or GameOptions()).resolved(ruleset)
    count = len(players)
    whole = check_players(ruleset, count)
    names = list(names) if names is not None else [f"P{seat + 1}" for seat in range(count)]
    levels = (
        list(levels)
        if levels is not None
        else [getattr(player, "level", "player") for player in players]
    )
    active = [True] * count
    totals = [0] * count
    first = first_seat(seed, count)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": ruleset.option_string,
        "options": options.to_json(),
        "seed": seed,
        "shuffle": SHUFFLE,
        "players": [
            {"name": name, "level": level} for name, level in zip(names, levels, strict=True)
        ],
        "rounds": [],
    }
    if game is not None:
        record["game"] = game
    number = 0
    while True:
        number += 1
        if number > 1:
            first = round_first(first, active)
        dealt = deal(ruleset, active, stream(seed, "deal", number))
        rnd = Round(
            ruleset,
            options,
            dealt,
            first=first,
            active=active,
            number=number,
            scores=totals,
            reshuffler=random_reshuffler(stream(seed, "reshuffle", number)),
        )
        try:
            play_round(rnd, players, names, listener)
        except SolverBugError as error:
            raise GameInternalError(
                f"the solver failed at {rnd.where} (position {rnd.position()}): {error}"
            ) from error
        assert rnd.result is not None
        totals = [total + score for total, score in zip(totals, rnd.result.scores, strict=True)]
        outcome = game_after_round(whole, options, totals, active, number)
        entry = round_entry(rnd, totals, outcome.eliminated)
        record["rounds"].append(entry)
        if round_listener is not None:
            round_listener(entry)
        for seat in outcome.eliminated:
            active[seat] = False
        if outcome.over:
            record["totals"] = totals
            record["winners"] = list(outcome.winners)
            record["losers"] = list(outcome.losers)
            record["draw"] = outcome.draw
            record["end"] = outcome.reason
            return record


def round_entry(rnd: Round, totals: Sequence[int], eliminated: Sequence[int]) -> dict[str, Any]:
    assert rnd.result is not None
    return {
        "number": rnd.number,
        "first": rnd.first,
        "active": list(rnd.active),
        "deal": rnd.deal.to_json(),
        "actions": rnd.events,
        "end": {
            "reason": rnd.result.reason,
            "winners": list(rnd.result.winners),
            "rami_sec": rnd.result.rami_sec,
        },
        "hands": [[str(card) for card in hand] for hand in rnd.hands()],
        "scores": list(rnd.result.scores),
        "totals": list(totals),
        "eliminated": list(eliminated),
    }
