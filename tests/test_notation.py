"""Notation: text and JSON forms round-trip, accept the friendly spellings, and reject bad input
with the error class and the part at fault named."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rami.cards import ALL_CARDS, JOKER, Card, Suit, parse_cards
from rami.errors import InvalidPositionError, NotationError, UnknownRulesetError
from rami.melds import Meld, MeldKind, meld_problems
from rami.notation import (
    format_position,
    format_table,
    meld_from_json,
    meld_to_json,
    parse_position,
    parse_position_any,
    parse_table,
    position_from_json,
    position_to_json,
)
from rami.position import Position, count_problems
from rami.rules import PRESETS, get_ruleset

RULESETS = [
    *PRESETS.values(),
    *(
        get_ruleset(spec)
        for spec in (
            "rami-chinois[jokers=0]",
            "bfmania-51[opening_pure_run=false]",
            "rami-fou[open_and_rearrange_same_turn=true]",
        )
    ),
]

ISSUE_JSON = (
    '{"rules": "rami-chinois", "table": [["7H","8H","9H"], ["QS","QD","QC"], '
    '["2D","3D","*","5D"]], "hand": ["TH","JS","AD","*"], "opened": true}'
)


# --- Strategies -------------------------------------------------------------------------------


@st.composite
def melds(draw, rules):
    """A valid meld under ``rules`` (runs 3..13 with jokers in place, sets in any order)."""
    if draw(st.booleans()):
        length = draw(st.integers(3, 7) | st.integers(3, 13))
        start = draw(st.integers(1, rules.top_rank - length + 1))
        suit = draw(st.sampled_from(list(Suit)))
        cards = [Card.of((rank - 1) % 13 + 1, suit) for rank in range(start, start + length)]
        jokers = draw(st.sets(st.integers(0, length - 1), max_size=2))
        for index in jokers:
            cards[index] = JOKER
        meld = Meld(tuple(cards), MeldKind.RUN)
    else:
        rank = draw(st.integers(1, 13))
        suits = draw(st.permutations(list(Suit)))
        size = draw(st.integers(3, 4))
        jokers = draw(st.integers(0, 2))
        cards = [Card.of(rank, suit) for suit in suits[: size - jokers]] + [JOKER] * jokers
        order = draw(st.permutations(range(size)))
        meld = Meld(tuple(cards[index] for index in order), MeldKind.SET)
    assume(not meld_problems(meld, rules))
    return meld


@st.composite
def rules_and_meld(draw):
    rules = draw(st.sampled_from(RULESETS))
    return rules, draw(melds(rules))


@st.composite
def positions(draw):
    rules = draw(st.sampled_from(RULESETS))
    table = draw(st.lists(melds(rules), max_size=4))
    deck = [*ALL_CARDS, JOKER]
    hand = draw(st.lists(st.sampled_from(deck), max_size=10))
    position = Position(tuple(table), tuple(hand), draw(st.booleans()), rules)
    assume(not count_problems([*(c for m in table for c in m.cards), *hand], rules))
    if rules.discard and position.hand and draw(st.booleans()):
        position = Position(
            position.table,
            position.hand,
            position.opened,
            rules,
            draw(st.sampled_from(position.hand)),
        )
    assert position.problems() == []
    return position


def variants(text: str) -> list[str]:
    """Non-canonical spellings the notation accepts for the same value."""
    symbols = str.maketrans({"S": "♠", "H": "♥", "D": "♦", "C": "♣"})

    def respell(match: re.Match[str]) -> str:
        rank, suit = match.group(1), match.group(2)
        return ("10" if rank == "T" else rank) + suit.translate(symbols)

    cards = re.compile(r"\b([A2-9TJQK])([SHDC])\b")
    return [
        text.lower(),
        cards.sub(respell, text),
        cards.sub(lambda m: m.group(0).lower(), text),
        re.sub(r"(?<=[SHDC*]) (?=[A2-9TJQK*])", "", text),  # compact 7H8H9H
        "  " + text.replace(" | ", "|").replace(" / ", "/") + "  ",
    ]


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- Round trips (property tests) ---------------------------------------------------------------


@FAST
@given(rules_and_meld())
def test_property_meld_text_round_trip(case):
    """Notation round trip: any valid meld formats to canonical text that parses back equal."""
    _, meld = case
    text = str(meld)
    assert Meld.parse(text) == meld
    assert str(Meld.parse(text)) == text  # canonical output is a fixed point
    for variant in variants(text):
        assert Meld.parse(variant) == meld, variant
    assert eval(repr(meld), {"Meld": Meld}) == meld


@FAST
@given(rules_and_meld())
def test_property_meld_json_round_trip(case):
    """Notation round trip: any valid meld's JSON parses back equal and is canonical."""
    _, meld = case
    data = json.loads(json.dumps(meld_to_json(meld)))
    assert meld_from_json(data) == meld
    assert meld_to_json(meld_from_json(data)) == data


@FAST
@given(positions())
def test_property_position_text_round_trip(position):
    """Notation round trip: any valid position formats to canonical text that parses back equal;
    canonical output is a fixed point; 10H, suit symbols, lowercase and compact melds accepted."""
    text = format_position(position)
    assert "\n" not in text
    parsed = parse_position(text)
    assert parsed == position
    assert format_position(parsed) == text
    assert parse_position_any(text) == position
    for variant in variants(text):
        assert parse_position(variant) == position, variant
    assert eval(repr(position), {"Position": Position}) == position


@FAST
@given(positions())
def test_property_position_json_round_trip(position):
    """Notation round trip: the JSON form parses back to an equal position and is canonical."""
    data = position_to_json(position)
    text = json.dumps(data)
    parsed = parse_position_any(text)
    assert parsed == position
    assert position_to_json(parsed) == data
    assert position_from_json(json.loads(json.dumps(data, indent=2))) == position


@FAST
@given(st.sampled_from([*ALL_CARDS, JOKER]))
def test_property_card_repr_and_text(card):
    """Notation: repr of any card is a valid constructor; its text parses back."""
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.parse(str(card)) == card


# --- Known answers --------------------------------------------------------------------------------


def test_issue_json_is_accepted_exactly():
    """Notation (issue "game model"): the JSON form from the issue parses to the expected position,
    valid as is."""
    position = parse_position_any(ISSUE_JSON)
    assert position.rules is PRESETS["rami-chinois"]
    assert position.opened is True
    assert [str(meld) for meld in position.table] == ["7H 8H 9H", "QS QD QC", "2D 3D * 5D"]
    assert [str(card) for card in position.hand] == ["JS", "TH", "AD", "*"]
    assert position.problems() == []
    assert format_position(position) == (
        "7H 8H 9H | QS QD QC | 2D 3D * 5D / JS TH AD * / rami-chinois opened"
    )
    assert position_from_json(json.loads(ISSUE_JSON)) == position
    assert parse_position(format_position(position)) == position


def test_json_defaults_rules_rami_chinois_opened_false():
    """Notation (issue): the JSON defaults are rules rami-chinois, opened false, empty table and
    hand."""
    position = position_from_json({})
    assert position == Position()
    assert position.rules.name == "rami-chinois" and position.opened is False
    only_hand = parse_position_any('{"hand": ["7H", "10h", "q♠"]}')
    assert only_hand == Position(hand=parse_cards("7H TH QS"))
    assert position_to_json(only_hand) == {
        "rules": "rami-chinois",
        "table": [],
        "hand": ["QS", "7H", "TH"],
        "opened": False,
    }


def test_text_defaults_and_settings():
    """Notation: text defaults (rami-chinois, not opened) and the settings words."""
    assert parse_position("- / -") == Position()
    assert parse_position("7H 8H 9H / TH") == Position((Meld.parse("7H 8H 9H"),), parse_cards("TH"))
    position = parse_position("- / 7H / Rami-51 OPENED discard=7h")
    assert position.rules.name == "rami-51" and position.opened
    assert position.taken_discard == Card.parse("7H")
    assert parse_position("- / 7H / not-opened").opened is False
    with pytest.raises(NotationError, match="'not-opened' contradicts 'opened'") as error:
        parse_position("- / 7H / opened not-opened")
    assert error.value.loc == ("settings",)
    assert parse_position("- / - / rami-chinois[jokers=0]").rules.jokers == 0


def test_json_meld_forms():
    """Notation: a meld in JSON is a list of cards, a text meld, or {"kind", "cards"} when
    ambiguous."""
    marked = Meld.parse("set: 7H * *")
    assert meld_to_json(marked) == {"kind": "set", "cards": ["7H", "*", "*"]}
    assert meld_from_json({"kind": "set", "cards": ["7H", "*", "*"]}) == marked
    assert meld_from_json("set: 7H * *") == marked
    assert meld_from_json(["7H", "8H", "9H"]) == Meld.parse("7H 8H 9H")
    assert meld_to_json(Meld.parse("7H 8H 9H")) == ["7H", "8H", "9H"]


def test_table_text():
    """Notation: the table text form, '-' for an empty table, compact and lowercase melds."""
    assert parse_table("-") == ()
    assert parse_table("7H8H9H|qs qd qc") == (Meld.parse("7H 8H 9H"), Meld.parse("QS QD QC"))
    assert format_table(()) == "-"


# --- Rejections ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7H 8H 9H / ZZ", "hand: unknown card 'ZZ'"),
        ("7H 8H 9H / 1H", "unknown card '1H'"),
        ("7H 8H 9H / 11H", "unknown card '11H'"),
        ("7H ZZ 9H / -", "meld 1 ('7H ZZ 9H'): unknown card 'ZZ'"),
        ("7H 8H 9H | | QS QD QC / -", "meld 2 is empty"),
        ("7H 8H 9H", "expected 'TABLE / HAND"),
        ("- / - / - / -", "expected 'TABLE / HAND"),
        ("- / - / rami-51 rami-fou", "unexpected setting 'rami-fou'"),
        ("- / 7H / discard=ZZ", "unknown card 'ZZ'"),
        ("- / -\n- / -", "one line"),
        ("pair: 7H 7S / -", "unknown meld kind 'pair'"),
        ("", "empty position"),
    ],
)
def test_text_rejections_name_the_part_at_fault(text, message):
    """Rejection: bad text raises NotationError naming the card or meld at fault."""
    with pytest.raises(NotationError) as error:
        parse_position_any(text) if not text or "\n" in text else parse_position(text)
    assert message in str(error.value)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"table": [["7H", "8H"', "malformed JSON at line 1"),
        ('{"rules": "rami-chinois",}', "malformed JSON"),
        ('{"table": {"meld": ["7H"]}}', "table: expected a list of melds, got dict"),
        ('{"table": "7H 8H 9H"}', "table: expected a list of melds, got str"),
        ('{"table": [["7H", 8, "9H"]]}', "table[0][1]: expected a card string, got 8"),
        ('{"table": [["7H", "ZZ", "9H"]]}', "table[0][1]: unknown card 'ZZ'"),
        ('{"table": [[]]}', "table[0]: empty meld"),
        ('{"table": [7]}', "table[0]: expected a list of cards, got int"),
        ('{"table": [{"kind": "pair", "cards": ["7H"]}]}', "table[0].kind: expected 'run' or"),
        ('{"table": [{"kind": "set", "cards": ["7H"], "x": 1}]}', "table[0]: unknown field"),
        ('{"hand": "7H 8H"}', "hand: expected a list of cards, got str"),
        ('{"hand": ["7H", "1H"]}', "hand[1]: unknown card '1H'"),
        ('{"opened": "yes"}', "opened: expected true or false, got 'yes'"),
        ('{"opened": 1}', "opened: expected true or false, got 1"),
        ('{"rules": 51}', "rules: expected a ruleset name, got 51"),
        ('{"rules": "rami-chinois", "players": 4}', "unknown field(s) ['players']"),
        ('{"taken_discard": 7}', "taken_discard: expected a card string"),
        ("[1, 2]", "expected 'TABLE / HAND"),  # only an object is read as JSON
    ],
)
def test_json_rejections_name_the_part_at_fault(text, message):
    """Rejection: malformed JSON and JSON of the wrong shape raise NotationError."""
    with pytest.raises(NotationError) as error:
        parse_position_any(text)
    assert message in str(error.value)


def test_json_not_an_object_is_rejected():
    """Rejection: JSON of the wrong shape (not an object) raises NotationError."""
    with pytest.raises(NotationError, match="a JSON position is an object, got list"):
        position_from_json([1, 2])


@pytest.mark.parametrize(
    "text",
    [
        "- / - / rami-belge",
        '{"rules": "rami-belge"}',
        "- / - / rami-chinois[colour=red]",
        '{"rules": "rami-chinois[jokers=2]"}',
    ],
)
def test_unknown_ruleset_or_option_is_rejected(text):
    """Rejection: unknown ruleset / option raises UnknownRulesetError naming it."""
    with pytest.raises(UnknownRulesetError, match=r"rami-belge|colour=red|not 2"):
        parse_position_any(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("- / 7H 7H 7H", "3 copies of 7H: two decks hold only 2"),
        ("- / * * * * *", "5 jokers: rami-chinois is played with 4"),
        ("- / * / rami-chinois[jokers=0]", "1 joker: rami-chinois[jokers=0] is played with 0"),
        ("KH AH 2H / -", "meld 1: K-A-2 wraps around"),
        (
            "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH / -",
            "meld 1: run AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH has 14 cards",
        ),
        ("9S 9S 9H / -", "meld 1: two 9S in one set"),
        ("7H 8H 9H | * * * / -", "meld 2: meld * * * needs at least 1 real card"),
        ('{"table": [["9S", "9H", "9S"]]}', "meld 1: two 9S in one set"),
        ('{"hand": ["*", "*", "*"], "rules": "rummikub"}', "3 jokers: rummikub is played with 2"),
    ],
)
def test_impossible_positions_parse_but_are_invalid(text, message):
    """Rejection: an impossible position parses, and checking it raises InvalidPositionError
    naming the card or meld at fault (3 copies, too many jokers, K-A-2, 14-card run, two 9S in
    one set, an all-joker meld)."""
    position = parse_position_any(text)
    with pytest.raises(InvalidPositionError) as error:
        position.checked()
    assert message in str(error.value)
    assert any(message in problem for problem in error.value.problems)
