"""The `node:` adapter: the Node driver and its bridge, against small JavaScript dealers of our own."""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import reference
from harness.adapters import DealerOptions, open_dealer
from harness.adapters.node import NodeDealer
from harness.challenge.command import check_conformance
from harness.cli import main
from harness.errors import RequestError
from harness.failures import Failure
from harness.node import bridge as bridge_module
from harness.node.bridge import NodeBridge
from harness.node.locate import find_node
from harness.node.protocol import ProtocolError

JS = Path(__file__).with_name("js")


_ASSEMBLED = tempfile.TemporaryDirectory(prefix="freecell-js-")


def js(name: str) -> str:
    """Path of a test dealer.  A variant calls `correct(n)`, good.js's dealer, which is appended
    (function declarations hoist, so the variant's own line numbers stay those of its file)."""
    source = (JS / name).read_text(encoding="utf-8")
    if "correct(n)" not in source or "function correct" in source:
        return os.path.relpath(JS / name)
    good = (JS / "good.js").read_text(encoding="utf-8").replace("function dealFreeCell(n)", "function correct(n)")
    path = Path(_ASSEMBLED.name) / name
    path.write_text(source + good, encoding="utf-8")
    return str(path)


def line_of(path: str | Path, needle: str) -> int:
    """1-based line of the first line of `path` containing `needle`."""
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def expected(n: int) -> bytes:
    return reference.canonical_lines([n])


def dealer(name: str, timeout: float = 10.0) -> NodeDealer:
    d = open_dealer(f"node:{js(name)}", DealerOptions(timeout=timeout))
    assert isinstance(d, NodeDealer)
    return d


@pytest.mark.parametrize(
    "deals",
    [range(1, 2001), [1, 617, 2**31 - 1, 11982, 5], range(31990, 32011), [7]],
    ids=["range", "list", "boundary-range", "one"],
)
def test_good_dealer_matches_reference(node: str, deals: range | list[int]) -> None:
    with dealer("good.js") as d:
        assert d.block_digest(deals) == reference.block_digest(deals)
        assert b"".join(a for a in d.lines(deals) if isinstance(a, bytes)) == reference.canonical_lines(deals)


def test_one_process_serves_every_block(node: str) -> None:
    with dealer("good.js") as d:
        proc = d.bridge._proc
        assert proc is not None
        for start in range(1, 5001, 1000):
            assert d.block_digest(range(start, start + 1000)) is not None
            d.lines(range(start, start + 3))
        assert d.bridge._proc is proc and proc.child.alive()
        assert d.bridge.restarts == 0


@pytest.mark.parametrize(
    ("deal", "needles"),
    [
        (2, ["dealFreeCell(2) returned an array of 7", "repeated"]),
        (3, ["row 3, card 3 is the number 7: not a card"]),
        (6, ["dealFreeCell(6) returned nothing (undefined)"]),
        (9, ["7 groups of 8 8 8 8 8 8 5 cards: expected rows (8 8 8 8 8 8 4)"]),
    ],
)
def test_invalid_output_names_what_is_wrong(node: str, deal: int, needles: list[str]) -> None:
    with dealer("invalid.js") as d:
        [answer] = d.lines([deal])
        assert isinstance(answer, Failure), answer
        assert (answer.deal, answer.kind) == (deal, "invalid-output")
        for needle in needles:
            assert needle in answer.message
        assert d.block_digest(range(1, 11)) is None


def test_other_board_shapes_are_read_leniently(node: str) -> None:
    """Columns, '10' for ten and a flat array of 52 cards are boards (SPEC: node: dealers may
    return rows, columns, 52 cards or board text)."""
    with dealer("invalid.js") as d:
        assert d.lines([1, 4, 5]) == [expected(1), expected(4), expected(5)]


def test_invalid_deals_do_not_spoil_their_neighbours(node: str) -> None:
    with dealer("invalid.js") as d:
        answers = d.lines(range(1, 12))
    kinds = {n: a.kind for n, a in zip(range(1, 12), answers, strict=True) if isinstance(a, Failure)}
    assert set(kinds) == {2, 3, 6, 9}
    for n, a in zip(range(1, 12), answers, strict=True):
        if n not in kinds:
            assert a == expected(n)


@pytest.mark.parametrize(
    ("deal", "needles"),
    [
        (7, ["TypeError: no deal seven here", f"throws.js:{line_of(JS / 'throws.js', 'no deal seven')})"]),
        (8, ["RangeError", "call stack"]),
    ],
)
def test_a_throw_is_an_error_naming_the_line(node: str, deal: int, needles: list[str]) -> None:
    with dealer("throws.js") as d:
        answers = d.lines([6, deal, 9])
    assert answers[0] == expected(6) and answers[2] == expected(9)
    failure = answers[1]
    assert isinstance(failure, Failure) and (failure.deal, failure.kind) == (deal, "error")
    for needle in needles:
        assert needle in failure.message


def test_a_hang_is_a_timeout_and_the_block_goes_on(node: str) -> None:
    timeout = 0.5
    with dealer("hangs.js", timeout) as d:
        answers = d.lines(range(1, 7))
        assert d.block_digest(range(1, 7)) is None
        assert d.block_digest(range(4, 9)) == reference.block_digest(range(4, 9))
        # The driver's own timeout interrupted the hang: the watchdog never had to kill the process.
        assert d.bridge.restarts == 0
    for n, a in zip(range(1, 7), answers, strict=True):
        if n == 3:
            assert isinstance(a, Failure) and a.kind == "timeout" and "dealFreeCell(3)" in a.message
        else:
            assert a == expected(n)


def test_slow_but_finite_deals_are_not_timeouts(node: str) -> None:
    with dealer("slow.js", 0.5) as d:
        assert d.lines(range(1, 5)) == [expected(n) for n in range(1, 5)]


SMALL_HEAP = "--max-old-space-size=32"  # a dealer that exhausts the V8 heap dies within a second


@pytest.mark.parametrize(
    ("name", "before", "deals", "stateful"),
    [
        # Deal 5 kills the process whatever was dealt before: blamed there, as a deal that dies alone.
        ("crash_oom.js", None, range(1, 11), []),
        ("crash_oom.js", range(1, 4), range(4, 11), []),
        # Every process dies at its 20th deal: blamed at the deal it died at, in the process that
        # died (after the deals it had dealt before), saying that this deal alone answers.
        ("dies_after.js", None, range(1, 46), [20, 40]),
        ("dies_after.js", range(1, 11), range(11, 46), [20, 40]),
        ("dies_after.js", range(1, 20), range(20, 46), [20, 40]),
    ],
    ids=["alone", "alone-after-history", "stateful", "stateful-after-history", "stateful-at-the-first-deal"],
)
def test_a_crash_is_pinned_to_the_deal_the_dealer_died_at(
    node: str, monkeypatch: pytest.MonkeyPatch, name: str, before: range | None, deals: range, stateful: list[int]
) -> None:
    monkeypatch.setenv("NODE_OPTIONS", SMALL_HEAP)
    with dealer(name) as d:
        if before is not None:
            assert d.block_digest(before) == reference.block_digest(before)
        answers = d.lines(deals)
        assert d.bridge.restarts >= 1
    crashes = stateful or [5]
    assert [a.deal for a in answers if isinstance(a, Failure)] == [c for c in crashes if c in deals]
    for n, a in zip(deals, answers, strict=True):
        if not isinstance(a, Failure):
            assert a == expected(n)
            continue
        assert a.kind == "crash" and "heap out of memory" in a.message, a
        assert "$NODE_OPTIONS" in a.message and "--memory-limit" not in a.message  # the heap limit is the user's
        assert a.message.startswith(f"dealFreeCell({n})")
        assert ("the dealer keeps state" in a.message) == bool(stateful), a.message
        if stateful:
            assert f"alone, deal {n} answers" in a.message


def test_a_death_after_a_long_life_is_looked_for_from_a_fresh_start_saying_so(
    node: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond HISTORY_CAP deals a process's life is not dealt again: the death is pinned where a
    fresh process dies, and the message says which deals were left out."""
    monkeypatch.setenv("NODE_OPTIONS", SMALL_HEAP)
    monkeypatch.setattr(bridge_module, "HISTORY_CAP", 5)
    with dealer("dies_after.js") as d:
        assert d.block_digest(range(1, 11)) == reference.block_digest(range(1, 11))
        answers = d.lines(range(11, 46))
    [failure] = [a for a in answers if isinstance(a, Failure)]
    assert (failure.deal, failure.kind) == (30, "crash"), failure
    assert "dealt again without the 10 deals its first process had dealt before" in failure.message
    assert "alone, deal 30 answers: the dealer keeps state" in failure.message


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_driver_killed_from_outside_is_restarted_and_no_deal_is_blamed(node: str, sig: signal.Signals) -> None:
    """A death the dealer did not cause is not pinned on a deal: the block goes on in a new process."""
    with dealer("slow.js", 2.0) as d:
        proc = d.bridge._proc
        assert proc is not None
        killer = threading.Timer(0.3, os.kill, (proc.child.pid, sig))
        killer.start()
        try:
            answers = d.lines(range(1, 5))
        finally:
            killer.join()
        assert d.bridge.restarts >= 1
    assert answers == [expected(n) for n in range(1, 5)]


@pytest.mark.parametrize(
    ("name", "deal", "needles"),
    [
        ("crash_oom.js", 5, ["dealFreeCell(5): Node exited with signal", "heap out of memory"]),
        # The first 16 deals pass in a process of their own; the next chunk dies at deal 20.
        ("dies_after.js", 20, ["heap out of memory", "alone, deal 20 answers", "the dealer keeps state"]),
    ],
)
def test_verify_names_the_deal_a_crashing_dealer_died_at(
    node: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    deal: int,
    needles: list[str],
) -> None:
    monkeypatch.setenv("NODE_OPTIONS", SMALL_HEAP)
    assert main(["verify", f"node:{js(name)}", "--range", "1-200", "--jobs", "1"]) == 1
    verdict = capsys.readouterr().out.splitlines()[0]
    assert verdict.startswith("DIVERGES:") and f"first crash at deal {deal}: " in verdict, verdict
    for needle in needles:
        assert needle in verdict


def test_the_watchdog_kills_a_driver_that_stops_answering(node: str) -> None:
    """A driver stopped from outside (no dealer can block it any more: the vm timeout interrupts
    everything it can reach) is killed by the watchdog, restarted, and the block goes on."""
    timeout = 0.5
    with dealer("good.js", timeout) as d:
        proc = d.bridge._proc
        assert proc is not None
        os.kill(proc.child.pid, signal.SIGSTOP)
        answers = d.lines(range(1, 5))
        assert d.bridge.restarts == 1
    assert answers == [expected(n) for n in range(1, 5)]


@pytest.mark.parametrize(
    ("source", "needles"),
    [
        ("002_510b9092f5b6f07e.txt", ["SyntaxError", ":{line}:", "does not compile"]),
        ("no_function.js", ["defines no function dealFreeCell"]),
        ("top_level_throws.js", ["undefinedHelper is not defined", ":{line}:"]),
    ],
)
def test_an_unusable_solution_is_a_request_error(node: str, seeds: Path, source: str, needles: list[str]) -> None:
    path = os.path.relpath(seeds / source) if source.endswith(".txt") else js(source)
    line = line_of(
        path, {"002_510b9092f5b6f07e.txt": "% deck.length", "top_level_throws.js": "undefinedHelper"}.get(source, "")
    )
    with pytest.raises(RequestError) as caught:
        open_dealer(f"node:{path}")
    message = str(caught.value)
    assert "\n" not in message and path in message
    for needle in needles:
        assert needle.format(line=line) in message


@pytest.mark.parametrize(
    ("name", "first", "last", "deal", "kind"),
    [
        ("mismatch.js", 1, 3000, 1000, "mismatch"),
        ("invalid.js", 1, 100, 2, "invalid-output"),
        ("good.js", 1, 3000, None, None),
    ],
)
def test_check_conformance_finds_the_first_divergent_deal(
    node: str, name: str, first: int, last: int, deal: int | None, kind: str | None
) -> None:
    with dealer(name) as d:
        result = check_conformance(d, first, last)
    if deal is None:
        assert result.conformant and result.checked == last - first + 1
        return
    assert result.first_failure is not None
    assert (result.first_failure.deal, result.first_failure.kind) == (deal, kind)
    assert result.checked == deal - first + 1
    assert result.first_failure.expected == expected(deal).decode().rstrip("\n")
    if kind == "mismatch":
        assert result.first_failure.message == "cards 1 and 2 differ"


@pytest.mark.slow
def test_the_original_solution_agrees_with_the_reference_to_a_million(node: str, seeds: Path) -> None:
    with open_dealer(f"node:{os.path.relpath(seeds / '000_8985819e1f56d382.txt')}") as d:
        result = check_conformance(d, 1, 1_000_000)
    assert result.conformant and result.checked == 1_000_000


@pytest.fixture
def use_node(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Path], None]]:
    """Point $FREECELL_NODE somewhere for one test (the lookup is cached: cleared before and after)."""

    def use(path: Path) -> None:
        monkeypatch.setenv("FREECELL_NODE", str(path))
        find_node.cache_clear()

    yield use
    find_node.cache_clear()


def fake_node(tmp_path: Path, script: str) -> Path:
    fake = tmp_path / "node"
    fake.write_text(f"#!/bin/sh\n{script}\n")
    fake.chmod(0o755)
    return fake


@pytest.mark.parametrize("version", ["v16.20.0", "v18.19.1"])
def test_old_node_is_a_request_error(tmp_path: Path, use_node: Callable[[Path], None], version: str) -> None:
    use_node(fake_node(tmp_path, f"echo {version}"))
    with pytest.raises(RequestError, match="Node >= 20"):
        NodeBridge()


@pytest.mark.parametrize("where", ["no-such-node", "."], ids=["missing", "a directory"])
def test_missing_node_is_a_request_error(tmp_path: Path, use_node: Callable[[Path], None], where: str) -> None:
    use_node(tmp_path / where)
    with pytest.raises(RequestError, match="Node not found"):
        open_dealer(f"node:{js('good.js')}")


@pytest.mark.parametrize(
    ("script", "needle"),
    [
        ("echo hello", "is not Node"),  # prints something else
        ("yes v20.0.0", "is not Node"),  # floods stdout
        ("exit 3", "is not Node"),  # prints nothing
        ("cat", "is not Node"),  # waits for stdin
        ('echo "$*" | grep -q version && echo v20.1.0 || echo "not a driver"', "did not start the Node driver"),
    ],
)
def test_something_that_is_not_node_is_one_line(
    tmp_path: Path, use_node: Callable[[Path], None], capsys: pytest.CaptureFixture[str], script: str, needle: str
) -> None:
    use_node(fake_node(tmp_path, script))
    assert main(["verify", f"node:{js('good.js')}", "--range", "1-5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_a_refusal_is_a_protocol_error_not_a_crash(node: str) -> None:
    """A driver that answers `{"error": …}` is alive: ProtocolError, no kill, no restart."""
    bridge = NodeBridge(5.0)
    try:
        with pytest.raises(ProtocolError, match="no dealer loaded"):
            bridge.lines([1, 2, 3])
        proc = bridge._proc
        assert proc is not None and proc.child.alive() and bridge.restarts == 0
        with pytest.raises(ProtocolError, match="no dealer loaded"):
            bridge.digest([1, 2, 3])
        assert bridge._proc is proc and bridge.restarts == 0
    finally:
        bridge.close()
