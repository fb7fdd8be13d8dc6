"""The golden fixtures: what they hold (the plan), regenerating them, checking them, loading them.

Every file is plain text that anyone can check with `sha256sum`; `MANIFEST.json` names each file
with its SHA-256 and the implementations that agreed on it when it was generated.  Nothing here
trusts a file whose SHA-256 differs from the manifest's.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

import reference
from harness.adapters.base import Dealer, DealerOptions
from harness.errors import RequestError
from harness.failures import Failure
from harness.files import write_atomically
from harness.seeds import PROJECT_ROOT, default_seed_document
from reference.deal import LINE_BYTES

SCHEMA_VERSION: Final = 1
MANIFEST: Final = "MANIFEST.json"
BLOCK: Final = 10_000  # rows lie on the engine's grid: deals (k−1)·10000+1 … k·10000
DIGEST_HEADER: Final = b"start\tstop\tsha256\n"
FCPRO_SAMPLE_SEED: Final = 20260101
FCPRO_SAMPLES: Final = 6
FCPRO_BOUNDARIES: Final = (2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**33 - 1)
FCPRO_PUBLISHED: Final = 3_000_000_000  # the published fcpro board (vectors/published.json)
_ROW = re.compile(rb"(-?\d+)\t(-?\d+)\t([0-9a-f]{64})")
_PAIR = re.compile(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]")  # an interval on one line in the manifest
_LINE = re.compile(rb"(?:[A2-9TJQK][CDHS] ){51}[A2-9TJQK][CDHS]\n")

Interval = tuple[int, int]  # inclusive


def default_dir() -> Path:
    """The checkout's fixtures/; installed elsewhere (tox installs a wheel), the working directory's."""
    for base in (PROJECT_ROOT, Path.cwd()):
        if (base / "fixtures" / MANIFEST).is_file():
            return base / "fixtures"
    return PROJECT_ROOT / "fixtures"


# ---------------------------------------------------------------------------------------------- plan


@dataclass(frozen=True, slots=True)
class Check:
    """Implementation `impl` must agree with the reference on `deals` (whole rows of a digest table)."""

    impl: str  # "node" (the original JS), "pysol-cards", "published-vectors"
    deals: tuple[Interval, ...]


@dataclass(frozen=True, slots=True)
class FixtureFile:
    """One fixture file: the canonical lines of one range, or a digest table with one row per range."""

    path: str  # relative to the fixtures directory, '/'-separated
    kind: Literal["lines", "digests"]
    dialect: str
    ranges: tuple[Interval, ...]
    checks: tuple[Check, ...] = ()

    @property
    def deal_count(self) -> int:
        return sum(b - a + 1 for a, b in self.ranges)

    def content(self) -> bytes:
        """The file's bytes, from the reference."""
        if self.kind == "lines":
            return b"".join(b"".join(reference.iter_lines(a, b, self.dialect)) for a, b in self.ranges)
        rows = (f"{a}\t{b}\t{reference.block_digest(range(a, b + 1), self.dialect)}\n" for a, b in self.ranges)
        return DIGEST_HEADER + "".join(rows).encode()


def grid_cell(n: int, last: int, size: int = BLOCK) -> Interval:
    """The grid block holding deal n (n ≥ 1), cut at the domain's last deal."""
    k = (n - 1) // size
    return k * size + 1, min((k + 1) * size, last)


def fcpro_boundary_blocks() -> list[Interval]:
    last = reference.get_dialect("fcpro").last
    cells: set[Interval] = set()
    for n in FCPRO_BOUNDARIES:
        a, b = grid_cell(n, last)
        cells.add((a, b))
        cells.add(grid_cell(a - 1, last))
        if b < last:
            cells.add(grid_cell(b + 1, last))
    return sorted(cells)


def fcpro_sampled_blocks(seed: int = FCPRO_SAMPLE_SEED, count: int = FCPRO_SAMPLES) -> list[Interval]:
    """`count` grid blocks drawn (seeded) across 2³¹ … 2³³−1, plus the one holding the published board."""
    last = reference.get_dialect("fcpro").last
    taken = set(fcpro_boundary_blocks())
    chosen = {grid_cell(FCPRO_PUBLISHED, last)}
    rng = random.Random(seed)
    first_cell, last_cell = (2**31 - 1) // BLOCK, (last - 1) // BLOCK
    while len(chosen) < count + 1:
        cell = grid_cell(rng.randint(first_cell, last_cell) * BLOCK + 1, last)
        if cell not in taken:
            chosen.add(cell)
    return sorted(chosen)


def _blocks(first: int, last: int, size: int = BLOCK) -> tuple[Interval, ...]:
    return tuple((a, min(a + size - 1, last)) for a in range(first, last + 1, size))


def default_plan() -> tuple[FixtureFile, ...]:
    classic_rows = _blocks(1, 1_000_000)
    xp_rows = ((-2, -1), (1, 10_000), (30_001, 40_000), (990_001, 1_000_000))
    fcpro_edges, fcpro_sampled = tuple(fcpro_boundary_blocks()), tuple(fcpro_sampled_blocks())
    return (
        FixtureFile(
            "classic/lines-1-32000.txt",
            "lines",
            "classic",
            ((1, 32_000),),
            (Check("node", ((1, 32_000),)), Check("pysol-cards", ((1, 32_000),))),
        ),
        FixtureFile(
            "classic/digests-1-1000000.tsv",
            "digests",
            "classic",
            classic_rows,
            (Check("node", ((1, 1_000_000),)), Check("pysol-cards", ((1, 10_000), (990_001, 1_000_000)))),
        ),
        FixtureFile(
            "fcpro/digests-boundaries.tsv", "digests", "fcpro", fcpro_edges, (Check("pysol-cards", fcpro_edges),)
        ),
        FixtureFile(
            "fcpro/digests-sampled.tsv", "digests", "fcpro", fcpro_sampled, (Check("pysol-cards", fcpro_sampled),)
        ),
        FixtureFile(
            "xp/lines-fixed-layouts.txt", "lines", "xp", ((-2, -1),), (Check("published-vectors", ((-2, -1),)),)
        ),
        FixtureFile(
            "xp/digests.tsv",
            "digests",
            "xp",
            xp_rows,
            (
                Check("published-vectors", ((-2, -1),)),
                Check("node", xp_rows[1:]),
                Check("pysol-cards", ((1, 10_000),)),
            ),
        ),
    )


# ------------------------------------------------------------------------------ who else agreed


class Checkers:
    """Opens the implementations that must agree with the reference, and says what they were."""

    def open(self, impl: str, dialect: str) -> Dealer:
        from harness.adapters import open_dealer

        if impl == "published-vectors":
            from harness.vectors import PublishedDealer

            return PublishedDealer(dialect)
        if impl == "node":
            try:
                # The original JS is a classic dealer; xp deals 1 … 1000000 are classic deals.
                return open_dealer(f"node:{default_seed_document()}", DealerOptions(dialect="classic"))
            except ImportError as exc:
                raise RequestError(
                    f"fixtures regen needs the original JS under Node: no Node adapter ({exc})"
                ) from None
        return open_dealer(impl, DealerOptions(dialect=dialect))

    def describe(self, impl: str) -> dict[str, object]:
        if impl == "node":
            doc = default_seed_document()
            try:
                digest = hashlib.sha256(doc.read_bytes()).hexdigest()
            except OSError as exc:
                raise RequestError(f"cannot read the seed document {doc}: {exc.strerror or exc}") from None
            return {"implementation": "node", "solution": "the original freeCodeCamp JavaScript solution",
                    "document": doc.name, "document_sha256": digest}  # fmt: skip
        if impl == "published-vectors":
            return {"implementation": impl, "document": "vectors/published.json (beside the seed documents)"}
        return {"implementation": impl}


class Disagreement(Exception):
    """An implementation that must agree with the reference does not, first at `deal`."""

    def __init__(self, path: str, impl: str, deal: int, detail: str) -> None:
        super().__init__(path, impl, deal, detail)
        self.path, self.impl, self.deal, self.detail = path, impl, deal, detail

    def __str__(self) -> str:
        return f"{self.path}: {self.impl} disagrees with the reference at deal {self.deal}: {self.detail}"


def _chunks(intervals: Sequence[Interval], size: int = BLOCK) -> Iterator[range]:
    for a, b in intervals:
        for lo in range(a, b + 1, size):
            yield range(lo, min(lo + size - 1, b) + 1)


def _first_divergence(f: FixtureFile, impl: str, dealer: Dealer, deals: range) -> Disagreement:
    want = reference.canonical_lines(deals, f.dialect)
    for i, (n, got) in enumerate(zip(deals, dealer.lines(deals), strict=True)):
        expected = want[i * LINE_BYTES : (i + 1) * LINE_BYTES]
        if isinstance(got, Failure):
            return Disagreement(f.path, impl, n, f"{got.kind}: {got.message}")
        if got != expected:
            return Disagreement(f.path, impl, n, f"{got.decode(errors='replace').strip()!r}")
    return Disagreement(f.path, impl, deals[0], f"block {deals[0]}-{deals[-1]}: digest differs, yet every line agrees")


def confirm(f: FixtureFile, check: Check, dealer: Dealer) -> None:
    """Raise Disagreement unless `dealer` agrees with the reference on every deal `check` covers."""
    if f.kind == "lines":
        for deals in _chunks(check.deals):
            if dealer.block_digest(deals) != reference.block_digest(deals, f.dialect):
                raise _first_divergence(f, check.impl, dealer, deals)
        return
    for a, b in f.ranges:
        if any(lo <= a and b <= hi for lo, hi in check.deals):
            deals = range(a, b + 1)
            if dealer.block_digest(deals) != reference.block_digest(deals, f.dialect):
                raise _first_divergence(f, check.impl, dealer, deals)


# ------------------------------------------------------------------------------------- manifest


def _merged(intervals: Sequence[Interval]) -> list[list[int]]:
    out: list[list[int]] = []
    for a, b in sorted(intervals):
        if out and out[-1][1] + 1 >= a:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def _covered(f: FixtureFile, check: Check) -> list[Interval]:
    if f.kind == "lines":
        return list(check.deals)
    return [(a, b) for a, b in f.ranges if any(lo <= a and b <= hi for lo, hi in check.deals)]


def describe_file(f: FixtureFile, data: bytes) -> dict[str, object]:
    """The manifest entry of `f` without its `agreed` list: what `check` compares exactly."""
    entry: dict[str, object] = {"path": f.path, "kind": f.kind, "dialect": f.dialect}
    if f.kind == "lines":
        entry |= {"first": f.ranges[0][0], "last": f.ranges[-1][1]}
    else:
        entry |= {"block_size": max(b - a + 1 for a, b in f.ranges), "rows": len(f.ranges)}
    return entry | {"deals": f.deal_count, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def manifest_entry(f: FixtureFile, data: bytes, checkers: Checkers) -> dict[str, object]:
    agreed: list[dict[str, object]] = [
        {"implementation": "reference", "deals": _merged(f.ranges), "deal_count": f.deal_count}
    ]
    for check in f.checks:
        covered = _covered(f, check)
        agreed.append(
            checkers.describe(check.impl)
            | {"deals": _merged(covered), "deal_count": sum(b - a + 1 for a, b in covered)}
        )
    return describe_file(f, data) | {"agreed": agreed}


def render_manifest(entries: list[dict[str, object]]) -> bytes:
    doc = {
        "schema_version": SCHEMA_VERSION,
        "about": "Golden fixtures of freecell-harness: canonical lines and block digests (SPEC.md, "
        "'Canonical forms'); see README.md here. 'agreed' lists each implementation that produced "
        "the same bytes when the file was generated, and exactly which deals it covered.",
        "fcpro_sample_seed": FCPRO_SAMPLE_SEED,
        "files": entries,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False)
    return (_PAIR.sub(r"[\1, \2]", text) + "\n").encode()


# ---------------------------------------------------------------------------------------- regen


def regenerate(
    directory: Path, plan: Sequence[FixtureFile] | None = None, checkers: Checkers | None = None
) -> list[str]:
    """Generate every file, have every required implementation agree, then write; returns the paths.

    Raises Disagreement (nothing written) or RequestError (an implementation unavailable).
    """
    plan = default_plan() if plan is None else plan
    checkers = checkers or Checkers()
    dealers: dict[tuple[str, str], Dealer] = {}
    try:
        for f in plan:  # open every implementation first: a missing one fails before any work
            for check in f.checks:
                if (check.impl, f.dialect) not in dealers:
                    dealers[(check.impl, f.dialect)] = checkers.open(check.impl, f.dialect)
        contents = {f.path: f.content() for f in plan}
        for f in plan:
            for check in f.checks:
                confirm(f, check, dealers[(check.impl, f.dialect)])
    finally:
        for dealer in dealers.values():
            dealer.close()
    manifest = render_manifest([manifest_entry(f, contents[f.path], checkers) for f in plan])
    try:
        for f in plan:
            write_atomically(directory / f.path, contents[f.path])
        write_atomically(directory / MANIFEST, manifest)
    except OSError as exc:
        raise RequestError(f"cannot write the fixtures in {directory}: {exc.strerror or exc}") from None
    return [f.path for f in plan] + [MANIFEST]


def regen_fixtures_command(directory: str | None) -> int:
    target = Path(directory) if directory else default_dir()
    started = time.perf_counter()
    try:
        written = regenerate(target)
    except Disagreement as exc:
        print(f"freecell-harness: fixtures regen: {exc}; nothing written", file=sys.stderr)
        return 1
    print(f"fixtures regen: wrote {len(written)} files to {target} in {time.perf_counter() - started:.1f} s")
    return 0


# ---------------------------------------------------------------------------------------- check


def parse_lines(data: bytes) -> str | None:
    """Why `data` is not canonical lines, or None."""
    if len(data) % LINE_BYTES:
        return f"{len(data)} bytes is not a whole number of {LINE_BYTES}-byte lines (truncated?)"
    for i in range(0, len(data), LINE_BYTES):
        line = data[i : i + LINE_BYTES]
        if not _LINE.fullmatch(line) or len(set(line.split())) != 52:
            return f"line {i // LINE_BYTES + 1} is not a canonical line"
    return None


def parse_digest_table(data: bytes) -> list[tuple[int, int, str]]:
    """Rows (start, stop, sha256) of a digest table; ValueError naming the first malformed line."""
    if not data.startswith(DIGEST_HEADER):
        raise ValueError("line 1 is not the header 'start<TAB>stop<TAB>sha256'")
    if not data.endswith(b"\n"):
        raise ValueError("the last line has no LF (truncated?)")
    rows = []
    for i, line in enumerate(data[len(DIGEST_HEADER) :].split(b"\n")[:-1], start=2):
        m = _ROW.fullmatch(line)
        if not m or int(m[1]) > int(m[2]):
            raise ValueError(f"line {i} is not a row 'start<TAB>stop<TAB>sha256': {line[:80]!r}")
        rows.append((int(m[1]), int(m[2]), m[3].decode()))
    return rows


def _drift(f: FixtureFile, data: bytes) -> str | None:
    """How `data` differs from what the reference says the file holds, or None."""
    expected = f.content()
    if data == expected:
        return None
    if f.kind == "lines":
        why = parse_lines(data)
        if why:
            return f"malformed: {why}"
        first = f.ranges[0][0]
        for i in range(0, min(len(data), len(expected)), LINE_BYTES):
            if data[i : i + LINE_BYTES] != expected[i : i + LINE_BYTES]:
                return f"deal {first + i // LINE_BYTES} differs from the reference"
        return f"holds {len(data) // LINE_BYTES} lines, the reference {len(expected) // LINE_BYTES}"
    try:
        rows = parse_digest_table(data)
    except ValueError as exc:
        return f"malformed: {exc}"
    if [(a, b) for a, b, _ in rows] != list(f.ranges):
        return "its rows are not the blocks the fixtures hold (rows added, lost or reordered)"
    for (a, b, digest), want in zip(rows, parse_digest_table(expected), strict=True):
        if digest != want[2]:
            return f"row {a}-{b}: digest differs from the reference"
    return "differs from the reference"


def read_manifest(directory: Path) -> dict[str, dict[str, object]]:
    """path → entry; ValueError saying why the manifest is unusable."""
    try:
        doc = json.loads((directory / MANIFEST).read_bytes())
    except FileNotFoundError:
        raise ValueError("missing") from None
    except (OSError, ValueError) as exc:
        raise ValueError(f"unreadable: {exc}") from None
    if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"not a fixtures manifest of schema version {SCHEMA_VERSION}")
    files = doc.get("files")
    if not isinstance(files, list) or not all(isinstance(e, dict) and isinstance(e.get("path"), str) for e in files):
        raise ValueError("'files' is not a list of entries with a path")
    return {str(e["path"]): e for e in files}


def check(directory: Path, plan: Sequence[FixtureFile] | None = None) -> list[str]:
    """Every problem, one line each naming its file; empty when all is well."""
    plan = default_plan() if plan is None else plan
    problems: list[str] = []
    try:
        manifest: dict[str, dict[str, object]] | None = read_manifest(directory)
    except ValueError as exc:
        problems.append(f"{MANIFEST}: {exc}")
        manifest = None
    for f in plan:
        try:
            data = (directory / f.path).read_bytes()
        except FileNotFoundError:
            problems.append(f"{f.path}: missing")
            continue
        except OSError as exc:
            problems.append(f"{f.path}: unreadable: {exc.strerror or exc}")
            continue
        if manifest is not None:
            entry = manifest.get(f.path)
            if entry is None:
                problems.append(f"{f.path}: not in {MANIFEST}")
            elif entry.get("sha256") != hashlib.sha256(data).hexdigest():
                problems.append(f"{f.path}: SHA-256 differs from {MANIFEST} (corrupted, or the manifest was edited)")
            elif {k: v for k, v in entry.items() if k != "agreed"} != describe_file(f, data):
                problems.append(f"{f.path}: its {MANIFEST} entry does not describe it (edited manifest?)")
        drift = _drift(f, data)
        if drift:
            problems.append(f"{f.path}: {drift}")
    known = {f.path for f in plan}
    if manifest is not None:
        problems += [f"{p}: listed in {MANIFEST} but not a fixture" for p in sorted(set(manifest) - known)]
    for extra in sorted(p for p in directory.rglob("*") if p.suffix in (".txt", ".tsv")):
        if extra.relative_to(directory).as_posix() not in known:
            problems.append(f"{extra.relative_to(directory).as_posix()}: not a fixture (stray file)")
    return problems


def check_fixtures_command(directory: str | None) -> int:
    target = Path(directory) if directory else default_dir()
    if not target.is_dir():
        raise RequestError(f"fixtures check: {target} is not a directory")
    problems = check(target)
    for problem in problems:
        print(f"freecell-harness: fixtures check: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"fixtures check: {len(default_plan())} files match {MANIFEST} and the reference")
    return 0


# ----------------------------------------------------------------------------------------- load


class FixturesError(Exception):
    """Fixtures that must not be trusted: each problem names its file."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(slots=True)
class Fixtures:
    """Fixture files whose SHA-256 matched the manifest, parsed for lookups."""

    directory: Path
    lines: dict[str, list[tuple[int, int, bytes]]] = field(default_factory=dict)  # dialect → (first, last, data)
    digests: dict[str, dict[Interval, str]] = field(default_factory=dict)  # dialect → (start, stop) → sha256

    def line(self, dialect: str, n: int) -> bytes | None:
        """The canonical line of deal n, if a lines file holds it."""
        for first, last, data in self.lines.get(dialect, ()):
            if first <= n <= last:
                return data[(n - first) * LINE_BYTES : (n - first + 1) * LINE_BYTES]
        return None

    def digest(self, dialect: str, start: int, stop: int) -> str | None:
        """The digest of deals start … stop, if a table holds exactly that block."""
        return self.digests.get(dialect, {}).get((start, stop))

    def block_holding(self, dialect: str, n: int) -> Interval | None:
        return next((blk for blk in self.digests.get(dialect, {}) if blk[0] <= n <= blk[1]), None)

    def covers(self, dialect: str, n: int) -> bool:
        return self.line(dialect, n) is not None or self.block_holding(dialect, n) is not None

    def coverage(self, dialect: str) -> str:
        """What the fixtures hold for `dialect`, in words."""
        parts = [f"lines of deals {a} … {b}" for a, b, _ in self.lines.get(dialect, ())]
        blocks = sorted(self.digests.get(dialect, {}))
        if blocks:
            shown = ", ".join(f"{a}-{b}" for a, b in blocks[:3]) + (f", … {blocks[-1][0]}-{blocks[-1][1]}"
                                                                    if len(blocks) > 3 else "")  # fmt: skip
            parts.append(f"digests of {len(blocks)} blocks ({shown})")
        return f"{dialect}: " + ("; ".join(parts) if parts else "nothing")


def load_fixtures(directory: Path | None = None) -> Fixtures:
    """The fixtures in `directory`, every file verified against the manifest; FixturesError if any is wrong."""
    directory = directory or default_dir()
    try:
        manifest = read_manifest(directory)
    except ValueError as exc:
        raise FixturesError([f"{directory / MANIFEST}: {exc}"]) from None
    fixtures, problems = Fixtures(directory), []
    for path, entry in manifest.items():
        try:
            if ".." in Path(path).parts or Path(path).is_absolute():
                raise ValueError("a path outside the fixtures directory")
            data = (directory / path).read_bytes()
            if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
                raise ValueError(f"SHA-256 differs from {MANIFEST}")
            _load_entry(fixtures, entry, data)
        except FileNotFoundError:
            problems.append(f"{path}: missing")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            problems.append(f"{path}: {exc}")
    if problems:
        raise FixturesError(problems)
    return fixtures


def _load_entry(fixtures: Fixtures, entry: dict[str, object], data: bytes) -> None:
    dialect = reference.get_dialect(entry["dialect"]).name
    if entry["kind"] == "lines":
        first, last = int(str(entry["first"])), int(str(entry["last"]))
        why = parse_lines(data)
        if why or len(data) != (last - first + 1) * LINE_BYTES:
            raise ValueError(f"malformed: {why or 'its size does not match first … last'}")
        fixtures.lines.setdefault(dialect, []).append((first, last, data))
    elif entry["kind"] == "digests":
        table = fixtures.digests.setdefault(dialect, {})
        for a, b, digest in parse_digest_table(data):
            table[(a, b)] = digest
    else:
        raise ValueError(f"unknown kind {entry['kind']!r}")
