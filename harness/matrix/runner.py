"""`matrix run`: every implementation of a manifest profiled (each in a process of its own, `row`),
several at once, each after its setup; then DIR written (matrix.json, summary.md, badges/ID.json,
index.html and impl/ID.html, rendered by `harness.reports`).

A setup that fails or outlasts its `setup_timeout`, a dealer that cannot be run, a row process that
dies: a row that says why, and the run goes on.  A row whose dealer build and harness version are
those of the row already in DIR/matrix.json (same IMPL and options) is kept, not profiled again,
unless `redo`.  With `sources` (`--from DIR …`), nothing is run: each row is taken from the
matrix.json of those directories (the per-implementation jobs of a CI workflow) and written as a
local run would write it.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness.errors import RequestError
from harness.limits import NO_LIMITS
from harness.matrix.manifest import Entry, Manifest
from harness.matrix.results import Row, badge, coverage, unmet
from harness.reports.report import harness_version

MAX_ROW_OUTPUT = 64 << 20  # bytes a row process may print (its profile, with boards)
MAX_MATRIX = 256 << 20  # bytes of a matrix.json read back
TAIL = 300  # characters of a failing setup's output kept as its reason


@dataclass(frozen=True, slots=True)
class Outcome:
    """What `run_matrix` did: the document written, and each expectation not met."""

    document: dict[str, Any]
    unmet: list[str]


def read_matrix(path: Path) -> dict[str, Any]:
    """A matrix.json, checked enough to be used (RequestError in one line when it cannot be)."""
    from harness.files import read_regular

    try:
        data = json.loads(read_regular(path, MAX_MATRIX, "matrix"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("implementations"), list):
        raise RequestError(f"{path}: not a matrix.json (no 'implementations' list)")
    rows = data["implementations"]
    if not all(isinstance(r, dict) and isinstance(r.get("id"), str) for r in rows):
        raise RequestError(f"{path}: not a matrix.json (an implementation without an 'id')")
    return data


def run_matrix(
    manifest: Manifest,
    out: Path,
    *,
    jobs: int = 1,
    only: list[str] | None = None,
    redo: bool = False,
    sources: Sequence[Path] = (),
    say: Callable[[str], None] = print,
) -> Outcome:
    chosen = manifest.only(only)
    earlier = _earlier(out / "matrix.json")
    base = manifest.path.resolve().parent
    if sources:
        taken = _taken(sources)
        rows = {e.id: _from_source(e, taken.get(e.id), base) for e in chosen}
    else:
        setups = _Setups()
        pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        try:  # an interrupt must not wait for the rows still running (their processes are killed)
            rows = {}
            for row in pool.map(lambda e: _row(e, base, None if redo else earlier.get(e.id), setups), chosen):
                rows[row["id"]] = row
                say(_line(row))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    every = []
    for entry in manifest.entries:
        found = rows.get(entry.id) or _kept(entry, earlier.get(entry.id), base)
        if found is not None:
            every.append(found)
    said = [line for entry in manifest.entries for row in every if row["id"] == entry.id for line in unmet(entry, row)]
    for row in every:
        entry = next(e for e in manifest.entries if e.id == row["id"])
        row["expect_met"] = None if not entry.expect else not unmet(entry, row)
    document = {
        "title": manifest.title,
        "harness_version": harness_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "implementations": every,
    }
    _write(document, out)
    return Outcome(document, said)


def _write(document: dict[str, Any], out: Path) -> None:
    """DIR's files, each atomically: the badges and pages first, matrix.json (what a re-run reads) last."""
    from harness.files import write_atomically
    from harness.reports.matrix_site import implementation_page, index_page
    from harness.reports.matrix_table import summary_markdown

    (out / "badges").mkdir(parents=True, exist_ok=True)
    (out / "impl").mkdir(exist_ok=True)
    for row in document["implementations"]:
        write_atomically(out / "badges" / f"{row['id']}.json", json.dumps(row["badge"]) + "\n")
        write_atomically(out / "impl" / f"{row['id']}.html", implementation_page(document, row))
    write_atomically(out / "summary.md", summary_markdown(document))
    write_atomically(out / "index.html", index_page(document))
    write_atomically(out / "matrix.json", json.dumps(document, indent=2) + "\n")


def _earlier(path: Path) -> dict[str, Row]:
    if not path.exists():
        return {}
    return {row["id"]: row for row in read_matrix(path)["implementations"]}


def _taken(sources: Sequence[Path]) -> dict[str, Row]:
    taken: dict[str, Row] = {}
    for source in sources:
        path = source / "matrix.json" if source.is_dir() else source
        for row in read_matrix(path)["implementations"]:
            if row["id"] in taken:
                raise RequestError(f"--from {source}: implementation {row['id']} is in two of the results")
            taken[row["id"]] = row
    return taken


def _from_source(entry: Entry, row: Row | None, base: Path) -> Row:
    if row is None:
        return _finished(entry, base, {"status": "not-run", "reason": "no result for it in the --from directories"})
    if row.get("impl") != entry.impl or row.get("options") != list(entry.options):
        return _finished(entry, base, {"status": "not-run", "reason": "its result is of another IMPL or options"})
    return _finished(entry, base, {k: row.get(k) for k in _PROFILED})


def _kept(entry: Entry, row: Row | None, base: Path) -> Row | None:
    """A row of the earlier matrix.json not run this time (`--only`), re-said against today's manifest."""
    if row is None or row.get("impl") != entry.impl or row.get("options") != list(entry.options):
        return None
    return {**_finished(entry, base, {k: row.get(k) for k in _PROFILED}), "kept": True}


_PROFILED = ("status", "reason", "dealer_build", "harness_version", "profile", "parts", "elapsed_s", "checked")


def _finished(entry: Entry, base: Path, found: dict[str, Any]) -> Row:
    """The row of matrix.json: the manifest's fields, what was found, and what follows from both."""
    row: Row = {**entry.fields(base), **{k: found.get(k) for k in _PROFILED}}
    row["harness_version"] = row["harness_version"] or harness_version()
    elapsed, checked = row["elapsed_s"], row["checked"]
    row["deals_per_s"] = round(checked / elapsed) if elapsed and checked else None
    row["coverage"] = coverage(entry, row)
    row["badge"] = badge(row)
    row["expect_met"] = None
    row["kept"] = False  # True: taken from the earlier matrix.json, not profiled by this run
    return row


# ---------------------------------------------------------------------------------- running a row


class _Setups:
    """Each distinct (cwd, setup) run once per matrix run, whichever rows share it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: dict[tuple[Path, str], threading.Event] = {}
        self._said: dict[tuple[Path, str], str | None] = {}

    def run(self, entry: Entry) -> str | None:
        """None when the setup succeeded, else why not."""
        assert entry.setup is not None
        key = (entry.cwd, entry.setup)
        with self._lock:
            event = self._done.get(key)
            mine = event is None
            if mine:
                event = self._done[key] = threading.Event()
        assert event is not None
        if mine:
            self._said[key] = _setup(entry)
            event.set()
        event.wait()
        return self._said[key]


def _setup(entry: Entry) -> str | None:
    from harness.process import run

    assert entry.setup is not None
    argv = ["/bin/sh", "-c", 'cd -- "$1" && exec /bin/sh -c "$2"', "setup", str(entry.cwd), entry.setup]
    done = run(argv, None, entry.setup_timeout, MAX_ROW_OUTPUT, NO_LIMITS)
    if done.timed_out:
        return f"setup did not finish within {entry.setup_timeout:g} s (killed with its children): {entry.setup}"
    if done.returncode != 0:
        how = " ".join(done.child.describe_exit().split())  # its exit, and the end of its stderr
        if "; stderr: " not in how and (out := " ".join(done.stdout.decode("utf-8", "replace").split())):
            how += f"; stdout: {out[-TAIL:]}"
        return f"setup failed: {entry.setup}: {how}"
    return None


def _row(entry: Entry, base: Path, earlier: Row | None, setups: _Setups) -> Row:
    if entry.setup is not None and (why := setups.run(entry)):
        return _finished(entry, base, {"status": "setup-failed", "reason": why})
    same = (
        earlier is not None
        and earlier.get("status") == "profiled"
        and earlier.get("harness_version") == harness_version()
        and earlier.get("impl") == entry.impl
        and earlier.get("options") == list(entry.options)
    )
    request = {
        "cwd": str(entry.cwd),
        "impl": entry.impl,
        "options": list(entry.options),
        "known_build": earlier.get("dealer_build") if same and earlier else None,
    }
    found = _profile_in_a_process(request)
    if found.get("unchanged") and earlier is not None:
        kept = {k: earlier.get(k) for k in _PROFILED}
        return {**_finished(entry, base, kept), "kept": True}
    if "error" in found:
        return _finished(entry, base, {"status": "cannot-run", "reason": found["error"], **_build(found)})
    return _finished(entry, base, {"status": "profiled", "reason": None, **found})


def _build(found: dict[str, Any]) -> dict[str, Any]:
    return {"dealer_build": found.get("dealer_build")}


def _profile_in_a_process(request: dict[str, Any]) -> dict[str, Any]:
    from harness.process import run

    argv = [sys.executable, "-m", "harness.matrix.row", json.dumps(request)]
    done = run(argv, None, 0, MAX_ROW_OUTPUT, NO_LIMITS)
    try:
        found = json.loads(done.stdout) if done.returncode == 0 else None
    except ValueError:
        found = None
    if not isinstance(found, dict):
        said = " ".join(done.child.stderr_text().split())[-TAIL:]
        return {"error": f"the harness could not profile it ({done.child.describe_exit()}): {said}"}
    return found


def _line(row: Row) -> str:
    if row.get("kept"):
        build = (row["dealer_build"] or "")[:12]
        return (
            f"{row['id']}: unchanged (build {build}, harness {row['harness_version']}): kept; --redo profiles it again"
        )
    if row["status"] == "profiled":
        return f"{row['id']}: {row['profile']['summary']} ({row['elapsed_s']:.1f} s)"
    return f"{row['id']}: {row['status']}: {row['reason']}"
