"""The expert bot's own decisions (rami.game.expert), each against the confirmed bot's on the
same view: where the expert leaves the confirmed bot's choice, and why."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

from support.views import seat_view as view  # the other seat opened

from rami.cards import Card, parse_cards
from rami.game import Draw, Play, View, make_bot
from rami.game.expert import ExpertBot, builds_opening
from rami.game.match import play_game
from rami.game.presets import GameOptions
from rami.referee import validate_turn
from rami.rules import get_ruleset


def legal(seen: View, play: Play) -> bool:
    return validate_turn(seen.position(), play.table, play.played, play.discard).legal


def test_expert_takes_a_discard_it_lays_off_at_no_cost() -> None:
    """Laying the TH off leaves the same points as the turn without it: the confirmed bot draws
    the stock; the expert takes it, a card fewer in the hand than a stock card would leave."""
    seen = view(
        "bfmania-51",
        "KS 2C 5D 9C",
        "7H 8H 9H",
        phase="draw",
        opened=True,
        pile="3D TH",
        draws=("stock", "discard"),
    )
    assert make_bot("confirmed").act(seen) == Draw("stock")
    assert make_bot("expert").act(seen) == Draw("discard")
    useless = view(
        "bfmania-51",
        "KS 2C 5D 9C",
        "7H 8H 9H",
        phase="draw",
        opened=True,
        pile="3D 4S",
        draws=("stock", "discard"),
    )
    assert make_bot("expert").act(useless) == Draw("stock")


def test_expert_takes_a_discard_that_builds_its_opening() -> None:
    """Not opened (51 points and a pure run needed), the 9D makes a set of nines in the hand:
    no opening this turn, so the confirmed bot draws the stock; the expert takes it (BFmania
    lets the card stay in the hand). A card that only makes a pair is left."""
    hand = "9S 9H 2C 5D KH 4S 7C 7D JS QD 3H AD 8C"
    seen = view("bfmania-51", hand, phase="draw", pile="6S 9D", draws=("stock", "discard"))
    assert make_bot("confirmed").act(seen) == Draw("stock")
    assert make_bot("expert").act(seen) == Draw("discard")
    pair = view("bfmania-51", hand, phase="draw", pile="6S 2D", draws=("stock", "discard"))
    assert make_bot("expert").act(pair) == Draw("stock")
    rules = get_ruleset("bfmania-51")
    assert builds_opening(parse_cards("4S 5S 9C"), Card.parse("6S"), rules)  # the pure run
    assert not builds_opening(parse_cards("4S 5S 9C"), Card.parse("9D"), rules)  # a pair
    # Rami 51 lays the card taken this turn (decision 10): the expert does not take it.
    rami51 = view("rami-51", hand + " 6H", phase="draw", pile="6S 9D", draws=("stock", "discard"))
    assert make_bot("expert").act(rami51) == Draw("stock")


def test_expert_discards_a_dead_card_the_confirmed_bot_keeps() -> None:
    """5H and 7H wait for a 6H, and both 6H are in the discard pile: dead, though each "starts
    a meld" for the confirmed bot, which lets the 3S go; the expert lets the 7H go."""
    seen = view("bfmania-51", "5H 7H 9C 9D 3S", "JS QS KS", opened=True, pile="6H 6H")
    confirmed = make_bot("confirmed").act(seen)
    expert = make_bot("expert").act(seen)
    assert isinstance(confirmed, Play) and isinstance(expert, Play)
    assert confirmed.discard == Card.parse("3S") and legal(seen, confirmed)
    assert expert.discard == Card.parse("7H") and legal(seen, expert)


def test_expert_lets_go_the_live_card_with_the_fewest_outs() -> None:
    """Every card is live; the confirmed bot lets the costliest go (a king of the pair); the
    expert the 6C, waiting for the one 5C still unseen, where the kings and the eights each
    wait for four cards."""
    seen = view("bfmania-51", "KS KD 4C 6C 8D 8H", "2S 3S 4S", opened=True, pile="5C")
    confirmed = make_bot("confirmed").act(seen)
    expert = make_bot("expert").act(seen)
    assert isinstance(confirmed, Play) and isinstance(expert, Play)
    assert confirmed.discard in (Card.parse("KS"), Card.parse("KD"))
    assert expert.discard == Card.parse("6C") and legal(seen, expert)
    bot = ExpertBot()
    assert bot.choose_discard(Counter(seen.hand), seen, None) == Card.parse("6C")


def test_expert_keeps_its_jokers_and_a_complete_meld() -> None:
    seen = view("bfmania-51", "* 5H 5D 5C 9S", "JS QS KS", opened=True)
    bot = ExpertBot()
    left = Counter(parse_cards("* 5H 5D 5C 9S KD"))
    assert bot.choose_discard(left, seen, None) == Card.parse("KD")
    assert bot.choose_discard(Counter(parse_cards("* 5H 5D 5C")), seen, None) != Card.parse("*")


def test_expert_holds_its_melds_until_it_goes_out() -> None:
    """Café Rummy: the confirmed bot lays its run and its set; the expert lays nothing and lets
    go a card the melds do not use, opened or not, while the opponent holds more than three
    cards; it lays them when the opponent is down to three, and when the turn goes out."""
    hand = "5H 6H 7H 9C 9D 9S KS 2C"
    for opened in (False, True):
        seen = view("cafe-rummy", hand, "JS QS KS" if opened else "-", opened=opened)
        confirmed = make_bot("confirmed").act(seen)
        expert = make_bot("expert").act(seen)
        assert isinstance(confirmed, Play) and isinstance(expert, Play)
        assert len(confirmed.played) >= 6 and legal(seen, confirmed)
        assert expert.played == () and expert.table == seen.table and legal(seen, expert)
        assert expert.discard in (Card.parse("KS"), Card.parse("2C"))
    close = view("cafe-rummy", hand, other=3)
    laid = make_bot("expert").act(close)
    assert isinstance(laid, Play) and len(laid.played) >= 6 and legal(close, laid)
    out = view("cafe-rummy", "5H 6H 7H 9C 9D 9S 2C")
    going = make_bot("expert").act(out)
    assert isinstance(going, Play) and len(going.played) == 6 and legal(out, going)
    # BFmania 30 holds as well; where the opening asks 51 points, the expert lays its turn as
    # the confirmed bot does.
    hand = "5H 6H 7H 8H 9C 9D 9S KS KD KH 2C JD"
    thirty = view("bfmania-30", hand)
    assert isinstance(confirmed := make_bot("confirmed").act(thirty), Play) and confirmed.played
    assert isinstance(held := make_bot("expert").act(thirty), Play) and held.played == ()
    assert held.discard in (Card.parse("2C"), Card.parse("JD")) and legal(thirty, held)
    fifty = view("bfmania-51", hand)
    assert isinstance(played := make_bot("expert").act(fifty), Play) and played.played
    # The stock out of reshuffles may end the round before the next turn: lay.
    last = replace(thirty, reshuffles=3, stock_size=1)
    assert isinstance(laid := make_bot("expert").act(last), Play) and laid.played


def test_expert_bfmania_game_is_deterministic() -> None:
    def one() -> str:
        bots = [make_bot("confirmed", 4), make_bot("expert", 3)]
        return json.dumps(play_game("bfmania-51", bots, seed=21, options=GameOptions(max_rounds=1)))

    first = one()
    assert first == one()
    assert '"draw": "discard"' in first
