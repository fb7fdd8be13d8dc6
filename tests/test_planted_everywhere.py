"""A divergence planted at a deal Hypothesis chooses is caught at exactly that deal, through every
adapter kind, with several jobs and shards."""

from __future__ import annotations

import shlex
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.engine import Request, run
from harness.intervals import Shard

TESTS = Path(__file__).parent
PROGRAM = TESTS / "dealers" / "planted_program.py"
RANGE = (2001, 2300)
# cmd: starts a Python process per deal: a shorter range, still several blocks, jobs and shards
CMD_RANGE = (2001, 2090)


def _python_program(planted: int) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(PROGRAM))} {planted}"


def _node_solution(planted: int, directory: Path) -> str:
    good = (TESTS / "js" / "good.js").read_text()
    path = directory / f"planted_{planted}.js"
    path.write_text(
        good.replace("function dealFreeCell(n)", "function goodDeal(n)")
        + f"\nfunction dealFreeCell(n) {{\n  const rows = goodDeal(n);\n  if (n === {planted}) {{\n"
        + "    const t = rows[1][2]; rows[1][2] = rows[1][3]; rows[1][3] = t;\n  }\n  return rows;\n}\n"
    )
    return str(path)


KINDS = ["py", "cmd", "stream", "node"]


def _impl(kind: str, planted: int, directory: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    if kind == "py":
        monkeypatch.syspath_prepend(str(TESTS / "dealers"))
        monkeypatch.setenv("PLANTED_DEAL", str(planted))
        return "py:planted:rows"
    if kind == "cmd":
        return f"cmd:{_python_program(planted)} {{n}}"
    if kind == "stream":
        return f"stream:{_python_program(planted)}"
    return f"node:{_node_solution(planted, directory)}"


@pytest.mark.parametrize("kind", KINDS)
def test_a_planted_divergence_is_caught_at_its_deal_through_every_adapter(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    if kind == "node":
        request.getfixturevalue("node")  # fails in CI without Node, skips loudly elsewhere

    deals = CMD_RANGE if kind == "cmd" else RANGE

    @settings(
        max_examples=2 if kind == "cmd" else 3,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(
        planted=st.integers(*deals),
        jobs=st.sampled_from([1, 2]),
        shards=st.sampled_from([1, 2, 3]),
    )
    def check(planted: int, jobs: int, shards: int) -> None:
        with monkeypatch.context() as m:
            impl = _impl(kind, planted, tmp_path, m)
            base = Request(impl=impl, ranges=(deals,), jobs=jobs, block_size=30 if kind == "cmd" else 60, timeout=20)
            outcomes = [run(replace(base, shard=Shard(k, shards))) for k in range(1, shards + 1)]
        failures = [o.first_failure for o in outcomes if o.first_failure is not None]
        assert failures, f"{impl}: the planted divergence at {planted} was not found"
        first = min(failures, key=lambda f: f.deal)
        assert (first.deal, first.kind, first.message) == (planted, "mismatch", "cards 11 and 12 differ")

    check()
