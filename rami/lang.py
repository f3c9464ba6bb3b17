"""The languages cards, moves and hints are read and written in (docs/notation.md, "French").

A leaf module: the card notation, the phrase book and the front ends all name a language with
:class:`Language`, and none of them imports the others for it.
"""

from __future__ import annotations

from enum import StrEnum

from rami.errors import NotationError


class Language(StrEnum):
    """English (the default: ``KH``, ``TD``) or French (``R♥``, ``10♦``; ``RC``, ``10K``)."""

    EN = "en"
    FR = "fr"


ENGLISH = Language.EN
FRENCH = Language.FR

#: The environment variable the command line reads its default language from (``--lang``).
LANG_VARIABLE = "RAMI_LANG"


def language(value: str | Language | None) -> Language:
    """The language named by ``value`` (``"en"``, ``"fr"``, any case; None is English)."""
    if value is None:
        return ENGLISH
    if isinstance(value, Language):
        return value
    try:
        return Language(str(value).strip().lower())
    except ValueError:
        raise NotationError(
            f"unknown language {value!r}: expected 'en' (English) or 'fr' (French)"
        ) from None


__all__ = ["ENGLISH", "FRENCH", "LANG_VARIABLE", "Language", "language"]
