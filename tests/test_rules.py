"""Rulesets: every row of the docs/rules.md presets table, as data, with known answers.

Each test names the row it checks ("docs/rules.md presets: <row>"). Behaviour that the rows imply
(penalties, opening counting, legal turns) is checked with positions in test_position.py,
test_melds.py and test_referee.py.
"""

from __future__ import annotations

import dataclasses

import pytest

from rami.cards import parse_cards
from rami.errors import UnknownRulesetError
from rami.position import hand_penalty
from rami.rules import (
    DEFAULT_RULES,
    OPTIONS,
    PRESETS,
    GoingOut,
    Ruleset,
    TableJoker,
    get_ruleset,
)

ALL = ["rami-chinois", "rami-fou", "rami-51", "bfmania-51", "bfmania-30", "cafe-rummy", "rummikub"]


def test_presets_are_exactly_the_rules_md_columns_plus_rummikub():
    """docs/rules.md presets: the table's columns plus rummikub; rami-chinois is the default."""
    assert set(PRESETS) == set(ALL)
    assert DEFAULT_RULES is PRESETS["rami-chinois"]


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("rami-chinois", "000"),
        ("bfmania-51", "001"),
        ("bfmania-30", "001"),
        ("cafe-rummy", "002"),
        ("rami-fou", "003"),
        ("rami-51", "004"),
    ],
)
def test_presets_seed_file(name, seed):
    """docs/rules.md presets: the seed file in brackets of each column."""
    assert PRESETS[name].seed == seed


@pytest.mark.parametrize(
    ("name", "jokers"),
    [
        ("rami-chinois", 4),
        ("rami-fou", 4),
        ("rami-51", 4),
        ("bfmania-51", 4),
        ("bfmania-30", 4),
        ("cafe-rummy", 6),
        ("rummikub", 2),
    ],
)
def test_presets_jokers_in_deck(name, jokers):
    """docs/rules.md presets: jokers in deck 0 or 4 / 4 / 4 / 4 / 6; rummikub 2 jokers."""
    assert get_ruleset(name).jokers == jokers


def test_presets_rami_chinois_jokers_option_0_or_4():
    """docs/rules.md presets: rami-chinois jokers in deck "0 or 4 (option)"."""
    assert get_ruleset("rami-chinois[jokers=0]").jokers == 0
    assert get_ruleset("rami-chinois[jokers=4]") == PRESETS["rami-chinois"]
    for bad in (1, 2, 3, 5, 6):
        with pytest.raises(UnknownRulesetError, match=f"0 or 4 jokers, not {bad}"):
            get_ruleset(f"rami-chinois[jokers={bad}]")


@pytest.mark.parametrize("name", ["rami-fou", "rami-51", "bfmania-51", "cafe-rummy", "rummikub"])
def test_presets_other_presets_have_a_fixed_joker_count(name):
    """docs/rules.md presets: only rami-chinois has the jokers option."""
    with pytest.raises(UnknownRulesetError, match="not 0"):
        get_ruleset(f"{name}[jokers=0]")


@pytest.mark.parametrize(
    ("name", "dealt"),
    [
        ("rami-chinois", 13),
        ("rami-fou", 13),
        ("rami-51", 14),
        ("bfmania-51", 13),
        ("bfmania-30", 13),
        ("cafe-rummy", 13),
        ("rummikub", 14),
    ],
)
def test_presets_cards_dealt(name, dealt):
    """docs/rules.md presets: cards dealt 13 / 13 / 14 / 13 / 13; rummikub 14 tiles dealt."""
    assert get_ruleset(name).cards_dealt == dealt


@pytest.mark.parametrize(
    ("name", "discard"),
    [
        ("rami-chinois", False),
        ("rami-fou", True),
        ("rami-51", True),
        ("bfmania-51", True),
        ("bfmania-30", True),
        ("cafe-rummy", True),
        ("rummikub", False),
    ],
)
def test_presets_discard_pile(name, discard):
    """docs/rules.md presets: discard pile none (never discard) / yes / yes / yes / yes."""
    assert get_ruleset(name).discard is discard


@pytest.mark.parametrize(
    ("name", "rearrangement", "table_joker"),
    [
        ("rami-chinois", True, TableJoker.FREE),
        ("rami-fou", True, TableJoker.REPLACE_AND_RELAY),
        ("rami-51", False, TableJoker.STAYS),
        ("bfmania-51", False, TableJoker.SWAP_TO_HAND),
        ("bfmania-30", False, TableJoker.SWAP_TO_HAND),
        ("cafe-rummy", False, TableJoker.SWAP_AND_RELAY),
        ("rummikub", True, TableJoker.FREE),
    ],
)
def test_presets_table_rearrangement_and_table_joker(name, rearrangement, table_joker):
    """docs/rules.md presets: table rearrangement (full / full / lay off / lay off + swap / lay off
    +
    swap) and joker on the table (free / replaced and relaid / stays / to hand / relaid)."""
    rules = get_ruleset(name)
    assert rules.rearrangement is rearrangement
    assert rules.table_joker is table_joker


@pytest.mark.parametrize(
    ("name", "points", "pure_run", "any_meld"),
    [
        ("rami-chinois", 0, True, False),
        ("rami-fou", 51, False, False),
        ("rami-51", 51, True, False),
        ("bfmania-51", 51, True, False),
        ("bfmania-30", 30, False, False),
        ("cafe-rummy", 0, False, True),
        ("rummikub", 30, False, False),
    ],
)
def test_presets_opening_requirement(name, points, pure_run, any_meld):
    """docs/rules.md presets: opening requirement (pure run no points / 51 / 51 incl. pure run /
    51 incl. pure run, 30 / any one meld); rummikub first meld >= 30."""
    rules = get_ruleset(name)
    assert (rules.opening_points, rules.opening_pure_run, rules.opening_any_meld) == (
        points,
        pure_run,
        any_meld,
    )


def test_presets_bfmania_51_table_option_without_pure_run():
    """docs/rules.md presets: bfmania-51 ">= 51 incl. a pure run (table option: without)"."""
    rules = get_ruleset("bfmania-51[opening_pure_run=false]")
    assert rules.opening_pure_run is False and rules.opening_points == 51
    assert get_ruleset("bfmania-51[opening_pure_run=no]") == rules
    with pytest.raises(UnknownRulesetError, match="bfmania-51 only"):
        get_ruleset("rami-51[opening_pure_run=false]")


@pytest.mark.parametrize(
    ("name", "real", "naturals"),
    [
        ("rami-chinois", 1, False),
        ("rami-fou", 1, False),
        ("rami-51", 1, False),
        ("bfmania-51", 2, False),
        ("bfmania-30", 2, False),
        ("cafe-rummy", 2, True),
        ("rummikub", 1, False),
    ],
)
def test_presets_real_cards_per_meld(name, real, naturals):
    """docs/rules.md presets: real cards per meld >= 1 / 1 / 1 / 2 / 2 and naturals >= jokers."""
    rules = get_ruleset(name)
    assert rules.min_real_cards == real
    assert rules.naturals_at_least_jokers is naturals


@pytest.mark.parametrize(
    ("name", "going_out"),
    [
        ("rami-chinois", GoingOut.PLACE),
        ("rami-fou", GoingOut.DISCARD),
        ("rami-51", GoingOut.DISCARD),
        ("bfmania-51", GoingOut.PLACE_OR_DISCARD),
        ("bfmania-30", GoingOut.PLACE_OR_DISCARD),
        ("cafe-rummy", GoingOut.DISCARD),
        ("rummikub", GoingOut.PLACE),
    ],
)
def test_presets_going_out(name, going_out):
    """docs/rules.md presets: going out place / discard / discard / place or discard / discard."""
    assert get_ruleset(name).going_out is going_out


@pytest.mark.parametrize(
    ("name", "joker"),
    [
        ("rami-chinois", 50),
        ("rami-fou", 20),
        ("rami-51", 20),
        ("bfmania-51", 20),
        ("bfmania-30", 20),
        ("cafe-rummy", 25),
    ],
)
def test_presets_hand_penalty_card_values(name, joker):
    """docs/rules.md presets: hand penalty 2-10 face / J Q K 10 / A 11 / joker 50, 20, 20, 20,
    25."""
    rules = get_ruleset(name)
    assert [rules.card_penalty(rank) for rank in range(1, 14)] == [
        11,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        10,
        10,
        10,
    ]
    assert rules.card_penalty(0) == joker
    # A hand of A, K, Q, J, T, 7, joker: 11 + 10 + 10 + 10 + 10 + 7 + joker.
    assert hand_penalty(parse_cards("AS KH QD JC TS 7H *"), rules) == 58 + joker


def test_presets_hand_penalty_rummikub_tiles_face_value_joker_30():
    """docs/rules.md rummikub: tiles 1-13 count their face (1 = A, 11-13 = J Q K); joker 30
    (standard Rummikub scoring, which docs/rules.md leaves to the game)."""
    rules = get_ruleset("rummikub")
    assert [rules.card_penalty(rank) for rank in range(1, 14)] == list(range(1, 14))
    assert rules.card_penalty(0) == 30
    assert hand_penalty(parse_cards("AS KH QD JC *"), rules) == 1 + 13 + 12 + 11 + 30


def test_presets_bfmania_seed_example_penalty_is_48():
    """Seed 001 example: a joker, an ace, a king and a 7 left in hand = 48 points."""
    assert hand_penalty(parse_cards("* AS KD 7C"), get_ruleset("bfmania-51")) == 48


@pytest.mark.parametrize(
    ("name", "flat", "rami_sec"),
    [
        ("rami-chinois", None, None),
        ("rami-fou", 100, 200),
        ("rami-51", 100, None),
        ("bfmania-51", None, None),
        ("bfmania-30", None, None),
        ("cafe-rummy", None, None),
    ],
)
def test_presets_not_opened_at_round_end(name, flat, rami_sec):
    """docs/rules.md presets: not opened at round end counts the hand / flat 100 (200 after a rami
    sec) / flat 100 / counts the hand / counts the hand."""
    rules = get_ruleset(name)
    assert rules.unopened_flat_penalty == flat
    assert rules.rami_sec_flat_penalty == rami_sec
    hand = parse_cards("2S 3S")
    assert hand_penalty(hand, rules, opened=False) == (5 if flat is None else flat)
    assert hand_penalty(hand, rules, opened=True) == 5


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("rami-chinois", ["100", "lowest wins"]),
        ("rami-fou", ["500", "loses"]),
        ("rami-51", ["not stated", "500", "lowest wins"]),
        ("bfmania-51", ["end of the round", "250", "500", "1000", "lowest wins", "draw"]),
        ("bfmania-30", ["end of the round", "250", "500", "1000", "lowest wins", "draw"]),
        ("cafe-rummy", ["500", "eliminated", "number of rounds"]),
        ("rummikub", ["number of rounds", "default 1", "joker 30"]),
    ],
)
def test_presets_game_ends(name, words):
    """docs/rules.md presets: game ends 100 lowest wins / 500 loses / (not stated: 500, lowest
    wins) /
    250 (500, 1000), lowest wins, a tie at the top a draw / 500: a player who reaches it is
    eliminated (seed 002); rummikub: decision 11."""
    game_end = get_ruleset(name).game_end
    for word in words:
        assert word in game_end
    assert ("not stated" in game_end) is (name == "rami-51")


@pytest.mark.parametrize("name", ALL)
def test_decision_8_taken_discard_lock_only_where_there_is_a_discard_pile(name):
    """docs/rules.md decision 8: the lock applies to every discarding preset; without a discard pile
    (rami-chinois, rummikub) it does not apply, and describe() says so (None), as it does for
    Café Rummy's joker kept until the last card."""
    rules = get_ruleset(name)
    described = rules.describe()
    if rules.discard:
        assert rules.taken_discard_locked is True
        assert described["taken_discard_locked"] is True
        assert described["joker_kept_until_last"] is (name == "cafe-rummy")
    else:
        assert rules.taken_discard_locked is False and rules.joker_kept_until_last is False
        assert described["taken_discard_locked"] is None
        assert described["joker_kept_until_last"] is None
    with pytest.raises(ValueError, match="needs a discard pile"):
        dataclasses.replace(get_ruleset("rami-chinois"), taken_discard_locked=True)


def test_common_ace_high_except_rummikub():
    """docs/rules.md common: ace below the 2 or above the king; rummikub: no ace-high, never above
    13."""
    for name in ALL:
        rules = get_ruleset(name)
        assert rules.max_run_length == 13
        assert rules.ace_high is (name != "rummikub")
        assert rules.top_rank == (13 if name == "rummikub" else 14)


def test_decision_2_opening_values_of_positions():
    """docs/rules.md decision 2: 2-10 face, J Q K 10, ace 1 low and 11 high (position 14)."""
    rules = get_ruleset("rami-51")
    assert [rules.opening_value(p) for p in range(1, 15)] == [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        10,
        10,
        10,
        11,
    ]
    tiles = get_ruleset("rummikub")
    assert [tiles.opening_value(p) for p in range(1, 14)] == list(range(1, 14))


def test_decision_1_same_turn_rearrangement_flag():
    """docs/rules.md decision 1: rearranging starts next turn; a ruleset flag allows the same
    turn."""
    for name in ALL:
        assert get_ruleset(name).open_and_rearrange_same_turn is False
    rules = get_ruleset("rami-chinois[open_and_rearrange_same_turn=true]")
    assert rules.open_and_rearrange_same_turn is True
    assert str(rules) == "rami-chinois[open_and_rearrange_same_turn=true]"


def test_decision_8_cafe_joker_kept_until_last_card():
    """docs/rules.md presets: cafe-rummy joker "never discarded except as the last card"."""
    assert [name for name in ALL if get_ruleset(name).joker_kept_until_last] == ["cafe-rummy"]


def test_rummikub_is_tiles_with_full_rearrangement():
    """docs/rules.md rummikub: tiles written as cards, 2 jokers, >= 30 from the hand, full
    rearrangement after that, no discard."""
    rules = get_ruleset("rummikub")
    assert rules.tiles and rules.rearrangement and not rules.discard
    assert not any(get_ruleset(name).tiles for name in ALL if name != "rummikub")


@pytest.mark.parametrize(
    "spec",
    [
        "rami-chinois",
        "rami-chinois[jokers=0]",
        "bfmania-51[opening_pure_run=false]",
        "rami-fou[open_and_rearrange_same_turn=true]",
        "rami-chinois[jokers=0,open_and_rearrange_same_turn=true]",
        "rummikub",
    ],
)
def test_option_string_round_trips(spec):
    """docs/rules.md: a ruleset is data; a preset with options is written PRESET[option=value]."""
    rules = get_ruleset(spec)
    assert rules.option_string == spec
    assert get_ruleset(rules.option_string) == rules
    assert get_ruleset(rules) is rules


def test_ruleset_names_are_case_insensitive_and_options_no_op_collapse():
    """docs/rules.md presets: names read case-insensitively; an option equal to the preset
    vanishes."""
    assert get_ruleset(" Rami-Chinois ") is PRESETS["rami-chinois"]
    assert get_ruleset("RAMI-CHINOIS[JOKERS=0]").jokers == 0
    assert str(get_ruleset("rami-chinois[jokers=4]")) == "rami-chinois"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("rami-belge", "unknown ruleset 'rami-belge'"),
        ("", "unknown ruleset ''"),
        ("rami chinois", "unknown ruleset"),
        ("rami-chinois[colour=red]", "unknown option 'colour=red'"),
        ("rami-chinois[jokers]", "unknown option 'jokers'"),
        ("rami-chinois[min_real_cards=2]", "unknown option"),
        ("rami-chinois[jokers=four]", "whole number, got 'four'"),
        ("bfmania-51[opening_pure_run=maybe]", "true or false, got 'maybe'"),
    ],
)
def test_unknown_ruleset_or_option_is_rejected(spec, message):
    """Rejection: unknown ruleset / option raises UnknownRulesetError (a ValueError)."""
    with pytest.raises(UnknownRulesetError, match=message.replace("[", r"\[")):
        get_ruleset(spec)
    assert issubclass(UnknownRulesetError, ValueError)


def test_rulesets_are_frozen_data():
    """docs/rules.md: a ruleset is data (one frozen object per preset)."""
    rules = get_ruleset("rami-fou")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.jokers = 0  # type: ignore[misc]
    assert isinstance(rules, Ruleset)
    described = rules.describe()
    assert described["name"] == "rami-fou"
    assert described["table_joker"] == TableJoker.REPLACE_AND_RELAY.value
    assert described["going_out"] == "discard the last card"
    assert set(OPTIONS) == {"jokers", "opening_pure_run", "open_and_rearrange_same_turn"}
