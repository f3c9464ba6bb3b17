"""The look-ahead on sampled hidden cards (rami.game.sampled; docs/game.md, "Matches and
levels"): its worlds deal exactly the cards it cannot see, its gate leaves the expert's turn
only for a significant paired gain, its budget stops the sampling, and it is offered only at
the table where it was measured stronger than the expert."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from rami.cards import Card, parse_cards
from rami.game import GameError, Play, View, make_bot
from rami.game.levels import LEVELS, LOOKAHEAD_TABLES, bot_turn, check_level
from rami.game.paired import FIXED, Match
from rami.game.presets import GameOptions
from rami.game.sampled import LookaheadBot, gated, sample_state
from rami.game.simulate import Simulation
from rami.notation import parse_table
from rami.referee import validate_turn
from rami.rules import get_ruleset


def view(hand: str, table: str, known: str = "", players: int = 3) -> View:
    """A rami chinois play request for seat 0, opened, every count consistent: the others
    hold 12 cards each (seat 1 with ``known`` among them), the rest is the stock."""
    cards = parse_cards(hand)
    laid = parse_table(table)
    rules = get_ruleset("rami-chinois")
    base = View(
        rules=rules,
        seat=0,
        phase="play",
        hand=cards,
        table=laid,
        discard_pile=(),
        stock_size=0,
        hand_sizes=(len(cards),) + (12,) * (players - 1),
        opened=(True,) * players,
        active=(True,) * players,
        known=((), tuple(parse_cards(known))) + ((),) * (players - 2),
        scores=(0,) * players,
    )
    hidden = sum(base.unseen().values()) + len(parse_cards(known))
    return replace(base, stock_size=hidden - 12 * (players - 1))


SEEN = view("KS KH KD 4C 5C 6C 9D", "7H 8H 9H", known="QS QS")


def test_a_world_deals_the_unseen_cards_beside_the_known_ones() -> None:
    hands, stock = state = sample_state(SEEN, random.Random(1)) or pytest.fail("no world")
    assert sorted(hands) == [1, 2]
    assert [sum(hands[seat].values()) for seat in (1, 2)] == [12, 12]
    assert hands[1][Card.parse("QS")] >= 2  # seat 1 is known to hold two QS
    assert len(stock) == SEEN.stock_size
    dealt: Counter[Card] = Counter(stock) + hands[1] + hands[2]
    assert dealt == SEEN.unseen() + Counter(parse_cards("QS QS"))
    assert sample_state(SEEN, random.Random(1)) == state  # a seed, a world
    assert sample_state(SEEN, random.Random(2)) != state


def test_a_view_whose_counts_do_not_add_up_has_no_world() -> None:
    assert sample_state(replace(SEEN, stock_size=SEEN.stock_size + 1), random.Random(1)) is None
    short = replace(SEEN, hand_sizes=(7, 1, 12))  # seat 1 holds fewer cards than it is known to
    assert sample_state(short, random.Random(1)) is None


def test_the_gate_wants_a_gain_beyond_two_standard_errors() -> None:
    steady = [[0.0, 5.0, 40.0], [10.0, 14.0, -30.0], [-3.0, 3.0, 25.0], [2.0, 6.0, -20.0]]
    assert gated(steady) == 1  # +5 +4 +6 +4 every world; candidate 2's +3.75 mean is noise
    assert gated([row[:1] + row[2:] for row in steady]) == 0
    assert gated([[0.0, 9.0]]) == 0  # one world: no spread, no departure
    assert gated([[0.0, 5.0, 8.0], [0.0, 5.0, 9.0], [0.0, 6.0, 8.0]]) == 2  # the larger gain
    assert gated([[0.0, 5.0], [0.0, -math.inf], [0.0, 6.0]]) == 0  # refused on one world
    assert gated([[0.0, 5.0], [0.0, 5.0]]) == 1  # no spread: any gain is significant
    assert gated([[0.0, 0.0], [0.0, 0.0]]) == 0  # no gain, no departure


def test_its_turns_are_legal_and_the_same_for_a_seed() -> None:
    first = LookaheadBot(7).act(SEEN)
    assert isinstance(first, Play)
    assert validate_turn(SEEN.position(), first.table, first.played, first.discard).legal
    assert LookaheadBot(7).act(SEEN) == first
    assert make_bot("lookahead", 7).act(SEEN) == first


def test_with_no_budget_for_a_second_world_it_plays_the_expert_turn() -> None:
    """One world, no spread to judge a gain by: the expert's turn, which here holds the
    player's own melds where the confirmed bot lays them (rami.game.holdback)."""
    expert, confirmed = make_bot("expert", 7).act(SEEN), make_bot("confirmed", 7).act(SEEN)
    assert expert != confirmed
    assert LookaheadBot(7, budget=1).act(SEEN) == expert


def test_it_is_offered_only_at_the_tables_where_it_was_measured_stronger() -> None:
    """docs/game.md ("Matches and levels"): stronger than the expert at a rami chinois or
    Rummikub table of four, weaker at a rami chinois table of two, undecided at three; offered
    at four only, measured anywhere."""
    rules = get_ruleset("rami-chinois")
    assert "lookahead" in LEVELS and LOOKAHEAD_TABLES == {"rami-chinois": (4,), "rummikub": (4,)}
    check_level("lookahead", rules, 4)
    check_level("lookahead", get_ruleset("rummikub"), 4)
    for players in (2, 3):
        with pytest.raises(GameError, match=f"not in rami-chinois with {players} players"):
            check_level("lookahead", rules, players)
    for other in ("bfmania-51", "rami-chinois[jokers=0]"):
        with pytest.raises(GameError, match=r"only where it was measured stronger .*rami-chinois"):
            check_level("lookahead", get_ruleset(other), 4)
    with pytest.raises(GameError, match="not in rami-chinois with 3 players"):
        bot_turn(SEEN, "lookahead")  # SEEN is a table of three
    four = view("KS KH KD 4C 5C 6C 9D", "7H 8H 9H", known="QS QS", players=4)
    assert bot_turn(four, "lookahead", 7) == LookaheadBot(7).act(four)
    checked = Match("rami-chinois", "lookahead", "expert", 1, 1, 3, GameOptions(), FIXED)
    assert checked.checked() == checked  # a match measures it at any table
    with pytest.raises(GameError, match="not in rami-chinois with 2 players"):
        Simulation("rami-chinois", ("lookahead", "expert"), 1, 1).checked()
    Simulation("rami-chinois", ("lookahead", "expert", "expert", "expert"), 1, 1).checked()


def test_the_thinking_budget_is_settable_and_bounded() -> None:
    """docs/game.md: 0 plays the expert's turn; a larger budget allows more worlds (one per
    70 requests above the default's four); a budget only for the look-ahead."""
    four = view("KS KH KD 4C 5C 6C 9D", "7H 8H 9H", known="QS QS", players=4)
    assert bot_turn(four, "lookahead", 7, budget=0) == make_bot("expert", 7).act(four)
    assert LookaheadBot(7).worlds == 4 and LookaheadBot(7, budget=700).worlds == 10
    assert bot_turn(four, "lookahead", 7, budget=280) == bot_turn(four, "lookahead", 7)
    for bad in (-1, 2_001):
        with pytest.raises(GameError, match=f"0 to 2000 simulated requests, not {bad}"):
            make_bot("lookahead", 7, bad)
    with pytest.raises(GameError, match="a thinking budget is for the lookahead level"):
        bot_turn(four, "expert", 7, budget=100)


def _dealt_play_view(name: str, seats: int = 4) -> View:
    """Seat 0's first play request in a dealt round of ``name`` (after its draw)."""
    from rami.game import Round, deal
    from rami.game.deck import stream

    rules = get_ruleset(name)
    active = [True] * seats
    dealt = deal(rules, active, stream(4, "deal", 1))
    rnd = Round(rules, GameOptions().resolved(rules), dealt, first=0, active=active)
    while rnd.view().phase != "play":
        rnd.apply(make_bot("expert", 1).act(rnd.view()))
    return rnd.view()


@pytest.mark.parametrize("name", ["bfmania-51", "rami-51"])
def test_where_the_preset_discards_it_weighs_the_expert_s_next_discards(name: str) -> None:
    """docs/game.md: the candidates include the expert's turn with its next-preferred
    discards (ExpertBot.discard_order), the same table and cards laid, each a legal turn."""
    from rami.game.expert import ExpertBot
    from rami.game.sampled import DISCARDS, discard_variants

    seen = _dealt_play_view(name)
    bot = LookaheadBot(3)
    first = ExpertBot.play(bot, seen)
    assert first.discard is not None
    variants = discard_variants(bot, seen, first)
    left = Counter(seen.hand) - Counter(first.played)
    order = bot.discard_order(left, seen, seen.position().taken_discard)
    assert order[0] == first.discard
    assert [play.discard for play in variants] == order[1 : 1 + DISCARDS]
    for play in variants:
        assert (play.table, play.played) == (first.table, first.played)
        assert validate_turn(seen.position(), play.table, play.played, play.discard).legal
    assert discard_variants(bot, SEEN, ExpertBot.play(bot, SEEN)) == []  # rami chinois: none
