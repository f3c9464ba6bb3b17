"""Pictures of cards, melds, positions and solutions as SVG (the way ``chess.svg`` draws boards).

Standard library only (:mod:`xml.etree.ElementTree`); no image files and no fonts loaded from
anywhere: the suit symbols are paths drawn here, the ranks are text in the viewer's own sans-serif
font. Every picture is standalone XML in the SVG namespace with a ``viewBox``, a pixel ``width``
and ``height``, ``role="img"``, an ``aria-label`` and a ``<desc>`` holding the text form (the
position's one-line notation, the meld's cards...).

Each card is a ``<g class="card" data-card="7H">`` group (``data-mark="played"`` or ``"moved"``
when marked, ``data-place="table"``/``"hand"``/``"discard"`` in a position or solution), so a
picture can be checked card by card. The functions return :class:`SvgImage`, a ``str`` that
Jupyter shows as the picture.

Drawing units: a card is 100 wide and 140 high; ``size`` is the card's width in pixels and
everything else scales with it.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rami.cards import Card, Suit
from rami.melds import Meld
from rami.position import Position, hand_penalty

if TYPE_CHECKING:
    from rami.solver.api import Solution

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

#: Default card width in pixels.
DEFAULT_SIZE = 64
#: Cards a row holds before the melds (or the hand) wrap onto the next row.
DEFAULT_ROW_CARDS = 16

#: A card in drawing units (the poker-card ratio 2.5 x 3.5).
CARD_W = 100
CARD_H = 140

PLAYED = "played"
MOVED = "moved"
MARKS = (PLAYED, MOVED)

#: Colours by name (``colors={"table": "#303030"}`` overrides some). ``#rrggbbaa`` and ``#rgba``
#: values carry an opacity, as in ``chess.svg``.
DEFAULT_COLORS: dict[str, str] = {
    "background": "#1e6a3f",  # the felt
    "background border": "#14502e",
    "hand": "#154d2d",  # the band the hand lies on
    "text": "#f6f2e2",
    "muted": "#b8d4c0",
    "badge": "#f6f2e2",
    "badge text": "#173d28",
    "badge new": "#ffd34e",
    "card": "#ffffff",
    "card border": "#7d7d7d",
    "card shadow": "#00000055",
    "court": "#fbf3dd",
    "red": "#c8102e",
    "black": "#1b1b1b",
    # four_color=True
    "spades": "#1b1b1b",
    "hearts": "#c8102e",
    "diamonds": "#1460c8",
    "clubs": "#18803a",
    "joker": "#6d2bb5",
    "joker card": "#fff6db",
    "played": "#ffc21a",
    "moved": "#22d3ee",
}

_SUIT_COLOR_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}
_SUIT_NAMES = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
               Suit.CLUBS: "clubs"}
_RANK_SHOWN = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_NAMES = ("", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

FONT_SANS = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif"
FONT_SERIF = "'DejaVu Serif', Georgia, 'Times New Roman', serif"

#: Suit shapes in a 100 x 100 box, one or more filled paths each (drawn here, not font glyphs).
_SUIT_PATHS: dict[Suit, tuple[str, ...]] = {
    Suit.HEARTS: (
        "M50 94C38 81 3 60 3 31C3 14 15 4 29 4C39 4 46 10 50 19C54 10 61 4 71 4"
        "C85 4 97 14 97 31C97 60 62 81 50 94Z",
    ),
    Suit.DIAMONDS: (
        "M50 2C59 19 72 35 88 50C72 65 59 81 50 98C41 81 28 65 12 50C28 35 41 19 50 2Z",
    ),
    Suit.SPADES: (
        "M50 3C57 17 95 38 95 62C95 77 84 86 72 86C63 86 57 82 53 76C54 86 58 93 67 98"
        "L33 98C42 93 46 86 47 76C43 82 37 86 28 86C16 86 5 77 5 62C5 38 43 17 50 3Z",
    ),
    Suit.CLUBS: (
        "M50 6a22 22 0 1 0 0.01 0Z",
        "M27 40a22 22 0 1 0 0.01 0Z",
        "M73 40a22 22 0 1 0 0.01 0Z",
        "M50 44a13 13 0 1 0 0.01 0Z",
        "M47 56C47 77 42 89 32 98L68 98C58 89 53 77 53 56Z",
    ),
}


def _star_path(points: int = 5, outer: float = 50, inner: float = 20) -> str:
    """A star in the same 100 x 100 box, point up."""
    corners = []
    for index in range(points * 2):
        radius = outer if index % 2 == 0 else inner
        angle = math.pi * index / points - math.pi / 2
        corners.append(f"{50 + radius * math.cos(angle):.2f} {53 + radius * math.sin(angle):.2f}")
    return "M" + "L".join(corners) + "Z"


_STAR = _star_path()


class SvgImage(str):
    """An SVG document as a string; Jupyter shows it as the picture (``_repr_svg_``)."""

    __slots__ = ()

    def _repr_svg_(self) -> SvgImage:
        return self

    def _repr_html_(self) -> SvgImage:
        return self


# ------------------------------------------------------------------------------ helpers


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def _color(value: str) -> tuple[str, float | None]:
    """``#rrggbbaa`` / ``#rgba`` -> (``#rrggbb``, opacity); anything else as given."""
    if value.startswith("#") and len(value) in (5, 9):
        try:
            if len(value) == 5:
                return value[:4], int(value[4], 16) / 0xF
            return value[:7], int(value[7:], 16) / 0xFF
        except ValueError:
            pass
    return value, None


def _fill(element: ET.Element, value: str, attribute: str = "fill") -> ET.Element:
    color, opacity = _color(value)
    element.set(attribute, color)
    if opacity is not None and opacity < 1:
        element.set(f"{attribute}-opacity", _num(opacity))
    return element


def _sub(parent: ET.Element, tag: str, **attributes: object) -> ET.Element:
    """A child element; ``stroke_width=2`` becomes ``stroke-width="2"``, None is left out."""
    return ET.SubElement(
        parent,
        tag,
        {
            key.rstrip("_").replace("_", "-"): _num(value) if isinstance(value, float)
            else str(value)
            for key, value in attributes.items()
            if value is not None
        },
    )


def _text(
    parent: ET.Element,
    x: float,
    y: float,
    text: str,
    *,
    size: float,
    color: str,
    anchor: str = "start",
    bold: bool = False,
    font: str = FONT_SANS,
) -> ET.Element:
    element = _sub(
        parent,
        "text",
        x=float(x),
        y=float(y),
        font_family=font,
        font_size=float(size),
        font_weight="bold" if bold else None,
        text_anchor=anchor if anchor != "start" else None,
    )
    _fill(element, color)
    element.text = text
    return element


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a text's width in a sans-serif font (for the layout only)."""
    return len(text) * size * (0.7 if bold else 0.6)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class _Style:
    colors: Mapping[str, str]
    four_color: bool

    def __getitem__(self, name: str) -> str:
        return self.colors[name]

    def suit(self, card: Card) -> str:
        if card.is_joker:
            return self.colors["joker"]
        suit = card.suit
        assert suit is not None
        if self.four_color:
            return self.colors[_SUIT_COLOR_NAMES[suit]]
        return self.colors["red" if suit in (Suit.HEARTS, Suit.DIAMONDS) else "black"]


def _style(colors: Mapping[str, str] | None, four_color: bool) -> _Style:
    unknown = sorted(set(colors or {}) - set(DEFAULT_COLORS))
    if unknown:
        raise ValueError(
            f"unknown colour name {unknown[0]!r}: the names are {', '.join(DEFAULT_COLORS)}"
        )
    return _Style({**DEFAULT_COLORS, **(colors or {})}, four_color)


def _root(width: float, height: float, size: int, *, label: str, desc: str) -> ET.Element:
    if not size > 0:
        raise ValueError(f"size must be a positive number of pixels, got {size}")
    scale = size / CARD_W
    svg = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "viewBox": f"0 0 {_num(width)} {_num(height)}",
            "width": _num(width * scale),
            "height": _num(height * scale),
            "role": "img",
            "aria-label": label,
        },
    )
    ET.SubElement(svg, "title").text = label
    ET.SubElement(svg, "desc").text = desc
    return svg


def _image(svg: ET.Element) -> SvgImage:
    return SvgImage(ET.tostring(svg, encoding="unicode"))


def card_name(card: Card) -> str:
    """A card in words, for screen readers: ``7 of hearts``, ``queen of spades``, ``joker``."""
    if card.is_joker:
        return "joker"
    assert card.suit is not None
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]}"


def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


def _check_mark(mark: str | None) -> str | None:
    if mark is not None and mark not in MARKS:
        raise ValueError(f"unknown mark {mark!r}: use None, {PLAYED!r} or {MOVED!r}")
    return mark


# ------------------------------------------------------------------------------ one card


def _suit_shape(parent: ET.Element, suit: Suit, cx: float, cy: float, size: float,
                color: str) -> None:
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


def _corner(parent: ET.Element, card: Card, color: str) -> None:
    """The index in the top-left corner: rank over a small suit (JOKER written downwards)."""
    if card.is_joker:
        for index, letter in enumerate("JOKER"):
            _text(parent, 13, 23 + index * 15, letter, size=14, color=color, anchor="middle",
                  bold=True)
        _star(parent, 13, 100, 14, color)
        return
    assert card.suit is not None
    shown = _RANK_SHOWN[card.rank]
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
    _corner(parent, card, color)
    turned = _sub(parent, "g", transform=f"rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})")
    _corner(turned, card, color)
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
        _text(parent, cx, cy + 8, _RANK_SHOWN[card.rank], size=46, color=color, anchor="middle",
              bold=True, font=FONT_SERIF)
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
        aria_label=card_name(card),
    )
    if shadow:
        _fill(_sub(group, "rect", x=2, y=3, width=CARD_W, height=CARD_H, rx=9),
              style["card shadow"])
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
) -> SvgImage:
    """One card. ``marked``: None, ``"played"`` (came from the hand) or ``"moved"``."""
    drawn = _as_card(card)
    mark = _check_mark(marked)
    style = _style(colors, four_color)
    pad = _MARK_OUT if mark else 1
    svg = _root(CARD_W + 2 * pad, CARD_H + 2 * pad, size, label=card_name(drawn), desc=str(drawn))
    _card_group(svg, drawn, pad, pad, style, mark=mark, shadow=False)
    return _image(svg)


# ------------------------------------------------------------------------------ layout

MARGIN = 28
CARD_GAP = 14
MELD_GAP = 44
ROW_GAP = 26
BADGE = 28
BADGE_GAP = 10
HEADING = 26
HEADING_GAP = 14
SECTION_GAP = 30
SMALL = 19
BAND_PAD = 14


@dataclass(frozen=True)
class _MeldBox:
    number: int | None
    meld: Meld
    marks: tuple[str | None, ...]
    new: bool = False

    @property
    def label(self) -> str:
        return f"{self.meld.kind.value}" + (" · new" if self.new else "")

    @property
    def cards_width(self) -> float:
        count = len(self.meld.cards)
        return count * CARD_W + max(count - 1, 0) * CARD_GAP

    @property
    def width(self) -> float:
        badge = BADGE + 8 + _text_width(self.label, SMALL) if self.number is not None else 0
        return max(self.cards_width, badge)

    @property
    def height(self) -> float:
        return (BADGE + BADGE_GAP if self.number is not None else 0) + CARD_H


def _draw_meld(parent: ET.Element, box: _MeldBox, x: float, y: float, style: _Style,
               place: str | None) -> None:
    group = _sub(
        parent,
        "g",
        class_="meld",
        data_meld=box.number,
        data_kind=box.meld.kind.value,
        aria_label=(f"meld {box.number}: " if box.number is not None else "")
        + f"{box.meld.kind.value} {' '.join(map(str, box.meld.cards))}",
    )
    top = y
    if box.number is not None:
        badge = _sub(group, "circle", cx=float(x + BADGE / 2), cy=float(y + BADGE / 2),
                     r=float(BADGE / 2))
        _fill(badge, style["badge new"] if box.new else style["badge"])
        _text(group, x + BADGE / 2, y + BADGE / 2 + 6.5, str(box.number), size=18,
              color=style["badge text"], anchor="middle", bold=True)
        _text(group, x + BADGE + 8, y + BADGE / 2 + 6, box.label, size=SMALL,
              color=style["muted"])
        top += BADGE + BADGE_GAP
    for index, (shown, mark) in enumerate(zip(box.meld.cards, box.marks, strict=True)):
        _card_group(group, shown, x + index * (CARD_W + CARD_GAP), top, style, mark=mark,
                    place=place)


def _rows(widths: Sequence[float], limit: float, gap: float) -> list[list[int]]:
    """Greedy rows of items (by index) no wider than ``limit`` (an item wider goes alone)."""
    rows: list[list[int]] = []
    used = 0.0
    for index, width in enumerate(widths):
        if rows and used + gap + width <= limit:
            rows[-1].append(index)
            used += gap + width
        else:
            rows.append([index])
            used = width
    return rows


def _row_limit(row_cards: int) -> float:
    if row_cards < 1:
        raise ValueError(f"row_cards must be at least 1, got {row_cards}")
    return row_cards * CARD_W + (row_cards - 1) * CARD_GAP


_CardsData = tuple[list[Card], str, str, bool, Sequence[str | None] | None]
#: A section of a sheet: its kind, then what drawing it needs (narrowed by the kind).
_Part = (
    tuple[Literal["heading"], tuple[str, str]]
    | tuple[Literal["line"], tuple[str, bool]]
    | tuple[Literal["melds"], tuple[list[_MeldBox], str]]
    | tuple[Literal["cards"], _CardsData]
    | tuple[Literal["legend"], list[tuple[str, str]]]
    | tuple[Literal["gap"], float]
)


@dataclass
class _Sheet:
    """Sections stacked top to bottom; drawn once the width is known."""

    style: _Style
    row_cards: int

    def __post_init__(self) -> None:
        self.parts: list[_Part] = []

    def heading(self, text: str, detail: str = "") -> None:
        self.parts.append(("heading", (text, detail)))

    def line(self, text: str, muted: bool = True) -> None:
        self.parts.append(("line", (text, muted)))

    def melds(self, boxes: Sequence[_MeldBox], empty: str) -> None:
        self.parts.append(("melds", (list(boxes), empty)))

    def cards(self, cards: Sequence[Card], place: str, empty: str, band: bool = False,
              marks: Sequence[str | None] | None = None) -> None:
        self.parts.append(("cards", (list(cards), place, empty, band, marks)))

    def legend(self, items: Sequence[tuple[str, str]]) -> None:
        self.parts.append(("legend", list(items)))

    def gap(self, height: float = SECTION_GAP) -> None:
        self.parts.append(("gap", height))

    # ---- measuring and drawing

    def _meld_rows(self, boxes: list[_MeldBox]) -> list[list[int]]:
        return _rows([box.width for box in boxes], _row_limit(self.row_cards), MELD_GAP)

    def _card_rows(self, count: int) -> list[list[int]]:
        return _rows([CARD_W] * count, _row_limit(self.row_cards), CARD_GAP)

    def _measure(self) -> tuple[float, float]:
        width = 0.0
        height = 0.0
        for part in self.parts:
            if part[0] == "heading":
                text, detail = part[1]
                width = max(width, _text_width(text, HEADING, True) + 14
                            + _text_width(detail, SMALL))
                height += HEADING + HEADING_GAP
            elif part[0] == "line":
                width = max(width, _text_width(part[1][0], SMALL))
                height += SMALL + 8
            elif part[0] == "legend":
                width = max(width, sum(52 + _text_width(text, SMALL) + 30 for _, text in part[1]))
                height += 40
            elif part[0] == "gap":
                height += part[1]
            elif part[0] == "melds":
                boxes, empty = part[1]
                if not boxes:
                    width = max(width, _text_width(empty, SMALL))
                    height += SMALL + 8
                    continue
                rows = self._meld_rows(boxes)
                for row in rows:
                    width = max(width, sum(boxes[i].width for i in row)
                                + MELD_GAP * (len(row) - 1))
                    height += max(boxes[i].height for i in row)
                height += ROW_GAP * (len(rows) - 1)
            elif part[0] == "cards":
                cards, _, empty, band, _ = part[1]
                height += 2 * BAND_PAD if band else 0
                if not cards:
                    width = max(width, _text_width(empty, SMALL))
                    height += SMALL + 8
                    continue
                rows = self._card_rows(len(cards))
                width = max(width, max(len(row) for row in rows) * (CARD_W + CARD_GAP)
                            - CARD_GAP)
                height += len(rows) * CARD_H + ROW_GAP * (len(rows) - 1)
        return width, height

    def render(self, size: int, *, label: str, desc: str) -> SvgImage:
        style = self.style
        inner_width, inner_height = self._measure()
        width = inner_width + 2 * MARGIN
        height = inner_height + 2 * MARGIN
        svg = _root(width, height, size, label=label, desc=desc)
        felt = _sub(svg, "rect", x=1, y=1, width=width - 2, height=height - 2, rx=14,
                    stroke_width=2)
        _fill(felt, style["background"])
        _fill(felt, style["background border"], "stroke")
        y = float(MARGIN)
        x0 = float(MARGIN)
        for part in self.parts:
            if part[0] == "heading":
                text, detail = part[1]
                title = _text(svg, x0, y + HEADING - 4, text, size=HEADING, color=style["text"],
                              bold=True)
                if detail:
                    tspan = _sub(title, "tspan", dx=14, font_size=SMALL, font_weight="normal")
                    _fill(tspan, style["muted"])
                    tspan.text = detail
                y += HEADING + HEADING_GAP
            elif part[0] == "line":
                text, muted = part[1]
                _text(svg, x0, y + SMALL, text, size=SMALL,
                      color=style["muted"] if muted else style["text"])
                y += SMALL + 8
            elif part[0] == "legend":
                x = x0
                for mark, text in part[1]:
                    swatch = _sub(svg, "rect", x=float(x + 3), y=float(y + 6), width=38,
                                  height=26, rx=5, stroke_width=4,
                                  stroke_dasharray="9 5" if mark == MOVED else None)
                    _fill(swatch, style["card"])
                    _fill(swatch, style[mark], "stroke")
                    _text(svg, x + 52, y + 25, text, size=SMALL, color=style["text"])
                    x += 52 + _text_width(text, SMALL) + 30
                y += 40
            elif part[0] == "gap":
                y += part[1]
            elif part[0] == "melds":
                y = self._draw_melds(svg, part[1], x0, y)
            elif part[0] == "cards":
                y = self._draw_cards(svg, part[1], x0, y, inner_width)
        return _image(svg)

    def _draw_melds(self, svg: ET.Element, data: tuple[list[_MeldBox], str], x0: float,
                    y: float) -> float:
        boxes, empty = data
        if not boxes:
            _text(svg, x0, y + SMALL, empty, size=SMALL, color=self.style["muted"])
            return y + SMALL + 8
        table = _sub(svg, "g", class_="table")
        rows = self._meld_rows(boxes)
        for number, row in enumerate(rows):
            x = x0
            row_height = max(boxes[i].height for i in row)
            for index in row:
                box = boxes[index]
                _draw_meld(table, box, x, y + row_height - box.height, self.style, "table")
                x += box.width + MELD_GAP
            y += row_height + (ROW_GAP if number < len(rows) - 1 else 0)
        return y

    def _draw_cards(
        self,
        svg: ET.Element,
        data: _CardsData,
        x0: float,
        y: float,
        inner_width: float,
    ) -> float:
        cards, place, empty, band, marks = data
        if band:
            rows = self._card_rows(len(cards)) if cards else [[]]
            tall = (len(rows) * CARD_H + ROW_GAP * (len(rows) - 1)) if cards else SMALL + 8
            strip = _sub(svg, "rect", x=float(x0 - BAND_PAD), y=float(y),
                         width=float(inner_width + 2 * BAND_PAD),
                         height=float(tall + 2 * BAND_PAD), rx=10)
            _fill(strip, self.style["hand"])
            y += BAND_PAD
        if not cards:
            _text(svg, x0, y + SMALL, empty, size=SMALL, color=self.style["muted"])
            return y + SMALL + 8 + (BAND_PAD if band else 0)
        group = _sub(svg, "g", class_=place)
        rows = self._card_rows(len(cards))
        for number, row in enumerate(rows):
            for column, index in enumerate(row):
                _card_group(group, cards[index], x0 + column * (CARD_W + CARD_GAP), y,
                            self.style, mark=marks[index] if marks else None, place=place)
            y += CARD_H + (ROW_GAP if number < len(rows) - 1 else 0)
        return y + (BAND_PAD if band else 0)


# ------------------------------------------------------------------------------ melds


def meld(
    meld: Meld | str,
    *,
    number: int | None = None,
    size: int = DEFAULT_SIZE,
    colors: Mapping[str, str] | None = None,
    four_color: bool = False,
    marked: str | Sequence[str | None] | None = None,
) -> SvgImage:
    """One meld, its cards side by side, with its number over it when given.

    ``marked``: one mark for every card, or one mark (or None) per card in the meld's order.
    """
    drawn = meld if isinstance(meld, Meld) else Meld.parse(meld)
    if marked is None or isinstance(marked, str):
        marks = (_check_mark(marked),) * len(drawn.cards)
    else:
        marks = tuple(_check_mark(mark) for mark in marked)
        if len(marks) != len(drawn.cards):
            raise ValueError(f"{len(marks)} marks for the {len(drawn.cards)} cards of {drawn}")
    style = _style(colors, four_color)
    box = _MeldBox(number, drawn, marks)
    pad = 16
    label = (f"meld {number}: " if number is not None else "") + (
        f"{drawn.kind.value} of {_plural(len(drawn.cards), 'card')}: "
        + ", ".join(card_name(shown) for shown in drawn.cards)
    )
    svg = _root(box.width + 2 * pad, box.height + 2 * pad, size, label=label,
                desc=(f"{number}. " if number is not None else "") + str(drawn))
    felt = _sub(svg, "rect", x=0, y=0, width=box.width + 2 * pad, height=box.height + 2 * pad,
                rx=12)
    _fill(felt, style["background"])
    _draw_meld(svg, box, pad, pad, style, None)
    return _image(svg)


# ------------------------------------------------------------------------------ positions


def _rules_line(position: Position, opened: bool, opened_now: bool = False) -> str:
    parts = [position.rules.option_string, "opened this turn" if opened_now else (
        "opened" if opened else "not opened")]
    if position.taken_discard is not None:
        parts.append(f"taken from the discard pile: {position.taken_discard}")
    return "Rules: " + " · ".join(parts)


def position(
    position: Position | str,
    *,
    size: int = DEFAULT_SIZE,
    colors: Mapping[str, str] | None = None,
    four_color: bool = False,
    row_cards: int = DEFAULT_ROW_CARDS,
) -> SvgImage:
    """The table (melds numbered 1..n, as the move list numbers them), the hand, the rules."""
    drawn = position if isinstance(position, Position) else Position.parse(position)
    style = _style(colors, four_color)
    sheet = _Sheet(style, row_cards)
    melds = len(drawn.table)
    sheet.heading("Table", f"{_plural(melds, 'meld')}, {_plural(drawn.table_size, 'card')}")
    sheet.melds(
        [_MeldBox(number, shown, (None,) * len(shown.cards))
         for number, shown in enumerate(drawn.table, start=1)],
        "(no melds on the table)",
    )
    sheet.gap()
    penalty = hand_penalty(drawn.hand, drawn.rules, drawn.opened)
    sheet.heading("Hand", f"{_plural(len(drawn.hand), 'card')}, penalty {penalty}")
    sheet.cards(drawn.hand, "hand", "(empty hand)", band=True)
    sheet.gap(SECTION_GAP - 4)
    sheet.line(_rules_line(drawn, drawn.opened))
    label = (
        f"Rami position: {_plural(melds, 'meld')} on the table, "
        f"{_plural(len(drawn.hand), 'card')} in hand, {drawn.rules.option_string}, "
        f"{'opened' if drawn.opened else 'not opened'}"
    )
    return sheet.render(size, label=label, desc=str(drawn))


# ------------------------------------------------------------------------------ solutions


def marked_table(
    solution: Solution, position: Position | None = None
) -> list[tuple[int, Meld, tuple[str | None, ...]]]:
    """The new table in move-list order: (number, meld, a mark per card).

    A card is ``"played"`` when it came from the hand, ``"moved"`` when it is a table card that
    now lies in another meld than its own (docs/rules.md decision 7: the old and new melds matched
    as
    the referee matches them, whose numbers the move list uses), None when it stayed. Between
    identical copies the move list says which one came from the hand.
    """
    from rami.solver.explain import meld_numbers

    before = (position or solution.position).table
    after = solution.table
    numbers = meld_numbers(before, after)
    arrived: list[list[int]] = []
    for index, laid in enumerate(after):
        number = numbers[index]
        old = before[number - 1].counts() if number <= len(before) else Counter()
        kept: Counter[Card] = Counter()
        places = []
        for place, shown in enumerate(laid.cards):
            if kept[shown] < old[shown]:
                kept[shown] += 1
            else:
                places.append(place)
        arrived.append(places)
    marks: list[list[str | None]] = [[None] * len(laid.cards) for laid in after]
    to_play = Counter(solution.played)
    order = sorted(range(len(after)), key=numbers.__getitem__)

    def play(index: int, wanted: Card | None = None) -> bool:
        """Mark one card that arrived in meld ``index`` (``wanted``, or any) as played."""
        for place in arrived[index]:
            laid = after[index].cards[place]
            if marks[index][place] is None and to_play[laid] > 0 and wanted in (None, laid):
                marks[index][place] = PLAYED
                to_play[laid] -= 1
                return True
        return False

    by_number = {number: index for index, number in enumerate(numbers)}
    for move in solution.moves:  # hand cards the move list lays in a given meld go there first
        if move.source is None and move.target in by_number and move.kind != "discard":
            for wanted in move.cards:
                play(by_number[move.target], wanted)
    for index in order:
        while play(index):
            pass
    for index in order:
        for place in arrived[index]:
            if marks[index][place] is None:
                marks[index][place] = MOVED
    return [(numbers[index], after[index], tuple(marks[index])) for index in order]


def solution(
    solution: Solution,
    position: Position | None = None,
    *,
    size: int = DEFAULT_SIZE,
    colors: Mapping[str, str] | None = None,
    four_color: bool = False,
    row_cards: int = DEFAULT_ROW_CARDS,
) -> SvgImage:
    """The new table (meld numbers as in the move list), the cards from the hand marked
    ``played``, the table cards that changed meld marked ``moved``, then the hand left."""
    before = position or solution.position
    style = _style(colors, four_color)
    sheet = _Sheet(style, row_cards)
    laid = marked_table(solution, before)
    played = solution.cards_played
    total = len(before.hand)
    summary = [f"{played} of {total} cards played",
               f"penalty {solution.penalty_before} → {solution.penalty_after}",
               f"{_plural(solution.cards_moved, 'table card')} moved"]
    sheet.heading("Best turn", f"{solution.status.value}: " + ", ".join(summary))
    sheet.gap(6)
    table_cards = sum(len(shown.cards) for _, shown, _ in laid)
    sheet.heading("New table", f"{_plural(len(laid), 'meld')}, {_plural(table_cards, 'card')}")
    sheet.melds(
        [_MeldBox(number, shown, marks, new=number > len(before.table))
         for number, shown, marks in laid],
        "(no melds on the table)",
    )
    sheet.gap()
    penalty = solution.penalty_after
    sheet.heading("Hand left", f"{_plural(len(solution.hand), 'card')}, penalty {penalty}")
    sheet.cards(solution.hand, "hand", "(empty hand: out)", band=True)
    if solution.discard is not None:
        sheet.gap()
        sheet.heading("Discard")
        sheet.cards([solution.discard], "discard", "")
    sheet.gap(SECTION_GAP - 4)
    moved = sum(mark == MOVED for _, _, marks in laid for mark in marks)
    legend = [(mark, text) for mark, count, text in (
        (PLAYED, played, f"from your hand ({played})"),
        (MOVED, moved, f"moved on the table ({moved})"),
    ) if count]
    if legend:
        sheet.legend(legend)
    if not played and solution.discard is None:
        sheet.line("Nothing can be played.", muted=False)
    sheet.line(_rules_line(before, solution.opened,
                           opened_now=solution.opened and not before.opened))
    numbered = " | ".join(f"{number}. {shown}" for number, shown, _ in laid) or "-"
    moved_cards = sorted(shown for _, meld_, marks in laid
                         for shown, mark in zip(meld_.cards, marks, strict=True) if mark == MOVED)
    desc_lines = [
        f"Position: {before}",
        f"New table: {numbered}",
        f"Played: {' '.join(map(str, solution.played)) or '-'}",
        f"Moved: {' '.join(map(str, moved_cards)) or '-'}",
        f"Hand left: {' '.join(map(str, solution.hand)) or '-'}",
    ]
    if solution.discard is not None:
        desc_lines.append(f"Discard: {solution.discard}")
    label = (
        f"Rami solution: {played} of {total} cards played, {solution.cards_moved} table cards "
        f"moved, penalty {solution.penalty_before} to {solution.penalty_after}"
    )
    return sheet.render(size, label=label, desc="\n".join(desc_lines))


__all__ = [
    "DEFAULT_COLORS",
    "DEFAULT_ROW_CARDS",
    "DEFAULT_SIZE",
    "MOVED",
    "PLAYED",
    "SVG_NAMESPACE",
    "SvgImage",
    "card",
    "card_name",
    "marked_table",
    "meld",
    "position",
    "solution",
]

