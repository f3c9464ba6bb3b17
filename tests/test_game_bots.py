"""The bots' decisions on known positions (rami.game.bots, rami.game.expert)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from support.views import seat_view

from rami.cards import Card, parse_cards
from rami.game import Draw, Play, View, bot_turn, make_bot
from rami.game.expert import ExpertBot
from rami.referee import validate_turn


def view(rules: str, hand: str, table: str = "-", **given: Any) -> View:
    """Seat 0's view, the other seat not yet opened (tests/support/views.py)."""
    return seat_view(rules, hand, table, other_opened=False, **given)


def legal(seen: View, play: Play) -> bool:
    return validate_turn(seen.position(), play.table, play.played, play.discard).legal


def test_beginner_opens_and_discards_its_costliest_useless_card() -> None:
    seen = view("bfmania-30", "TS JS QS 9H 9C KD 2C")
    play = make_bot("beginner").act(seen)
    assert [str(meld) for meld in play.table] == ["TS JS QS"]
    assert play.discard == Card.parse("KD")  # the 9s are a pair: kept; KD is worth more than 2C
    assert legal(seen, play)


def test_beginner_lays_off_but_never_rearranges_and_keeps_a_card_to_discard() -> None:
    seen = view("rami-fou", "4H 8H", "5H 6H 7H | 9S 9D 9C", opened=True)
    play = make_bot("beginner").act(seen)
    assert legal(seen, play)
    assert len(play.played) == 1 and play.discard is not None  # goes out by discarding
    assert {str(meld) for meld in play.table} <= {"4H 5H 6H 7H", "5H 6H 7H 8H", "9S 9D 9C"}


def test_beginner_does_not_open_short_of_the_points() -> None:
    seen = view("rami-51", "2S 3S 4S 9H 9C 9D KD 2C")  # 9 + 27 = 36 < 51
    play = make_bot("beginner").act(seen)
    assert play.played == () and play.table == () and legal(seen, play)


def test_beginner_lays_off_in_its_opening_turn_where_decision_4_allows() -> None:
    """docs/rules.md decision 4: a lay-off preset's opener may lay off once the opening is down."""
    seen = view("rami-51", "9S TS JS QD QC QH TH 2D", "7H 8H 9H")
    play = make_bot("beginner").act(seen)
    assert legal(seen, play)
    assert "7H 8H 9H TH" in {str(meld) for meld in play.table}
    assert Counter(play.played) == Counter(parse_cards("9S TS JS QD QC QH TH"))
    assert play.discard == Card.parse("2D")


def test_beginner_opening_in_rami_chinois_lays_new_melds_only() -> None:
    seen = view("rami-chinois", "9S TS JS TH", "7H 8H 9H")
    play = make_bot("beginner").act(seen)
    assert legal(seen, play)
    assert "7H 8H 9H" in {str(meld) for meld in play.table}  # TH not laid off when opening


def test_beginner_draws_the_stock_confirmed_takes_a_discard_that_lays() -> None:
    useful = view(
        "bfmania-30", "TS JS 9H 9C 2D 5C KD", phase="draw", pile="4H QS", draws=("stock", "discard")
    )
    assert make_bot("beginner").act(useful) == Draw("stock")
    assert make_bot("confirmed").act(useful) == Draw("discard")
    useless = view(
        "bfmania-30", "TS JS 9H 9C 2D 5C KD", phase="draw", pile="QS 2H", draws=("stock", "discard")
    )
    assert make_bot("confirmed").act(useless) == Draw("stock")


def test_confirmed_plays_the_solvers_turn() -> None:
    seen = view("rami-chinois", "AS 2S 3S 9C 9D 9H KH")
    play = make_bot("confirmed").act(seen)
    assert sorted(map(str, play.table)) == ["9H 9D 9C", "AS 2S 3S"] and legal(seen, play)


def test_expert_keeps_a_live_pair_and_drops_a_dead_card() -> None:
    # After opening, the hand left holds KD KC (a pair, live) and 9H (alone): the solver alone
    # throws the costliest (a king); the expert throws the 9H while the risk is low, and so
    # does the confirmed bot (the costliest card that starts no meld).
    seen = view("bfmania-30", "TS JS QS KD KC 9H 2C", taken=None)
    expert = ExpertBot(seed=1)
    play = expert.act(seen)
    assert legal(seen, play)
    assert play.discard in (Card.parse("9H"), Card.parse("2C"))
    assert make_bot("confirmed").solve(seen.position()).discard in (
        Card.parse("KD"),
        Card.parse("KC"),
    )
    assert make_bot("confirmed").act(seen).discard == Card.parse("9H")
    left = Counter(parse_cards("KD KC 2C"))
    assert expert.value(left, seen) < expert.value(Counter(parse_cards("KD 9H 2C")), seen)


def test_bot_turn_json_for_each_level() -> None:
    seen = view("cafe-rummy", "7H 8H 9H KS KD 2C", phase="play")
    for level in ("beginner", "confirmed"):
        action = bot_turn(seen.to_json(), level, seed=5)
        assert action["action"] == "play" and "7H" in action["played"]
    # The Café Rummy expert keeps its run in the hand while the other holds 12 cards.
    action = bot_turn(seen.to_json(), "expert", seed=5)
    assert action["action"] == "play" and action["played"] == []
    assert action["discard"] in ("KS", "KD", "2C")


def test_confirmed_discards_a_dead_card_not_half_of_a_pair() -> None:
    """The solver alone would let a king go (the most points); the confirmed bot keeps the pair
    of kings, which may lay next turn, and discards the costliest card that starts no meld."""
    seen = view("bfmania-51", "KS KD 2C 9S", "7H 8H 9H", opened=True)
    solver_alone = make_bot("confirmed").solve(seen.position())
    assert solver_alone.discard in {Card.parse("KS"), Card.parse("KD")}
    play = make_bot("confirmed").act(seen)
    assert play.discard == Card.parse("9S") and legal(seen, play)
