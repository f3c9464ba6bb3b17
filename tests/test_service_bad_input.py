"""The HTTP service's answer to bad input, over real HTTP: a 4xx naming the field (for every
bad request of a table, and for any JSON sent in any field), never a 500; pathological and
malformed JSON; an impossible position lists its problems.

Every test talks to the session's uvicorn server (tests/conftest.py), on a free loopback port
(127.0.0.1 only).
"""

from __future__ import annotations

from typing import Any

import pytest
import support.service as shared
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from support.service import DEMO, DEMO_TURN, call, demo_position

from rami.service.inputs import MAX_CARDS

#: The session's service (tests/conftest.py), this module's fixture.
server = shared.server


BAD_REQUESTS = [
    # (id, path, body, status, field, words in the error)
    (
        "unknown card in hand",
        "/solve",
        {"position": demo_position(hand=["6H", "ZZ"])},
        422,
        "position.hand[1]",
        "unknown card 'ZZ'",
    ),
    (
        "unknown card on table",
        "/solve",
        {"position": demo_position(table=[["3H", "4H", "5H"], ["QS", "QD", "XX"]])},
        422,
        "position.table[1][2]",
        "unknown card 'XX'",
    ),
    (
        "bad meld kind",
        "/validate",
        {"position": demo_position(table=[{"kind": "row", "cards": ["7H", "*", "*"]}])},
        422,
        "position.table[0].kind",
        "expected 'run' or 'set'",
    ),
    (
        "3 copies of a card",
        "/solve",
        {"position": demo_position(hand=["KD", "KD", "KD"])},
        422,
        "position",
        "3 copies of KD",
    ),
    (
        "too many jokers",
        "/hint",
        {"position": demo_position(hand=["*"] * 5)},
        422,
        "position",
        "5 jokers",
    ),
    (
        "too many cards",
        "/validate",
        {"position": demo_position(hand=["2C"] * (MAX_CARDS + 1))},
        422,
        "position",
        f"at most {MAX_CARDS}",
    ),
    (
        "unknown ruleset",
        "/solve",
        {"position": demo_position(rules="rami-99")},
        422,
        "position.rules",
        "unknown ruleset 'rami-99'",
    ),
    (
        "unsupported rule option",
        "/solve",
        {
            "position": demo_position(
                rules="rami-fou[open_and_rearrange_same_turn=true]", opened=False
            )
        },
        422,
        "position.rules",
        "not solved for presets that discard",
    ),
    (
        "unknown position field",
        "/solve",
        {"position": demo_position(colour="red")},
        422,
        "position",
        "unknown field(s) ['colour']",
    ),
    ("bad text notation", "/solve", {"position": "7H 8H 9H / QQ"}, 422, "position", "unknown card"),
    (
        "bad taken discard",
        "/validate",
        {"position": demo_position(taken_discard="11Z")},
        422,
        "position.taken_discard",
        "unknown card",
    ),
    (
        "position not an object",
        "/solve",
        {"position": 5},
        422,
        "position",
        "expected a JSON position object",
    ),
    (
        "opened not a bool",
        "/solve",
        {"position": demo_position(opened="yes")},
        422,
        "position.opened",
        "expected true or false",
    ),
    ("missing position", "/solve", {"time_limit": 1}, 422, "position", "Field required"),
    (
        "time limit a string",
        "/solve",
        {"position": DEMO, "time_limit": "fast"},
        422,
        "time_limit",
        "valid number",
    ),
    (
        "time limit zero",
        "/solve",
        {"position": DEMO, "time_limit": 0},
        422,
        "time_limit",
        "greater than 0",
    ),
    (
        "min_moves a string",
        "/solve",
        {"position": DEMO, "min_moves": "yes"},
        422,
        "min_moves",
        "valid boolean",
    ),
    (
        "unknown objective",
        "/solve",
        {"position": DEMO, "objective": "fast"},
        422,
        "objective",
        "'points' or 'cards'",
    ),
    (
        "unknown request field",
        "/solve",
        {"position": DEMO, "level": 2},
        422,
        "level",
        "Extra inputs",
    ),
    ("hint level 4", "/hint", {"position": DEMO, "level": 4}, 422, "level", "less than or equal"),
    (
        "hint level a string",
        "/hint",
        {"position": DEMO, "level": "2"},
        422,
        "level",
        "valid integer",
    ),
    (
        "hint level a bool",
        "/hint",
        {"position": DEMO, "level": True},
        422,
        "level",
        "valid integer",
    ),
    ("body a list", "/solve", [DEMO], 422, "body", "JSON object"),
    (
        "played not a list",
        "/validate-turn",
        {"position": DEMO, "table_after": [], "played": "6H"},
        422,
        "played",
        "valid list",
    ),
    (
        "played unknown card",
        "/validate-turn",
        {"position": DEMO, "table_after": DEMO_TURN["table_after"], "played": ["6H", "6X"]},
        422,
        "played[1]",
        "unknown card '6X'",
    ),
    (
        "table_after bad card",
        "/validate-turn",
        {"position": DEMO, "table_after": [["3H", "4H", "5Q"]], "played": []},
        422,
        "table_after[0][2]",
        "unknown card '5Q'",
    ),
    (
        "table_after text meld",
        "/validate-turn",
        {"position": DEMO, "table_after": ["3H 4H 5H", "frog: 7H 8H 9H"], "played": []},
        422,
        "table_after[1]",
        "unknown meld kind",
    ),
    (
        "discard not a card",
        "/validate-turn",
        {"position": DEMO, **DEMO_TURN, "discard": 7},
        422,
        "discard",
        "expected a card string",
    ),
    (
        "turn on an impossible position",
        "/validate-turn",
        {"position": demo_position(hand=["KD"] * 3), **DEMO_TURN},
        422,
        "position",
        "3 copies of KD",
    ),
]


@pytest.mark.parametrize(
    ("path", "body", "status", "field", "words"),
    [case[1:] for case in BAD_REQUESTS],
    ids=[case[0] for case in BAD_REQUESTS],
)
def test_bad_input_is_a_4xx_naming_the_field(
    server: str, path: str, body: Any, status: int, field: str, words: str
) -> None:
    reply = call(server, "POST", path, body)
    assert reply.status == status, reply.text
    assert reply.body["field"] == field, reply.body
    assert words in reply.body["error"], reply.body
    assert "Traceback" not in reply.text


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["7H", "*", "QS", "10D", "rami-chinois", "set"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                ["rules", "table", "hand", "opened", "taken_discard", "kind", "cards", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


@hypothesis_settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(["/solve", "/hint", "/validate", "/validate-turn", "/puzzles/check"]),
    field=st.sampled_from(
        [
            "position",
            "table",
            "hand",
            "opened",
            "rules",
            "table_after",
            "played",
            "discard",
            "level",
            "objective",
            "id",
        ]
    ),
    value=JSON_VALUES,
)
def test_any_json_gets_an_answer_not_a_500(server: str, path: str, field: str, value: Any) -> None:
    """Whatever JSON a client sends in whatever field, the answer is a 2xx or a 4xx in the
    service's error shape, never a 500."""
    body: dict[str, Any] = {"position": dict(DEMO), "time_limit": 0.5}
    if path == "/validate-turn":
        body.update(DEMO_TURN)
        del body["time_limit"]
    elif path == "/validate":
        del body["time_limit"]
    elif path == "/puzzles/check":
        body = {"id": "rc-b6bcc1555b", "table": DEMO_TURN["table_after"]}
    if field in ("table", "hand", "opened", "rules") and path != "/puzzles/check":
        body["position"][field] = value
    else:
        body[field] = value
    reply = call(server, "POST", path, body)
    assert reply.status < 500, reply.text
    if reply.status >= 400:
        assert set(reply.body) == {"error", "field", "problems"} and reply.body["error"]


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"[" * 50_000 + b"]" * 50_000, 413),  # over the body limit
        (b"[" * 30_000 + b"]" * 30_000, 400),  # too deep for the JSON parser
        (b'{"position": "7H 8H 9H / TH", "time_limit": 1e400}', 422),  # infinity
        (b'{"position": "7H 8H 9H / TH", "time_limit": NaN}', 422),
    ],
    ids=["huge", "deep", "infinite", "nan"],
)
def test_pathological_json(server: str, raw: bytes, status: int) -> None:
    reply = call(server, "POST", "/solve", raw=raw)
    assert reply.status == status, reply.text
    assert reply.body["error"]


def test_impossible_position_lists_its_problems(server: str) -> None:
    position = demo_position(hand=["KD", "KD", "KD", "*", "*", "*", "*", "*"])
    reply = call(server, "POST", "/solve", {"position": position})
    assert reply.status == 422
    assert reply.body["problems"] == [
        "3 copies of KD: two decks hold only 2",
        "5 jokers: rami-chinois is played with 4",
    ]


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (b'{"position": ', "line 1 column 14"),
        (b'{"position": {"hand": ["7H",]}}', "line 1 column 29"),
        (b"{\n  'position': 1\n}", "line 2 column 3"),
        (b"\xff\xfe not utf-8", ""),
    ],
)
def test_malformed_json_is_400(server: str, raw: bytes, where: str) -> None:
    reply = call(server, "POST", "/solve", raw=raw)
    assert reply.status == 400, reply.text
    assert reply.body["field"] == "body"
    assert (
        "malformed JSON" in reply.body["error"] or "error parsing the body" in (reply.body["error"])
    )
    assert where in reply.body["error"]
