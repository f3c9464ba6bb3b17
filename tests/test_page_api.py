"""What the puzzle page asks the service, over real HTTP (a server in a thread, the shipped pack):
the spoiler-free daily puzzle and puzzles by id, the pack by tier and theme, hints and the
solution of a puzzle id, answers as moves, the cards as SVG, and the page's own files."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from rami.puzzles.record import daily, find, select, shipped_packs
from rami.puzzles.themes import THEMES
from rami.service import Settings, create_app
from rami.service.testing import BackgroundServer, SchemaChecker, post_json

EASY = "rc-b5304c3325"  # TS TD TC | 7C 8C 9C TC / TH 6C 8C


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with BackgroundServer(create_app(Settings(default_time_limit=5.0))) as running:
        yield running.url


def get(base: str, path: str) -> tuple[int, Any, dict[str, str]]:
    try:
        with urllib.request.urlopen(base + path, timeout=60) as response:
            raw = response.read()
            kind = response.headers.get("content-type", "")
            body = json.loads(raw) if "json" in kind else raw.decode()
            return response.status, body, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


def post(base: str, path: str, body: Any) -> tuple[int, Any]:
    return post_json(base + path, body)


def assert_no_solution(payload: Any, puzzle_id: str) -> None:
    """No solution table, signature, moves or difficulty; none of the solution's final-table
    melds anywhere in the payload, as text or as a list of cards."""
    puzzle = find(puzzle_id)
    assert not {"solution", "signature", "moves", "difficulty", "seed", "numbers"} & set(payload)
    text = json.dumps(payload)
    for meld in puzzle.solution:
        if meld in puzzle.position.table:
            continue  # a meld the solution leaves as it is shows in the position, rightly
        cards = [str(card) for card in meld.cards]
        assert json.dumps(cards) not in text and json.dumps(" ".join(cards)) not in text, cards
    assert puzzle.record["signature"] not in text


def test_daily_endpoint_carries_no_solution(url: str) -> None:
    # 2026-12-15 draws a mined puzzle: the service serves the CLI's daily from both packs.
    for day in ("2025-06-01", "2026-01-15", "2026-12-01", "2026-12-15"):
        status, body, _ = get(url, f"/puzzles/daily/{day}")
        assert status == 200
        puzzle = daily(date.fromisoformat(day))
        assert puzzle.mined is (day == "2026-12-15")
        assert body["id"] == puzzle.id and body["date"] == day
        assert body["tier"] == puzzle.tier and body["themes"] == list(puzzle.themes)
        assert body["goal"]["text"] == puzzle.goal["text"]
        assert_no_solution(body, puzzle.id)
    status, today, _ = get(url, "/puzzles/daily")
    assert status == 200
    assert_no_solution(today, today["id"])


def test_puzzle_by_id_and_its_solution_when_asked(url: str) -> None:
    status, body, _ = get(url, f"/puzzles/{EASY}")
    assert status == 200 and body["id"] == EASY
    assert_no_solution(body, EASY)
    status, answer, _ = get(url, f"/puzzles/{EASY}/solution")
    assert status == 200
    assert answer["solution"] == [["TS", "TH", "TD", "TC"], ["8C", "9C", "TC"], ["6C", "7C", "8C"]]
    assert answer["numbers"] == [1, 2, 3]
    assert [(m["cards"], m["from"], m["to"]) for m in answer["moves"]] == [
        (["7C"], 2, 3),
        (["TH"], None, 1),
        (["6C", "8C"], None, 3),
    ]
    assert answer["signature"] == find(EASY).record["signature"]
    assert answer["difficulty"]["tier"] == "easy"
    status, missing, _ = get(url, "/puzzles/rc-0000000000")
    assert status == 404 and missing["field"] == "id"


def test_list_by_tier_and_theme(url: str) -> None:
    status, body, _ = get(url, "/puzzles?tier=hard&theme=joker-swap")
    assert status == 200
    expected = select(shipped_packs(), tier="hard", theme="joker-swap")
    assert body["count"] == len(expected) > 0
    assert [p["id"] for p in body["puzzles"]] == [p.id for p in expected]
    for listed in body["puzzles"]:
        assert set(listed) == {"id", "kind", "rules", "tier", "themes"}
    status, everything, _ = get(url, "/puzzles")
    assert everything["count"] == len(shipped_packs())
    status, bad, _ = get(url, "/puzzles?theme=castling")
    assert status == 422 and "unknown theme 'castling'" in bad["error"]
    status, _, _ = get(url, "/puzzles?tier=legendary")
    assert status == 422
    status, themes, _ = get(url, "/puzzles/themes")
    assert [t["name"] for t in themes] == list(THEMES)
    counts = {t["name"]: t["count"] for t in themes}
    assert counts["all-cards"] + counts["best-score"] == len(shipped_packs())


def _segment_regex(segment: str, parameters: dict[str, Any]) -> re.Pattern[str]:
    """A segment of a documented path as a regex: its parameters as their schemas allow
    (``pattern`` when given, else any non-empty text without '/')."""
    parts = re.split(r"(\{[^}]+\})", segment)
    regex = ""
    for part in parts:
        if part.startswith("{"):
            pattern = parameters[part[1:-1]].get("pattern")
            regex += f"(?:{pattern.strip('^$')})" if pattern else "[^/]+"
        else:
            regex += re.escape(part)
    return re.compile(regex)


def test_no_operation_s_path_is_another_operation_s_parameter() -> None:
    """Issue 36: GET /puzzles/themes also matched /puzzles/{puzzle_id} as /openapi.json
    documented it (any string an id), so a client or a fuzzer reading the document could send
    'themes' as a puzzle id and get the themes list, not a puzzle. Every path of a documented
    operation must name that operation only: where another operation of the same method has a
    parameter, the parameter's schema rejects the text."""
    document = create_app(Settings()).openapi()
    operations: dict[str, list[tuple[str, list[str], dict[str, Any]]]] = {}
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            parameters = {
                p["name"]: p["schema"] for p in operation.get("parameters", ()) if p["in"] == "path"
            }
            operations.setdefault(method, []).append((path, path.split("/"), parameters))
    clashes = []
    for method, entries in operations.items():
        for path, segments, _ in entries:
            if "{" in path:
                continue
            for template, template_segments, parameters in entries:
                if template == path or len(template_segments) != len(segments):
                    continue
                if all(
                    _segment_regex(theirs, parameters).fullmatch(mine)
                    for mine, theirs in zip(segments, template_segments, strict=True)
                ):
                    clashes.append(f"{method.upper()} {path} is a {template}")
    assert clashes == []


def test_a_malformed_puzzle_id_is_a_documented_422(url: str) -> None:
    checker = SchemaChecker.served_by(url)
    for path in ("/puzzles/nope", "/puzzles/RC-B5304C3325/hint", "/puzzles/rc-b5304c33/solution"):
        status, body, _ = get(url, path)
        assert status == 422 and body["field"] == "path.puzzle_id", (path, body)
        assert "rc-" in body["error"]
        assert checker.check("GET", path, status, body)
    status, themes, _ = get(url, "/puzzles/themes")
    assert status == 200 and checker.operation("GET", "/puzzles/themes") == "/puzzles/themes"
    assert checker.check("GET", "/puzzles/themes", status, themes)
    status, body, _ = get(url, f"/puzzles/{EASY}")
    assert status == 200 and checker.check("GET", f"/puzzles/{EASY}", status, body)


def test_hints_of_a_puzzle_id(url: str) -> None:
    status, first, _ = get(url, f"/puzzles/{EASY}/hint?level=1")
    assert status == 200 and first["hint"] == "You can play all 3 cards."
    status, second, _ = get(url, f"/puzzles/{EASY}/hint?level=2")
    assert second["hint"] == "Key move: move 7C from meld 2 to meld 3"
    status, third, _ = get(url, f"/puzzles/{EASY}/hint?level=3")
    assert "Moves (3):" in third["hint"] and third["level"] == 3
    status, bad, _ = get(url, f"/puzzles/{EASY}/hint?level=4")
    assert status == 422 and bad["field"].endswith("level")
    status, french, _ = get(url, f"/puzzles/{EASY}/hint?level=2&lang=fr")
    assert status == 200 and french["hint"] != second["hint"] and "7♣" in french["hint"]
    status, bad, _ = get(url, f"/puzzles/{EASY}/hint?lang=de")
    assert status == 422 and bad["field"].endswith("lang")


def test_check_answers_given_as_moves(url: str) -> None:
    moves = "move 7C from 2 to 3; add TH to 1; add 6C 8C to 3"
    status, body = post(url, "/puzzles/check", {"id": EASY, "moves": moves})
    assert status == 200 and body["solved"] and body["intended"]
    status, listed = post(url, "/puzzles/check", {"id": EASY, "moves": moves.split("; ")})
    assert listed["solved"]
    status, short = post(url, "/puzzles/check", {"id": EASY, "moves": "add TH to 1"})
    assert status == 200 and not short["solved"] and short["legal"]
    status, illegal = post(url, "/puzzles/check", {"id": EASY, "moves": "move 7C from 2 to 3"})
    assert not illegal["legal"]
    assert (
        "meld 3 after the moves: meld 7C has 1 card: a meld needs at least 3"
        in (illegal["reasons"])
    )
    status, wrong = post(url, "/puzzles/check", {"id": EASY, "moves": "add TH to 1; add 9S to 2"})
    assert status == 422 and wrong["field"] == "moves"
    assert "move 2 ('add 9S to 2'): " in wrong["error"]
    assert "hand does not hold 9S" in wrong["error"]
    status, both = post(url, "/puzzles/check", {"id": EASY, "moves": moves, "table": "TS TD TC"})
    assert status == 422 and "not both" in both["error"]
    status, neither = post(url, "/puzzles/check", {"id": EASY})
    assert status == 422 and neither["field"] == "table"


def test_cards_as_svg(url: str) -> None:
    for name, text in (("7H", "7H"), ("TH", "TH"), ("10h", "TH"), ("joker", "*")):
        status, svg, headers = get(url, f"/svg/cards/{name}.svg")
        assert status == 200 and headers["content-type"].startswith("image/svg+xml")
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert f'data-card="{text}"' in svg
        assert "max-age" in headers["cache-control"]
    status, small, _ = get(url, "/svg/cards/QS.svg?size=32&four_color=true")
    assert status == 200 and 'width="32.64"' in small
    for bad in ("ZZ", "1H", "..%2Fapp"):
        status, _, _ = get(url, f"/svg/cards/{bad}.svg")
        assert status == 404, bad


def test_the_page_and_its_files(url: str) -> None:
    status, html, headers = get(url, "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert '<script src="/static/app.js"' in html and "/static/style.css" in html
    assert "http://" not in html and "https://" not in html  # nothing from another host
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        status, text, headers = get(url, f"/static/{name}")
        assert status == 200 and headers["content-type"].startswith(kind)
        assert "http://" not in text and "https://" not in text
    for bad in ("nope.js", "..%2Fpage.py", ".hidden"):
        status, _, _ = get(url, f"/static/{bad}")
        assert status == 404, bad
