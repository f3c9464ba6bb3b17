"""``rami rules``: the presets listed (text and JSON), one preset's rules with its options and the
original text it comes from (the ones docs/rules.md lists); unknown presets and options
refused."""

from __future__ import annotations

import json
import re

from support.cli import ROOT, bad, ok

from rami.cli import rules as rules_text
from rami.rules import PRESETS


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
