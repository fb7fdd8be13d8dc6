"""Deals per second of the reference dealer and of its peers, side by side in one run.

    python benchmarks/bench_reference.py [--deals N] [--quick]

Every peer deals classic deals 1 … N into canonical lines and hashes them; a figure counts only if
its SHA-256 is the reference's block digest of 1 … N (✓), so every row is checked, not just timed.
Subprocess figures are wall-clock times including the program's start-up.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import reference

HERE = Path(__file__).resolve().parent
CHUNK = 1 << 20


@dataclass(frozen=True)
class Figure:
    name: str
    deals: int
    seconds: float | None = None
    digest: str | None = None
    note: str = ""

    @property
    def rate(self) -> float | None:
        return self.deals / self.seconds if self.seconds else None


def _timed_digest(lines: Iterable[bytes]) -> tuple[float, str]:
    h = hashlib.sha256()
    started = time.perf_counter()
    for chunk in lines:
        h.update(chunk)
    return time.perf_counter() - started, h.hexdigest()


def _timed_pipe(command: list[str]) -> tuple[float, str]:
    """Run `command`, hashing its stdout as it comes; wall-clock seconds and the digest."""
    h = hashlib.sha256()
    started = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        while chunk := proc.stdout.read(CHUNK):
            h.update(chunk)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"{command[0]} exited with status {proc.returncode}")
    return elapsed, h.hexdigest()


def one_deal_path(n: int, _tmp: Path) -> Figure:
    seconds, digest = _timed_digest(reference.deal(i).line.encode() for i in range(1, n + 1))
    return Figure("reference.deal, one deal at a time", n, seconds, digest)


def bulk_path(n: int, _tmp: Path) -> Figure:
    seconds, digest = _timed_digest(reference.iter_lines(1, n))
    return Figure("reference.iter_lines (in-process)", n, seconds, digest)


def bulk_path_one_thread(n: int, _tmp: Path) -> Figure:
    """The same with no batch computed ahead: dealing and hashing take turns on one core."""
    seconds, digest = _timed_digest(reference.iter_lines(1, n, ahead=False))
    return Figure("reference.iter_lines(ahead=False)", n, seconds, digest)


def cli_range(n: int, _tmp: Path) -> Figure:
    command = [sys.executable, "-m", "harness", "deal", "--range", f"1-{n}", "--format", "line"]
    seconds, digest = _timed_pipe(command)
    return Figure("freecell-harness deal --range (pipe)", n, seconds, digest)


def pysol(n: int, _tmp: Path) -> Figure:
    name = "pysol-cards, one deal at a time"
    try:
        from pysol_cards.cards import CardRenderer  # type: ignore[import-untyped]
        from pysol_cards.deal_game import Game  # type: ignore[import-untyped]
        from pysol_cards.random_base import RandomBase  # type: ignore[import-untyped]
    except ImportError:
        return Figure(name, n, note="n/a: pysol-cards not installed")
    renderer = CardRenderer(True)

    def lines() -> Iterable[bytes]:
        for i in range(1, n + 1):
            columns = str(Game("freecell", i, RandomBase.DEALS_MS).calc_layout_string(renderer)).split("\n")
            cards = [columns[p % 8].split(" ")[p // 8] for p in range(52)]
            yield (" ".join(cards) + "\n").encode()

    seconds, digest = _timed_digest(lines())
    return Figure(name, n, seconds, digest)


def c_loop(n: int, tmp: Path) -> Figure:
    name = "plain C loop, cc -O2 (pipe)"
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        return Figure(name, n, note="n/a: no C compiler")
    binary = tmp / "loop"
    subprocess.run([cc, "-O2", "-o", str(binary), str(HERE / "loop.c")], check=True)
    seconds, digest = _timed_pipe([str(binary), "1", str(n)])
    return Figure(name, n, seconds, digest)


def c_loop_unbounded(n: int, tmp: Path) -> Figure:
    """The yardstick: the same C loop into /dev/null, bounded by nothing but itself (a pipe into a hash
    measures the hash)."""
    name = "plain C loop, cc -O2 (/dev/null)"
    binary = tmp / "loop"
    if not binary.exists():
        return Figure(name, n, note="n/a: no C compiler")
    started = time.perf_counter()
    subprocess.run([str(binary), "1", str(n)], stdout=subprocess.DEVNULL, check=True)
    return Figure(name, n, time.perf_counter() - started, None)


def node_solution(n: int, tmp: Path) -> Figure:
    """The same bare Node loop as bench_node.py and bench_verify.py (start-up included here)."""
    from bench_node import BARE_LOOP

    from harness.challenge import read_challenge
    from harness.errors import RequestError
    from harness.node.locate import find_node
    from harness.seeds import default_seed_document

    name = "original JS solution under Node"
    document = default_seed_document()
    try:
        node = find_node()
        solution = read_challenge(document).solution
    except RequestError as exc:
        return Figure(name, n, note=f"n/a: {exc}")
    if solution is None:
        return Figure(name, n, note=f"n/a: no solution in {document.name}")
    (tmp / "solution.js").write_text(solution, encoding="utf-8")
    (tmp / "loop.js").write_text(BARE_LOOP, encoding="utf-8")
    started = time.perf_counter()
    done = subprocess.run(
        [node, str(tmp / "loop.js"), str(tmp / "solution.js"), str(n)], capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        return Figure(name, n, note=f"n/a: node exited {done.returncode}: {done.stderr.strip()[-200:]}")
    return Figure(name, n, seconds, json.loads(done.stdout)["digest"])


PEERS: list[Callable[[int, Path], Figure]] = [
    one_deal_path,
    bulk_path,
    bulk_path_one_thread,
    cli_range,
    pysol,
    c_loop,
    c_loop_unbounded,
    node_solution,
]


def _version(command: list[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return "absent"
    return (done.stdout or done.stderr).strip().splitlines()[0] if done.returncode == 0 else "absent"


def _package(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> list[str]:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return [
        f"machine  {platform.system()} {platform.machine()}, nproc {usable}, CPU {_cpu_model()}",
        f"python   {platform.python_version()}, numpy {_package('numpy')}, pysol-cards {_package('pysol-cards')}",
        f"cc       {_version([os.environ.get('CC', 'cc'), '--version'])}",
        f"node     {_version([os.environ.get('FREECELL_NODE', 'node'), '--version'])}",
    ]


def table(figures: list[Figure], expected: str) -> list[str]:
    c = next((f.rate for f in figures if f.name.endswith("(/dev/null)") and f.rate), None)
    rows = [f"{'implementation':<40} {'deals':>11} {'seconds':>9} {'deals/s':>12} {'vs C':>8}  sha256"]
    for f in figures:
        if f.rate is None or f.seconds is None:
            rows.append(f"{f.name:<40} {f.note}")
            continue
        ratio = f"{f.rate / c:.3f}×" if c else "n/a"
        mark = "(not hashed: the yardstick)" if f.digest is None else "✓" if f.digest == expected else f"✗ {f.digest}"
        rows.append(f"{f.name:<40} {f.deals:>11,} {f.seconds:>9.2f} {f.rate:>12,.0f} {ratio:>8}  {mark}")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=None, help="deals 1 … N for every peer (default 1,000,000)")
    parser.add_argument("--quick", action="store_true", help="100,000 deals: a smoke run, figures less steady")
    args = parser.parse_args(argv)
    n = args.deals or (100_000 if args.quick else 1_000_000)
    if not 1 <= n <= 2**31 - 1:
        parser.error("--deals must be within the classic domain, 1 … 2147483647")

    print("\n".join(machine()))
    expected = reference.block_digest(range(1, n + 1))
    print(f"deals    classic 1 … {n:,}; block digest {expected}\n", flush=True)
    figures = []
    with tempfile.TemporaryDirectory(prefix="fcbench-") as tmp:
        for peer in PEERS:
            print(f"  measuring {peer.__name__} …", file=sys.stderr, flush=True)
            sys.stdout.flush()
            figures.append(peer(n, Path(tmp)))
    print("\n".join(table(figures, expected)))
    measured = [f for f in figures if f.digest is not None]
    agree = all(f.digest == expected for f in measured)
    print(
        f"\n{'✓' if agree else '✗'} {sum(f.digest == expected for f in measured)} of {len(measured)} peers "
        f"produced the reference's SHA-256 for deals 1 … {n:,}"
    )
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
