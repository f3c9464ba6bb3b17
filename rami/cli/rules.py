"""``rami rules`` as text: the presets listed, or every parameter of one preset.

``Ruleset.seed`` is the number of the original French text a preset comes from (docs/rules.md,
"The original texts"), not a random seed: the text output says so, with the text's title.
``rami rules --json`` keeps the field as it is (``"seed": "000"``), as the service does.
"""

from __future__ import annotations

from rami.rules import DISCARD_ONLY, OPTIONS, PRESETS, Ruleset

#: The original texts by number, with their titles as docs/rules.md lists them.
ORIGINAL_TEXTS = {
    "000": "Les règles du rami chinois",
    "001": "Règles du Rami",
    "002": "Règle du rami : comment jouer, du premier tour à la fin",
    "003": "Le Rami Fou",
    "004": "Règles du Rami 51 Expliquées",
}


def source_text(seed: str) -> str:
    """What a preset's ``seed`` is, in words: ``original text 000 (Les règles du rami chinois)``."""
    title = ORIGINAL_TEXTS.get(seed)
    if title is not None:
        return f"original text {seed} ({title})"
    return f"no original text: the standard game, as {seed} states it"


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def presets_lines() -> list[str]:
    """``rami rules``: one line per preset, then how options are written."""
    width = max(map(len, PRESETS))
    lines = [f"{name:<{width}}  {item.title}" for name, item in PRESETS.items()]
    lines.append("")
    lines.append(
        f"Options: PRESET[{','.join(f'{name}=...' for name in OPTIONS)}], "
        "e.g. rami-chinois[jokers=0]"
    )
    return lines


def preset_lines(ruleset: Ruleset) -> list[str]:
    """``rami rules PRESET``: every parameter, one a line (``seed`` shown as ``source``)."""
    described = ruleset.describe()
    shown = {key: _format_value(value) for key, value in described.items()}
    for key in DISCARD_ONLY:
        if described[key] is None:
            shown[key] = "n/a (no discard pile)"
    shown = {("source" if key == "seed" else key): text for key, text in shown.items()}
    shown["source"] = source_text(ruleset.seed)
    width = max(map(len, shown))
    return [f"{key + ':':<{width + 1}} {text}" for key, text in shown.items()]
