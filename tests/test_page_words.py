"""The page's words all have their French (rami/service/static/i18n.js, docs/page.md
"Languages"): every text of index.html and every phrase the scripts pass to ``t()`` is a key of
the French table, so a French reader never meets an English word of the page's own."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from rami.service.page import STATIC

#: A JavaScript string literal in double quotes.
_LITERAL = r'"(?:[^"\\]|\\.)*"'
#: Texts that are the same in both languages, or names (the preset's title, shown until the
#: server's list of rules replaces it).
_SAME = {"rami", "English", "Fran\u00e7ais", "Elo", "Rami chinois (rami voleur)"}


def _french() -> dict[str, str]:
    text = (STATIC / "i18n.js").read_text("utf-8")
    start = text.index("const FRENCH = {")
    table = text[start : text.index("\n  };", start)]
    pairs = re.findall(rf"^\s*({_LITERAL}):\s*\n?\s*({_LITERAL}),", table, re.M)
    return {json.loads(key): json.loads(value) for key, value in pairs}


def _phrases(path: Path) -> set[str]:
    """The literals of each ``t(...)`` call's first argument (both sides of a ``?:`` too)."""
    found: set[str] = set()
    source = path.read_text("utf-8")
    for call in re.finditer(r"\bt\(", source):
        depth, end = 1, call.end()
        while depth and end < len(source):
            depth += {"(": 1, ")": -1}.get(source[end], 0)
            end += 1
        argument = source[call.end() : end - 1]
        head = re.split(r",\s*\{", argument, maxsplit=1)[0]
        found.update(json.loads(literal) for literal in re.findall(_LITERAL, head))
    return found


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: set[str] = set()
        self.attributes: set[str] = set()
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("kbd", "script", "style") or any(name == "data-t-html" for name, _ in attrs):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder") and value:
                self.attributes.add(value)

    def handle_endtag(self, tag: str) -> None:
        if self._skip and tag in ("kbd", "script", "style", "span"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip and re.search(r"[A-Za-z]", text):
            self.texts.add(text)


def test_every_phrase_of_the_scripts_has_its_french() -> None:
    french = _french()
    assert len(french) > 150
    missing = {}
    for script in sorted(STATIC.glob("*.js")):
        absent = sorted(phrase for phrase in _phrases(script) - set(french) if phrase not in _SAME)
        if absent:
            missing[script.name] = absent
    assert missing == {}
    holes = {
        key: value
        for key, value in french.items()
        if set(re.findall(r"\{\w+\}", key)) != set(re.findall(r"\{\w+\}", value))
    }
    assert holes == {}, "a French phrase must fill the same {holes} as its English"


def test_every_text_of_the_page_has_its_french() -> None:
    french = _french()
    page = _Texts()
    page.feed((STATIC / "index.html").read_text("utf-8"))
    words = {text for text in page.texts | page.attributes if text not in _SAME}
    assert sorted(words - set(french)) == []
    # The parts with markup inside (data-t-html) are translated whole.
    html = (STATIC / "index.html").read_text("utf-8")
    for block in re.findall(r"<span[^>]*data-t-html[^>]*>(.*?)</span>\s*</div>", html, re.S):
        key = " ".join(block.replace("&ndash;", "\u2013").split())
        assert key in french, key
