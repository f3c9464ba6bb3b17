"""The layout of a picture: melds in rows, the hand on its band, headings and badges
(:mod:`rami.svg`)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rami.cards import Card
from rami.melds import Meld
from rami.svg.faces import _card_group
from rami.svg.style import (
    CARD_H,
    CARD_W,
    MOVED,
    SvgImage,
    _fill,
    _image,
    _root,
    _Style,
    _sub,
    _text,
    _text_width,
)

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


def _draw_meld(
    parent: ET.Element, box: _MeldBox, x: float, y: float, style: _Style, place: str | None
) -> None:
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
        badge = _sub(
            group, "circle", cx=float(x + BADGE / 2), cy=float(y + BADGE / 2), r=float(BADGE / 2)
        )
        _fill(badge, style["badge new"] if box.new else style["badge"])
        _text(
            group,
            x + BADGE / 2,
            y + BADGE / 2 + 6.5,
            str(box.number),
            size=18,
            color=style["badge text"],
            anchor="middle",
            bold=True,
        )
        _text(group, x + BADGE + 8, y + BADGE / 2 + 6, box.label, size=SMALL, color=style["muted"])
        top += BADGE + BADGE_GAP
    for index, (shown, mark) in enumerate(zip(box.meld.cards, box.marks, strict=True)):
        _card_group(
            group, shown, x + index * (CARD_W + CARD_GAP), top, style, mark=mark, place=place
        )


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

    def cards(
        self,
        cards: Sequence[Card],
        place: str,
        empty: str,
        band: bool = False,
        marks: Sequence[str | None] | None = None,
    ) -> None:
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
                width = max(
                    width, _text_width(text, HEADING, True) + 14 + _text_width(detail, SMALL)
                )
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
                    width = max(width, sum(boxes[i].width for i in row) + MELD_GAP * (len(row) - 1))
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
                width = max(width, max(len(row) for row in rows) * (CARD_W + CARD_GAP) - CARD_GAP)
                height += len(rows) * CARD_H + ROW_GAP * (len(rows) - 1)
        return width, height

    def render(self, size: int, *, label: str, desc: str) -> SvgImage:
        style = self.style
        inner_width, inner_height = self._measure()
        width = inner_width + 2 * MARGIN
        height = inner_height + 2 * MARGIN
        svg = _root(width, height, size, label=label, desc=desc)
        felt = _sub(
            svg, "rect", x=1, y=1, width=width - 2, height=height - 2, rx=14, stroke_width=2
        )
        _fill(felt, style["background"])
        _fill(felt, style["background border"], "stroke")
        y = float(MARGIN)
        x0 = float(MARGIN)
        for part in self.parts:
            if part[0] == "heading":
                text, detail = part[1]
                title = _text(
                    svg, x0, y + HEADING - 4, text, size=HEADING, color=style["text"], bold=True
                )
                if detail:
                    tspan = _sub(title, "tspan", dx=14, font_size=SMALL, font_weight="normal")
                    _fill(tspan, style["muted"])
                    tspan.text = detail
                y += HEADING + HEADING_GAP
            elif part[0] == "line":
                text, muted = part[1]
                _text(
                    svg,
                    x0,
                    y + SMALL,
                    text,
                    size=SMALL,
                    color=style["muted"] if muted else style["text"],
                )
                y += SMALL + 8
            elif part[0] == "legend":
                x = x0
                for mark, text in part[1]:
                    swatch = _sub(
                        svg,
                        "rect",
                        x=float(x + 3),
                        y=float(y + 6),
                        width=38,
                        height=26,
                        rx=5,
                        stroke_width=4,
                        stroke_dasharray="9 5" if mark == MOVED else None,
                    )
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

    def _draw_melds(
        self, svg: ET.Element, data: tuple[list[_MeldBox], str], x0: float, y: float
    ) -> float:
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
            strip = _sub(
                svg,
                "rect",
                x=float(x0 - BAND_PAD),
                y=float(y),
                width=float(inner_width + 2 * BAND_PAD),
                height=float(tall + 2 * BAND_PAD),
                rx=10,
            )
            _fill(strip, self.style["hand"])
            y += BAND_PAD
        if not cards:
            _text(svg, x0, y + SMALL, empty, size=SMALL, color=self.style["muted"])
            return y + SMALL + 8 + (BAND_PAD if band else 0)
        group = _sub(svg, "g", class_=place)
        rows = self._card_rows(len(cards))
        for number, row in enumerate(rows):
            for column, index in enumerate(row):
                _card_group(
                    group,
                    cards[index],
                    x0 + column * (CARD_W + CARD_GAP),
                    y,
                    self.style,
                    mark=marks[index] if marks else None,
                    place=place,
                )
            y += CARD_H + (ROW_GAP if number < len(rows) - 1 else 0)
        return y + (BAND_PAD if band else 0)
