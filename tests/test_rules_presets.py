"""Rulesets: the rows of the docs/rules.md presets table about the deal and the table, as data,
with known answers: the columns, each preset's seed file, jokers in the deck, cards dealt, the
discard pile, rearranging the table and its jokers, the opening requirement, real cards per meld,
going out.

Each test names the row it checks ("docs/rules.md presets: <row>"). Behaviour that the rows imply
(penalties, opening counting, legal turns) is checked with positions in test_position.py,
test_melds_*.py and test_referee_*.py.
"""

from __future__ import annotations

import pytest
from support.presets import ALL

from rami.errors import UnknownRulesetError
from rami.rules import DEFAULT_RULES, PRESETS, GoingOut, TableJoker, get_ruleset


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
