"""tools/fcdigest.c, the independent C implementation that confirms whole-domain digest tables,
agrees with the golden fixtures (which the reference, the original solution and pysol-cards
confirmed) in every region of the fcpro domain, and refuses bad requests."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from conftest import need_tools

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tools" / "fcdigest.c"
TABLES = [  # (table, its block size)
    (ROOT / "fixtures" / "classic" / "digests-1-1000000.tsv", 10_000),
    (ROOT / "fixtures" / "fcpro" / "digests-boundaries.tsv", 10_000),
    (ROOT / "fixtures" / "fcpro" / "digests-sampled.tsv", 10_000),
    (ROOT / "fixtures" / "classic" / "digests-domain.tsv", 1_000_000),
    (ROOT / "fixtures" / "fcpro" / "digests-domain.tsv", 1_000_000),
]


@pytest.fixture(scope="module")
def fcdigest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_tools("cc")
    out = tmp_path_factory.mktemp("fcdigest") / "fcdigest"
    subprocess.run(["cc", "-O2", "-o", str(out), str(SOURCE), "-lcrypto"], check=True)
    return out


def _rows(table: Path) -> list[tuple[int, int, str]]:
    lines = table.read_text().splitlines()[1:]
    return [(int(a), int(b), h) for a, b, h in (line.split("\t") for line in lines)]


def _sampled_rows() -> list[tuple[str, int, int, int, str]]:
    rng = random.Random(20261122)
    picked = []
    for table, block in TABLES:
        rows = _rows(table)
        name = f"{table.parent.name}/{table.name}"
        picked += [(name, block, *row) for row in [rows[0], rows[-1], *rng.sample(rows, 3)]]
    return picked


@pytest.mark.parametrize(("table", "block", "first", "last", "sha256"), _sampled_rows())
def test_fcdigest_agrees_with_the_golden_tables(
    fcdigest: Path, table: str, block: int, first: int, last: int, sha256: str
) -> None:
    out = subprocess.run([str(fcdigest), "fcpro", str(first), str(last), str(block)], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    assert out == f"{first}\t{last}\t{sha256}\n"


def test_fcdigest_cuts_rows_on_the_grid(fcdigest: Path) -> None:
    out = subprocess.run([str(fcdigest), "classic", "9995", "20003", "10000"], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    assert [tuple(map(int, row.split("\t")[:2])) for row in out.splitlines()] == [(9995, 10000), (10001, 20000),
                                                                                  (20001, 20003)]  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["classic", "0", "5", "10"],
        ["classic", "1", "2147483648", "10"],
        ["fcpro", "1", "8589934592", "10"],
        ["fcpro", "5", "4", "10"],
        ["xp", "1", "5", "10"],
        ["classic", "1", "5", "0"],
        ["classic", "1x", "5", "10"],
        ["classic", "1", "5"],
    ],
)
def test_fcdigest_refuses_bad_requests(fcdigest: Path, argv: list[str]) -> None:
    run = subprocess.run([str(fcdigest), *argv], capture_output=True, text=True, check=False)
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 1
