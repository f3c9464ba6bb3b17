"""Pictures of cards and melds (rami.svg): valid SVG, every card type drawn alone, text accepted
and scaled, the joker drawn distinctly, four colours and other colours as options, marks on a
card; a meld with its number and marks, or without a number from text."""

from __future__ import annotations

from collections import Counter

import pytest
from support.pictures import (
    card_groups,
    cards_drawn,
    desc,
    fills,
    marked,
    meld_groups,
    parse,
    texts,
)

from rami import svg
from rami.cards import ALL_CARDS, JOKER, Card, parse_cards
from rami.melds import Meld


@pytest.mark.parametrize("shown", [*ALL_CARDS, JOKER], ids=str)
def test_every_card_type_draws_alone(shown: Card) -> None:
    image = svg.card(shown)
    root = parse(image)
    assert desc(root) == str(shown)
    assert cards_drawn(root) == Counter([shown])
    assert root.get("aria-label") == svg.card_name(shown)
    words = texts(root)
    if shown.is_joker:
        assert "JOKER" in words
    else:
        rank = "10" if shown.rank == 10 else str(shown)[0]
        assert words.count(rank) == (3 if shown.rank > 10 else 2)  # both corners (and a court)
        assert "T" not in words


def test_card_accepts_text_and_scales_with_size() -> None:
    small, large = parse(svg.card("TH", size=50)), parse(svg.card(Card.parse("10H"), size=100))
    assert desc(small) == desc(large) == "TH"
    assert float(large.get("width", "")) == pytest.approx(2 * float(small.get("width", "")))
    assert small.get("viewBox") == large.get("viewBox")


def test_joker_is_drawn_distinctly() -> None:
    joker = parse(svg.card(JOKER))
    plain = parse(svg.card("7S"))
    colors = svg.DEFAULT_COLORS
    assert colors["joker card"] in fills(joker) and colors["joker"] in fills(joker)
    assert colors["joker card"] not in fills(plain) and colors["joker"] not in fills(plain)
    assert colors["card"] in fills(plain)


def test_four_colours_change_diamonds_and_clubs_only() -> None:
    colors = svg.DEFAULT_COLORS
    for text, two, four in (
        ("5D", "red", "diamonds"),
        ("5C", "black", "clubs"),
        ("5H", "red", "hearts"),
        ("5S", "black", "spades"),
    ):
        plain = fills(parse(svg.card(text)))
        four_colour = fills(parse(svg.card(text, four_color=True)))
        assert colors[two] in plain
        assert colors[four] in four_colour
        changed = text[1] in "DC"
        assert (plain != four_colour) is changed, text
    assert colors["diamonds"] != colors["red"] and colors["clubs"] != colors["black"]


def test_colours_are_options() -> None:
    root = parse(svg.card("5D", colors={"red": "#ff00ff", "card": "#eeeeee80"}))
    assert "#ff00ff" in fills(root) and "#eeeeee" in fills(root)
    assert any(node.get("fill-opacity") for node in root.iter())
    with pytest.raises(ValueError, match="unknown colour name 'redd'"):
        svg.card("5D", colors={"redd": "#000"})


def test_marks_on_a_card() -> None:
    for mark in svg.MARKS:
        root = parse(svg.card("5D", marked=mark))
        assert marked(root, mark) == Counter(parse_cards("5D"))
        assert svg.DEFAULT_COLORS[mark] in {node.get("stroke") for node in root.iter()}
    assert not card_groups(parse(svg.card("5D")))[0].get("data-mark")
    with pytest.raises(ValueError, match="unknown mark"):
        svg.card("5D", marked="new")


# ---------------------------------------------------------------- melds


def test_meld_with_number_and_marks() -> None:
    laid = Meld.parse("3H 4H * 6H")
    root = parse(svg.meld(laid, number=4, marked=[None, "played", "moved", None]))
    assert desc(root) == "4. 3H 4H * 6H"
    assert cards_drawn(root) == laid.counts()
    assert [group.get("data-card") for group in card_groups(root)] == ["3H", "4H", "*", "6H"]
    assert marked(root, "played") == Counter(parse_cards("4H"))
    assert marked(root, "moved") == Counter([JOKER])
    assert "4" in texts(root) and "run" in texts(root)


def test_meld_without_number_accepts_text() -> None:
    root = parse(svg.meld("set: 7H * *"))
    assert desc(root) == "set: 7H * *"
    assert cards_drawn(root) == Counter({Card.parse("7H"): 1, JOKER: 2})
    assert meld_groups(root).keys() == {0}  # no data-meld without a number
    all_played = parse(svg.meld("7H 8H 9H", marked="played"))
    assert marked(all_played, "played") == Counter(parse_cards("7H 8H 9H"))
    with pytest.raises(ValueError, match="2 marks for the 3 cards"):
        svg.meld("7H 8H 9H", marked=["played", None])
