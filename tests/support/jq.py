"""jq, emulated, for the ``curl ... | jq`` examples of docs/service.md (tests/test_service_docs.py).

The examples pipe curl into jq. jq is not installed everywhere (a fresh CI machine lacks it),
so the few filters docs/service.md uses are emulated here, output format included (checked
against jq 1.6): `.`, `.[]`, `.a.b`, `keys`, `|`, `( )` and `{a, b: filter}`, with `-c`
(compact) and `-r` (raw strings). Anything else is refused, never guessed at.
"""

from __future__ import annotations

import decimal
import json
import math
import re
import shlex
import sys
from typing import Any, NoReturn


class JqError(Exception):
    """A jq command or filter the emulation does not know, or jq's own runtime error."""


_JQ_TOKEN = re.compile(r"\s*(\.\[\]|\.[A-Za-z_]\w*|\.|[A-Za-z_]\w*|[{}():,|])")


def _jq_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    return {dict: "object", list: "array", str: "string"}.get(type(value), "number")


def _jq_field(value: Any, name: str) -> Any:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise JqError(f'jq: Cannot index {_jq_kind(value)} with "{name}"')
    return value.get(name)


def _jq_iterate(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return list(value)
    raise JqError(f"jq: Cannot iterate over {_jq_kind(value)}")


def _jq_keys(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return sorted(value)
    if isinstance(value, list):
        return list(range(len(value)))
    raise JqError(f"jq: {_jq_kind(value)} has no keys")


class _JqProgram:
    """A jq filter parsed into a function: input value -> list of outputs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[str] = []
        position, text = 0, text.strip()
        while position < len(text):
            match = _JQ_TOKEN.match(text, position)
            if match is None:
                self._refuse(f"at {text[position:]!r}")
            self.tokens.append(match.group(1))
            position = match.end()
        self.index = 0
        self.run = self._pipe()
        if self.index != len(self.tokens):
            self._refuse(f"at {self.tokens[self.index]!r}")

    def _refuse(self, where: str) -> NoReturn:
        raise JqError(
            f"jq filter {self.text!r} is not emulated ({where}): "
            "teach tests/support/jq.py this filter, or use one it knows"
        )

    def _peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def _next(self) -> str:
        token = self._peek()
        if token is None:
            self._refuse("unexpected end")
        self.index += 1
        return token

    def _pipe(self) -> Any:
        stages = [self._term()]
        while self._peek() == "|":
            self._next()
            stages.append(self._term())

        def run(value: Any) -> list[Any]:
            outputs = [value]
            for stage in stages:
                outputs = [output for item in outputs for output in stage(item)]
            return outputs

        return run

    def _term(self) -> Any:
        token = self._next()
        if token == ".":
            return lambda value: [value]
        if token == ".[]":
            return _jq_iterate
        if token.startswith("."):
            names = [token[1:]]
            while (self._peek() or "").startswith(".") and self._peek() not in (".", ".[]"):
                names.append(self._next()[1:])

            def path(value: Any) -> list[Any]:
                for name in names:
                    value = _jq_field(value, name)
                return [value]

            return path
        if token == "keys":
            return lambda value: [_jq_keys(value)]
        if token == "(":
            inner = self._pipe()
            if self._next() != ")":
                self._refuse("expected ')'")
            return inner
        if token == "{":
            return self._object()
        self._refuse(f"at {token!r}")

    def _object(self) -> Any:
        entries = []
        while True:
            key = self._next()
            if not key.isidentifier():
                self._refuse(f"object key {key!r}")
            if self._peek() == ":":
                self._next()
                entries.append((key, self._pipe()))
            else:
                entries.append((key, lambda value, key=key: [_jq_field(value, key)]))
            separator = self._next()
            if separator == "}":
                break
            if separator != ",":
                self._refuse(f"at {separator!r} in an object")

        def build(value: Any) -> list[Any]:
            objects: list[dict[str, Any]] = [{}]
            for key, entry in entries:
                objects = [{**made, key: output} for made in objects for output in entry(value)]
            return objects

        return build


def _jq_number(number: float) -> str:
    """A number as jq 1.6 prints it: a double, shortest digits, exponent beyond 17 digits."""
    try:
        value = float(number)
    except OverflowError:
        value = math.copysign(math.inf, number)
    if math.isnan(value):
        return "null"
    if math.isinf(value):
        value = math.copysign(sys.float_info.max, value)
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    sign, digit_tuple, exponent = decimal.Decimal(repr(value)).as_tuple()
    point = len(digit_tuple) + int(exponent)  # digits before the decimal point
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    if point <= -4 or point > len(digits) + 15:
        power = point - 1
        text = (
            digits[0]
            + ("." + digits[1:] if len(digits) > 1 else "")
            + ("e-" if power < 0 else "e+")
            + f"{abs(power):02d}"
        )
    elif point <= 0:
        text = "0." + "0" * -point + digits
    elif point < len(digits):
        text = digits[:point] + "." + digits[point:]
    else:
        text = digits + "0" * (point - len(digits))
    return "-" + text if sign else text


def _jq_dump(value: Any, compact: bool, depth: int = 0) -> str:
    """jq's output: 2-space indent and ``": "`` (or compact ``{"a":1}``), UTF-8 kept."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _jq_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, dict):
        colon = ":" if compact else ": "
        items = [
            _jq_dump(str(key), True) + colon + _jq_dump(item, compact, depth + 1)
            for key, item in value.items()
        ]
        opening, closing = "{", "}"
    elif isinstance(value, list):
        items = [_jq_dump(item, compact, depth + 1) for item in value]
        opening, closing = "[", "]"
    else:
        raise JqError(f"jq: cannot print {value!r}")
    if not items:
        return opening + closing
    if compact:
        return opening + ",".join(items) + closing
    indent = "\n" + "  " * (depth + 1)
    return opening + indent + ("," + indent).join(items) + "\n" + "  " * depth + closing


def run_jq(command: str, text: str) -> str:
    """What ``command`` (``jq [-c] [-r] FILTER``) prints for the JSON ``text`` on its stdin."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words = list(lexer)
    if words[:1] != ["jq"] or any(word and set(word) <= set("|&;<>()") for word in words):
        raise JqError(f"{command!r}: only a single jq command is emulated after curl")
    compact = raw = False
    filters = []
    for word in words[1:]:
        if word.startswith("-") and len(word) > 1:
            for flag in word[1:]:
                if flag not in "cr":
                    raise JqError(f"{command!r}: jq option -{flag} is not emulated")
                compact, raw = compact or flag == "c", raw or flag == "r"
        else:
            filters.append(word)
    if len(filters) != 1:
        raise JqError(f"{command!r}: give jq exactly one filter and no file")
    outputs = _JqProgram(filters[0]).run(json.loads(text))
    return "".join(
        (output if raw and isinstance(output, str) else _jq_dump(output, compact)) + "\n"
        for output in outputs
    )
