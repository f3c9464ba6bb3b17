"""The docs say what the code does: README.md and docs/*.md are checked against the CLI and library.

Fenced blocks are checked by their info string:

- ``console``: lines ``$ rami ...`` are run (``< FILE`` feeds a file to standard input) and the
  lines after each command must be its output (stdout and stderr as a terminal shows them).
  Timings (``6.8 ms``, ``"ms": 6.8``) are compared as numbers-of-milliseconds; an expected line
  ending with ``...`` only has to start the actual line.
- ``position``: each line is a valid position in the text notation that round-trips.
- ``json``: a valid JSON position that round-trips.
- ``pycon``: run as a doctest.

And every command and option of ``rami`` is shown by its help and mentioned in README.md.
"""

from __future__ import annotations

import doctest
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from rami.cli.main import app
from rami.notation import (
    format_position,
    parse_position,
    parse_position_any,
    position_from_json,
    position_to_json,
)
from rami.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    lang: str
    body: str

    @property
    def where(self) -> str:
        return self.at(0)

    def at(self, offset: int) -> str:
        """``file:line`` of a line of the block (0 is its first line)."""
        return f"{self.path.relative_to(ROOT)}:{self.line + offset}"


def blocks(lang: str) -> list[Block]:
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            if match.group(1) == lang:
                line = text.count("\n", 0, match.start()) + 2
                found.append(Block(path, line, lang, match.group(2)))
    return found


def _ids(items: list[Block]) -> list[str]:
    return [item.where for item in items]


# ---------------------------------------------------------------- console blocks


@dataclass(frozen=True)
class Session:
    where: str
    command: str
    expected: list[str]


def _sessions() -> list[Session]:
    out = []
    for block in blocks("console"):
        command: str | None = None
        command_line = 0
        expected: list[str] = []
        for offset, line in enumerate(block.body.splitlines()):
            if line.startswith("$ "):
                if command is not None:
                    out.append(Session(block.at(command_line), command, expected))
                command, command_line, expected = line[2:], offset, []
            elif command is not None:
                expected.append(line)
        if command is not None:
            out.append(Session(block.at(command_line), command, expected))
    return out


SESSIONS = _sessions()

_MS_TEXT = re.compile(r"\d+(?:\.\d+)? ms\b")
_MS_JSON = re.compile(r'"ms": \d+(?:\.\d+)?')


def _normalise(line: str) -> str:
    return _MS_JSON.sub('"ms": N', _MS_TEXT.sub("N ms", line.rstrip()))


def _matches(expected: list[str], actual: list[str]) -> bool:
    if len(expected) != len(actual):
        return False
    for want, got in zip(expected, actual, strict=True):
        want, got = _normalise(want), _normalise(got)
        if want.endswith("..."):
            if not got.startswith(want[:-3]):
                return False
        elif want != got:
            return False
    return True


def run_rami(command: str) -> tuple[int, str]:
    words = shlex.split(command)
    assert words and words[0] == "rami", f"console examples run rami only: {command!r}"
    args = words[1:]
    stdin = None
    if "<" in args:
        at = args.index("<")
        stdin = (ROOT / args[at + 1]).read_text(encoding="utf-8")
        args = args[:at] + args[at + 2 :]
    result = CliRunner().invoke(app, args, input=stdin, prog_name="rami")
    return result.exit_code, result.output


def test_docs_have_console_examples() -> None:
    commands = " ".join(session.command for session in SESSIONS)
    for name in ("validate", "solve", "hint", "score", "rules", "--batch", "--level"):
        assert name in commands


@pytest.mark.parametrize("session", SESSIONS, ids=[s.where for s in SESSIONS])
def test_console_example_output(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, output = run_rami(session.command)
    actual = output.rstrip("\n").split("\n") if output.strip() else []
    assert "Traceback" not in output
    assert _matches(session.expected, actual), (
        f"{session.where}: `{session.command}` printed:\n{output}\n"
        f"but the docs show:\n" + "\n".join(session.expected)
    )
    failed = any(line.startswith("error:") for line in actual)
    assert code == (2 if failed or '"valid": false' in output else 0), output


# ---------------------------------------------------------------- positions


POSITION_LINES = [
    (block.at(offset), line.strip())
    for block in blocks("position")
    for offset, line in enumerate(block.body.splitlines())
    if line.strip()
]


@pytest.mark.parametrize(("where", "text"), POSITION_LINES, ids=[w for w, _ in POSITION_LINES])
def test_position_examples_parse_and_round_trip(where: str, text: str) -> None:
    position = parse_position(text)
    assert position.problems() == [], where
    canonical = format_position(position)
    assert parse_position(canonical) == position
    assert format_position(parse_position(canonical)) == canonical
    assert position_from_json(json.loads(json.dumps(position_to_json(position)))) == position


JSON_BLOCKS = blocks("json")


@pytest.mark.parametrize("block", JSON_BLOCKS, ids=_ids(JSON_BLOCKS))
def test_json_examples_parse_and_round_trip(block: Block) -> None:
    data = json.loads(block.body)
    position = position_from_json(data)
    assert position.problems() == [], block.where
    assert position_from_json(position_to_json(position)) == position
    assert parse_position(format_position(position)) == position


def test_notation_doc_has_both_forms() -> None:
    notation = [b for b in blocks("position") + JSON_BLOCKS if b.path.name == "notation.md"]
    assert {b.lang for b in notation} == {"position", "json"}


def test_first_json_example_is_the_first_text_example() -> None:
    first_text = next(b for b in blocks("position") if b.path.name == "notation.md")
    first_json = next(b for b in JSON_BLOCKS if b.path.name == "notation.md")
    assert position_from_json(json.loads(first_json.body)) == parse_position(
        first_text.body.strip()
    )


# ---------------------------------------------------------------- python examples


PYCON = blocks("pycon")


@pytest.mark.parametrize("block", PYCON, ids=_ids(PYCON))
def test_python_examples_run(block: Block) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.body, {}, block.where, str(block.path), block.line)
    assert test.examples, block.where
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=report.append)
    assert result.failed == 0, "".join(report)


def test_readme_has_python_example() -> None:
    assert any(block.path == README and "rami.solve(" in block.body for block in PYCON)


# ---------------------------------------------------------------- help and README in sync


def _cli_surface() -> dict[str, list[str]]:
    """Command name -> every option flag it takes ('' is the top level)."""
    group = typer.main.get_command(app)
    surface = {"": [opt for param in group.params for opt in param.opts + param.secondary_opts]}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        options = [
            opt
            for param in command.params
            if param.param_type_name == "option"
            for opt in param.opts + param.secondary_opts
        ]
        surface[name] = [*options, "--help"]
    return surface


def test_every_command_and_option_is_shown_by_help() -> None:
    runner = CliRunner()
    surface = _cli_surface()
    top = runner.invoke(app, ["--help"], prog_name="rami")
    assert top.exit_code == 0
    for name, options in surface.items():
        if name:
            assert name in top.output
            shown = runner.invoke(app, [name, "--help"], prog_name="rami")
            assert shown.exit_code == 0, shown.output
        else:
            shown = top
        for option in options:
            assert option in shown.output, f"{option} missing from `rami {name} --help`"


def test_every_command_and_option_is_in_readme() -> None:
    readme = README.read_text(encoding="utf-8")
    for name, options in _cli_surface().items():
        if name:
            assert f"rami {name}" in readme, f"README.md never mentions `rami {name}`"
        for option in options:
            assert option in readme, f"README.md never mentions {option} (rami {name})"


def test_readme_lists_every_preset() -> None:
    readme = README.read_text(encoding="utf-8")
    section = readme.split("\n## Presets\n", 1)[1].split("\n## ", 1)[0]
    table = re.findall(r"^\| `([a-z0-9-]+)` \| (.+) \|$", section, re.MULTILINE)
    assert table == [(name, preset.title) for name, preset in PRESETS.items()]


def test_readme_links_the_notation_doc() -> None:
    assert "docs/notation.md" in README.read_text(encoding="utf-8")
    assert (ROOT / "docs" / "notation.md").is_file()


def test_readme_names_the_make_targets() -> None:
    readme = README.read_text(encoding="utf-8")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for target in ("demo", "test"):
        assert f"make {target}" in readme
        assert re.search(rf"^{target}:", makefile, re.MULTILINE)


# ---------------------------------------------------------------- example files


def test_demo_files_hold_the_same_valid_position() -> None:
    text = parse_position_any((ROOT / "examples" / "demo.txt").read_text(encoding="utf-8"))
    data = parse_position_any((ROOT / "examples" / "demo.json").read_text(encoding="utf-8"))
    assert text == data
    assert text.problems() == []
    assert text.opened
    assert text.rules.name == "rami-chinois"


def test_makefile_demo_uses_existing_files() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    for path in re.findall(r"rami \w+ (examples/\S+)", makefile):
        assert (ROOT / path).is_file(), path


def test_batch_example_lines_are_valid_json_positions() -> None:
    lines = (ROOT / "examples" / "batch.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 3
    for line in lines:
        position = position_from_json(json.loads(line))
        assert position.problems() == [], line


@pytest.mark.parametrize("doc", ["README.md", "docs/game.md", "docs/page.md", "docs/service.md"])
def test_the_docs_name_the_lookahead_s_tables_as_the_code_offers_them(doc: str) -> None:
    """Where the look-ahead is offered is written once in the code (LOOKAHEAD_TABLES); the
    docs, the help texts and the refusals say it in the same words, so that offering it at
    another table shows here until the docs say so too."""
    from rami.game.levels import lookahead_tables

    words = lookahead_tables()
    assert f"`{words}`" in " ".join((ROOT / doc).read_text("utf-8").split())
    help_text = " ".join(CliRunner().invoke(app, ["play", "--help"]).output.split())
    assert f"({words})" in help_text
