"""The pytest plugin's options: `verify`'s, namespaced `--fc-…`; and the harness's messages, which
name `verify`'s options, with each option spelled as the plugin takes it.

Light (loaded with the plugin into every pytest run): no request, dealer or NumPy.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from harness.intervals import BLOCK_SIZE
from reference.dialects import DEFAULT_DIALECT, DIALECTS

if TYPE_CHECKING:
    import pytest

IMPL_INI = "fc_impl"  # the ini option naming the dealers, as `--fc-impl` does

DEFAULT_RANGE = None  # as verify's: 1-32000 and a window around every boundary of the dialect

# (option, default, metavar, help); `--fc-impl` (repeatable) apart.
OPTIONS = (
    ("--fc-against", "reference", "IMPL", "what it is compared with"),
    (
        "--fc-range",
        DEFAULT_RANGE,
        "A-B",
        "deals to check (default: as verify's, 1-32000 and a window around every boundary of the dialect)",
    ),
    ("--fc-dialect", DEFAULT_DIALECT, "D", " or ".join(DIALECTS)),
    ("--fc-shard", None, "K/N", "this machine's share of the blocks"),
    ("--fc-block-size", str(BLOCK_SIZE), "N", "deals per test"),
    ("--fc-timeout", "10", "SECONDS", "per deal (0.01 … 86400)"),
    (
        "--fc-cards",
        None,
        "rank-major|suit-major",
        "a dealer's cards as bare numbers: rank × 4 + suit, or suit × 13 + rank (with --fc-suits)",
    ),
    ("--fc-suits", None, "CDHS", "a dealer's suits as numbers: the suits 0 … 3, e.g. SHDC"),
)
# Each of them as the harness's messages name it (`verify`'s spelling): `--cards` for `--fc-cards`.
_VERIFY_SPELLING = re.compile(
    r"(?<![\w-])--(" + "|".join(re.escape(o.removeprefix("--fc-")) for o, _, _, _ in OPTIONS) + r")(?![\w-])"
)


def in_plugin_words(message: str) -> str:
    """A message of the harness with each option it names spelled as the plugin takes it (`--fc-cards`)."""
    return _VERIFY_SPELLING.sub(r"--fc-\1", message)


def impls_named(config: pytest.Config) -> list[str]:
    """The dealers a run names: each `--fc-impl`, else the lines of the ini option `fc_impl`; [] if neither."""
    given: list[str] | None = config.getoption("fc_impl")
    if given:
        return given
    return [line.strip() for line in config.getini(IMPL_INI) if line.strip()]
