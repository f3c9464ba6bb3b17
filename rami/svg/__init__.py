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

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rami.cards import Card
from rami.melds import Meld
from rami.position import Position, hand_penalty
from rami.svg.faces import card
from rami.svg.sheet import SECTION_GAP, _draw_meld, _MeldBox, _Sheet
from rami.svg.style import (
    DEFAULT_COLORS,
    DEFAULT_ROW_CARDS,
    DEFAULT_SIZE,
    MARKS,
    MOVED,
    PLAYED,
    SVG_NAMESPACE,
    SvgImage,
    _check_mark,
    _fill,
    _image,
    _plural,
    _root,
    _style,
    _sub,
    card_name,
)

if TYPE_CHECKING:
    from rami.solver.api import Solution


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
    svg = _root(
        box.width + 2 * pad,
        box.height + 2 * pad,
        size,
        label=label,
        desc=(f"{number}. " if number is not None else "") + str(drawn),
    )
    felt = _sub(
        svg, "rect", x=0, y=0, width=box.width + 2 * pad, height=box.height + 2 * pad, rx=12
    )
    _fill(felt, style["background"])
    _draw_meld(svg, box, pad, pad, style, None)
    return _image(svg)


# ------------------------------------------------------------------------------ positions


def _rules_line(position: Position, opened: bool, opened_now: bool = False) -> str:
    parts = [
        position.rules.option_string,
        "opened this turn" if opened_now else ("opened" if opened else "not opened"),
    ]
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
        [
            _MeldBox(number, shown, (None,) * len(shown.cards))
            for number, shown in enumerate(drawn.table, start=1)
        ],
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
    from rami.moves import meld_numbers

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
    summary = [
        f"{played} of {total} cards played",
        f"penalty {solution.penalty_before} → {solution.penalty_after}",
        f"{_plural(solution.cards_moved, 'table card')} moved",
    ]
    sheet.heading("Best turn", f"{solution.status.value}: " + ", ".join(summary))
    sheet.gap(6)
    table_cards = sum(len(shown.cards) for _, shown, _ in laid)
    sheet.heading("New table", f"{_plural(len(laid), 'meld')}, {_plural(table_cards, 'card')}")
    sheet.melds(
        [
            _MeldBox(number, shown, marks, new=number > len(before.table))
            for number, shown, marks in laid
        ],
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
    legend = [
        (mark, text)
        for mark, count, text in (
            (PLAYED, played, f"from your hand ({played})"),
            (MOVED, moved, f"moved on the table ({moved})"),
        )
        if count
    ]
    if legend:
        sheet.legend(legend)
    if not played and solution.discard is None:
        sheet.line("Nothing can be played.", muted=False)
    sheet.line(
        _rules_line(before, solution.opened, opened_now=solution.opened and not before.opened)
    )
    numbered = " | ".join(f"{number}. {shown}" for number, shown, _ in laid) or "-"
    moved_cards = sorted(
        shown
        for _, meld_, marks in laid
        for shown, mark in zip(meld_.cards, marks, strict=True)
        if mark == MOVED
    )
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
    "MARKS",
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
