"""The pictures' drawing units, colours, suit shapes and the small helpers every picture
uses (:mod:`rami.svg`)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass

from rami.cards import FRENCH_RANK_LETTERS, Card, Suit
from rami.lang import ENGLISH, FRENCH, Language

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
_SUIT_NAMES = {
    Suit.SPADES: "spades",
    Suit.HEARTS: "hearts",
    Suit.DIAMONDS: "diamonds",
    Suit.CLUBS: "clubs",
}
_RANK_SHOWN = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_NAMES = ("", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
#: In French (docs/notation.md, "French"): the letters V, D, R and the words the page says.
_RANK_SHOWN_FR = ("", *FRENCH_RANK_LETTERS)
_RANK_NAMES_FR = ("", "as", "2", "3", "4", "5", "6", "7", "8", "9", "10", "valet", "dame", "roi")
_SUIT_NAMES_FR = {
    Suit.SPADES: "pique",
    Suit.HEARTS: "cœur",
    Suit.DIAMONDS: "carreau",
    Suit.CLUBS: "trèfle",
}

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
            key.rstrip("_").replace("_", "-"): _num(value)
            if isinstance(value, float)
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
    language: Language = ENGLISH

    def rank(self, card: Card) -> str:
        """The rank as the corner and the court show it (in French V, D, R)."""
        return (_RANK_SHOWN_FR if self.language is FRENCH else _RANK_SHOWN)[card.rank]

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


def _style(
    colors: Mapping[str, str] | None, four_color: bool, language: Language = ENGLISH
) -> _Style:
    unknown = sorted(set(colors or {}) - set(DEFAULT_COLORS))
    if unknown:
        raise ValueError(
            f"unknown colour name {unknown[0]!r}: the names are {', '.join(DEFAULT_COLORS)}"
        )
    return _Style({**DEFAULT_COLORS, **(colors or {})}, four_color, language)


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


def card_name(card: Card, language: Language = ENGLISH) -> str:
    """A card in words, for screen readers: ``7 of hearts``, ``queen of spades``, ``joker``;
    in French ``7 de cœur``, ``dame de pique``."""
    if card.is_joker:
        return "joker"
    assert card.suit is not None
    if language is FRENCH:
        return f"{_RANK_NAMES_FR[card.rank]} de {_SUIT_NAMES_FR[card.suit]}"
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]}"


def _as_card(value: Card | str) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


def _check_mark(mark: str | None) -> str | None:
    if mark is not None and mark not in MARKS:
        raise ValueError(f"unknown mark {mark!r}: use None, {PLAYED!r} or {MOVED!r}")
    return mark
