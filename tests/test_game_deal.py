"""The game engine (issue "The whole game"): deals (sizes, the turned card, known answers per
preset), the first player and the seats, and the draws of every preset (the stock, the discard
pile and its locks, rami fou's claim, Rummikub's one tile). Known answers on crafted deals."""

from __future__ import annotations

import pytest
from support.rounds import ALL, cards, hand_of, start, table

from rami.cards import Card
from rami.game import (
    Claim,
    Draw,
    GameOptions,
    IllegalActionError,
    Play,
    deal,
    game_rules,
    make_bot,
    play_game,
)
from rami.game.deck import make_deck, stream
from rami.game.presets import GAME_RULES, GameError
from rami.game.state import CLAIM, DRAW, PLAY
from rami.rules import get_ruleset


@pytest.mark.parametrize("name", ALL)
def test_deal_sizes_and_turned_card(name: str) -> None:
    rules = get_ruleset(name)
    game = game_rules(rules)
    dealt = deal(rules, [True, True, True], stream(5, "deal", 1))
    assert [len(hand) for hand in dealt.hands] == [game.deal] * 3
    assert (dealt.discard is not None) == game.first_discard
    total = len(make_deck(rules))
    assert len(dealt.stock) == total - 3 * game.deal - (1 if game.first_discard else 0)
    assert dealt == deal(rules, [True, True, True], stream(5, "deal", 1))
    assert dealt != deal(rules, [True, True, True], stream(6, "deal", 1))


def test_deal_per_preset_known_answer() -> None:
    sizes = {name: (GAME_RULES[name].deal, GAME_RULES[name].first_discard) for name in ALL}
    assert sizes == {
        "rami-chinois": (13, False),
        "rami-fou": (13, True),
        "rami-51": (14, False),
        "bfmania-51": (13, True),
        "bfmania-30": (13, True),
        "cafe-rummy": (13, True),
        "rummikub": (14, False),
    }
    assert len(make_deck(get_ruleset("rami-chinois[jokers=0]"))) == 104
    assert len(make_deck(get_ruleset("cafe-rummy"))) == 110
    assert len(make_deck(get_ruleset("rummikub"))) == 106


def test_first_player_by_lot_then_one_seat_each_round() -> None:
    record = play_game(
        "rami-chinois",
        [make_bot("beginner"), make_bot("beginner"), make_bot("beginner")],
        seed=11,
        options=GameOptions(max_rounds=4),
    )
    firsts = [entry["first"] for entry in record["rounds"]]
    assert len(firsts) >= 2
    assert firsts == [(firsts[0] + k) % 3 for k in range(len(firsts))]
    seeds = {
        play_game(
            "bfmania-30", [make_bot("beginner")] * 2, seed=s, options=GameOptions(max_rounds=1)
        )["rounds"][0]["first"]
        for s in range(12)
    }
    assert seeds == {0, 1}


def test_player_count_is_the_presets() -> None:
    with pytest.raises(GameError, match="2 to 4 players"):
        play_game("rami-fou", [make_bot("beginner")] * 5, seed=1)
    with pytest.raises(GameError, match="unknown bot level"):
        make_bot("grandmaster")


# ---------------------------------------------------------------- draws


def test_rami_chinois_draws_the_stock_by_itself() -> None:
    rnd = start("rami-chinois", ["2S 3S 4S", "5H 9C KD"], stock="7D 8D")
    assert rnd.phase == PLAY and rnd.to_move == 0
    assert rnd.events == [{"seat": 0, "draw": "stock", "card": "7D"}]
    assert hand_of(rnd, 0) == cards("2S 3S 4S 7D")
    assert rnd.legal_draws() == ("stock",)


def test_rami_51_draw_choice_and_decision_10() -> None:
    rnd = start("rami-51", ["AS 2S 3S 9C 9D 9H KH KD", "5H 9S KC"], stock="7D 8D")
    assert rnd.phase == PLAY  # the discard pile starts empty: the stock is drawn
    rnd.apply(Play((), (), Card.parse("KD")))
    assert rnd.phase == DRAW and rnd.to_move == 1
    assert rnd.view().draws == ("stock", "discard")
    rnd.apply(Draw("discard"))
    assert rnd.taken == Card.parse("KD")
    # Taken but not laid: refused with decision 10's reason, nothing applied.
    hand = hand_of(rnd, 1)
    with pytest.raises(IllegalActionError, match="decision 10"):
        rnd.apply(Play(rnd.state.table, (), Card.parse("KC")))
    assert hand_of(rnd, 1) == hand and rnd.phase == PLAY


def test_rami_51_unopened_takes_the_discard_only_to_open_with_it() -> None:
    rnd = start(
        "rami-51", ["AS 2S 3S 9C 9D 9H KH KD 4D", "5H 9S KC QC"], discard=None, stock="5C 6C"
    )
    rnd.apply(Play(rnd.state.table, (), Card.parse("4D")))  # seat 0 drew 5C, discards 4D
    rnd.apply(Draw("stock"))  # seat 1
    rnd.apply(Play(rnd.state.table, (), Card.parse("KC")))  # seat 1 discards KC
    rnd.apply(Draw("discard"))  # seat 0 takes KC
    opening = table("AS 2S 3S | 9C 9D 9H")  # 6 + 27 = 33: not 51 without the kings
    with pytest.raises(IllegalActionError):
        rnd.apply(Play(opening, cards("AS 2S 3S 9C 9D 9H"), Card.parse("KD")))
    # Opening with the kings (KH KD KC) but the taken card... is in it: legal.
    full = table("AS 2S 3S | 9C 9D 9H | KH KD KC")
    rnd.apply(Play(full, cards("AS 2S 3S 9C 9D 9H KH KD KC"), Card.parse("5C")))
    assert rnd.state.opened[0]


def test_rami_51_opened_may_not_take_a_card_it_does_not_lay() -> None:
    rnd = start("rami-51", ["AS 2S 3S 9C 9D 9H KH KD KS 4D", "5H 9S KC QC"], stock="5C 6C")
    rnd.apply(
        Play(
            table("AS 2S 3S | 9C 9D 9H | KH KD KS"),
            cards("AS 2S 3S 9C 9D 9H KH KD KS"),
            Card.parse("4D"),
        )
    )
    rnd.apply(Draw("stock"))
    rnd.apply(Play(rnd.state.table, (), Card.parse("QC")))
    rnd.apply(Draw("discard"))  # seat 0 takes QC, cannot lay it
    with pytest.raises(IllegalActionError, match="only to lay it"):
        rnd.apply(Play(rnd.state.table, (), Card.parse("5C")))


def test_bfmania_taken_card_is_locked_cafe_keeps_it() -> None:
    for name in ("bfmania-30", "cafe-rummy"):
        rnd = start(name, ["2S 5H 9C", "3D 4C 8H"], discard="KD", stock="7S")
        assert rnd.phase == DRAW
        rnd.apply(Draw("discard"))
        assert hand_of(rnd, 0) == tuple(sorted(cards("2S 5H 9C KD")))
        with pytest.raises(IllegalActionError, match="decision 8"):
            rnd.apply(Play(rnd.state.table, (), Card.parse("KD")))
        rnd.apply(Play(rnd.state.table, (), Card.parse("9C")))  # KD is kept
        assert Card.parse("KD") in rnd.state.hands[0]
        assert rnd.view(1).known[0] == cards("KD")  # seen by everyone


def test_rami_fou_takes_the_discard_only_by_claim() -> None:
    rnd = start("rami-fou", ["2S 5H 9C", "3D 4C 8H"], discard="KD", stock="7S 6S 5S")
    # The turned card is offered first: to the first player, then the next.
    assert rnd.phase == CLAIM and rnd.to_move == 0
    rnd.apply(Claim(False))
    assert rnd.phase == CLAIM and rnd.to_move == 1
    rnd.apply(Claim(False))
    assert rnd.phase == PLAY and rnd.to_move == 0
    assert rnd.events[-1] == {"seat": 0, "draw": "stock", "card": "7S"}
    with pytest.raises(IllegalActionError, match="expected a play"):
        rnd.apply(Draw("discard"))


def test_rummikub_plays_or_draws_one_tile_and_ends_when_blocked() -> None:
    rnd = start("rummikub", ["TS JS QS 2H", "5H 9C"], stock="7D")
    assert rnd.phase == PLAY and rnd.events == []
    rnd.apply(Play((), ()))  # seat 0 plays nothing: draws a tile
    assert rnd.events == [{"seat": 0, "played": []}, {"seat": 0, "draw": "stock", "card": "7D"}]
    rnd.state.stock, rest = [], rnd.state.stock  # empty the pool...
    rnd.state.hands[1].update(rest)  # ...into seat 1's rack (cards stay conserved)
    with pytest.raises(IllegalActionError, match="appeared on the table"):
        rnd.apply(Play(table("TS JS QS"), ()))
    rnd.apply(Play((), ()))  # seat 1 passes
    rnd.apply(Play(table("TS JS QS"), cards("TS JS QS")))  # seat 0 opens with 30
    rnd.apply(Play(rnd.state.table, ()))
    assert not rnd.over
    rnd.apply(Play(rnd.state.table, ()))
    assert rnd.over and rnd.result is not None and rnd.result.reason == "blocked"
    assert rnd.result.winners == (0,)


# ---------------------------------------------------------------- claims


def test_rami_fou_claim_takes_the_card_and_a_penalty_then_play_goes_on_from_the_claimer() -> None:
    rnd = start("rami-fou", ["2S 5H 9C", "3D 4C 8H", "QS QD TC"], discard="AD", stock="7S 6S 5S 4S")
    for _ in range(3):
        rnd.apply(Claim(False))
    assert rnd.to_move == 0 and rnd.phase == PLAY
    rnd.apply(Play((), (), Card.parse("9C")))  # seat 0 discards 9C
    assert rnd.phase == CLAIM and rnd.to_move == 1
    rnd.apply(Claim(False))  # seat 1 declines
    assert rnd.to_move == 2 and rnd.view().claim_card == Card.parse("9C")
    rnd.apply(Claim(True))  # seat 2 claims: 9C and the penalty card 6S
    assert rnd.events[-1] == {"seat": 2, "claim": "9C", "penalty": "6S"}
    assert hand_of(rnd, 2) == tuple(sorted(cards("QS 6S QD 9C TC")))
    assert rnd.phase == PLAY and rnd.to_move == 2 and rnd.view().claimed
    with pytest.raises(IllegalActionError, match="decision 8"):
        rnd.apply(Play((), (), Card.parse("9C")))
    rnd.apply(Play((), (), Card.parse("6S")))
    # The claim is offered again after the claimer's discard, from the claimer on.
    assert rnd.phase == CLAIM and rnd.to_move == 0
    rnd.apply(Claim(False))
    rnd.apply(Claim(False))
    assert rnd.phase == PLAY and rnd.to_move == 0  # seat 1 was skipped: play went on from 2
