"""Rulesets: the docs/rules.md decisions and common rules as data (the taken discard's lock,
the high ace, opening values, decision 1's flag, Café Rummy's joker, Rummikub's tiles), and
rulesets by name: option strings round trip, names are case-insensitive, unknown rulesets and
options are refused, rulesets are frozen data."""

from __future__ import annotations

import dataclasses

import pytest
from support.presets import ALL

from rami.errors import UnknownRulesetError
from rami.rules import OPTIONS, PRESETS, Ruleset, TableJoker, get_ruleset


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
