"""Pictures in tests (tests/test_svg_*.py): the demo and more positions, a picture parsed as XML
with the checks every picture passes, and what it draws (its description, its cards by place and
by mark, their fills and texts, its melds by number)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from rami import svg
from rami.cards import Card
from rami.notation import parse_position
from rami.position import Position

ROOT = Path(__file__).resolve().parents[2]
DEMO_TXT = ROOT / "examples" / "demo.txt"
DEMO = parse_position(DEMO_TXT.read_text(encoding="utf-8"))
NS = f"{{{svg.SVG_NAMESPACE}}}"

MORE_POSITIONS = [
    "- / AS 2S 3S 9C 9D 9H KH * TD",
    "7H * 9H | QS QD QC / 8H KC 2D 3D 4D / cafe-rummy opened",
    "3H 4H 5H 6H 7H | 3S 3D 3C / 3H 5D 8H / rami-chinois opened",
    "7H * 9H | 5S 5D 5C / 8H 5H KC / rami-chinois opened",
    "9D TD JD QD KD AD | 7S 7H * / - / rami-chinois opened",
    *(
        json.dumps(json.loads(line))
        for line in (ROOT / "examples" / "batch.jsonl").read_text(encoding="utf-8").splitlines()
    ),
]


def parse(image: str) -> ET.Element:
    """The picture as XML, with the checks every picture passes."""
    root = ET.fromstring(image)
    assert root.tag == f"{NS}svg"
    assert root.get("role") == "img"
    assert root.get("aria-label")
    view = [float(part) for part in root.get("viewBox", "").split()]
    assert len(view) == 4 and view[2] > 0 and view[3] > 0
    assert float(root.get("width", "0")) > 0 and float(root.get("height", "0")) > 0
    assert image.startswith("<svg ")
    return root


def desc(root: ET.Element) -> str:
    found = root.find(f"{NS}desc")
    assert found is not None and found.text
    return found.text


def card_groups(root: ET.Element, place: str | None = None) -> list[ET.Element]:
    return [
        group
        for group in root.iter(f"{NS}g")
        if group.get("data-card") and (place is None or group.get("data-place") == place)
    ]


def cards_drawn(root: ET.Element, place: str | None = None) -> Counter[Card]:
    return Counter(Card.parse(group.get("data-card", "")) for group in card_groups(root, place))


def marked(root: ET.Element, mark: str) -> Counter[Card]:
    return Counter(
        Card.parse(group.get("data-card", ""))
        for group in card_groups(root)
        if group.get("data-mark") == mark
    )


def fills(element: ET.Element) -> set[str]:
    return {node.get("fill", "") for node in element.iter()} - {"", "none"}


def texts(element: ET.Element) -> list[str]:
    return [
        node.text
        for node in element.iter()
        if node.text and node.tag in (f"{NS}text", f"{NS}tspan")
    ]


def all_cards(position: Position) -> Counter[Card]:
    return position.table_cards + Counter(position.hand)


def meld_groups(root: ET.Element) -> dict[int, ET.Element]:
    return {
        int(group.get("data-meld", "0")): group
        for group in root.iter(f"{NS}g")
        if group.get("class") == "meld"
    }
