"""The game engine (issue "The whole game"): going out in every preset, the round's scores (flat
100 unopened, the hand counted, rami sec doubled, Rummikub's decision 11, Café Rummy's cap), and
the game's end per preset. Known answers on crafted deals."""

from __future__ import annotations

from collections import Counter

import pytest
from support.rounds import cards, start, table

from rami.cards import JOKER, Card
from rami.game import Claim, Draw, GameOptions, IllegalActionError, Play, make_bot, play_game
from rami.game.presets import GAME_RULES, GameError
from rami.game.scoring import game_after_round, score_round
from rami.rules import get_ruleset


def test_rami_chinois_goes_out_by_laying_the_last_card() -> None:
    rnd = start("rami-chinois", ["2S 3S", "5H 9S KC QD"], stock="4S")
    rnd.apply(Play(table("2S 3S 4S"), cards("2S 3S 4S")))
    assert rnd.over and rnd.result is not None
    assert rnd.result.reason == "out" and rnd.result.winners == (0,)
    assert rnd.result.scores == (0, 5 + 9 + 10 + 10)


def test_rami_fou_goes_out_by_discarding_and_rami_sec_doubles() -> None:
    # Seat 1 has opened; seat 2 has not. Seat 0 lays everything at once: rami sec.
    rnd = start(
        "rami-fou", ["QS KS AS TD TC TH", "5H 6H 2C", "8C 9S"], discard="2D", stock="TS 3C 4C 5C"
    )
    for _ in range(3):
        rnd.apply(Claim(False))
    with pytest.raises(IllegalActionError, match="ends every turn with a discard"):
        rnd.apply(Play(table("QS KS AS | TS TD TC TH"), cards("QS KS AS TS TD TC TH")))
    rnd.state.opened[1] = True
    rnd.apply(Play(table("QS KS AS | TD TC TH"), cards("QS KS AS TD TC TH"), Card.parse("TS")))
    assert rnd.over and rnd.result is not None
    assert rnd.result.reason == "out" and rnd.result.winners == (0,) and rnd.result.rami_sec
    assert rnd.result.scores == (0, 2 * (5 + 6 + 2), 200)


def test_rami_fou_and_rami_51_flat_100_for_not_opened() -> None:
    for name in ("rami-fou", "rami-51"):
        rules = get_ruleset(name)
        hands = {0: Counter(), 1: Counter(cards("2S 3D")), 2: Counter(cards("KS KD KH AS"))}
        result = score_round(
            rules, GAME_RULES[name], 3, hands, {0: True, 1: True, 2: False}, "out", 0
        )
        assert result.scores == (0, 5, 100)
        stock_out = score_round(
            rules, GAME_RULES[name], 3, hands, {0: True, 1: False, 2: True}, "stock"
        )
        assert stock_out.winners == () and stock_out.scores == (0, 100, 41)


def test_bfmania_and_cafe_count_the_hand_even_unopened() -> None:
    for name, joker in (("bfmania-51", 20), ("cafe-rummy", 25), ("rami-chinois", 50)):
        rules = get_ruleset(name)
        hands = {0: Counter(), 1: Counter([JOKER, *cards("AS KD 7C")])}
        result = score_round(rules, GAME_RULES[name], 2, hands, {0: True, 1: False}, "out", 0)
        assert result.scores == (0, joker + 11 + 10 + 7)


def test_bfmania_goes_out_by_laying_everything() -> None:
    rnd = start("bfmania-30", ["TS JS QS KS", "5H 9S KC QD"], discard="2D", stock="AS")
    rnd.apply(Draw("stock"))
    rnd.apply(Play(table("TS JS QS KS AS"), cards("TS JS QS KS AS")))
    assert rnd.over and rnd.result is not None and rnd.result.winners == (0,)


def test_rummikub_scoring_decision_11() -> None:
    rules = get_ruleset("rummikub")
    hands = {0: Counter(), 1: Counter([JOKER, *cards("KS 2D")]), 2: Counter(cards("5H"))}
    result = score_round(rules, GAME_RULES["rummikub"], 3, hands, {0: 1, 1: 1, 2: 1}, "out", 0)
    assert result.scores == (30 + 13 + 2 + 5, -(30 + 13 + 2), -5)
    blocked = score_round(
        rules,
        GAME_RULES["rummikub"],
        3,
        {0: Counter(cards("2S")), 1: Counter(cards("9S")), 2: Counter(cards("2D"))},
        {0: 1, 1: 1, 2: 1},
        "blocked",
    )
    assert blocked.winners == (0, 2) and blocked.scores == (4, -7, 3)


def test_cafe_rummy_cap_lowest_hand_wins_the_round() -> None:
    rules = get_ruleset("cafe-rummy")
    hands = {0: Counter(cards("KS")), 1: Counter(cards("2S 3S")), 2: Counter(cards("5D"))}
    result = score_round(
        rules, GAME_RULES["cafe-rummy"], 3, hands, dict.fromkeys(hands, True), "cap"
    )
    assert result.winners == (1, 2) and result.scores == (10, 0, 0)
    rnd = start("cafe-rummy", ["2S 5H 9C", "3D 4C 8H"], discard="KD", stock="7S 6S")
    rnd.turns = 120
    rnd._start_turn(0)
    assert rnd.over and rnd.result is not None and rnd.result.reason == "cap"


# ---------------------------------------------------------------- game end


def _end(
    name: str, totals: list[int], active: list[bool] | None = None, played: int = 3, **options: int
):
    rules = get_ruleset(name)
    return game_after_round(
        GAME_RULES[name],
        GameOptions(**options).resolved(rules),
        totals,
        active or [True] * len(totals),
        played,
    )


def test_game_end_per_preset() -> None:
    assert not _end("rami-chinois", [99, 40]).over
    chinois = _end("rami-chinois", [100, 40, 60])
    assert chinois.over and chinois.winners == (1,) and chinois.losers == ()
    fou = _end("rami-fou", [510, 200, 300])
    assert fou.over and fou.losers == (0,) and fou.winners == (1,)
    assert not _end("rami-fou", [499, 0]).over
    assert _end("rami-51", [500, 20]).winners == (1,)
    tie = _end("bfmania-51", [250, 100, 100])
    assert tie.over and tie.winners == (1, 2) and tie.draw
    assert not _end("bfmania-51", [260, 100], target=500).over
    with pytest.raises(GameError, match="250, 500, 1000"):
        GameOptions(target=300).resolved(get_ruleset("bfmania-30"))
    assert _end("rummikub", [-10, 10], played=1).winners == (1,)
    assert not _end("rummikub", [-10, 10], played=1, rounds=2).over


def test_cafe_rummy_eliminates_and_goes_on_until_one_remains() -> None:
    first = _end("cafe-rummy", [520, 100, 200])
    assert not first.over and first.eliminated == (0,)
    last = _end("cafe-rummy", [520, 510, 200], active=[False, True, True])
    assert last.over and last.winners == (2,) and last.eliminated == (1,)
    both = _end("cafe-rummy", [520, 530, 600], active=[False, True, True])
    assert both.over and both.winners == (1,)
    record = play_game(
        "cafe-rummy",
        [make_bot("beginner", seat) for seat in range(3)],
        seed=4,
        options=GameOptions(target=100),
    )
    out = [seat for entry in record["rounds"] for seat in entry["eliminated"]]
    assert len(out) >= 2 or len(record["winners"]) > 1
    for entry in record["rounds"][1:]:
        assert all(not entry["active"][seat] or entry["deal"]["hands"][seat] for seat in range(3))
    last_round = record["rounds"][-1]
    assert sum(last_round["active"]) >= 2
