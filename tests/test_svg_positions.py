"""Pictures of positions (rami.svg): valid SVG, every card drawn once (the demo, more positions,
an unopened player, an empty table, text input), bad options refused, and the picture Jupyter
shows."""

from __future__ import annotations

from collections import Counter

import pytest
from support.pictures import (
    DEMO,
    MORE_POSITIONS,
    all_cards,
    card_groups,
    cards_drawn,
    desc,
    fills,
    meld_groups,
    parse,
    texts,
)

import rami
from rami import svg
from rami.cards import parse_cards


def test_position_demo() -> None:
    root = parse(svg.position(DEMO))
    assert desc(root) == str(DEMO)
    assert cards_drawn(root) == all_cards(DEMO)
    assert cards_drawn(root, "hand") == Counter(DEMO.hand)
    assert cards_drawn(root, "table") == DEMO.table_cards
    groups = meld_groups(root)
    assert list(groups) == [1, 2, 3]
    for number, laid in enumerate(DEMO.table, start=1):
        assert [g.get("data-card") for g in card_groups(groups[number])] == [
            str(shown) for shown in laid.cards
        ]
    words = " ".join(texts(root))
    assert "rami-chinois" in words and "opened" in words and "not opened" not in words
    assert not any(group.get("data-mark") for group in card_groups(root))


@pytest.mark.parametrize("text", MORE_POSITIONS)
def test_position_holds_every_card(text: str) -> None:
    position = rami.parse_position_any(text)
    for four_color in (False, True):
        root = parse(svg.position(position, four_color=four_color, row_cards=5))
        assert desc(root) == str(position)
        assert cards_drawn(root) == all_cards(position)
        assert cards_drawn(root, "hand") == Counter(position.hand)
        jokers = [g for g in card_groups(root) if g.get("data-card") == "*"]
        assert all(svg.DEFAULT_COLORS["joker card"] in fills(g) for g in jokers)


def test_position_unopened_empty_table_and_text_input() -> None:
    root = parse(svg.position("- / AS 2S 3S"))
    words = " ".join(texts(root))
    assert "not opened" in words and "no melds" in words
    assert cards_drawn(root) == Counter(parse_cards("AS 2S 3S"))
    empty = parse(svg.position("7H 8H 9H / - / opened"))
    assert "(empty hand)" in texts(empty)


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="row_cards"):
        svg.position(DEMO, row_cards=0)
    with pytest.raises(ValueError, match="size"):
        svg.position(DEMO, size=0)


def test_repr_svg_for_jupyter() -> None:
    image = svg.position(DEMO)
    assert isinstance(image, svg.SvgImage)
    assert image._repr_svg_() is image
    assert DEMO._repr_svg_() == image
    laid = DEMO.table[0]
    assert laid._repr_svg_() == svg.meld(laid)
    parse(laid._repr_svg_())
