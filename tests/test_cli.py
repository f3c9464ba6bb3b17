"""The ``rami`` command line: exit code and output together, for every command and input form."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from rami import __version__
from rami.cards import parse_cards
from rami.cli import inputs, output
from rami.cli import rules as rules_text
from rami.cli.main import app
from rami.hints import make_hint, solution_lines
from rami.melds import Meld
from rami.notation import parse_position, parse_table
from rami.rules import PRESETS
from rami.solver.api import Move, Objective, Solution, Status

ROOT = Path(__file__).resolve().parent.parent
DEMO_TXT = ROOT / "examples" / "demo.txt"
DEMO_JSON = ROOT / "examples" / "demo.json"
BATCH = ROOT / "examples" / "batch.jsonl"
DEMO = DEMO_TXT.read_text(encoding="utf-8").strip()
CANONICAL_DEMO = (
    "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened"
)
OPENING = "- / AS 2S 3S 9C 9D 9H KH"


def rami(*args: str, stdin: str | None = None) -> Result:
    result = CliRunner().invoke(app, list(args), input=stdin, prog_name="rami")
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def ok(*args: str, stdin: str | None = None) -> Result:
    result = rami(*args, stdin=stdin)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    return result


def bad(*args: str, stdin: str | None = None) -> str:
    """Run a command that must fail on bad input: exit 2, a message on stderr, nothing else."""
    result = rami(*args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: "), result.output
    return result.stderr


# ---------------------------------------------------------------- top level


def test_version() -> None:
    assert ok("--version").stdout == f"rami {__version__}\n"


def test_help_lists_every_command() -> None:
    shown = ok("--help").stdout
    for command in ("validate", "score", "rules", "solve", "hint"):
        assert command in shown


def test_no_arguments_shows_help() -> None:
    result = rami()
    assert "Usage: rami" in result.output
    assert "validate" in result.output


def test_unknown_command() -> None:
    result = rami("frobnicate")
    assert result.exit_code == 2
    assert "frobnicate" in result.output


def test_cli_import_does_not_load_the_solver() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import rami.cli.main"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "rami.cli.main" in imported
    assert not any(name.split(".")[0] in ("ortools", "numpy", "pandas") for name in imported)
    # Nor what only some commands use: the processes, the puzzles' models.
    for module in (
        "rami.solver.rearrange",
        "rami.scale.executor",
        "multiprocessing",
        "rami.puzzles.model",
    ):
        assert module not in imported


def test_the_library_import_does_not_load_the_pictures_nor_the_engine() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import rami"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "rami.display" in imported
    for module in ("rami.svg", "rami.solver.rearrange", "ortools", "numpy"):
        assert module not in imported


# ---------------------------------------------------------------- input forms


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


# ---------------------------------------------------------------- bad input


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


# ---------------------------------------------------------------- score


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


# ---------------------------------------------------------------- rules


def test_rules_lists_presets() -> None:
    lines = ok("rules").stdout.splitlines()
    assert lines[0] == "rami-chinois  Rami chinois (rami voleur)"
    assert [line.split()[0] for line in lines[: len(PRESETS)]] == list(PRESETS)
    assert lines[-1].startswith("Options: PRESET[jokers=...")


def test_rules_list_json() -> None:
    data = json.loads(ok("rules", "--json").stdout)
    assert data == [{"name": name, "title": preset.title} for name, preset in PRESETS.items()]


def test_rules_of_one_preset() -> None:
    out = ok("rules", "rami-fou").stdout
    assert out.splitlines()[0].split() == ["name:", "rami-fou"]
    assert "opening_points:               51\n" in out
    assert "unopened_flat_penalty:        100\n" in out
    assert "rami_sec_flat_penalty:        200\n" in out
    assert "discard:                      true\n" in out
    assert "taken_discard_locked:         true\n" in out
    assert len(out.splitlines()) == len(PRESETS["rami-fou"].describe())


def test_rules_says_which_original_text_a_preset_comes_from() -> None:
    """``seed`` is the number of the preset's original text: the text output names the text."""
    assert "source:                       original text 000 (Les règles du rami chinois)\n" in (
        ok("rules", "rami-chinois").stdout
    )
    assert "source:                       original text 003 (Le Rami Fou)\n" in (
        ok("rules", "rami-fou").stdout
    )
    rummikub = ok("rules", "rummikub").stdout
    assert "source:                       no original text: the standard game" in rummikub
    assert "seed:" not in rummikub
    assert json.loads(ok("rules", "--json", "rami-chinois").stdout)["seed"] == "000"


def test_rules_original_texts_are_the_ones_docs_rules_lists() -> None:
    """rami.cli.rules' titles are docs/rules.md's table of the original texts, and every preset's
    number is in it (rummikub, without one, points at docs/rules.md)."""
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| (\d{3}) \| [^|]+ \| \*(.+?)\* \|", doc, re.MULTILINE))
    assert listed == rules_text.ORIGINAL_TEXTS
    for preset in PRESETS.values():
        assert preset.seed in listed or preset.seed == "docs/rules.md", preset.name


def test_rules_with_options() -> None:
    out = ok("rules", "rami-chinois[jokers=0]").stdout
    assert out.splitlines()[0].split() == ["name:", "rami-chinois[jokers=0]"]
    assert "jokers:                       0\n" in out
    assert "taken_discard_locked:         n/a (no discard pile)\n" in out


def test_rules_json() -> None:
    data = json.loads(ok("rules", "--json", "rummikub").stdout)
    assert data == PRESETS["rummikub"].describe()
    assert data["tiles"] is True
    assert data["cards_dealt"] == 14
    assert data["taken_discard_locked"] is None


def test_rules_unknown_preset() -> None:
    assert bad("rules", "poker") == (
        "error: unknown ruleset 'poker'; known presets: " + ", ".join(PRESETS) + "\n"
    )


def test_rules_unknown_option() -> None:
    assert bad("rules", "rami-chinois[jokers=4,colour=red]") == (
        "error: unknown option 'colour=red' in 'rami-chinois[jokers=4,colour=red]'; "
        "options: jokers, opening_pure_run, open_and_rearrange_same_turn\n"
    )
    assert "takes a whole number" in bad("rules", "rami-chinois[jokers=many]")


# ---------------------------------------------------------------- solve


def _section(out: str, heading: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    section = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        section.append(line.strip())
    return section


def test_solve_demo_text() -> None:
    out = ok("solve", str(DEMO_TXT)).stdout
    lines = out.splitlines()
    assert lines[0].startswith("Status: optimal (objective: points, ")
    assert lines[0].endswith(" ms)")
    assert "Cards played (5): 5S 6H QH 5D 8C" in lines
    assert "Hand left (1): KD" in lines
    assert "Penalty: 44 -> 10" in lines
    assert "Cards moved: 4" in lines
    table = _section(out, "New table (5 melds):")
    assert [line.split(". ")[0] for line in table] == ["1", "2", "3", "4", "5"]
    melds = sorted(sorted(line.split(". ", 1)[1].split()) for line in table)
    assert sorted(["QS", "QH", "QD", "QC"]) in melds
    assert sorted(["5S", "5D", "5C"]) in melds
    moves = _section(out, "Moves (")
    assert moves[0].startswith("1. split 3H..9H (meld 1)")
    assert all(move.split(". ")[0] == str(number) for number, move in enumerate(moves, 1))


def test_solve_all_input_forms_agree() -> None:
    expected = json.loads(ok("solve", "--json", str(DEMO_TXT)).stdout)
    for args, stdin in [
        ([str(DEMO_JSON)], None),
        (["-"], DEMO),
        (["-"], DEMO_JSON.read_text(encoding="utf-8")),
        ([DEMO], None),
    ]:
        data = json.loads(ok("solve", "--json", *args, stdin=stdin).stdout)
        data.pop("ms")
        assert data == {key: value for key, value in expected.items() if key != "ms"}


def test_solve_json() -> None:
    data = json.loads(ok("solve", "--json", str(DEMO_TXT)).stdout)
    assert data["status"] == "optimal"
    assert data["rules"] == "rami-chinois"
    assert data["objective"] == "points"
    assert data["min_moves"] is True
    assert (data["penalty_before"], data["penalty_after"]) == (44, 10)
    assert data["cards_played"] == 5
    assert data["cards_moved"] == 4
    assert data["hand"] == ["KD"]
    assert isinstance(data["ms"], int | float)
    assert data["moves"][0]["kind"] == "split"
    assert all(set(move) == {"kind", "cards", "from", "to", "text"} for move in data["moves"])


def test_solve_opening() -> None:
    out = ok("solve", OPENING).stdout
    assert "Opens this turn." in out.splitlines()
    assert "Penalty: 53 -> 10" in out


def test_solve_nothing_to_play() -> None:
    out = ok("solve", "- / 2C 5D 9H").stdout
    assert "Cards played (0): none" in out
    assert "Hand left (3): 5D 9H 2C" in out or "Hand left (3): 9H 5D 2C" in out
    assert "  (none: nothing can be played)" in out
    assert "  (empty)" in out


def test_solve_objective_and_min_moves_options() -> None:
    data = json.loads(
        ok("solve", "--json", "--objective", "cards", "--no-min-moves", str(DEMO_TXT)).stdout
    )
    assert data["objective"] == "cards"
    assert data["min_moves"] is False
    assert data["cards_played"] == 5
    out = ok("solve", "--no-min-moves", "--time-limit", "5", str(DEMO_TXT)).stdout
    assert "cards moved not minimised" in out.splitlines()[0]


def test_solve_no_min_moves_numbers_melds_as_the_moves_do() -> None:
    out = ok("solve", "--no-min-moves", str(DEMO_TXT)).stdout
    table = dict(line.split(". ", 1) for line in _section(out, "New table ("))
    assert table["1"].startswith("3H")
    assert table["2"].split()[0] == "QS"
    for move in _section(out, "Moves ("):
        if "becomes meld" in move:
            number = move.rsplit("meld ", 1)[1]
            assert table[number].split()[-1] == "9H"


def test_solve_bad_objective() -> None:
    result = rami("solve", "--objective", "fun", str(DEMO_TXT))
    assert result.exit_code == 2
    assert "--objective" in result.output


def test_solve_bad_time_limit() -> None:
    assert bad("solve", "--time-limit", "0", str(DEMO_TXT)) == (
        "error: --time-limit must be a positive number of seconds, got 0.0\n"
    )


def test_solve_needs_a_position_or_a_batch() -> None:
    assert bad("solve") == (
        "error: missing POSITION (a file, '-' or the position inline), or --batch FILE\n"
    )
    assert bad("solve", str(DEMO_TXT), "--batch", str(BATCH)) == (
        "error: give either POSITION or --batch FILE, not both\n"
    )


def test_solve_unsupported_rule_option() -> None:
    message = bad("solve", "5S 6S 7S / 7H 8H 9H 2C / rami-fou[open_and_rearrange_same_turn=true]")
    assert message == (
        "error: opening and laying off (or rearranging) in the same turn "
        "(open_and_rearrange_same_turn) is not solved for presets that discard\n"
    )


def test_solve_invalid_position() -> None:
    assert bad("solve", "7H 8H / 2C") == (
        "error: invalid position (1 problem):\n"
        "  - meld 1: meld 7H 8H has 2 cards: a meld needs at least 3\n"
    )


def test_solve_reports_solver_bug_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from rami.errors import SolverBugError
    from rami.solver import api

    def broken(*args: object, **kwargs: object) -> Solution:
        raise SolverBugError("the referee rejected meld 3")

    monkeypatch.setattr(api, "solve", broken)
    result = rami("solve", str(DEMO_TXT))
    assert result.exit_code == 1
    assert result.stderr == (
        "error: internal solver error (a bug, please report it): the referee rejected meld 3\n"
    )


# ---------------------------------------------------------------- solve --batch


def test_batch_example() -> None:
    result = ok("solve", "--batch", str(BATCH))
    lines = result.stdout.splitlines()
    assert len(lines) == len(BATCH.read_text(encoding="utf-8").splitlines())
    for number, line in enumerate(lines, start=1):
        data = json.loads(line)
        assert data["line"] == number
        assert data["status"] == "optimal"
        assert isinstance(data["ms"], int | float)
        assert "moves" in data
    assert json.loads(lines[0])["penalty_after"] == 10


def test_batch_bad_lines_do_not_stop_the_others(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        '{"hand": ["2C"]}\n'
        "\n"
        '{"hand": ["2C", "ZZ"]}\n'
        '{"hand": ["AS", "2S", "3S"]\n'
        '{"table": [["7H", "8S", "9H"]]}\n'
        '{"hand": ["5S"], "rules": "rami-fou[open_and_rearrange_same_turn=true]"}\n'
        "- / AS 2S 3S 4S\n",
        encoding="utf-8",
    )
    result = rami("solve", "--batch", str(path))
    assert result.exit_code == 2
    assert result.stderr == "error: 4 of 6 positions failed\n"
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["line"] for row in rows] == [1, 3, 4, 5, 6, 7]
    assert rows[0]["status"] == "optimal"
    assert rows[1] == {
        "line": 3,
        "error": "hand[1]: unknown card 'ZZ': expected a rank "
        "(A 2-9 T/10 J Q K) and a suit (S H D C or ♠ ♥ ♦ ♣), or * for a joker",
    }
    assert rows[2]["error"].startswith("malformed JSON at line 1 column")
    assert rows[3] == {
        "line": 5,
        "error": "invalid position (1 problem): meld 1: run 7H 8S 9H mixes suits (S, H)",
        "problems": ["meld 1: run 7H 8S 9H mixes suits (S, H)"],
    }
    assert rows[4]["error"].startswith("opening and laying off (or rearranging) in the same")
    assert rows[5]["cards_played"] == 4
    assert set(rows[5]) >= {"status", "ms", "moves"}


def test_batch_from_stdin_with_options() -> None:
    result = ok(
        "solve",
        "--batch",
        "-",
        "--objective",
        "cards",
        "--no-min-moves",
        stdin=BATCH.read_text(encoding="utf-8"),
    )
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert all(row["objective"] == "cards" and row["min_moves"] is False for row in rows)


def test_batch_missing_file() -> None:
    assert bad("solve", "--batch", "nope.jsonl") == (
        "error: cannot read 'nope.jsonl': no such file\n"
    )


def test_batch_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n", encoding="utf-8")
    assert ok("solve", "--batch", str(path)).stdout == ""


# ---------------------------------------------------------------- hint


def test_hint_levels() -> None:
    assert ok("hint", "--level", "1", str(DEMO_TXT)).stdout == (
        "You can shed 34 points (play 5 of 6 cards).\n"
    )
    assert ok("hint", str(DEMO_TXT)).stdout == "You can shed 34 points (play 5 of 6 cards).\n"
    level2 = ok("hint", "--level", "2", str(DEMO_TXT)).stdout
    assert level2.startswith("Key move: split 3H..9H (meld 1)")
    level3 = ok("hint", "--level", "3", str(DEMO_TXT)).stdout
    assert level3.startswith("Status: optimal")
    assert "Penalty: 44 -> 10" in level3


def test_hint_level_3_is_the_solve_report() -> None:
    level3 = ok("hint", "--level", "3", str(DEMO_TXT)).stdout.splitlines()
    solved = ok("solve", str(DEMO_TXT)).stdout.splitlines()
    assert level3[1:] == solved[1:]


def test_hint_json() -> None:
    level1 = json.loads(ok("hint", "--json", str(DEMO_TXT)).stdout)
    assert level1["level"] == 1
    assert level1["hint"] == "You can shed 34 points (play 5 of 6 cards)."
    assert level1["points_shed"] == 34
    assert "moves" not in level1
    level2 = json.loads(ok("hint", "--level", "2", "--json", str(DEMO_TXT)).stdout)
    assert level2["move"]["kind"] == "split"
    assert level2["move_number"] == 1
    level3 = json.loads(ok("hint", "--level", "3", "--json", str(DEMO_TXT)).stdout)
    assert level3["solution"]["penalty_after"] == 10


def test_hint_opening_and_inline_input() -> None:
    assert ok("hint", OPENING).stdout == "You can open and shed 43 points (play 6 of 7 cards).\n"
    assert ok("hint", "- / 2C 5D 9H").stdout == "You cannot open this turn.\n"
    assert ok("hint", "7H 8H 9H / 9S 9D 9C / opened").stdout == "You can play all 3 cards.\n"


def test_hint_bad_level() -> None:
    result = rami("hint", "--level", "4", str(DEMO_TXT))
    assert result.exit_code == 2
    assert "--level" in result.output


def test_hint_bad_input() -> None:
    assert bad("hint", "nope.txt") == "error: cannot read 'nope.txt': no such file\n"


# ---------------------------------------------------------------- hints module, no solver


def _solution(
    text: str,
    table: str,
    played: str,
    hand: str,
    moves: tuple[Move, ...],
    before: int,
    after: int,
    objective: Objective = Objective.POINTS,
) -> Solution:
    position = parse_position(text)
    return Solution(
        status=Status.FEASIBLE,
        position=position,
        table=parse_table(table),
        played=parse_cards(played),
        hand=parse_cards(hand),
        penalty_before=before,
        penalty_after=after,
        cards_moved=0,
        moves=moves,
        opened=True,
        objective=objective,
        min_moves=True,
        bounds={"penalty": 3},
        message="stopped by the time limit",
        solve_ms=12.0,
    )


LAY = Move("lay", parse_cards("9S 9D 9C"), None, 2, "lay 9S 9D 9C from your hand as meld 2")
ADD = Move("add", parse_cards("TH"), None, 1, "add TH from your hand to meld 1")


def test_hint_levels_without_a_table_move() -> None:
    solution = _solution(
        "7H 8H 9H / 9S 9D 9C TH KS / opened",
        "7H 8H 9H TH | 9S 9D 9C",
        "9S 9D 9C TH",
        "KS",
        (LAY, ADD),
        47,
        10,
    )
    assert make_hint(solution, 1).text == "You can shed 37 points (play 4 of 5 cards)."
    second = make_hint(solution, 2)
    assert second.text == "Key move: lay 9S 9D 9C from your hand as meld 2"
    assert second.to_json()["move_number"] == 1
    third = make_hint(solution, 3)
    assert third.text.splitlines() == solution_lines(solution)
    assert third.to_json()["solution"]["status"] == "feasible"


def test_hint_cards_objective_and_going_out() -> None:
    cards = _solution(
        "7H 8H 9H / 9S 9D 9C TH KS / opened",
        "7H 8H 9H TH | 9S 9D 9C",
        "9S 9D 9C TH",
        "KS",
        (LAY, ADD),
        47,
        10,
        Objective.CARDS,
    )
    assert make_hint(cards, 1).text == "You can play 4 of 5 cards (shedding 37 points)."
    out = _solution(
        "7H 8H 9H / TH KS / rami-fou opened",
        "7H 8H 9H TH",
        "TH",
        "",
        (ADD,),
        20,
        0,
    )
    assert make_hint(out, 1).text == "You can go out: play 1 card and discard the last one."
    assert make_hint(out, 1).to_json()["goes_out"] is True


def test_hint_no_move() -> None:
    nothing = _solution("7H 8H 9H / KS / opened", "7H 8H 9H", "", "KS", (), 10, 10)
    assert make_hint(nothing, 1).text == "No card can be played this turn."
    assert make_hint(nothing, 2).to_json() == {
        "level": 2,
        "hint": "No card can be played this turn.",
        "move": None,
        "move_number": None,
        "moves_total": 0,
    }


def test_hint_level_out_of_range() -> None:
    nothing = _solution("7H 8H 9H / KS / opened", "7H 8H 9H", "", "KS", (), 10, 10)
    with pytest.raises(ValueError, match="hint level must be 1, 2 or 3"):
        make_hint(nothing, 0)


def test_report_of_a_feasible_solution() -> None:
    solution = _solution(
        "7H 8H 9H / 9S 9D 9C TH KS / opened",
        "9S 9D 9C | 7H 8H 9H TH",
        "9S 9D 9C TH",
        "KS",
        (LAY, ADD),
        47,
        10,
    )
    assert solution_lines(solution) == [
        "Status: feasible (objective: points, 12.0 ms)",
        "Not proved optimal: the time limit stopped the search.",
        "Proved bounds: penalty 3",
        "Note: stopped by the time limit",
        "New table (2 melds):",
        "  1. 7H 8H 9H TH",
        "  2. 9S 9D 9C",
        "Cards played (4): 9S 9D 9C TH",
        "Hand left (1): KS",
        "Penalty: 47 -> 10",
        "Cards moved: 0",
        "Moves (2):",
        "  1. lay 9S 9D 9C from your hand as meld 2",
        "  2. add TH from your hand to meld 1",
    ]


def test_numbered_table_follows_the_old_melds() -> None:
    solution = _solution(
        "7H 8H 9H | QS QD QC / 9S 9D 9C / opened",
        "9S 9D 9C | QS QD QC | 7H 8H 9H",
        "9S 9D 9C",
        "",
        (LAY,),
        27,
        0,
    )
    numbered = solution.numbered_table()
    assert [(number, str(meld)) for number, meld in numbered] == [
        (1, "7H 8H 9H"),
        (2, "QS QD QC"),
        (3, "9S 9D 9C"),
    ]
    assert all(isinstance(meld, Meld) for _, meld in numbered)


# ---------------------------------------------------------------- helpers


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


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = ok("validate", str(DEMO_TXT)).stdout
    assert "\x1b[" not in plain
    monkeypatch.setattr(output, "use_colour", lambda: True)
    coloured = ok("validate", str(DEMO_TXT)).stdout
    assert "\x1b[" in coloured
    assert "\x1b[" not in ok("validate", "--json", str(DEMO_TXT)).stdout


def test_use_colour_respects_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert output.use_colour() is False
