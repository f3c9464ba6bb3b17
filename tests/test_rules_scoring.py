"""Rulesets: the rows of the docs/rules.md presets table about the score, as data, with known
answers: the hand penalty's card values (Rummikub's tiles at face value, its joker 30; the
BFmania seed's 48), a player not opened at the round's end, the game's end.

Each test names the row it checks ("docs/rules.md presets: <row>"). Behaviour that the rows imply
(penalties, opening counting, legal turns) is checked with positions in test_position.py,
test_melds_*.py and test_referee_*.py.
"""

from __future__ import annotations

import pytest

from rami.cards import parse_cards
from rami.position import hand_penalty
from rami.rules import get_ruleset


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
