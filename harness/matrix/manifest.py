"""A matrix manifest (SPEC.md, "The conformance matrix"): the implementations to profile, read from TOML.

Everything is checked before any work: an unknown key, a field of the wrong type, a duplicate id, an
option `profile` would refuse, an expectation outside its dialect is a RequestError (exit 2) in one
line naming the file, the entry and the field.  Paths are relative to the manifest's folder.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.adapters.registry import parse_impl
from harness.errors import RequestError
from harness.files import read_regular
from reference.dialects import DIALECTS

MAX_MANIFEST = 1 << 20  # bytes
DEFAULT_SETUP_TIMEOUT = 600.0  # seconds a setup command may take
ID = re.compile(r"[a-z0-9-]+")
# profile's options that a manifest may give (how a dealer's output reads, its limits and timeouts)
OPTIONS = frozenset(
    {"--timeout", "--startup-timeout", "--cards", "--suits", "--memory-limit", "--cpu-limit", "--max-open-files",
     "--max-processes"}
)  # fmt: skip
_FIELDS = frozenset(
    {"id", "name", "language", "source", "cwd", "setup", "setup_timeout", "impl", "options", "expect", "exhaustive"}
)

Refusal = Callable[[str, str], RequestError]  # (field, why) -> the error naming the entry
Expectation = bool | int  # True: conforms; an int: the first failing deal it must have


@dataclass(frozen=True, slots=True)
class Entry:
    """One implementation of the matrix, as the manifest gives it (`cwd` resolved)."""

    id: str
    impl: str
    cwd: Path
    name: str
    language: str
    source: str | None = None
    setup: str | None = None
    setup_timeout: float = DEFAULT_SETUP_TIMEOUT
    options: tuple[str, ...] = ()
    expect: tuple[tuple[str, Expectation], ...] = ()  # (dialect, expectation), in the dialects' order
    exhaustive: tuple[Path, ...] = ()  # `verify --report` files whose whole ranges count as exhaustive

    def fields(self, base: Path) -> dict[str, object]:
        """The manifest's fields, as matrix.json shows them (`cwd` and paths relative to `base`)."""
        return {
            "id": self.id,
            "name": self.name,
            "language": self.language,
            "source": self.source,
            "cwd": _relative(self.cwd, base),
            "setup": self.setup,
            "impl": self.impl,
            "options": list(self.options),
            "expect": dict(self.expect),
            "exhaustive": [_relative(p, base) for p in self.exhaustive],
        }


@dataclass(frozen=True, slots=True)
class Manifest:
    path: Path
    title: str
    entries: tuple[Entry, ...]

    def only(self, ids: list[str] | None) -> tuple[Entry, ...]:
        """The entries `--only` names (all without it); RequestError naming an id that is not there."""
        if not ids:
            return self.entries
        known = {e.id for e in self.entries}
        for wanted in ids:
            if wanted not in known:
                raise RequestError(f"--only {wanted}: no implementation of that id in {self.path}")
        return tuple(e for e in self.entries if e.id in ids)


def _relative(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix() or "."
    except ValueError:
        return path.as_posix()


def load_manifest(path: str | Path) -> Manifest:
    """Read and check a manifest; RequestError (one line: file, entry, field) when it is wrong."""
    where = str(path)
    try:
        data = tomllib.loads(read_regular(path, MAX_MANIFEST, "manifest").decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RequestError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise RequestError(f"{where}: not TOML: {exc}") from None
    base = Path(path).resolve().parent
    unknown = sorted(set(data) - {"matrix", "implementation"})
    if unknown:
        raise RequestError(f"{where}: unknown table {unknown[0]!r} (a manifest has [matrix] and [[implementation]])")
    head = data.get("matrix", {})
    if not isinstance(head, dict):
        raise RequestError(f"{where}: [matrix] must be a table")
    if extra := sorted(set(head) - {"title"}):
        raise RequestError(f"{where}: [matrix]: unknown field {extra[0]!r} (it has: title)")
    title = head.get("title", "FreeCell dealers")
    if not isinstance(title, str) or not title.strip():
        raise RequestError(f"{where}: [matrix]: field 'title' must be a non-empty string")
    rows = data.get("implementation")
    if not isinstance(rows, list) or not rows:
        raise RequestError(f"{where}: no [[implementation]] entries")
    entries: list[Entry] = []
    for i, row in enumerate(rows, 1):
        entry = _entry(row, f"{where}: implementation {i}", base)
        if any(e.id == entry.id for e in entries):
            raise RequestError(f"{where}: implementation {i} ({entry.id}): field 'id': {entry.id!r} is used twice")
        entries.append(entry)
    return Manifest(Path(path), title, tuple(entries))


def _entry(row: object, where: str, base: Path) -> Entry:
    if not isinstance(row, dict):
        raise RequestError(f"{where}: must be a table")
    ident = row.get("id")
    if not isinstance(ident, str) or not ID.fullmatch(ident):
        raise RequestError(f"{where}: field 'id': {ident!r} is not a name of [a-z0-9-]+")
    where = f"{where} ({ident})"

    def bad(field: str, why: str) -> RequestError:
        return RequestError(f"{where}: field {field!r}: {why}")

    if extra := sorted(set(row) - _FIELDS):
        raise bad(extra[0], f"unknown field (an implementation has: {', '.join(sorted(_FIELDS))})")

    def text(field: str, *, required: bool = False) -> str | None:
        value = row.get(field)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value.strip():
            raise bad(field, "missing" if value is None else "must be a non-empty string")
        if "\n" in value and field != "setup":
            raise bad(field, "must be one line")
        return value

    impl = text("impl", required=True)
    assert impl is not None
    try:
        parse_impl(impl)  # its form only: whether the dealer can be run is its row's to say
    except RequestError as exc:
        raise bad("impl", str(exc)) from None
    cwd = (base / (text("cwd") or ".")).resolve()
    if not cwd.is_dir():
        raise bad("cwd", f"{cwd} is not a directory")
    options = row.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise bad("options", "must be a list of strings")
    _check_options(impl, options, bad)
    setup_timeout = row.get("setup_timeout", DEFAULT_SETUP_TIMEOUT)
    if isinstance(setup_timeout, bool) or not isinstance(setup_timeout, int | float) or not 0 < setup_timeout <= 86400:
        raise bad("setup_timeout", "must be seconds, more than 0 and at most 86400")
    exhaustive = row.get("exhaustive", [])
    if not isinstance(exhaustive, list) or not all(isinstance(p, str) and p for p in exhaustive):
        raise bad("exhaustive", "must be a list of paths of `verify --report` files")
    for report in exhaustive:
        if not (base / report).is_file():
            raise bad("exhaustive", f"{report}: no such file")
    return Entry(
        id=ident,
        impl=impl,
        cwd=cwd,
        name=text("name") or ident,
        language=text("language") or "",
        source=text("source"),
        setup=text("setup"),
        setup_timeout=float(setup_timeout),
        options=tuple(options),
        expect=_expect(row.get("expect", {}), bad),
        exhaustive=tuple((base / p).resolve() for p in exhaustive),
    )


def _check_options(impl: str, options: list[str], bad: Refusal) -> None:
    """The options as `profile` reads them: only those that state encodings, limits and timeouts."""
    from harness.cli import build_parser

    for option in options:
        name = option.split("=")[0]
        if name.startswith("-") and name not in OPTIONS:
            raise bad("options", f"{name} is not an option a matrix row takes (it takes: {', '.join(sorted(OPTIONS))})")
    try:
        build_parser().parse_args(["profile", impl, *options])
    except RequestError as exc:
        raise bad("options", str(exc).removeprefix("profile: ")) from None


def _expect(value: object, bad: Refusal) -> tuple[tuple[str, Expectation], ...]:
    if not isinstance(value, dict):
        raise bad("expect", "must be a table of dialect = true or a deal number")
    found: list[tuple[str, Expectation]] = []
    for dialect, wanted in value.items():
        field = f"expect.{dialect}"
        if dialect not in DIALECTS:
            raise bad(field, f"unknown dialect (choose from {', '.join(DIALECTS)})")
        if wanted is True:
            found.append((dialect, True))
        elif isinstance(wanted, int) and not isinstance(wanted, bool):
            if wanted not in DIALECTS[dialect]:
                raise bad(field, f"deal {wanted} is not in {dialect}'s domain")
            found.append((dialect, wanted))
        else:
            raise bad(field, f"{wanted!r}: give true (conforms) or the first failing deal number")
    return tuple(sorted(found, key=lambda item: list(DIALECTS).index(item[0])))
