"""The shape of the code: no import cycle anywhere in ``rami/``, every module under 400 lines
(``benchmarks/``, ``fuzz/``, the test modules of ``tests/`` and the helpers, references and second
referee of ``tests/support/`` too), every function at most 80 lines.

Imports are read from the source (``ast``): module-level and function-level ones alike, since a
lazy import is still a dependency; only imports under ``if TYPE_CHECKING:`` are left out (they
never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "rami"
#: Every module of ``rami/`` has fewer lines than this (the house rule): a longer one
#: is split by concept, not by line count.
MODULE_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The ``rami`` modules that ``path`` imports (a ``from X import name`` of a submodule
    counts as importing the submodule)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if _type_checking_only(node):
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("rami"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.startswith("rami"):
                found.add(base)
                found.update(
                    f"{base}.{alias.name}"
                    for alias in node.names
                    if f"{base}.{alias.name}" in modules
                )
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return {module for module in found if module in modules and module != name}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path that starts and ends at the same module), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(module: str) -> list[str] | None:
        state[module] = 1
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state:
                cycle = walk(target)
                if cycle:
                    return cycle
        stack.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = walk(module)
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    # A package exposing its submodules is no cycle; a submodule importing its package is.
    assert find_cycle({"p": {"p.m"}, "p.m": set()}) is None
    assert find_cycle({"p": {"p.m"}, "p.m": {"p"}}) == ["p", "p.m", "p"]


def test_no_import_cycle_in_rami():
    graph = import_graph()
    assert "rami.solver.rearrange.stages" in graph  # the graph was read
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def long_modules(paths: list[Path], root: Path = PACKAGE.parent) -> list[str]:
    """The modules of ``paths`` with :data:`MODULE_LINES` lines or more, each with its count."""
    counts = ((path, len(path.read_text().splitlines())) for path in paths)
    return [
        f"{path.relative_to(root)} ({lines} lines)"
        for path, lines in counts
        if lines >= MODULE_LINES
    ]


def test_the_line_count_finds_long_modules(tmp_path):
    short, long = tmp_path / "short.py", tmp_path / "long.py"
    short.write_text("x = 1\n" * (MODULE_LINES - 1))
    long.write_text("x = 1\n" * MODULE_LINES)
    assert long_modules([short, long], tmp_path) == [f"long.py ({MODULE_LINES} lines)"]


def test_every_module_is_under_400_lines():
    paths = sorted(PACKAGE.rglob("*.py"))
    assert len(paths) > 100  # the package was read
    offenders = long_modules(paths)
    assert not offenders, (
        f"{len(offenders)} module(s) of {MODULE_LINES} lines or more, to "
        f"split by concept: " + ", ".join(offenders)
    )


def test_every_benchmark_fuzz_and_test_module_is_under_400_lines():
    """``benchmarks/``, ``fuzz/`` and ``tests/`` (its test modules and conftest.py, and every
    module of ``tests/support`` and of its packages: the helpers, the exhaustive references and
    the second referee) keep the rule of ``rami/`` too."""
    root = PACKAGE.parent
    folders = ("benchmarks", "fuzz", "tests")
    paths = sorted(path for folder in folders for path in (root / folder).glob("*.py"))
    assert {path.parent.name for path in paths} == set(folders)  # every folder was read
    assert len(paths) > 100
    support = sorted((root / "tests" / "support").rglob("*.py"))
    assert {"support", "second_referee"} <= {path.parent.name for path in support}  # all read
    offenders = long_modules(paths + support)
    assert not offenders, f"split by concept: {', '.join(offenders)}"


def test_no_library_room_imports_the_cli():
    """The library is used by the CLI, never the other way round: no module outside
    ``rami.cli`` imports it (a lazy import counts)."""
    graph = import_graph()
    offenders = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if not module.startswith("rami.cli")
        for target in targets
        if target == "rami.cli" or target.startswith("rami.cli.")
    )
    assert "rami.cli.puzzle" in graph  # the puzzle commands are in the CLI package
    assert not offenders, offenders


def test_the_cli_uses_the_puzzles_public_names_only():
    """``rami.cli`` takes from the puzzles room what ``rami.puzzles`` exports, never a module of
    it (so the room's modules can change without the CLI knowing)."""
    graph = import_graph()
    offenders = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("rami.cli")
        for target in targets
        if target.startswith("rami.puzzles.")
    )
    assert any("rami.puzzles" in graph[module] for module in graph if module.startswith("rami.cli"))
    assert not offenders, offenders


#: The options several commands share: each is declared once, in rami/cli/options.py.
SHARED_OPTIONS = {
    "--json": 1,
    "--lang": 1,
    "--objective": 1,
    "--no-min-moves": 1,
    "--time-limit": 1,
    "--rules": 2,
}


def option_declarations(paths: list[Path]) -> dict[str, list[str]]:
    """Where each ``typer.Option("--flag", ...)`` is declared: flag -> the files, once a call."""
    found: dict[str, list[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "Option"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, []).append(path.name)
    return found


def test_the_declaration_finder_counts_each_call(tmp_path):
    one, two = tmp_path / "one.py", tmp_path / "two.py"
    one.write_text('import typer\nA = typer.Option("--json", help="x")\n')
    two.write_text('import typer\nB = typer.Option("--json")\nC = typer.Option("--out")\n')
    assert option_declarations([one, two]) == {"--json": ["one.py", "two.py"], "--out": ["two.py"]}


def test_a_shared_option_is_declared_once():
    declared = option_declarations(sorted(PACKAGE.rglob("*.py")))
    assert "--top" in declared  # the options were read
    for flag, count in SHARED_OPTIONS.items():
        assert declared.get(flag) == ["options.py"] * count, (flag, declared.get(flag))


#: Every function and method of ``rami/`` has a body of at most this many lines (its first
#: statement after the docstring to its last line): one read in one sitting. The signature is
#: not counted: ``ruff format`` puts each parameter of a long signature (a command's options) on
#: a line of its own. A longer one is split by meaning into named pieces.
FUNCTION_LINES = 80

#: The functions still longer, to split, with their length today (file, qualified name): the test
#: fails when one of them grows, and when one is split (it must then leave this list). None today:
#: the rearranging solver's search, its models' builders and explain_moves were the last ones.
LONG_FUNCTIONS: dict[tuple[str, str], int] = {}


def _body_start(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The line of the first statement of ``function``'s body after its docstring."""
    body = function.body
    first = body[0]
    docstring = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    return body[1].lineno if docstring and len(body) > 1 else first.lineno


def function_lengths(path: Path, root: Path = PACKAGE.parent) -> dict[tuple[str, str], int]:
    """Every function and method of ``path`` (nested ones too), by (file, qualified name):
    the number of lines of its body, the docstring aside."""
    found: dict[tuple[str, str], int] = {}
    where = str(path.relative_to(root))

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                assert child.end_lineno is not None
                found[(where, name)] = child.end_lineno - _body_start(child) + 1
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text()), "")
    return found


def test_the_function_measure_names_and_counts_every_function(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "def f():\n    def g():\n        pass\n    return g\n\n\n"
        "class C:\n    async def m(\n        self,\n        a,\n    ):\n"
        '        """Doc."""\n        x = 1\n        return x\n'
        "if True:\n    def h(): pass\n"
        'def d():\n    """Only a docstring."""\n'
    )
    assert function_lengths(source, tmp_path) == {
        ("m.py", "f"): 3,
        ("m.py", "f.g"): 1,
        ("m.py", "C.m"): 2,
        ("m.py", "h"): 1,
        ("m.py", "d"): 1,
    }


def test_no_function_is_over_80_lines():
    lengths: dict[tuple[str, str], int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        lengths.update(function_lengths(path))
    assert ("rami/referee/turn.py", "validate_turn") in lengths  # the package was read
    long = {key: lines for key, lines in lengths.items() if lines > FUNCTION_LINES}
    new = sorted(
        f"{file} {name} ({lines} lines)"
        for (file, name), lines in long.items()
        if (file, name) not in LONG_FUNCTIONS
    )
    assert not new, f"function(s) over {FUNCTION_LINES} lines, to split by meaning: " + ", ".join(
        new
    )
    grown = sorted(
        f"{file} {name} ({long[(file, name)]} lines, listed {listed})"
        for (file, name), listed in LONG_FUNCTIONS.items()
        if long.get((file, name), 0) > listed
    )
    assert not grown, "listed long function(s) grew: " + ", ".join(grown)
    split = sorted(f"{file} {name}" for file, name in LONG_FUNCTIONS if (file, name) not in long)
    assert not split, (
        "now at most " + str(FUNCTION_LINES) + " lines (or gone): take them off "
        "LONG_FUNCTIONS: " + ", ".join(split)
    )
