"""`--dialect fcpro` tells a FreeCell Pro dealer from a classic one that wraps at 2³¹."""

from __future__ import annotations

import pytest

from harness.cli import main
from harness.seeds import default_seed_document

ACROSS_2_31 = "2147483600-2147483700"


pytestmark = pytest.mark.usefixtures("test_dealers")


@pytest.mark.parametrize(
    ("impl", "dialect", "exit_status", "verdict"),
    [
        ("pysol-cards", "fcpro", 0, "CONFORMS"),
        ("py:wrapping:deal", "fcpro", 1, "conforms on 2147483600 … 2147483647, first mismatch at deal 2147483648"),
        ("py:wrapping:deal", "classic", 2, "outside the classic domain"),  # no such classic deal
    ],
)
def test_fcpro_tells_a_wrapping_dealer_from_a_freecell_pro_one(
    impl: str, dialect: str, exit_status: int, verdict: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", impl, "--dialect", dialect, "--range", ACROSS_2_31, "--jobs", "1"]) == exit_status
    captured = capsys.readouterr()
    assert verdict in captured.out + captured.err


def test_the_original_solution_wraps_at_2_31_so_it_is_not_fcpro(node: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["verify", f"node:{default_seed_document()}", "--dialect", "fcpro", "--range", ACROSS_2_31, "--jobs", "1"]
    assert main(argv) == 1
    assert "first mismatch at deal 2147483648" in capsys.readouterr().out
