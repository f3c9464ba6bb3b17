"""The ``rami`` command line's bad input: exit 2 and one clear message on stderr (unknown and
surplus cards, invalid melds, malformed JSON, missing or unreadable files, unknown presets and
options, no position or two), nothing else."""

from __future__ import annotations

from pathlib import Path

from support.cli import ROOT, bad, rami

from rami.rules import PRESETS


def test_unknown_card_in_hand() -> None:
    assert bad("validate", "7H 8H 9H / 2C ZZ") == "error: hand: unknown card 'ZZ' in '2C ZZ'\n"


def test_unknown_card_in_meld() -> None:
    assert bad("validate", "7H 8H 9H | 2C 3C XC / 4C") == (
        "error: meld 2 ('2C 3C XC'): unknown card 'XC' in '2C 3C XC'\n"
    )


def test_three_copies_of_a_card() -> None:
    assert bad("validate", "7H 8H 9H / 7H 7H") == (
        "error: invalid position (1 problem):\n  - 3 copies of 7H: two decks hold only 2\n"
    )


def test_every_problem_is_listed() -> None:
    assert bad("validate", "7H 8S 9H | QH KH AH 2H | 7C 7D 7C / 7C * * * * *") == (
        "error: invalid position (5 problems):\n"
        "  - meld 1: run 7H 8S 9H mixes suits (S, H)\n"
        "  - meld 2: Q-K-A-2 wraps around\n"
        "  - meld 3: two 7C in one set\n"
        "  - 3 copies of 7C: two decks hold only 2\n"
        "  - 5 jokers: rami-chinois is played with 4\n"
    )


def test_invalid_meld_in_a_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("7H 8H / 2C\n", encoding="utf-8")
    assert bad("validate", str(path)) == (
        f"error: {path}: invalid position (1 problem):\n"
        "  - meld 1: meld 7H 8H has 2 cards: a meld needs at least 3\n"
    )


def test_malformed_json() -> None:
    assert bad("validate", '{"table": [["7H", "8H", "9H"]], "hand": ["2C"') == (
        "error: malformed JSON at line 1 column 46: Expecting ',' delimiter\n"
    )


def test_malformed_json_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"hand": ["2C",]}\n', encoding="utf-8")
    message = bad("validate", str(path))
    assert message.startswith(f"error: {path}: malformed JSON at line 1 column 16")


def test_json_field_errors() -> None:
    assert bad("validate", '{"hand": ["2C", 5]}') == (
        "error: hand[1]: expected a card string, got 5\n"
    )
    assert bad("validate", '{"hand": ["2C"], "opened": "yes"}') == (
        "error: opened: expected true or false, got 'yes'\n"
    )
    assert "unknown field(s) ['taken']" in bad("validate", '{"hand": ["2C"], "taken": "2C"}')
    assert bad("validate", '{"table": [["7H", "8H", "QQ"]]}') == (
        "error: table[0][2]: unknown card 'QQ': expected a rank (A 2-9 T/10 J Q K) and a suit "
        "(S H D C or ♠ ♥ ♦ ♣), or * for a joker\n"
    )


def test_missing_file() -> None:
    assert bad("validate", "missing.txt") == "error: cannot read 'missing.txt': no such file\n"
    assert bad("score", "examples/nope.json") == (
        "error: cannot read 'examples/nope.json': no such file\n"
    )


def test_directory_is_not_a_position() -> None:
    assert bad("validate", str(ROOT / "examples")) == (
        f"error: cannot read '{ROOT / 'examples'}': it is a directory\n"
    )


def test_unreadable_bytes(tmp_path: Path) -> None:
    path = tmp_path / "binary.txt"
    path.write_bytes(b"\xff\xfe\x00junk")
    assert bad("validate", str(path)) == f"error: cannot read '{path}': not UTF-8 text\n"


def test_unknown_preset_in_a_position() -> None:
    assert bad("validate", "- / 2C / rami-foo") == (
        "error: unknown ruleset 'rami-foo'; known presets: " + ", ".join(PRESETS) + "\n"
    )


def test_bad_preset_option_in_a_position() -> None:
    assert bad("validate", "- / 2C / rami-chinois[jokers=2]") == (
        "error: rami-chinois is played with 0 or 4 jokers, not 2\n"
    )


def test_empty_input() -> None:
    assert bad("validate", "-", stdin="") == "error: <stdin>: empty position\n"


def test_two_positions_in_one_file(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    path.write_text('{"hand": ["2C"]}\n{"hand": ["3C"]}\n', encoding="utf-8")
    assert "use 'rami solve --batch' for JSON lines" in bad("validate", str(path))
    text = tmp_path / "two.txt"
    text.write_text("- / 2C\n- / 3C\n", encoding="utf-8")
    assert bad("validate", str(text)) == (
        f"error: {text}: a text position is one line; use JSON for multi-line input\n"
    )


def test_json_array_is_not_a_position() -> None:
    message = bad("validate", "-", stdin='[{"hand": ["2C"]}]')
    assert message.startswith("error: <stdin>: a JSON array is not a position")


def test_not_a_position_at_all() -> None:
    assert bad("validate", "7H 8H 9H") == (
        "error: expected 'TABLE / HAND [/ SETTINGS]' with '/' between sections, got '7H 8H 9H'\n"
    )


def test_unknown_option_is_not_read_as_a_position() -> None:
    result = rami("score", "--jsn")
    assert result.exit_code == 2
    assert "No such option: --jsn (Possible options: --json)" in result.stderr


def test_taken_discard_without_discard_pile() -> None:
    assert bad("score", "- / 2C / discard=2C") == (
        "error: invalid position (1 problem):\n"
        "  - rami-chinois has no discard pile, yet a taken discard is named\n"
    )
