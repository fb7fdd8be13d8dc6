"""The reference adapter deals the short runs a slow dealer is compared in one by one while NumPy is not loaded
(at most PLAIN_DEALS deals a process), else from a window of deals dealt at once: every run is its own lines and
digest either way, across the window's edges, the domain's gaps and ends, the switch from one way to the other,
and wherever the run leaves the domain (an error, as without either); a `cmd:` run of a few hundred deals loads
no NumPy in any process."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import harness.adapters.reference as reference_adapter
import reference
from harness.adapters import DealerOptions
from harness.adapters.reference import WINDOW, ReferenceDealer

ROOT = Path(__file__).resolve().parent.parent
# How the short runs are dealt: one by one (NumPy not loaded), from windows (NumPy loaded), one by one for
# 100 deals, then from windows.
WAYS = {"one-by-one": (False, 1 << 40), "window": (True, 1 << 40), "switching": (False, 100)}


@pytest.fixture(params=list(WAYS.values()), ids=list(WAYS))
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded, plain_deals = request.param
    monkeypatch.setattr(reference_adapter, "numpy_loaded", lambda: loaded)
    monkeypatch.setattr(reference_adapter, "PLAIN_DEALS", plain_deals)


LAST = 2_147_483_647
CASES = {
    # dialect, the runs asked for one after another (one dealer: its window carries over)
    "runs in order, past the window's end": ("classic", [range(1, 17), range(17, 33), range(WINDOW - 8, WINDOW + 8)]),
    "a run back before the window": ("classic", [range(100, 116), range(50, 66)]),
    "one deal": ("classic", [[7], [8]]),
    "at the domain's end": ("classic", [range(LAST - 20, LAST - 4), range(LAST - 3, LAST + 1)]),
    "not a run": ("classic", [[5, 3, 9], [1, 1, 2]]),
    "fcpro across its rules' seam": ("fcpro", [range(LAST - 5, LAST + 11), range(LAST + 11, LAST + 27)]),
    "fcpro near its domain's end": ("fcpro", [range(8_589_934_580, 8_589_934_592)]),
    "the longest run still cut": ("classic", [range(1000, 1000 + WINDOW - 1)]),
    "a run as long as the window": ("classic", [range(1, WINDOW + 1)]),
    "runs past the switch": ("classic", [range(1, 90), range(90, 106), range(106, 110)]),
    "xp's fixed layouts, then its gap": ("xp", [range(-2, 0), range(1, 17), range(-1, 0)]),
}


@pytest.mark.parametrize(("dialect", "runs"), CASES.values(), ids=CASES.keys())
def test_each_run_is_its_own_lines_and_digest(way: None, dialect: str, runs: list[Sequence[int]]) -> None:
    dealer = ReferenceDealer(DealerOptions(dialect=dialect))
    for deals in runs:
        expected = reference.canonical_lines(list(deals), dialect)
        assert b"".join(dealer.lines(deals)) == expected, deals  # type: ignore[arg-type]
        assert dealer.block_digest(deals) == hashlib.sha256(expected).hexdigest(), deals


@pytest.mark.parametrize(
    ("dialect", "deals"),
    [("classic", range(LAST - 2, LAST + 2)), ("classic", [0, 1]), ("fcpro", range(8_589_934_590, 8_589_934_594))],
    ids=["past-the-end", "deal-0", "fcpro-past-the-end"],
)
def test_a_run_that_leaves_the_domain_is_refused_as_without_the_window(
    way: None, dialect: str, deals: Sequence[int]
) -> None:
    dealer = ReferenceDealer(DealerOptions(dialect=dialect))
    dealer.lines(range(1, 3))  # a window in place
    with pytest.raises(ValueError) as direct:
        reference.canonical_lines(list(deals), dialect)
    with pytest.raises(ValueError) as windowed:
        dealer.lines(deals)
    assert str(windowed.value) == str(direct.value)


# The command, in a process where importing NumPy fails (its workers are forks of it).
WITHOUT_NUMPY = """
import sys

class NoNumPy:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numpy":
            raise ImportError("NumPy was imported")

sys.meta_path.insert(0, NoNumPy())
from harness.__main__ import exit_at_once, main
sys.argv[0] = "freecell-harness"
exit_at_once(main())
"""


def test_a_cmd_run_of_a_few_hundred_deals_loads_numpy_in_no_process() -> None:
    """NumPy's import and the dealing tables, some 0.1 s, are what a run of a few hundred deals of a `cmd:`
    dealer would feel: neither the command nor its workers load it."""
    impl = f"cmd:awk -v n={{n}} -f {ROOT / 'examples' / 'awk' / 'freecell.awk'}"
    argv = ["verify", impl, "--range", "1-300", "--jobs", "2"]
    done = subprocess.run([sys.executable, "-c", WITHOUT_NUMPY, *argv], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout
    assert "300 deals checked, all identical" in done.stdout
