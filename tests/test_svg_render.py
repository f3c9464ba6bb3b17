"""``rami render``: a picture written to a file (never over one without ``--force``) or to
standard output, with the solution and four colours, positions read as the other commands read
them, bad input refused; the CLI's exit code and output together."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from support.pictures import (
    DEMO,
    DEMO_TXT,
    ROOT,
    all_cards,
    cards_drawn,
    desc,
    fills,
    marked,
    parse,
)
from typer.testing import CliRunner, Result

from rami import svg
from rami.cards import parse_cards
from rami.cli.main import app
from rami.notation import position_from_json


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
