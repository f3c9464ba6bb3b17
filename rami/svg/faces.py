"""One card drawn: its face, corners, suit shapes, and the marks of a card played or moved
(:mod:`rami.svg`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

from rami.cards import Card, Suit
from rami.lang import ENGLISH, Language
from rami.svg.style import (
    _STAR,
    _SUIT_PATHS,
    CARD_H,
    CARD_W,
    DEFAULT_SIZE,
    FONT_SERIF,
    MOVED,
    SvgImage,
    _as_card,
    _check_mark,
    _fill,
    _image,
    _num,
    _root,
    _Style,
    _style,
    _sub,
    _text,
    card_name,
)

# ------------------------------------------------------------------------------ one card


def _suit_shape(
    parent: ET.Element, suit: Suit, cx: float, cy: float, size: float, color: str
) -> None:
    scale = size / 100
    group = _sub(
        parent,
        "g",
        transform=f"translate({_num(cx - size / 2)} {_num(cy - size / 2)}) scale({_num(scale)})",
    )
    _fill(group, color)
    for path in _SUIT_PATHS[suit]:
        _sub(group, "path", d=path)


def _star(parent: ET.Element, cx: float, cy: float, size: float, color: str) -> None:
    scale = size / 100
    path = _sub(
        parent,
        "path",
        d=_STAR,
        transform=f"translate({_num(cx - size / 2)} {_num(cy - size / 2)}) scale({_num(scale)})",
    )
    _fill(path, color)


def _corner(parent: ET.Element, card: Card, color: str, shown: str) -> None:
    """The index in the top-left corner: rank over a small suit (JOKER written downwards)."""
    if card.is_joker:
        for index, letter in enumerate("JOKER"):
            _text(
                parent,
                13,
                23 + index * 15,
                letter,
                size=14,
                color=color,
                anchor="middle",
                bold=True,
            )
        _star(parent, 13, 100, 14, color)
        return
    assert card.suit is not None
    if len(shown) == 2:  # 10: narrower, and tucked into the same column
        text = _text(parent, 13, 29, shown, size=22, color=color, anchor="middle", bold=True)
        text.set("letter-spacing", "-2")
    else:
        _text(parent, 13, 30, shown, size=27, color=color, anchor="middle", bold=True)
    _suit_shape(parent, card.suit, 13, 44, 17, color)


def _card_face(parent: ET.Element, card: Card, style: _Style) -> None:
    color = style.suit(card)
    face = style["joker card"] if card.is_joker else style["card"]
    body = _sub(parent, "rect", x=0, y=0, width=CARD_W, height=CARD_H, rx=9, stroke_width=1.5)
    _fill(body, face)
    _fill(body, style["card border"], "stroke")
    _corner(parent, card, color, style.rank(card))
    turned = _sub(parent, "g", transform=f"rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})")
    _corner(turned, card, color, style.rank(card))
    cx, cy = CARD_W / 2, CARD_H / 2
    if card.is_joker:
        _star(parent, cx, cy - 4, 56, color)
        _text(parent, cx, cy + 40, "JOKER", size=13, color=color, anchor="middle", bold=True)
        return
    assert card.suit is not None
    if card.rank >= 11:  # jack, queen, king: a framed court with a big letter
        frame = _sub(parent, "rect", x=25, y=22, width=50, height=96, rx=4, stroke_width=1.5)
        _fill(frame, style["court"])
        _fill(frame, color, "stroke")
        _text(
            parent,
            cx,
            cy + 8,
            style.rank(card),
            size=46,
            color=color,
            anchor="middle",
            bold=True,
            font=FONT_SERIF,
        )
        _suit_shape(parent, card.suit, cx, cy + 28, 20, color)
        _suit_shape(parent, card.suit, cx, cy - 36, 14, color)
        return
    _suit_shape(parent, card.suit, cx, cy, 62 if card.rank == 1 else 48, color)


#: How far a mark's outline stands out of the card, stroke included.
_MARK_OUT = 6


def _mark(parent: ET.Element, mark: str, style: _Style) -> None:
    outline = _sub(
        parent,
        "rect",
        x=-3.5,
        y=-3.5,
        width=CARD_W + 7,
        height=CARD_H + 7,
        rx=11,
        fill="none",
        stroke_width=4,
        stroke_dasharray="11 6" if mark == MOVED else None,
        stroke_linecap="butt" if mark == MOVED else None,
    )
    _fill(outline, style[mark], "stroke")


def _card_group(
    parent: ET.Element,
    card: Card,
    x: float,
    y: float,
    style: _Style,
    *,
    mark: str | None = None,
    place: str | None = None,
    shadow: bool = True,
) -> ET.Element:
    group = _sub(
        parent,
        "g",
        transform=f"translate({_num(x)} {_num(y)})" if x or y else None,
        class_="card",
        data_card=str(card),
        data_mark=mark,
        data_place=place,
        aria_label=card_name(card, style.language),
    )
    if shadow:
        _fill(
            _sub(group, "rect", x=2, y=3, width=CARD_W, height=CARD_H, rx=9), style["card shadow"]
        )
    _card_face(group, card, style)
    if mark is not None:
        _mark(group, mark, style)
    return group


def card(
    card: Card | str,
    *,
    size: int = DEFAULT_SIZE,
    colors: Mapping[str, str] | None = None,
    four_color: bool = False,
    marked: str | None = None,
    language: Language = ENGLISH,
) -> SvgImage:
    """One card. ``marked``: None, ``"played"`` (came from the hand) or ``"moved"``;
    ``language``: the letters of the jack, queen and king (in French V, D, R) and the card's
    name for screen readers."""
    drawn = _as_card(card)
    mark = _check_mark(marked)
    style = _style(colors, four_color, language)
    pad = _MARK_OUT if mark else 1
    label = card_name(drawn, language)
    svg = _root(CARD_W + 2 * pad, CARD_H + 2 * pad, size, label=label, desc=drawn.text(language))
    _card_group(svg, drawn, pad, pad, style, mark=mark, shadow=False)
    return _image(svg)
