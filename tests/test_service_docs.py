"""docs/service.md is true: it shows every endpoint, and each of its ``curl`` examples, sent to
a live server (the session's, tests/conftest.py, on a free loopback port), answers what is shown,
the ``| jq`` after it emulated by tests/support/jq.py, whose output is checked here against what
jq 1.6 prints."""

from __future__ import annotations

import json
import re
import shlex
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
import support.service as shared
from support.jq import JqError, run_jq
from support.service import without_ms

#: The session's service (tests/conftest.py), this module's fixture.
server = shared.server


ROOT = Path(__file__).resolve().parent.parent
SERVICE_DOC = ROOT / "docs" / "service.md"


@dataclass(frozen=True)
class CurlExample:
    line: int
    command: str
    output: list[str]


def _curl_examples() -> list[CurlExample]:
    text = SERVICE_DOC.read_text(encoding="utf-8")
    examples = []
    for block in re.finditer(r"^```shell-session\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        first_line = text.count("\n", 0, block.start()) + 2
        lines = block.group(1).splitlines()
        index = 0
        while index < len(lines):
            if not lines[index].startswith("$ "):
                index += 1
                continue
            start = index
            command = lines[index][2:]
            while command.endswith("\\"):
                index += 1
                command = command[:-1] + " " + lines[index].strip()
            index += 1
            output = []
            while index < len(lines) and not lines[index].startswith("$ "):
                output.append(lines[index])
                index += 1
            examples.append(CurlExample(first_line + start, command, output))
    return examples


def test_docs_show_every_endpoint() -> None:
    commands = " ".join(example.command for example in CURL_EXAMPLES)
    for pattern in (
        r"/health\b",
        r"/rulesets\s",
        r"/rulesets/[\w-]",
        r"/solve\b",
        r"/hint\b",
        r"/validate-turn\b",
        r"/validate\s",
        r"/openapi\.json",
        r"/puzzles/daily/\d",
        r"/puzzles/check\b",
    ):
        assert re.search(pattern, commands), pattern
    assert "rami serve --port 8000" in SERVICE_DOC.read_text(encoding="utf-8")


def _split_pipe(command: str) -> tuple[str, str]:
    """``curl ... | jq .`` -> (``curl ...``, ``jq .``): the first ``|`` outside quotes."""
    quote = ""
    for index, char in enumerate(command):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "|":
            return command[:index].strip(), command[index + 1 :].strip()
    return command, ""


# Only commands that start with curl can be replayed; the 413 example pipes a generated body
# in and is covered by the body-size tests of tests/test_service_requests.py.
CURL_EXAMPLES = [
    e for e in _curl_examples() if shlex.split(_split_pipe(e.command)[0])[:1] == ["curl"]
]


@pytest.mark.parametrize(
    ("command", "text", "printed"),
    [
        (
            "jq .",
            '{"a": [1, {"b": "é♥"}], "e": [], "o": {}}',
            '{\n  "a": [\n    1,\n    {\n      "b": "é♥"\n    }\n  ],\n  "e": [],\n  "o": {}\n}\n',
        ),
        ("jq -c .", '{"b": 2, "a": [1.0, null, true]}', '{"b":2,"a":[1,null,true]}\n'),
        ("jq -c '.[]'", '[{"n": 1}, "x"]', '{"n":1}\n"x"\n'),
        ("jq -c '.[]'", '{"a": 1, "b": [2]}', "1\n[2]\n"),
        ("jq -r .hint", '{"hint": "line 1\\nline 2 ♦"}', "line 1\nline 2 ♦\n"),
        ("jq -r .hint", '{"hint": [1]}', "[\n  1\n]\n"),
        ("jq -r .hint", "{}", "null\n"),
        ("jq -c '{s, b}'", '{"b": {"x": 0}, "s": "ok", "t": 1}', '{"s":"ok","b":{"x":0}}\n'),
        (
            "jq -c '{title: .info.title, paths: (.paths | keys)}'",
            '{"info": {"title": "T"}, "paths": {"/b": 1, "/a": 2}}',
            '{"title":"T","paths":["/a","/b"]}\n',
        ),
        (
            "jq -c .",
            "[22.83, 22.0, -0.0, 1e-5, 0.0001, 1e20, 12345678901234567890, 1e300]",
            "[22.83,22,-0,1e-05,0.0001,1e+20,12345678901234567000,1e+300]\n",
        ),
        ("jq .", '"tab\\t del\\u007f unit\\u001f"', '"tab\\t del\\u007f unit\\u001f"\n'),
    ],
)
def test_jq_emulation_prints_what_jq_prints(command: str, text: str, printed: str) -> None:
    """Outputs as jq 1.6 prints them (each checked against /usr/bin/jq)."""
    assert run_jq(command, text) == printed


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("jq '.[0]'", "not emulated"),
        ("jq -c 'map(.name)'", "not emulated"),
        ("jq -S .", "option -S"),
        ("jq", "exactly one filter"),
        ("head -1", "only a single jq command"),
        ("jq .a.b | head", "only a single jq command"),
        ("jq -r .hint", "Cannot index number"),
    ],
)
def test_jq_emulation_refuses_what_it_does_not_know(command: str, words: str) -> None:
    with pytest.raises(JqError, match=re.escape(words)):
        run_jq(command, "3")


# ------------------------------------------------------------------ the examples, replayed


def _replay(example: CurlExample, base: str) -> tuple[int, str, str] | None:
    """Run a documented ``curl`` command against ``base``: (status, body, the pipeline after
    it); None for commands that do not start with ``curl``."""
    command, pipeline = _split_pipe(example.command)
    words = shlex.split(command)
    if not words or words[0] != "curl":
        return None
    method, data, headers, url = "GET", None, {}, ""
    index = 1
    while index < len(words):
        word = words[index]
        if word in ("-X", "--request"):
            method = words[index + 1]
            index += 1
        elif word in ("-H", "--header"):
            name, _, value = words[index + 1].partition(":")
            headers[name.strip()] = value.strip()
            index += 1
        elif word in ("-d", "--data", "--data-binary"):
            data = words[index + 1].encode()
            method = "POST" if method == "GET" else method
            index += 1
        elif word.startswith("http"):
            url = word
        index += 1
    path = urllib.parse.urlsplit(url)
    target = base + path.path + (f"?{path.query}" if path.query else "")
    request = urllib.request.Request(target, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode(), pipeline
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), pipeline


def _same_output(expected: list[str], actual: list[str]) -> bool:
    """Equal up to timings: as one JSON document, else line by line (JSON or text)."""
    try:
        return without_ms(json.loads("\n".join(actual))) == without_ms(
            json.loads("\n".join(expected))
        )
    except ValueError:
        pass
    if len(expected) != len(actual):
        return False
    for want, got in zip(expected, actual, strict=True):
        try:
            if without_ms(json.loads(want)) != without_ms(json.loads(got)):
                return False
        except ValueError:
            if without_ms(want) != without_ms(got):
                return False
    return True


@pytest.mark.parametrize("example", CURL_EXAMPLES, ids=[f"line {e.line}" for e in CURL_EXAMPLES])
def test_docs_curl_example_output(server: str, example: CurlExample) -> None:
    """Each ``curl`` example of docs/service.md, sent to a live server, answers what is shown
    (the ``| jq`` after it emulated by :func:`run_jq`)."""
    replayed = _replay(example, server)
    assert replayed is not None, example.command
    status, body, pipeline = replayed
    output = list(example.output)
    if output and output[0].startswith("HTTP/1.1 "):  # curl -i: status line and headers
        assert int(output[0].split()[1]) == status, (example.command, body)
        assert "content-type: application/json" in output, example.command
        output = output[output.index("") + 1 :]
    else:
        assert status == 200, (example.command, body)
    if pipeline:
        try:
            printed = run_jq(pipeline, body)
        except JqError as error:
            pytest.fail(f"docs/service.md:{example.line}: {error}")
        actual = printed.rstrip("\n").split("\n")
    else:
        actual = body.split("\n")
    assert _same_output(output, actual), (
        f"docs/service.md:{example.line}: `{example.command}` now gives:\n" + "\n".join(actual)
    )
