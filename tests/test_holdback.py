"""The expert's plan where nothing is discarded (rami.game.holdback; docs/game.md, "Matches
and levels"): open with the fewest cards, hold the rest, go out in one turn; against the
confirmed bot's turn on the same view, every answer judged by the referee."""

from __future__ import annotations

from dataclasses import replace

from rami.cards import parse_cards
from rami.game import Play, View, make_bot
from rami.game.holdback import holds_back
from rami.notation import parse_table
from rami.referee import validate_turn
from rami.rules import get_ruleset


def view(
    rules: str,
    hand: str,
    table: str = "-",
    *,
    opened: bool = False,
    stock: int = 40,
    players: int = 2,
) -> View:
    cards = parse_cards(hand)
    return View(
        rules=get_ruleset(rules),
        seat=0,
        phase="play",
        hand=cards,
        table=parse_table(table),
        discard_pile=(),
        stock_size=stock,
        hand_sizes=(len(cards),) + (12,) * (players - 1),
        opened=(opened,) + (True,) * (players - 1),
        active=(True,) * players,
        known=((),) * players,
        scores=(0,) * players,
    )


def played(seen: View, level: str) -> Play:
    play = make_bot(level).act(seen)
    assert isinstance(play, Play)
    assert validate_turn(seen.position(), play.table, play.played, play.discard).legal
    return play


def test_opened_the_expert_holds_what_the_confirmed_bot_lays() -> None:
    """The set of kings and the run lay off nothing the expert needs: it keeps them."""
    seen = view("rami-chinois", "KS KH KD 4C 5C 6C 9D", "7H 8H 9H", opened=True)
    assert len(played(seen, "confirmed").played) == 6
    assert played(seen, "expert") == Play(seen.table, (), None)


def test_the_expert_goes_out_when_the_whole_hand_goes_down() -> None:
    seen = view("rami-chinois", "KS KH KD 4C 5C 6C", "7H 8H 9H", opened=True)
    play = played(seen, "expert")
    assert sorted(map(str, play.played)) == sorted(map(str, seen.hand))


def test_the_expert_opens_with_the_fewest_cards() -> None:
    """Decision: the opening needs a pure run; the expert lays that run alone and keeps the
    set, where the confirmed bot lays both."""
    seen = view("rami-chinois", "4C 5C 6C QS QH QD 2D")
    assert len(played(seen, "confirmed").played) == 6
    assert sorted(map(str, played(seen, "expert").played)) == ["4C", "5C", "6C"]


def test_rummikub_opening_keeps_the_thirty_points_it_needs() -> None:
    """Rummikub opens with 30 points from the rack: one meld of 30 is enough, a smaller one is
    not (the expert then lays what the opening needs)."""
    seen = view("rummikub", "TS JS QS 2H 2D 2C 7D")
    assert sorted(map(str, played(seen, "expert").played)) == ["JS", "QS", "TS"]
    short = view("rummikub", "2S 3S 4S 5H 5D 5C 9C 9D 9H 7D")
    assert sum(c.rank for c in played(short, "expert").played) >= 30


def test_the_expert_lays_everything_when_the_stock_may_end_the_round() -> None:
    """Rami chinois: an empty stock ends the round and every hand counts (docs/rules.md)."""
    seen = view("rami-chinois", "KS KH KD 4C 5C 6C 9D", "7H 8H 9H", opened=True, stock=1)
    assert len(played(seen, "expert").played) == 6
    assert holds_back(replace(seen, stock_size=2), make_bot("confirmed").solve(seen.position()))


def test_no_hold_back_where_a_card_is_discarded() -> None:
    seen = view("bfmania-51", "KS KH KD 4C 5C 6C 9D 2S", "7H 8H 9H", opened=True)
    assert not holds_back(seen, make_bot("confirmed").solve(seen.position()))
    assert played(seen, "expert").played


def test_the_ceiling_weighs_the_expert_turn_the_whole_turn_and_its_hold_backs() -> None:
    """The yardstick's candidates (rami.game.lookahead): the expert's held turn first, then the
    confirmed bot's whole turn, the same less one own meld, and nothing; all legal, once each."""
    from rami.game.lookahead import candidates

    seen = view("rami-chinois", "KS KH KD 4C 5C 6C 9D", "7H 8H 9H", opened=True)
    first, whole = played(seen, "expert"), played(seen, "confirmed")
    plays = candidates(seen, first, whole)
    assert plays[0] == first and whole in plays
    assert sorted(len(play.played) for play in plays) == [0, 3, 3, 6]
    assert len(set(plays)) == len(plays)
    for play in plays:
        assert validate_turn(seen.position(), play.table, play.played, play.discard).legal


def test_the_ceiling_lays_the_whole_turn_when_it_sees_the_other_go_out_next() -> None:
    """Seeing every card: the opponent holds TH and the stock's top is JH, both of which go on
    7H 8H 9H, so it goes out next turn whatever is held. Holding then only keeps points in the
    hand: the ceiling lays the confirmed bot's whole turn where the expert holds."""
    from collections import Counter

    from rami.game.lookahead import Ceiling, restore

    seen = replace(
        view("rami-chinois", "KS KH KD 4C 5C 6C 9D", "7H 8H 9H", opened=True), hand_sizes=(7, 1)
    )
    stock = parse_cards("JH 2S 3D 4H 5S 8C QD 2C 6S 7D")
    ceiling = Ceiling(0)
    ceiling.see(restore(seen, {1: Counter(parse_cards("TH"))}, list(stock)))
    assert played(seen, "expert") == Play(seen.table, (), None)
    assert ceiling.play(seen) == played(seen, "confirmed")
