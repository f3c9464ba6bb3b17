"""The measured ladders of the discard presets (docs/game.md): ``elo:N`` in bfmania-51,
rami-51, Café Rummy, BFmania 30 and rami fou resolves by the whole-game ladder (docs/game.md
"Measured"), a preset with no ladder refuses it, and every ladder is one a target Elo can be
read from."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest

from rami.cards import parse_cards
from rami.game import make_bot
from rami.game.levels import check_level
from rami.game.mixed import LADDERS, MixedBot, named_strength, strength_for
from rami.game.presets import GameError, GameOptions
from rami.game.session import GameSession
from rami.game.state import View
from rami.notation import parse_table
from rami.rules import get_ruleset

DISCARD_LADDERS = ("bfmania-51", "rami-51", "bfmania-30")


def points(rules: str) -> dict[float, float]:
    return dict(LADDERS[rules])


@pytest.mark.parametrize("rules", sorted(LADDERS))
def test_every_ladder_starts_at_the_beginner_and_rises(rules: str) -> None:
    ladder = list(LADDERS[rules])
    assert ladder[0] == (0.0, 0.0)
    strengths = [s for s, _ in ladder]
    elos = [e for _, e in ladder]
    assert strengths == sorted(set(strengths)) and all(0.0 <= s <= 2.0 for s in strengths)
    assert all(low < high for low, high in pairwise(elos))


@pytest.mark.parametrize("rules", DISCARD_LADDERS)
def test_a_target_elo_in_a_discard_preset_resolves_by_its_ladder(rules: str) -> None:
    """The named levels' points (the novice's and the intermediate's strengths in the preset,
    the confirmed bot 1) are on the ladder, a target between two points is read linearly, and
    the top is the expert (strength 2: a whole game as the expert), whose Elo is finite in
    these presets."""
    ladder = points(rules)
    for strength in (
        named_strength("novice", rules),
        named_strength("intermediate", rules),
        1.0,
        2.0,
    ):
        assert strength_for(rules, ladder[strength]) == pytest.approx(strength)
    middle = (ladder[0.5] + ladder[1.0]) / 2
    assert strength_for(rules, middle) == pytest.approx(0.75)
    assert strength_for(rules, ladder[2.0] + 1000) == 2.0
    assert strength_for(rules, -100) == 0.0
    check_level("elo:250", get_ruleset(rules))


def test_the_discard_ladders_are_not_the_one_round_ones() -> None:
    """bfmania-51's named levels, measured in whole games: the confirmed bot stands below the
    expert by a finite margin (the expert is on the ladder), unlike rami chinois."""
    assert 2.0 in points("bfmania-51") and 2.0 not in points("rami-chinois")
    assert points("rami-chinois") == dict(
        ((0.0, 0.0), (0.1, 495.0), (0.5, 766.0), (1.0, 876.0), (1.5, 1074.0), (1.8, 1263.0))
    )
    assert points("rummikub") == dict(
        (
            (0.0, 0.0),
            (0.1, 593.0),
            (0.4, 833.0),
            (0.5, 868.0),
            (1.0, 957.0),
            (1.5, 1153.0),
            (1.8, 1359.0),
        )
    )


def _view(rules: str) -> View:
    cards = parse_cards("AS 2S 3S 9C 9D 9H KH 7D")
    return View(
        rules=get_ruleset(rules),
        seat=0,
        phase="play",
        hand=cards,
        table=parse_table("4S 5S 6S"),
        discard_pile=(),
        stock_size=40,
        hand_sizes=(len(cards), 5),
        opened=(True, True),
        active=(True, True),
        known=((), ()),
        scores=(0, 0),
    )


def test_a_target_above_the_confirmed_bot_in_bfmania_51_mixes_the_expert_by_round() -> None:
    """elo:N between the confirmed bot's and the expert's Elo: whole rounds as the expert or
    the confirmed bot, drawn each round; at the top, every round as the expert."""
    ladder = points("bfmania-51")
    bot = MixedBot(3, elo=(ladder[1.0] + ladder[2.0]) / 2, level="elo")
    seen = _view("bfmania-51")
    assert 1.0 < bot.share(seen) < 2.0
    kinds = []
    for number in range(1, 21):
        picks = {
            bot.pick(replace(seen, round=number, turn=turn)) is bot.expert for turn in range(8)
        }
        assert len(picks) == 1
        kinds.append(picks.pop())
    assert 0 < sum(kinds) < len(kinds)
    top = MixedBot(3, elo=ladder[2.0] + 500, level="elo")
    assert all(top.pick(replace(seen, round=number)) is top.expert for number in range(1, 11))


def test_the_held_presets_ladders_are_their_measured_whole_game_points() -> None:
    """Café Rummy and BFmania 30 (docs/game.md "Measured", whole games, the mean of seeds 1 and
    2): the expert ends BFmania 30's ladder; in Café Rummy, where it stood +inf over the
    confirmed bot in one seed, the ladder ends at the confirmed bot, and a target above it is
    the confirmed bot (every turn its answer), never the expert."""
    assert points("bfmania-30") == {0.0: 0.0, 0.1: 127.5, 0.5: 527.0, 1.0: 880.5, 2.0: 1216.0}
    cafe = points("cafe-rummy")
    assert cafe == {0.0: 0.0, 0.1: 161.5, 0.5: 710.0, 1.0: 1211.0}
    for strength in (0.1, 0.5, 1.0):
        assert strength_for("cafe-rummy", cafe[strength]) == pytest.approx(strength)
    assert strength_for("cafe-rummy", 1211.0 + 1000) == 1.0
    top = MixedBot(3, elo=5000, level="elo")
    seen = _view("cafe-rummy")
    assert all(
        top.pick(replace(seen, round=n, turn=t)) is top.strong for n in (1, 2) for t in (0, 5)
    )
    assert strength_for("cafe-rummy", (161.5 + 710.0) / 2) == pytest.approx(0.3)


def test_the_rami_fou_ladder_is_its_measured_whole_game_points() -> None:
    """Rami fou (docs/game.md "Measured", whole games, the mean of seeds 1 and 2): beginner,
    novice, intermediate, confirmed and the expert (strength 2) at its top; a target above
    the expert is the expert, one between it and the confirmed bot mixes them by round."""
    fou = points("rami-fou")
    assert fou == {0.0: 0.0, 0.1: 101.5, 0.15: 133.5, 0.5: 287.5, 1.0: 456.0, 2.0: 855.5}
    assert named_strength("novice", "rami-fou") == 0.15
    for level in ("novice", "intermediate"):
        strength = named_strength(level, "rami-fou")
        assert strength_for("rami-fou", fou[strength]) == pytest.approx(strength)
    assert strength_for("rami-fou", (fou[0.5] + fou[1.0]) / 2) == pytest.approx(0.75)
    assert strength_for("rami-fou", (fou[1.0] + fou[2.0]) / 2) == pytest.approx(1.5)
    assert strength_for("rami-fou", 2000) == 2.0
    check_level("elo:300", get_ruleset("rami-fou"))
    bot = MixedBot(5, elo=fou[0.5] + 10, level="elo")
    assert 0.5 < bot.share(_view("rami-fou")) < 0.6


@pytest.mark.parametrize("rules", ["cafe-rummy", "bfmania-30"])
def test_a_preset_without_a_ladder_still_refuses_a_target_elo(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delitem(LADDERS, rules)  # as if its ladder were not measured
    with pytest.raises(GameError, match=f"no measured ladder for {rules}"):
        check_level("elo:300", get_ruleset(rules))
    with pytest.raises(GameError, match=f"no measured ladder for {rules}"):
        GameSession(rules, ["elo:300"], 0)
    with pytest.raises(GameError, match="bfmania-51"):  # the error names where it is offered
        make_bot("elo:300").act(_view(rules))


def test_a_bfmania_51_game_against_a_target_elo_plays_to_its_end() -> None:
    from rami.game.match import play_game

    levels = ["elo:200", "beginner"]
    record = play_game(
        "bfmania-51",
        [make_bot(level, seat) for seat, level in enumerate(levels)],
        seed=4,
        options=GameOptions(max_rounds=1),
        levels=levels,
    )
    assert record["rounds"][0]["end"]["reason"] in ("out", "stock")
    assert GameSession("bfmania-51", ["elo:200"], 0).levels == ("elo:200",)


def test_the_novice_is_placed_per_preset_where_its_ladder_called_for_it() -> None:
    """rami-51's novice plays the confirmed bot's answer on 18 % of its turns (a tenth stood
    only +58 over the beginner there, in whole games); elsewhere a tenth, as measured; and
    Rummikub's intermediate on 40 %."""
    novice = make_bot("novice", 1)
    assert isinstance(novice, MixedBot)
    assert novice.share(_view("rami-51")) == pytest.approx(0.18)
    for rules in ("rami-chinois", "rummikub", "bfmania-51", "cafe-rummy"):
        assert novice.share(_view(rules)) == pytest.approx(0.1)
    intermediate = make_bot("intermediate", 1)
    assert isinstance(intermediate, MixedBot)
    assert {intermediate.share(_view(rules)) for rules in ("rami-51", "rami-chinois")} == {0.5}
    # Rummikub's intermediate plays the confirmed bot's answer on 40 % of its turns: at a half
    # the confirmed bot stood less than 100 above it.
    assert intermediate.share(_view("rummikub")) == pytest.approx(0.4)
    assert strength_for("rummikub", points("rummikub")[0.4]) == pytest.approx(0.4)
    assert strength_for("rami-51", points("rami-51")[0.18]) == pytest.approx(0.18)
    with pytest.raises(GameError, match="a strength, a target Elo or a named level"):
        MixedBot(1, strength=0.5, named="novice")
    with pytest.raises(GameError, match="no mixed level named 'expert'"):
        MixedBot(1, named="expert")
