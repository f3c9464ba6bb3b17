"""The ``rami`` command line's input forms, exit code and output together: a position inline,
in a file (a relative path, a name with spaces) or on standard input, as text or JSON, all read
the same (``rami validate``, in text and JSON); what looks like a path and what like a position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli import CANONICAL_DEMO, DEMO, DEMO_JSON, DEMO_TXT, ROOT, bad, ok, rami

from rami.cli import inputs


def _summary_lines(out: str) -> list[str]:
    return out.splitlines()


DEMO_SUMMARY = [
    "Valid position",
    f"Position: {CANONICAL_DEMO}",
    "Rules: rami-chinois",
    "Table: 3 melds, 13 cards",
    "Hand: 6 cards: 5S 6H QH 5D KD 8C",
    "Opened: yes",
    "Hand penalty: 44",
]


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        pytest.param([str(DEMO_TXT)], None, id="text-file"),
        pytest.param([str(DEMO_JSON)], None, id="json-file"),
        pytest.param(["-"], DEMO + "\n", id="text-stdin"),
        pytest.param(["-"], DEMO_JSON.read_text(encoding="utf-8"), id="json-stdin"),
        pytest.param([DEMO], None, id="text-inline"),
        pytest.param([json.dumps(json.loads(DEMO_JSON.read_text()))], None, id="json-inline"),
        pytest.param([CANONICAL_DEMO.lower()], None, id="lower-case-inline"),
    ],
)
def test_validate_reads_every_input_form(args: list[str], stdin: str | None) -> None:
    assert _summary_lines(ok("validate", *args, stdin=stdin).stdout) == DEMO_SUMMARY


def test_relative_file_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert ok("validate", "examples/demo.txt").stdout.splitlines() == DEMO_SUMMARY


def test_file_name_with_spaces(tmp_path: Path) -> None:
    path = tmp_path / "my position.txt"
    path.write_text("7H 8H 9H / 2C\n", encoding="utf-8")
    assert "Table: 1 meld, 3 cards" in ok("validate", str(path)).stdout


def test_inline_position_starting_with_a_dash() -> None:
    out = ok("validate", "- / 2C 3C").stdout
    assert "Position: - / 2C 3C / rami-chinois" in out
    assert "Table: 0 melds, 0 cards" in out
    assert "Opened: no" in out
    assert "Hand penalty: 5" in out


def test_empty_hand_and_taken_discard() -> None:
    out = ok("validate", "QS QD QC * / KS 5H / rami-fou opened discard=KS").stdout
    assert "Taken from the discard pile: KS" in out
    assert "Rules: rami-fou" in out
    assert "Hand: empty" in ok("validate", "7H 8H 9H / - / opened").stdout


def test_validate_json_valid() -> None:
    data = json.loads(ok("validate", "--json", str(DEMO_TXT)).stdout)
    assert data == {
        "valid": True,
        "problems": [],
        "position": CANONICAL_DEMO,
        "rules": "rami-chinois",
        "melds": 3,
        "table_cards": 13,
        "hand_cards": 6,
        "opened": True,
        "hand_penalty": 44,
    }


def test_validate_json_invalid_lists_problems() -> None:
    result = rami("validate", "--json", "7H 8S 9H / 2C 2C 2C")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["valid"] is False
    assert data["problems"] == [
        "meld 1: run 7H 8S 9H mixes suits (S, H)",
        "3 copies of 2C: two decks hold only 2",
    ]
    assert data["melds"] == 1


def test_validate_json_unparsable() -> None:
    result = rami("validate", "--json", "7H 8H 9H / 2X")
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "valid": False,
        "problems": ["hand: unknown card '2X' in '2X'"],
        "error": {
            "type": "NotationError",
            "message": "hand: unknown card '2X' in '2X'",
            "loc": ["hand"],
            "problems": [],
        },
        "exit_code": 2,
    }
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("argument", "is_path"),
    [
        ("demo.txt", True),
        ("examples/demo.json", True),
        ("positions", True),
        ("- / 2C", False),
        ("-/2C", False),
        ("7H8H9H/2C", False),
        ('{"hand": []}', False),
        ("7H 8H 9H | QS QD QC / 2C", False),
    ],
)
def test_looks_like_path(argument: str, is_path: bool) -> None:
    assert inputs.looks_like_path(argument) is is_path


def test_very_long_inline_position_is_not_a_file_name() -> None:
    hand = " ".join(["2C"] * 2000)
    assert "2000 copies of 2C" in bad("validate", f"- / {hand}")
