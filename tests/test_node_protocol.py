"""The driver's messages are validated on receipt: a message that breaks the protocol, or a
refusal, is a ProtocolError (the driver is alive), never mistaken for a dead process."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from harness.node import protocol
from harness.node.protocol import (
    DealFailure,
    DealRequest,
    DriverRefused,
    HintResult,
    LinesPart,
    LoadAnswer,
    ProtocolError,
    RawBoard,
)
from reference.cards import CARD_NAMES

Reader = Callable[[Mapping[str, object]], object]

# A board as given with a card repeated: the deck in order, its last card (KS) in place of KH.
GIVEN = " ".join([*CARD_NAMES[:-2], "KS", "KS"])

GOOD: list[tuple[Reader, dict[str, object], object]] = [
    (protocol.read_load, {"id": 1, "end": True, "ok": True}, LoadAnswer("ok")),
    (
        protocol.read_load,
        {"id": 1, "end": True, "ok": False, "status": "missing", "message": "no", "file": None, "line": None},
        LoadAnswer("missing", "no"),
    ),
    (
        protocol.read_lines_part,
        {
            "id": 2,
            "part": True,
            "from": 3,
            "lines": ["x\n", None],
            "raw": [{"index": 4, "value": "JD"}],
            "failures": [{"index": 5, "deal": 9, "kind": "timeout", "message": "slow"}],
        },
        LinesPart(3, ("x\n", None), (RawBoard(4, "JD"),), (DealFailure(5, 9, "timeout", "slow"),)),
    ),
    (protocol.read_deal_end, {"id": 2, "end": True, "count": 3, "digest": "ab", "failure": None}, None),
    (
        protocol.read_lines_part,
        {
            "from": 0,
            "lines": [None],
            "raw": [],
            "failures": [{"index": 0, "deal": 7, "kind": "invalid-output", "message": "repeated", "actual": GIVEN}],
        },
        LinesPart(0, (None,), (), (DealFailure(0, 7, "invalid-output", "repeated", GIVEN),)),
    ),
]


@pytest.mark.parametrize(("reader", "message", "expected"), GOOD)
def test_well_formed_messages_become_typed_values(reader: Reader, message: dict[str, object], expected: object) -> None:
    value = reader(message)
    if expected is not None:
        assert value == expected


BAD: list[tuple[Reader, dict[str, object], str]] = [
    (protocol.read_hello, {"hello": "someone-else", "protocol": 2}, "greeting"),
    (protocol.read_hello, {"hello": "freecell-harness-driver", "protocol": 1}, "protocol 1"),
    (protocol.read_load, {"id": 1, "end": True, "ok": False, "status": "fine"}, "load status"),
    (protocol.read_load, {"id": 1, "end": True, "error": "malformed request"}, "refused"),
    (protocol.read_lines_part, {"from": 0, "lines": [1], "raw": [], "failures": []}, "not text"),
    (protocol.read_lines_part, {"from": "0", "lines": [], "raw": [], "failures": []}, "bad 'from'"),
    (protocol.read_lines_part, {"from": 0, "lines": [], "raw": [], "failures": [{"index": 0, "deal": 1}]}, "kind"),
    (protocol.read_lines_part, {"from": 0, "lines": [], "raw": [5], "failures": []}, "not an object"),
    # A failure's board given: 51 cards, a card that is none, a trailing space, of a timeout, a number.
    *(
        (
            protocol.read_lines_part,
            {
                "from": 0,
                "lines": [],
                "raw": [],
                "failures": [{"index": 0, "deal": 1, "kind": kind, "message": "m", "actual": actual}],
            },
            needle,
        )
        for kind, actual, needle in [
            ("invalid-output", GIVEN[3:], "52 card names"),
            ("invalid-output", "XX" + GIVEN[2:], "52 card names"),
            ("invalid-output", GIVEN + " ", "52 card names"),
            ("timeout", GIVEN, "52 card names"),
            ("invalid-output", 52, "bad 'actual'"),
        ]
    ),
    (protocol.read_deal_end, {"end": True}, "lacks 'count'"),
    (protocol.read_deal_end, {"end": True, "count": True}, "bad 'count'"),
    (protocol.read_deal_end, {"id": 3, "end": True, "error": "no dealer loaded"}, "no dealer loaded"),
    (protocol.read_hints, {"solution": {"status": "ok"}, "hints": [{"status": "maybe"}]}, "hint status"),
    (protocol.read_hints, {"solution": "ok", "hints": []}, "not an object"),
]


@pytest.mark.parametrize(("reader", "message", "needle"), BAD)
def test_malformed_messages_and_refusals_are_protocol_errors(
    reader: Reader, message: dict[str, object], needle: str
) -> None:
    with pytest.raises(ProtocolError, match=needle):
        reader(message)


def test_a_refusal_is_its_own_kind_of_protocol_error() -> None:
    with pytest.raises(DriverRefused):
        protocol.check_refusal({"id": 1, "end": True, "error": "unknown op"})


@pytest.mark.parametrize(
    ("deals", "wire"),
    [
        (range(5, 9), {"start": 5, "stop": 8}),
        ([7, 8, 9], {"start": 7, "stop": 9}),
        ([7, 9, 8], {"deals": [7, 9, 8]}),
        ([1, 2, 4], {"deals": [1, 2, 4]}),
        (range(1, 10, 2), {"deals": [1, 3, 5, 7, 9]}),
    ],
)
def test_deal_requests_send_a_range_only_when_the_deals_are_consecutive(
    deals: range | list[int], wire: dict[str, object]
) -> None:
    sent = DealRequest(deals, "lines").to_json(4, 1000)
    assert {k: v for k, v in sent.items() if k in ("start", "stop", "deals")} == wire


def test_hint_results_keep_their_reasons() -> None:
    answer = protocol.read_hints(
        {
            "solution": {"status": "runtime-error", "error": "boom"},
            "after_test_error": None,
            "hints": [{"status": "broken", "reason": "x is not defined"}],
        }
    )
    assert (answer.solution_status, answer.solution_error) == ("runtime-error", "boom")
    assert answer.hints == (HintResult("broken", "x is not defined"),)
