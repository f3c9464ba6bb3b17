"""``rami score``: the hand's penalty as text and JSON, from a file or standard input, flat
before the opening, face values in Rummikub; an invalid position refused."""

from __future__ import annotations

import json

from support.cli import DEMO_JSON, DEMO_TXT, bad, ok


def test_score_text() -> None:
    assert ok("score", str(DEMO_TXT)).stdout == (
        "Hand penalty: 44 (rami-chinois, opened)\n  5S 5  6H 6  QH 10  5D 5  KD 10  8C 8\n"
    )


def test_score_stdin_json() -> None:
    out = ok("score", "-", stdin=DEMO_JSON.read_text(encoding="utf-8")).stdout
    assert out.startswith("Hand penalty: 44 (rami-chinois, opened)\n")


def test_score_flat_penalty_before_opening() -> None:
    assert ok("score", "- / AS KD * 5C / rami-fou").stdout == (
        "Hand penalty: 100 (rami-fou, not opened)\n"
        "Not opened: rami-fou counts a flat 100 instead of the cards' 46.\n"
        "  AS 11  KD 10  5C 5  * 20\n"
    )


def test_score_json() -> None:
    data = json.loads(ok("score", "--json", "- / AS * / rami-chinois opened").stdout)
    assert data == {
        "rules": "rami-chinois",
        "opened": True,
        "hand": ["AS", "*"],
        "penalty": 61,
        "cards_penalty": 61,
        "flat": False,
        "cards": [{"card": "AS", "penalty": 11}, {"card": "*", "penalty": 50}],
    }


def test_score_empty_hand() -> None:
    assert ok("score", "7H 8H 9H / - / opened").stdout == (
        "Hand penalty: 0 (rami-chinois, opened)\n  (empty hand)\n"
    )


def test_score_rummikub_counts_face_values() -> None:
    assert ok("score", "- / AS KD / rummikub").stdout.startswith(
        "Hand penalty: 14 (rummikub, not opened)"
    )


def test_score_refuses_invalid_position() -> None:
    assert "3 copies of 2C" in bad("score", "- / 2C 2C 2C")
