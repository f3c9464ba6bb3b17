"""Pictures (rami.svg and ``rami render``): valid SVG, every card drawn once, marks that tell the
turn, colours as options; the CLI's exit code and output together."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import rami
from rami import svg
from rami.cards import ALL_CARDS, JOKER, Card, parse_cards
from rami.cli.main import app
from rami.generate import medium_position, small_position
from rami.matching import cards_moved
from rami.melds import Meld
from rami.notation import parse_position, parse_table, position_from_json
from rami.position import Position
from rami.rules import get_ruleset
from rami.solver.api import Move, Objective, Solution, Status

ROOT = Path(__file__).resolve().parent.parent
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


# ---------------------------------------------------------------- cards


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


# ---------------------------------------------------------------- positions


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


# ---------------------------------------------------------------- solutions


@pytest.fixture(scope="module")
def demo_solution() -> Solution:
    return rami.solve(DEMO)


def _check_solution(solution: Solution) -> ET.Element:
    position = solution.position
    root = parse(svg.solution(solution, position))
    text = desc(root)
    assert str(position) in text
    discard = Counter([solution.discard] if solution.discard is not None else [])
    assert cards_drawn(root) == all_cards(position)
    assert cards_drawn(root, "hand") == Counter(solution.hand)
    assert cards_drawn(root, "discard") == discard
    table = Counter(card for laid in solution.table for card in laid.cards)
    assert cards_drawn(root, "table") == table
    assert marked(root, "played") == Counter(solution.played)
    assert not any(g.get("data-mark") for g in card_groups(root) if g.get("data-place") != "table")
    # Marked cards are exactly those not in the meld they started in (the referee's matching).
    if table == position.table_cards + Counter(solution.played):
        assert sum(marked(root, "moved").values()) == cards_moved(position.table, solution.table)
        assert sum(marked(root, "moved").values()) == solution.cards_moved
    # The numbers are the move list's: every card a move brings to meld N is in meld N.
    groups = meld_groups(root)
    assert sorted(groups) == list(range(1, len(solution.table) + 1))
    for move in solution.moves:
        if move.target is not None and move.kind != "shift":
            there = Counter(
                Card.parse(g.get("data-card", "")) for g in card_groups(groups[move.target])
            )
            assert not Counter(move.cards) - there, move.text
    return root


def test_solution_demo(demo_solution: Solution) -> None:
    root = _check_solution(demo_solution)
    assert marked(root, "played") == Counter(parse_cards("5S 6H QH 5D 8C"))
    assert marked(root, "moved") == Counter(parse_cards("5C 7H 8H 9H"))
    groups = meld_groups(root)
    assert [g.get("data-card") for g in card_groups(groups[4])] == ["6H", "7H", "8H", "9H"]
    assert [g.get("data-card") for g in card_groups(groups[5])] == ["5S", "5D", "5C"]
    text = desc(root)
    assert "New table: 1. 3H 4H 5H 6H | 2. QS QH QD QC" in text
    assert "Played: 5S 6H QH 5D 8C" in text and "Hand left: KD" in text
    assert "Moved: 7H 8H 9H 5C" in text  # in card order
    words = " ".join(texts(root))
    assert "from your hand (5)" in words and "moved on the table (4)" in words
    assert demo_solution._repr_svg_() == svg.solution(demo_solution)


@pytest.mark.parametrize("text", MORE_POSITIONS)
def test_solution_marks_on_more_positions(text: str) -> None:
    _check_solution(rami.solve(rami.parse_position_any(text), time_limit=20))


def test_solution_marks_on_random_positions() -> None:
    rng = random.Random(20251201)
    for rules_name in ("rami-chinois", "rami-chinois", "rami-51", "cafe-rummy"):
        rules = get_ruleset(rules_name)
        for _ in range(6):
            position = (small_position if rng.random() < 0.5 else medium_position)(rng, rules)
            _check_solution(rami.solve(position, time_limit=20))
    moved = 0
    for _ in range(12):  # opened, hands that connect: table cards move
        position = medium_position(rng, get_ruleset("rami-chinois"), opened=True)
        solution = rami.solve(position, time_limit=20)
        _check_solution(solution)
        moved += solution.cards_moved
    assert moved > 0


def _hand_made(moves: tuple[Move, ...]) -> Solution:
    position = parse_position("6H 7H 8H 9H | 6S 6D 6C / 4H 5H 6H / opened")
    return Solution(
        status=Status.OPTIMAL,
        position=position,
        table=parse_table("7H 8H 9H | 6S 6H 6D 6C | 4H 5H 6H"),
        played=parse_cards("4H 5H 6H"),
        hand=(),
        penalty_before=15,
        penalty_after=0,
        cards_moved=1,
        moves=moves,
        opened=True,
        objective=Objective.POINTS,
        min_moves=True,
    )


def test_the_move_list_says_which_copy_came_from_the_hand() -> None:
    six = parse_cards("6H")
    to_set = _hand_made(
        (
            Move("split", parse_cards("6H"), 1, 3, "move 6H from meld 1 to meld 3"),
            Move("add", parse_cards("4H 5H"), None, 3, "add 4H 5H from your hand to meld 3"),
            Move("add", six, None, 2, "add 6H from your hand to meld 2"),
        )
    )
    to_run = _hand_made(
        (
            Move("lay", parse_cards("4H 5H 6H"), None, 3, "lay 4H 5H 6H from your hand as meld 3"),
            Move("move", six, 1, 2, "move 6H from meld 1 to meld 2"),
        )
    )
    for solution, played_in, moved_in in ((to_set, 2, 3), (to_run, 3, 2)):
        root = _check_solution(solution)
        groups = meld_groups(root)
        assert marked(groups[played_in], "played")[six[0]] == 1
        assert marked(groups[moved_in], "moved") == Counter(six)


def test_solution_with_nothing_played() -> None:
    solution = rami.solve(parse_position("7H 8H 9H / KS / opened"))
    root = _check_solution(solution)
    assert "Nothing can be played." in texts(root)
    assert not marked(root, "played") and not marked(root, "moved")


# ---------------------------------------------------------------- rami render


def rami_cli(*args: str, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def test_render_writes_a_file(tmp_path: Path) -> None:
    out = tmp_path / "demo.svg"
    result = rami_cli("render", str(DEMO_TXT), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    root = parse(out.read_text(encoding="utf-8"))
    assert result.stdout == (
        f"wrote {out}: the position, {root.get('width')} x {root.get('height')} px\n"
    )
    assert desc(root) == str(DEMO)
    assert cards_drawn(root) == all_cards(DEMO)


def test_render_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "demo.svg"
    out.write_text("keep me", encoding="utf-8")
    refused = rami_cli("render", str(DEMO_TXT), "--out", str(out))
    assert refused.exit_code == 2
    assert refused.stdout == ""
    assert refused.stderr == f"error: {out} exists: give --force to overwrite it\n"
    assert out.read_text(encoding="utf-8") == "keep me"
    forced = rami_cli("render", str(DEMO_TXT), "--out", str(out), "--force", "--size", "40")
    assert forced.exit_code == 0, forced.output
    assert forced.stdout.startswith(f"wrote {out}: the position, ")
    root = parse(out.read_text(encoding="utf-8"))
    assert float(root.get("width", "")) == pytest.approx(
        float(root.get("viewBox", "").split()[2]) * 0.4
    )


def test_render_to_stdout_with_solution_and_four_colours() -> None:
    result = rami_cli("render", str(DEMO_TXT), "--solution", "--four-color", "--out", "-")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    root = parse(result.stdout.strip())
    assert marked(root, "played") == Counter(parse_cards("5S 6H QH 5D 8C"))
    assert marked(root, "moved") == Counter(parse_cards("5C 7H 8H 9H"))
    assert svg.DEFAULT_COLORS["diamonds"] in fills(root)


def test_render_reads_positions_like_other_commands() -> None:
    inline = rami_cli("render", "- / AS 2S 3S", "--out", "-")
    assert inline.exit_code == 0, inline.output
    assert desc(parse(inline.stdout)) == "- / AS 2S 3S / rami-chinois"
    piped = rami_cli("render", "-", "--out", "-", stdin=DEMO_TXT.read_text(encoding="utf-8"))
    assert piped.exit_code == 0, piped.output
    assert desc(parse(piped.stdout)) == str(DEMO)
    as_json = rami_cli("render", str(ROOT / "examples" / "demo.json"), "--out", "-")
    assert as_json.exit_code == 0 and desc(parse(as_json.stdout)) == str(DEMO)


def test_render_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "bad.svg"
    invalid = rami_cli("render", "7H 8S 9H / 7C", "--out", str(out))
    assert invalid.exit_code == 2
    assert invalid.stdout == ""
    assert invalid.stderr.startswith("error: invalid position (1 problem):\n  - meld 1: run ")
    assert not out.exists()
    missing = rami_cli("render", "missing.txt", "--out", str(out))
    assert (missing.exit_code, missing.stderr) == (
        2,
        "error: cannot read 'missing.txt': no such file\n",
    )
    folder = rami_cli("render", str(DEMO_TXT), "--out", str(tmp_path))
    assert (folder.exit_code, folder.stderr) == (2, f"error: {tmp_path} is a directory\n")
    nowhere = rami_cli("render", str(DEMO_TXT), "--out", str(tmp_path / "no" / "x.svg"))
    assert nowhere.exit_code == 2
    assert nowhere.stderr.startswith(f"error: cannot write '{tmp_path / 'no' / 'x.svg'}': ")
    no_out = rami_cli("render", str(DEMO_TXT))
    assert no_out.exit_code == 2 and "--out" in no_out.output
    tiny = rami_cli("render", str(DEMO_TXT), "--out", "-", "--size", "2")
    assert tiny.exit_code == 2 and "--size" in tiny.output


def test_position_from_json_renders_the_same() -> None:
    data = json.loads((ROOT / "examples" / "demo.json").read_text(encoding="utf-8"))
    assert svg.position(position_from_json(data)) == svg.position(DEMO)
