"""One phrase book per language (rami.phrasebook): the same keys and fields in both, every
template well formed, each book in its own language, and the rooms saying their texts from it."""

from __future__ import annotations

import string

import pytest

from rami.lang import ENGLISH, FRENCH
from rami.phrasebook import BOOKS, fields_of, say, template
from rami.phrasebook import en as english_book
from rami.phrasebook import fr as french_book


def test_both_books_hold_the_same_keys_with_the_same_fields():
    assert english_book.BOOK.keys() == french_book.BOOK.keys()
    differ = {
        key: (fields_of(text), fields_of(french_book.BOOK[key]))
        for key, text in english_book.BOOK.items()
        if fields_of(text) != fields_of(french_book.BOOK[key])
    }
    assert not differ


@pytest.mark.parametrize("language", [ENGLISH, FRENCH])
def test_every_template_is_well_formed(language):
    for key, text in BOOKS[language].items():
        parsed = list(string.Formatter().parse(text))  # raises on a stray brace
        fields = [(spec, conversion) for _, name, spec, conversion in parsed if name is not None]
        assert all(spec == "" and conversion is None for spec, conversion in fields), key
        assert text, key


def test_each_book_is_in_its_own_language():
    french_letters = set("éèêàâçùûôîœ")
    english_with_french = [k for k, t in english_book.BOOK.items() if set(t) & french_letters]
    assert not english_with_french
    # Most French templates differ from the English ones (a few words are the same in both:
    # "optimal", "points", "Note", "novice"...).
    same = [k for k, t in french_book.BOOK.items() if t == english_book.BOOK[k]]
    assert len(same) < len(french_book.BOOK) // 10, same


def test_a_text_is_said_from_its_key_and_fields():
    assert say("solver.lay", ENGLISH, cards="7H 8H 9H", target=3) == (
        "lay 7H 8H 9H from your hand as meld 3"
    )
    assert say("solver.lay", FRENCH, cards="7♥ 8♥ 9♥", target=3) == (
        "posez 7♥ 8♥ 9♥ de votre main comme combinaison 3"
    )
    assert template("word.status", FRENCH) == "Statut"
    with pytest.raises(KeyError):
        template("no.such.key")


def test_the_rooms_say_their_texts_from_the_book(monkeypatch):
    """A template changed in the book changes what each room says: the solver's moves, the
    report's words, the grades, the advice, the game log and the puzzles' texts."""
    import rami.phrasebook.fr as fr
    from rami.game.advice_text import text
    from rami.game.session_text import entry_text
    from rami.phrases import grade_word, word
    from rami.puzzles.words import goal_text, theme_name

    for key in (
        "word.status",
        "grade.blunder",
        "advice.stock only",
        "log.reshuffle",
        "puzzle.goal-one",
        "theme-name.split-run",
    ):
        monkeypatch.setitem(fr.BOOK, key, f"<{key}>")
    assert word("status", FRENCH) == "<word.status>"
    assert grade_word("blunder", FRENCH) == "<grade.blunder>"
    assert text("stock only", FRENCH) == "<advice.stock only>"
    entry = {"kind": "reshuffle", "round": 1, "stock_size": 30}
    assert entry_text(entry, ["You", "P2 (beginner)"], FRENCH) == "<log.reshuffle>"
    assert goal_text("empty-hand", {"cards_played": 1}, FRENCH) == "<puzzle.goal-one>"
    assert theme_name("split-run", FRENCH) == "<theme-name.split-run>"
