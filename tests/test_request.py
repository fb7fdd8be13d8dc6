"""One validated request: every bound said in one line (exit 2), for the CLI and the plugin alike."""

from __future__ import annotations

import pytest

from harness.errors import RequestError
from harness.intervals import Shard
from harness.request import MAX_TIMEOUT, MIN_TIMEOUT, Request, max_jobs, parse_timeout


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"ranges": ((0, 5),)}, "outside the classic domain"),
        ({"ranges": ((9, 5),)}, "reversed"),
        ({"ranges": ((1, 5),), "sample": 30}, "not both"),
        ({"ranges": ()}, "give --range or --sample"),
        ({"sample": 3, "ranges": ()}, "boundaries"),
        ({"sample": 10**12, "ranges": ()}, "only 2147483647 deals"),
        ({"jobs": 0}, "--jobs 0"),
        ({"jobs": 10_000}, "--jobs 10000"),
        ({"block_size": 0}, "--block-size 0"),
        ({"block_size": -5}, "--block-size -5"),
        ({"timeout": -1.0}, "--timeout"),
        ({"timeout": float("inf")}, "--timeout inf"),
        ({"timeout": float("nan")}, "--timeout nan"),
        ({"timeout": 1e-9}, "--timeout 1e-09"),
        ({"shard": Shard(3, 2)}, "--shard 3/2"),
        ({"dialect": "msvc"}, "--dialect 'msvc'"),
        ({"encoding": "klingon"}, "--encoding"),
        ({"impl": "nonsense"}, "unknown implementation"),
        ({"against": "node:"}, "nothing after 'node:'"),
        ({"seed": -1, "sample": 30, "ranges": ()}, "--seed -1"),
    ],
)
def test_a_request_out_of_bounds_is_refused_in_one_line(fields: dict[str, object], says: str) -> None:
    values: dict[str, object] = {"impl": "reference", "ranges": ((1, 10),)} | fields
    with pytest.raises(RequestError, match=says.replace("(", r"\(").replace(")", r"\)")) as caught:
        Request(**values)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("text", "ok"),
    [("10", True), (str(MIN_TIMEOUT), True), (str(MAX_TIMEOUT), True), ("0", False), ("inf", False),
     ("1e308", False), ("nan", False), ("1e-9", False), ("ten", False), ("-1", False)],
)  # fmt: skip
def test_timeouts_have_one_accepted_range(text: str, ok: bool) -> None:
    if ok:
        assert parse_timeout(text) == float(text)
    else:
        with pytest.raises(RequestError, match="--timeout"):
            parse_timeout(text)


def test_the_jobs_ceiling_is_four_per_core_and_at_most_256() -> None:
    assert 4 <= max_jobs() <= 256
    Request("reference", ranges=((1, 10),), jobs=max_jobs())
    with pytest.raises(RequestError, match="--jobs"):
        Request("reference", ranges=((1, 10),), jobs=max_jobs() + 1)


@pytest.mark.parametrize(
    ("kwargs", "ranges", "total"),
    [
        ({}, ((1, 33001), (999000, 1001001), (2147482647, 2147483647)), 36004),
        ({"ranges": ["-2-100"], "dialect": "xp"}, ((-2, 100),), 102),
        ({"sample": "40", "seed": "3"}, (), 40),
    ],
)
def test_the_cli_and_plugin_build_the_same_request_from_text(
    kwargs: dict[str, object], ranges: tuple[tuple[int, int], ...], total: int
) -> None:
    request = Request.from_text("reference", jobs="1", **kwargs)  # type: ignore[arg-type]
    assert request.ranges == ranges and request.total == total
    assert sum(len(b) for b in request.blocks()) == total


def test_seed_without_sample_is_refused() -> None:
    with pytest.raises(RequestError, match="--seed goes with --sample"):
        Request.from_text("reference", seed="3")
