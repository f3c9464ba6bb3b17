"""The game engine (issue "The whole game") when the stock runs out: rami chinois ends at once, the
discard pile less its top is reshuffled, BFmania reshuffles three times then ends the round.
Known answers on crafted deals."""

from __future__ import annotations

from collections import Counter

import pytest
from support.rounds import start

from rami.cards import Card
from rami.game import Claim, Draw, Play, Round
from rami.game.presets import GAME_RULES
from rami.game.state import CLAIM, DRAW, PLAY


def _thin_stock(rnd: Round, keep: int) -> None:
    """Move all but ``keep`` stock cards under the discard pile's top (cards conserved)."""
    state = rnd.state
    moved, state.stock = (
        state.stock[:-keep] if keep else state.stock,
        state.stock[-keep:] if keep else [],
    )
    top = state.discard[-1:] if state.discard else []
    state.discard = state.discard[:-1] + moved + top


def test_rami_chinois_ends_at_once_when_the_stock_is_empty() -> None:
    rnd = start("rami-chinois", ["2S 3S 9C", "5H 9S KC"], stock="7D")
    rest, rnd.state.stock = rnd.state.stock, []  # seat 0 drew the last card (7D)...
    rnd.state.hands[1].update(rest)  # ...the others are in seat 1's hand
    rnd.apply(Play((), ()))  # seat 0 lays nothing; seat 1 cannot draw
    assert rnd.over and rnd.result is not None
    assert rnd.result.reason == "stock" and rnd.result.winners == ()
    assert rnd.result.scores[0] == 2 + 3 + 9 + 7
    assert rnd.result.scores[1] > 0


@pytest.mark.parametrize("name", ["rami-fou", "rami-51", "cafe-rummy", "bfmania-51"])
def test_reshuffle_the_discard_pile_less_its_top(name: str) -> None:
    rnd = start(
        name,
        ["2S 5H 9C", "3D 4C 8H"],
        discard="KD" if GAME_RULES[name].first_discard else None,
        stock="7S",
    )
    while rnd.phase != PLAY:
        rnd.apply(Claim(False) if rnd.phase == CLAIM else Draw("stock"))
    assert rnd.to_move == 0
    state = rnd.state
    state.discard, state.stock = state.discard + state.stock, []  # the stock ran out
    pile = Counter(state.discard)
    rnd.apply(Play(state.table, (), Card.parse("9C")))
    # Seat 1's turn found the stock empty: the pile less its top (9C) became the new stock.
    assert rnd.to_move == 1 and not rnd.over
    events = [event for event in rnd.events if "reshuffle" in event]
    assert len(events) == 1 and events[0]["reshuffle"] == 1
    assert Counter(map(Card.parse, events[0]["stock"])) == pile
    assert rnd.state.discard == [Card.parse("9C")] or rnd.events[-1]["draw"] == "stock"
    assert rnd.reshuffles == 1


def test_bfmania_reshuffles_three_times_then_the_round_ends() -> None:
    rnd = start("bfmania-30", ["2S 5H 9C", "3D 4C 8H"], discard="KD", stock="7S")
    for _ in range(40):
        if rnd.over:
            break
        if rnd.phase == DRAW:
            rnd.apply(Draw("stock"))
            continue
        state = rnd.state
        state.discard, state.stock = state.discard + state.stock, []  # the stock runs out
        rnd.apply(Play(state.table, (), rnd.view().hand[0]))
    assert rnd.over and rnd.result is not None
    assert rnd.reshuffles == 3
    assert rnd.result.reason == "stock" and rnd.result.winners == ()
    assert all(score > 0 for score in rnd.result.scores)  # every hand counted
