"""French cards, moves and hints (docs/notation.md, "French"): R D V for roi, dame, valet; P C K T
(or the symbols) for pique, cœur, carreau, trèfle, so ``7C`` is a seven of hearts there.
Known answers, the mix-ups refused with the likely cause, round trips (hypothesis), every move
the solver says translated, and the command line and service with a language set."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rami import parse_position, solve
from rami.cards import ALL_CARDS, JOKER, Card, parse_cards
from rami.cli.main import app
from rami.errors import NotationError
from rami.hints import make_hint, solution_lines
from rami.lang import ENGLISH, FRENCH, Language, language
from rami.melds import Meld, MeldKind
from rami.notation import parse_position_any, position_to_json
from rami.phrases import PHRASES, phrase_of, translate
from rami.position import Position
from rami.rules import PRESETS, get_ruleset
from rami.service import create_app
from rami.service.testing import BackgroundServer, post_json

#: A letter that only English cards hold (H, S, D as suits; T J Q K as ranks): none of it may
#: be left in a French card.
_ENGLISH_CARD = re.compile(r"(?<![\w*])(?:10|[A2-9TJQK])[SHDC](?![\w])")


# --- Known answers ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("french", "english"),
    [
        ("7C", "7H"),
        ("10T", "TC"),
        ("RK", "KD"),
        ("VP", "JS"),
        ("DC", "QH"),
        ("AT", "AC"),
        ("D♦", "QD"),
        ("R♠", "KS"),
        ("10♥", "TH"),
        ("rk", "KD"),
        ("vp", "JS"),
        ("*", "*"),
        ("🃏", "*"),
        ("2K", "2D"),
        ("9P", "9S"),
    ],
)
def test_french_cards_read_as_a_french_player_means_them(french: str, english: str) -> None:
    assert Card.parse(french, FRENCH) == Card.parse(english)


@pytest.mark.parametrize(
    ("card", "symbols", "letters"),
    [
        ("KH", "R♥", "RC"),
        ("TD", "10♦", "10K"),
        ("JC", "V♣", "VT"),
        ("QS", "D♠", "DP"),
        ("AS", "A♠", "AP"),
        ("*", "*", "*"),
    ],
)
def test_french_cards_are_written_with_french_ranks(card: str, symbols: str, letters: str) -> None:
    assert Card.parse(card).text(FRENCH) == symbols
    assert Card.parse(card).text(FRENCH, suit_letters=True) == letters
    assert Card.parse(card).text(ENGLISH) == card


def test_a_french_position_reads_and_writes_in_french() -> None:
    text = "7C 8C 9C | DP DK DT / 10C VP AK * / rami-chinois opened discard=AK"
    position = parse_position(text, FRENCH)
    assert str(position) == "7H 8H 9H | QS QD QC / JS TH AD * / rami-chinois opened discard=AD"
    assert position.text(FRENCH) == (
        "7♥ 8♥ 9♥ | D♠ D♦ D♣ / V♠ 10♥ A♦ * / rami-chinois opened discard=A♦"
    )
    assert Meld.parse("set: RC * *", FRENCH) == Meld.parse("set: KH * *")
    assert parse_cards("7C8C9C", FRENCH) == parse_cards("7H 8H 9H")


def test_a_json_position_reads_its_cards_in_the_language() -> None:
    text = '{"table": [["RC", "RP", "RT"]], "hand": ["10K"], "opened": true}'
    position = parse_position_any(text, FRENCH)
    assert str(position) == "KH KS KC / TD / rami-chinois opened"
    assert position_to_json(position)["hand"] == ["TD"]  # the contract's codes


def test_the_language_is_named_en_or_fr() -> None:
    assert language("FR") is FRENCH and language(None) is ENGLISH and language("en") is ENGLISH
    with pytest.raises(NotationError, match="unknown language 'de'"):
        language("de")


# --- Mix-ups: refused, naming the likely cause -----------------------------------------------


@pytest.mark.parametrize(
    ("lang", "text", "card", "reads_as"),
    [
        (
            ENGLISH,
            "7C 8C 9C / RK",
            "RK",
            "French notation (R♦, KD in English): set the language to fr (--lang fr",
        ),
        (ENGLISH, "- / 7C VP", "VP", "French notation (V♠, JS in English)"),
        (ENGLISH, "- / 10T", "10T", "French notation (10♣, TC in English)"),
        (ENGLISH, "DP DK DT / 2H", "DP", "French notation (D♠, QS in English)"),
        (
            FRENCH,
            "- / 7H 8H 9H",
            "7H",
            "English notation (7H, 7♥ in French): set the language to en (--lang en",
        ),
        (FRENCH, "7C 8C 9C / KD", "KD", "English notation (KD, R♦ in French)"),
        (FRENCH, "QS QD QC / 2C", "QS", "English notation (QS, D♠ in French)"),
        (FRENCH, "- / TH", "TH", "English notation (TH, 10♥ in French)"),
    ],
)
def test_a_position_in_the_other_notation_is_refused_naming_it(
    lang: Language, text: str, card: str, reads_as: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_position(text, lang)
    assert f"unknown card {card!r}" in str(caught.value)
    assert reads_as in str(caught.value)


def test_a_card_of_neither_notation_names_no_mix_up() -> None:
    for lang in (ENGLISH, FRENCH):
        with pytest.raises(NotationError) as caught:
            parse_position("- / 7X", lang)
        assert "unknown card '7X'" in str(caught.value)
        assert "reads as" not in str(caught.value)


def test_cards_that_read_in_both_notations_follow_the_language() -> None:
    """7C, AC and 10C are cards in both: clubs in English, hearts in French. Nothing is
    guessed: the language says which."""
    assert parse_cards("7C AC 10C") == parse_cards("7C AC TC")
    assert parse_cards("7C AC 10C", FRENCH) == parse_cards("7H AH TH")


# --- Round trips -----------------------------------------------------------------------------


@given(st.sampled_from((*ALL_CARDS, JOKER)), st.booleans(), st.booleans())
def test_every_card_round_trips_in_french(card: Card, letters: bool, lower: bool) -> None:
    text = card.text(FRENCH, suit_letters=letters)
    assert Card.parse(text.lower() if lower else text, FRENCH) == card
    assert not _ENGLISH_CARD.search(card.text(FRENCH)) or card.suit is None


@st.composite
def positions(draw: st.DrawFn) -> Position:
    cards = st.sampled_from((*ALL_CARDS, JOKER))
    melds = draw(
        st.lists(
            st.tuples(st.lists(cards, min_size=1, max_size=6), st.sampled_from(MeldKind)),
            max_size=5,
        )
    )
    table = tuple(Meld(tuple(meld), kind) for meld, kind in melds)
    hand = tuple(sorted(draw(st.lists(cards, max_size=12))))
    rules = get_ruleset(draw(st.sampled_from(sorted(PRESETS))))
    taken = draw(st.none() | st.sampled_from(ALL_CARDS)) if rules.discard else None
    return Position(table, hand, draw(st.booleans()), rules, taken)


@settings(max_examples=300, deadline=None)
@given(positions(), st.booleans())
def test_every_position_round_trips_in_french(position: Position, letters: bool) -> None:
    text = position.text(FRENCH)
    assert parse_position(text, FRENCH) == position
    if letters:  # the same position written with suit letters instead of symbols
        written = re.sub(
            r"(10|[A2-9VDR])([♠♥♦♣])", lambda m: m.group(1) + "PCKT"["♠♥♦♣".index(m.group(2))], text
        )
        assert parse_position(written, FRENCH) == position
    assert parse_position(str(position)) == position


# --- Moves, notes and hints in French --------------------------------------------------------


def test_the_issue_examples_are_said_in_french() -> None:
    solution = solve(
        parse_position("3C 4C 5C 6C 7C 8C 9C | DP DK DT / 6C RP / rami-chinois opened", FRENCH)
    )
    assert [move.said(FRENCH) for move in solution.moves] == [
        "coupez 3♥..9♥ (combinaison 1) après 6♥ : 7♥ 8♥ 9♥ devient la combinaison 3",
        "ajoutez 6♥ de votre main à la combinaison 3",
    ]
    assert make_hint(solution, 1, FRENCH).text == (
        "Vous pouvez vous défaire de 6 points (jouer 1 de vos 2 cartes)."
    )
    assert make_hint(solution, 2, FRENCH).text.startswith("Coup clé : coupez 3♥..9♥")
    lines = solution_lines(solution, FRENCH)
    assert lines[1] == "Note : 1 carte jouée sur 2, 10 points restants"
    assert lines[2:6] == [
        "Nouvelle table (3 combinaisons) :",
        "  1. 3♥ 4♥ 5♥ 6♥",
        "  2. D♠ D♦ D♣",
        "  3. 6♥ 7♥ 8♥ 9♥",
    ]
    assert "Main restante (1) : R♠" in lines


#: Positions whose best turns say every kind of move: split, add, lay, move, a joker slid,
#: a joker replaced (rami fou), swapped (BFmania, Café), discards, and turns playing nothing.
SAYING_EVERYTHING = [
    "3H 4H 5H 6H 7H 8H 9H | QS QD QC / 6H KS / rami-chinois opened",
    "4S 5S 6S 7S * / 2S / rami-chinois opened",
    "5H 6H 7H * / 8H 9C 9D 2S / rami-fou opened",
    "5D * 7D | 2H 3H 4H / 6D 5H 9S 9C 9D KC / bfmania-51 opened",
    "- / AS 2S 3S 9C 9D 9H KH / rami-chinois",
    "- / AS KD 7C / rami-fou",
    "- / 2H 5C 9D / rami-51",
    "5C 6C 7C | 8D 9D TD / 5D 6D 7D 8C QH / cafe-rummy opened",
    "- / - / rami-chinois opened",
    "TH JH QH KH / 5D 9S 2C / rummikub opened",
]


@pytest.mark.parametrize("text", SAYING_EVERYTHING)
def test_every_sentence_of_a_turn_is_in_the_phrase_book(text: str) -> None:
    """No English is left in the French report: each move and note is a phrase of the book
    (or a note built in French), and no English card remains."""
    solution = solve(parse_position(text))
    for move in solution.moves:
        assert phrase_of(move.text) is not None, move.text
        assert move.said(FRENCH) != move.text
        assert not _ENGLISH_CARD.search(move.said(FRENCH)), move.said(FRENCH)
    for line in solution_lines(solution, FRENCH):
        assert not _ENGLISH_CARD.search(line), line
        assert not re.search(r"\b(?:from|your|meld|cards?|played|left|discard)\b", line), line
    data = solution.to_json(FRENCH)
    assert [move["cards"] for move in data["moves"]] == [
        [str(card) for card in move.cards] for move in solution.moves
    ]


def test_each_phrase_reads_back_what_it_says() -> None:
    numbers = {"source", "target", "points"}
    for phrase in PHRASES:
        fields = {name: "3" if name in numbers else "7H 8H" for name in phrase.pattern.groupindex}
        english = phrase.say(**fields)
        assert phrase_of(english) == (phrase, fields)
        french = translate(english, FRENCH)
        assert french == phrase.french.format(
            **{name: value if name in numbers else "7♥ 8♥" for name, value in fields.items()}
        )
        assert not _ENGLISH_CARD.search(french)


# --- The command line ------------------------------------------------------------------------


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), prog_name="rami", env=env)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


FRENCH_SPLIT = "3C 4C 5C 6C 7C 8C 9C | DP DK DT / 6C RP / rami-chinois opened"


def test_rami_solve_speaks_french_with_lang_fr() -> None:
    code, output = _run("solve", "--lang", "fr", FRENCH_SPLIT)
    assert code == 0, output
    assert "  1. coupez 3♥..9♥ (combinaison 1) après 6♥ : 7♥ 8♥ 9♥ devient la combinaison 3" in (
        output.splitlines()
    )
    assert "Cartes jouées (1) : 6♥" in output


def test_rami_lang_comes_from_the_environment() -> None:
    code, output = _run("hint", "--level", "2", FRENCH_SPLIT, env={"RAMI_LANG": "fr"})
    assert code == 0, output
    assert output.startswith("Coup clé : coupez 3♥..9♥")
    code, output = _run("hint", FRENCH_SPLIT, env={"RAMI_LANG": "en"})
    assert code == 2 and "reads as French notation" in output


def test_rami_json_keeps_the_codes_and_says_the_texts_in_french() -> None:
    code, output = _run("solve", "--lang", "fr", "--json", FRENCH_SPLIT)
    assert code == 0, output
    data = json.loads(output)
    assert data["hand"] == ["KS"] and data["moves"][1]["cards"] == ["6H"]
    assert data["moves"][1]["text"] == "ajoutez 6♥ de votre main à la combinaison 3"
    assert data["message"] == "1 carte jouée sur 2, 10 points restants"


def test_rami_refuses_a_mix_up_with_exit_2_and_json() -> None:
    code, output = _run("solve", "--json", FRENCH_SPLIT)
    assert code == 2
    error = json.loads(output)["error"]
    assert error["type"] == "NotationError" and error["loc"] == ["table", 1]
    assert "reads as French notation (D♠, QS in English)" in error["message"]
    code, output = _run("solve", "--lang", "fr", "- / 7H 8H 9H")
    assert code == 2 and "reads as English notation (7H, 7♥ in French)" in output


def test_an_unknown_language_is_a_usage_error() -> None:
    code, output = _run("solve", "--lang", "de", "- / 7H 8H 9H")
    assert code == 2 and "'de' is not one of 'en', 'fr'" in output
    code, output = _run("solve", "--json", "- / 7H 8H 9H", env={"RAMI_LANG": "xx"})
    assert code == 2 and json.loads(output)["error"]["type"] == "UsageError"


def test_rami_validate_and_score_write_french_cards() -> None:
    code, output = _run("validate", "--lang", "fr", "- / RC RC RC")
    assert code == 2 and "R♥" in output and "KH" not in output
    code, output = _run("score", "--lang", "fr", "- / RC 10T / rami-chinois opened")
    assert code == 0 and "R♥ 10" in output and "10♣ 10" in output


def test_rami_review_in_french() -> None:
    code, output = _run(
        "review", "--lang", "fr", "3C 4C 5C / 6C 2C / rami-chinois opened", "--table", "3C 4C 5C 6C"
    )
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0] == "Appréciation : bon coup (2 points perdus)"
    assert "Manqué : ajoutez 2♥ 6♥ de votre main à la combinaison 1" in lines


def test_rami_solve_top_in_french() -> None:
    code, output = _run(
        "solve", "--lang", "fr", "--top", "2", "3C 4C 5C 6C 7C 8C 9C / 6C 2C / rami-chinois opened"
    )
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0].startswith("Réponses : les 2 meilleures réponses (")
    assert lines[2].startswith("Réponse 1 sur 2 : 0 point restant, 2 cartes jouées, ")
    assert not any(_ENGLISH_CARD.search(line) for line in lines)


def test_a_shipped_puzzle_reads_the_same_in_every_language() -> None:
    """A puzzle id names a position rami wrote, in the contract's codes (9D, TD: no French
    cards), whatever language the person reads."""
    from rami.puzzles.record import shipped_pack

    puzzle = shipped_pack()[0]
    assert "9D" in json.dumps(position_to_json(puzzle.position))
    code, output = _run("hint", "--lang", "fr", puzzle.id)
    assert code == 0, output
    assert output.startswith("Vous pouvez")


# --- The service -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Any:
    with BackgroundServer(create_app()) as running:
        yield running.url


def test_the_service_reads_and_says_french(server: str) -> None:
    status, data = post_json(server + "/solve", {"position": FRENCH_SPLIT, "lang": "fr"})
    assert status == 200, data
    assert data["hand"] == ["KS"]
    assert data["moves"][0]["text"].startswith("coupez 3♥..9♥")
    status, data = post_json(server + "/hint", {"position": FRENCH_SPLIT, "lang": "fr", "level": 2})
    assert status == 200 and data["hint"].startswith("Coup clé : coupez")
    status, data = post_json(
        server + "/review",
        {
            "position": "3C 4C 5C / 6C 2C / rami-chinois opened",
            "lang": "fr",
            "table_after": [["3C", "4C", "5C", "6C"]],
        },
    )
    assert status == 200 and data["grade"] == "good"
    assert data["missed"]["text"] == "ajoutez 2♥ 6♥ de votre main à la combinaison 1"
    status, data = post_json(
        server + "/validate-turn",
        {
            "position": "3C 4C 5C / 6C / rami-chinois opened",
            "lang": "fr",
            "table_after": [["3C", "4C", "5C", "6P"]],
            "played": ["6P"],
        },
    )
    assert status == 200 and not data["legal"]
    assert any("6♠" in problem for problem in data["problems"])
    assert not any(_ENGLISH_CARD.search(problem) for problem in data["problems"])


def test_the_service_refuses_a_mix_up_naming_it(server: str) -> None:
    status, data = post_json(server + "/solve", {"position": FRENCH_SPLIT})
    assert status == 422 and data["field"] == "position"
    assert "reads as French notation" in data["error"]
    status, data = post_json(server + "/solve", {"position": "- / 7H", "lang": "fr"})
    assert status == 422 and "reads as English notation" in data["error"]
    status, data = post_json(server + "/solve", {"position": "- / 7H", "lang": "de"})
    assert status == 422 and data["field"] == "lang"


def test_a_note_is_said_from_the_reason_the_solution_keeps_not_read_back() -> None:
    from dataclasses import replace

    from rami.phrases import why_nothing

    checked = 0
    for text in SAYING_EVERYTHING:
        solution = solve(parse_position(text))
        if solution.played or not solution.message.startswith(why_nothing(solution.position)):
            continue
        kept = replace(solution, reason="", message="(not read)")
        assert kept.note(FRENCH) == solution.note(FRENCH)
        checked += 1
    assert checked >= 2
