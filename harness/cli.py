"""`freecell-harness` (also `python -m harness`): the command line of SPEC.md."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import reference
from harness.adapters.base import DEFAULT_STARTUP_TIMEOUT
from harness.errors import HarnessError, RequestError, bug_message
from harness.intervals import in_domain, looks_like_range, parse_deal_number, parse_range
from harness.process import Limits
from harness.request import parse_startup_timeout, parse_timeout
from harness.text import printable

if TYPE_CHECKING:
    from harness.fixtures import DomainTable

EXIT_OK, EXIT_NONCONFORMANT, EXIT_REQUEST, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

EXIT_CODES = """exit status:
  0    all that was checked conforms
  1    something does not (a divergence, an invalid board, a crash, a timeout, bad fixtures)
  2    the request itself is wrong or cannot be served (one line on stderr says what)
  3    the harness itself failed (a bug of ours)
  130  interrupted (Ctrl-C, SIGTERM): the verdict so far is printed and the report written"""

_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")
_UNKNOWN = re.compile(r"unrecognized arguments: (\S+)")


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        kwargs.setdefault("epilog", EXIT_CODES)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        # One line, exit 2 (argparse's own error prints the whole usage first).
        where = self.prog.removeprefix("freecell-harness").strip() or "usage"
        raise RequestError(f"{where}: {message}{self._hint(message)}")

    def _hint(self, message: str) -> str:
        """ "did you mean …?" for a mistyped subcommand, choice or option."""
        if m := _CHOICE.search(message):
            wrong, choices = m[1], [c.strip(" '") for c in m[2].split(",")]
        elif m := _UNKNOWN.search(message):
            wrong, choices = m[1].split("=")[0], sorted(_every_option(self))
        else:
            return ""
        close = difflib.get_close_matches(wrong, choices, n=1, cutoff=0.6)
        return f"; did you mean {close[0]!r}?" if close else ""


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Defaults shown (where there is one the help does not already say), the epilog kept as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)"


def _every_option(parser: argparse.ArgumentParser) -> set[str]:
    options: set[str] = set()
    for action in parser._actions:
        options.update(o for o in action.option_strings if o.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                options |= _every_option(sub)
    return options


def check_output_path(option: str, path: str) -> None:
    """Refuse, before any work, an output file that could not be written: exit 2 naming it."""
    target = Path(path)
    parent = target.parent
    if target.is_dir():
        raise RequestError(f"{option} {path}: is a directory")
    if not parent.is_dir():
        raise RequestError(f"{option} {path}: directory {parent} does not exist (create it first)")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise RequestError(f"{option} {path}: directory {parent} is not writable")
    if target.exists() and not target.is_symlink() and not os.access(target, os.W_OK):
        raise RequestError(f"{option} {path}: the file is not writable")


def say(*lines: str) -> None:
    """Print to stdout; a reader that went away (`| head -1`) changes nothing else."""
    if sys.stdout is None:  # started with stdout closed
        return
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    # Later writes, and the flush at exit, go nowhere instead of raising again.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _dialect(text: str) -> str:
    if text not in reference.DIALECTS:
        raise argparse.ArgumentTypeError(f"unknown dialect {text!r}: choose one of {', '.join(reference.DIALECTS)}")
    return text


def cmd_deal(args: argparse.Namespace) -> int:
    out = sys.stdout
    fmt = args.format or ("line" if args.range is not None else "rows")
    if args.range is not None and args.numbers:
        raise RequestError("deal: give deal numbers or --range A-B, not both")
    if args.range is None and not args.numbers:
        raise RequestError("deal: give deal numbers or --range A-B")
    if args.range is not None:
        parts = in_domain(parse_range(args.range, args.dialect), args.dialect)
        if fmt == "line":
            for first, last in parts:
                for chunk in reference.iter_lines(first, last, args.dialect):
                    out.buffer.write(chunk)
        else:
            boards = (d for first, last in parts for d in reference.deal_range(first, last, args.dialect))
            for i, d in enumerate(boards):
                out.write(("\n" if i and fmt in ("rows", "columns") else "") + d.format(fmt))
        return EXIT_OK
    numbers = [parse_deal_number(n, args.dialect) for n in args.numbers]
    for i, number in enumerate(numbers):
        out.write(("\n" if i and fmt in ("rows", "columns") else "") + reference.deal(number, args.dialect).format(fmt))
    return EXIT_OK


def _limit(kind: type[int] | type[float], what: str) -> Callable[[str], int | float | None]:
    def parse(text: str) -> int | float | None:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what} (0: no limit)") from None
        if not 0 <= value < 1 << 40:
            raise argparse.ArgumentTypeError(f"{text!r}: expected {what} (0: no limit)")
        return value or None

    return parse


def _add_limit_options(p: argparse.ArgumentParser) -> None:
    from harness.process import DEFAULT_LIMITS as D

    g = p.add_argument_group("limits of every dealer process (0: no limit; exceeding one is a crash at that deal)")
    g.add_argument(
        "--memory-limit",
        type=_limit(int, "megabytes"),
        default=D.memory_mb,
        metavar="MB",
        help=f"memory of each dealer process (default {D.memory_mb})",
    )
    g.add_argument(
        "--cpu-limit",
        type=_limit(float, "seconds"),
        default=D.cpu_s,
        metavar="SECONDS",
        help="CPU time of each dealer process (default: none)",
    )
    g.add_argument(
        "--max-open-files",
        type=_limit(int, "a count"),
        default=D.open_files,
        metavar="N",
        help=f"open files of each dealer process (default {D.open_files})",
    )
    g.add_argument(
        "--max-processes",
        type=_limit(int, "a count"),
        default=D.processes,
        metavar="N",
        help=f"processes and threads of each dealer (default {D.processes})",
    )


def _limits_of(args: argparse.Namespace) -> Limits:
    return Limits(args.memory_limit, args.cpu_limit, args.max_open_files, args.max_processes)


def cmd_verify(args: argparse.Namespace) -> int:
    from harness import engine
    from harness.adapters import dealer_version
    from harness.progress import ProgressBar
    from harness.report import Report, board_diff, verdict, write_junit
    from harness.request import Request
    from harness.resume import ResumeLog

    request = Request.from_text(
        args.impl,
        against=args.against,
        dialect=args.dialect,
        ranges=args.range or (),
        sample=args.sample,
        seed=args.seed,
        jobs=args.jobs,
        shard=args.shard,
        timeout=args.timeout,
        encoding=args.encoding,
        limits=_limits_of(args),
        startup_timeout=args.startup_timeout,
    )
    for option, path in (("--report", args.report), ("--junit", args.junit), ("--resume", args.resume)):
        if path:
            check_output_path(option, path)
    ranges = request.ranges
    bar = ProgressBar(request.total // request.shard.count, enabled=not args.quiet)
    resume = ResumeLog(args.resume) if args.resume else None
    try:
        outcome = engine.run(request, resume=resume, progress=bar)
    finally:
        bar.close()
        if resume:
            resume.close()
    report = Report(
        implementation=request.impl,
        against=request.against,
        dialect=request.dialect,
        checked=outcome.checked,
        first_failure=outcome.first_failure,
        elapsed_s=outcome.elapsed_s,
        shard=str(request.shard),
        ranges=ranges,
        sample=request.sample,
        seed=request.seed if request.sample is not None else None,
        resumed=outcome.resumed,
        dealer_version=dealer_version(request.impl),
        interrupted=outcome.interrupted,
    )
    # The verdict first: a file that cannot be written at the end must not take it away.
    say(
        verdict(report),
        f"{report.checked - report.resumed} deals in {report.elapsed_s:.2f} s"
        f" ({report.deals_per_s:,.0f} deals/s, {request.jobs} jobs)"
        + (f"; {report.resumed} more from the resume log" if report.resumed else "")
        + "".join(f"; {note}" for note in outcome.notes),
    )
    if outcome.first_failure is not None:
        say(board_diff(outcome.first_failure.expected, outcome.first_failure.actual))
    if outcome.interrupted:
        resumable = f"; --resume {args.resume} continues it" if args.resume else ""
        print(f"freecell-harness: interrupted{resumable}", file=sys.stderr)
    code = EXIT_INTERRUPTED if outcome.interrupted else EXIT_OK if outcome.first_failure is None else EXIT_NONCONFORMANT
    try:
        if args.report:
            report.write_json(args.report)
        if args.junit:
            label = ", ".join(f"{a}-{b}" for a, b in ranges) or f"sample {args.sample} seed {request.seed}"
            write_junit(args.junit, report, label)
    except RequestError as exc:
        print(f"freecell-harness: {exc}", file=sys.stderr)
        return EXIT_REQUEST if code == EXIT_OK else code
    return code


def cmd_report_merge(args: argparse.Namespace) -> int:
    from harness.report import board_diff, merge_reports, read_report, verdict

    if args.out:
        check_output_path("--out", args.out)
    merged = merge_reports([(path, read_report(path)) for path in args.reports])
    say(verdict(merged))
    if merged.first_failure is not None:
        say(board_diff(merged.first_failure.expected, merged.first_failure.actual))
    code = EXIT_INTERRUPTED if merged.interrupted else EXIT_OK if merged.first_failure is None else EXIT_NONCONFORMANT
    if args.out:
        merged.write_json(args.out)
    return code


def cmd_ci(args: argparse.Namespace) -> int:
    from harness import ci

    if args.step == "matrix":
        say(ci.shard_matrix(args.shards))
        return EXIT_OK
    if args.step == "shard":
        argv = ci.shard_argv(
            args.impl,
            ranges=args.range or (),
            sample=args.sample,
            seed=args.seed,
            dialect=args.dialect,
            shard=args.shard,
            shards=args.shards,
            jobs=args.jobs,
            out=Path(args.out),
        )
        return ci.shard_status(main(argv))
    reports = ci.shard_reports(args.directory)
    code = main(["report", "merge", *reports, "--out", args.out])
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary and Path(args.out).is_file():
        from harness.report import read_report, verdict

        with open(summary, "a", encoding="utf-8") as f:
            f.write(ci.step_summary(verdict(read_report(args.out)), len(reports)))
    return code


def cmd_challenge(args: argparse.Namespace) -> int:
    from harness.challenge_command import run_challenge_command

    deal_range = parse_range(args.range, "classic") if args.range else (1, 32000)
    return run_challenge_command(args.documents, deal_range, as_json=args.json, limits=_limits_of(args))


def cmd_fixtures(args: argparse.Namespace) -> int:
    import time

    from harness.fixtures import MANIFEST, check, default_dir, default_plan, domain_tables, find_fixtures
    from harness.request import MAX_SEED, default_jobs, max_jobs, parse_count

    tables = [t for t in domain_tables() if args.dialect in (None, t.dialect)]
    args.jobs = default_jobs() if args.jobs is None else parse_count(args.jobs, "--jobs", high=max_jobs())
    if args.action == "check":
        seed = (
            int.from_bytes(os.urandom(4), "big")
            if args.seed is None
            else parse_count(args.seed, "--seed", low=0, high=MAX_SEED)
        )
        rows = None if args.all else parse_count(args.rows, "--rows", low=0)
        target = find_fixtures(args.dir)
        problems = check(target, tables=tables, domain_rows=rows, seed=seed, jobs=args.jobs)
        for problem in problems:
            print(f"freecell-harness: fixtures check: {printable(problem, one_line=True)}", file=sys.stderr)
        if problems:
            return EXIT_NONCONFORMANT
        drawn = "every row" if rows is None else f"{rows} rows each, drawn with --seed {seed}"
        print(
            f"fixtures check: {len(default_plan()) + len(tables)} files match {MANIFEST} and the reference "
            f"(whole-domain tables: {drawn}, recomputed)"
        )
        return EXIT_OK
    target = Path(args.dir) if args.dir else default_dir()
    started = time.perf_counter()
    if args.full:
        return _regen_domain(target, tables, args, started)
    from harness.fixtures.regen import Disagreement, regenerate

    try:
        written = regenerate(target)
    except Disagreement as exc:
        print(f"freecell-harness: fixtures regen: {exc}; nothing written", file=sys.stderr)
        return EXIT_NONCONFORMANT
    print(f"fixtures regen: wrote {len(written)} files to {target} in {time.perf_counter() - started:.1f} s")
    return EXIT_OK


def _regen_domain(target: Path, tables: Sequence[DomainTable], args: argparse.Namespace, started: float) -> int:
    import time

    from harness.fixtures.domain_regen import DomainDisagreement, read_work, regenerate_domain, work_path

    for table in tables:
        total = table.row_count - len(read_work(work_path(target, table), table))
        done, shown = 0, time.monotonic()

        def rows_done(n: int, table: DomainTable = table, total: int = total, started: float = started) -> None:
            nonlocal done, shown
            done += n
            if time.monotonic() - shown >= (1 if sys.stderr.isatty() else 30) or done == total:
                shown = time.monotonic()
                rate = done / max(1e-9, time.perf_counter() - started)
                left = (total - done) / rate if rate else 0
                print(f"fixtures regen --full: {table.path}: {done}/{total} rows, {rate:.2f} rows/s, "
                      f"about {left / 60:.0f} min left", file=sys.stderr)  # fmt: skip

        try:
            computed = regenerate_domain(target, table, jobs=args.jobs, confirmer=args.confirm_with, progress=rows_done)
        except DomainDisagreement as exc:
            print(f"freecell-harness: fixtures regen --full: {exc}", file=sys.stderr)
            return EXIT_NONCONFORMANT
        except KeyboardInterrupt:
            print(f"freecell-harness: fixtures regen --full: interrupted; the rows confirmed so far are in "
                  f"{work_path(target, table)}: run again to resume", file=sys.stderr)  # fmt: skip
            return EXIT_INTERRUPTED
        print(f"fixtures regen --full: {table.path}: {computed} rows computed and confirmed, "
              f"{table.row_count} in the table, {time.perf_counter() - started:.0f} s")  # fmt: skip
        started = time.perf_counter()
    return EXIT_OK


def cmd_identify(args: argparse.Namespace) -> int:
    import json

    from harness.diagnosis import identify, identify_json, identify_text, read_boards

    found = [identify(cards) for cards in read_boards(args.files, sys.stdin.buffer)]
    print(json.dumps(identify_json(found)) if args.json else identify_text(found))
    return EXIT_OK if all(found) else EXIT_NONCONFORMANT


def cmd_profile(args: argparse.Namespace) -> int:
    import json

    from harness.dealer_profile import profile

    result = profile(args.impl, timeout=args.timeout, limits=_limits_of(args), startup_timeout=args.startup_timeout)
    print(json.dumps(result.to_json(), indent=2) if args.json else printable(result.text()))
    return EXIT_OK if result.matches else EXIT_NONCONFORMANT


_DIALECTS_HELP = f"which deals: {', '.join(reference.DIALECTS)}"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="freecell-harness", description="Is a FreeCell dealer Microsoft-exact?")
    from harness.report import harness_version

    parser.add_argument("--version", action="version", version=f"%(prog)s {harness_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    p = sub.add_parser("deal", help="print deals from the reference dealer", description="Print reference deals.")
    p.add_argument("numbers", nargs="*", metavar="N", help="deal numbers")
    p.add_argument("--range", metavar="A-B", help="every deal from A to B (instead of N ...)")
    p.add_argument("--dialect", type=_dialect, default=reference.DEFAULT_DIALECT, help=_DIALECTS_HELP)
    p.add_argument("--format", choices=reference.FORMATS, help="board layout (default: rows; line with --range)")
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser(
        "verify",
        help="compare an implementation with the reference (or another)",
        description="Compare the boards of IMPL with those of --against and say where they first differ.",
    )
    p.add_argument("impl", metavar="IMPL", help="reference, fixtures, pysol-cards, node:PATH, cmd:T, stream:C, py:M:F")
    p.add_argument("--against", metavar="IMPL", default="reference", help="what IMPL is compared with")
    p.add_argument("--dialect", type=_dialect, default=reference.DEFAULT_DIALECT, help=_DIALECTS_HELP)
    p.add_argument("--range", action="append", metavar="A-B", help="deals to check (repeatable; default: 1-32000)")
    p.add_argument("--sample", metavar="K", help="K deals: boundaries, the rest uniform")
    p.add_argument("--seed", metavar="S", help="seed of --sample (default: 0)")
    p.add_argument("--jobs", metavar="N", help="worker processes (default: the cores; at most 4 per core, 256)")
    p.add_argument("--shard", metavar="K/N", help="check only the K-th of N disjoint slices (default: all)")
    p.add_argument(
        "--timeout", type=parse_timeout, default=10.0, metavar="SECONDS", help="per deal, 0.01 … 86400 (default 10)"
    )
    p.add_argument(
        "--startup-timeout",
        type=parse_startup_timeout,
        default=DEFAULT_STARTUP_TIMEOUT,
        metavar="SECONDS",
        help=f"more for a process's first answer, until it has started (default {DEFAULT_STARTUP_TIMEOUT:g})",
    )
    p.add_argument("--encoding", default="utf-8", help="how program output is decoded")
    p.add_argument("--report", metavar="FILE.json", help="write the JSON report (SPEC.md) here")
    p.add_argument("--junit", metavar="FILE.xml", help="write JUnit XML here, for CI test views")
    p.add_argument("--resume", metavar="FILE", help="log of finished blocks; an interrupted run continues from it")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    _add_limit_options(p)
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser(
        "report", help="work with verify reports", description="Merge the reports of the shards of one run."
    )
    p.add_argument("action", choices=("merge",), help="merge: one verdict from the shards' reports")
    p.add_argument("reports", nargs="+", metavar="REPORT.json", help="reports written by verify --report")
    p.add_argument("--out", metavar="FILE.json", help="write the merged report here")
    p.set_defaults(run=cmd_report_merge)

    p = sub.add_parser(
        "ci",
        help="the steps of the CI workflow: matrix, shard, merge",
        description="The steps of .github/workflows/verify.yml and action.yml.",
    )
    steps = p.add_subparsers(dest="step", required=True, parser_class=_Parser, metavar="STEP")
    q = steps.add_parser("matrix", help="shard numbers 1 … N as JSON")
    q.add_argument("shards", type=int, metavar="N")
    q = steps.add_parser("shard", help="verify one shard into --out (exit 0 when a verdict was reached)")
    q.add_argument("impl", metavar="IMPL")
    q.add_argument("--range", action="append", metavar="A-B", help="deals to check (repeatable)")
    q.add_argument("--sample", metavar="K")
    q.add_argument("--seed", default="0", metavar="S")
    q.add_argument("--dialect", default=reference.DEFAULT_DIALECT, help=_DIALECTS_HELP)
    q.add_argument("--shard", type=int, required=True, metavar="K")
    q.add_argument("--shards", type=int, required=True, metavar="N")
    q.add_argument("--jobs", metavar="N")
    q.add_argument("--out", default="freecell-reports", metavar="DIR")
    q = steps.add_parser("merge", help="merge the shard-*.json under DIRECTORY into one verdict")
    q.add_argument("directory")
    q.add_argument("--out", default="freecell-report.json", metavar="FILE.json")
    p.set_defaults(run=cmd_ci)

    p = sub.add_parser(
        "challenge",
        help="read freeCodeCamp challenge documents and run their solutions",
        description="Read freeCodeCamp challenge documents, run their solutions and hints, and check the boards.",
    )
    p.add_argument("documents", nargs="+", metavar="DOCUMENT")
    p.add_argument("--range", metavar="A-B", help="deals compared with the reference (default 1-32000)")
    p.add_argument("--json", action="store_true", help="a JSON list, one object per document")
    _add_limit_options(p)
    p.set_defaults(run=cmd_challenge)

    p = sub.add_parser("identify", help="name the deal numbers that deal a board (files, or stdin)")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--json", action="store_true", help="a JSON list, one object per board")
    p.set_defaults(run=cmd_identify)

    p = sub.add_parser("profile", help="what a dealer implements: every dialect, around every boundary")
    p.add_argument("impl", metavar="IMPL")
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--timeout", type=parse_timeout, default=10.0, metavar="SECONDS", help="per deal, 0.01 … 86400 (default 10)"
    )
    p.add_argument(
        "--startup-timeout",
        type=parse_startup_timeout,
        default=DEFAULT_STARTUP_TIMEOUT,
        metavar="SECONDS",
        help=f"more for a process's first answer, until it has started (default {DEFAULT_STARTUP_TIMEOUT:g})",
    )
    _add_limit_options(p)
    p.set_defaults(run=cmd_profile)

    p = sub.add_parser("fixtures", help="regenerate or check the golden fixtures", description="The golden fixtures.")
    p.add_argument("action", choices=("regen", "check"), help="regen: write anew; check: against MANIFEST.json")
    p.add_argument("--dir", default=None, help="the fixtures directory (default: the packaged fixtures)")
    p.add_argument("--full", action="store_true", help="regen: the whole-domain tables (hours of CPU; resumable)")
    p.add_argument("--dialect", choices=("classic", "fcpro"), default=None, help="whole-domain tables: only this one")
    p.add_argument(
        "--confirm-with",
        choices=("node", "fcdigest"),
        default=None,
        help="regen --full: the second implementation (default: node for classic, fcdigest for fcpro)",
    )
    p.add_argument("--jobs", default=None, metavar="N", help="processes (default: one per core)")
    p.add_argument("--all", action="store_true", help="check: recompute every row of the whole-domain tables")
    p.add_argument(
        "--rows",
        default="2",
        metavar="N",
        help="check: rows of each whole-domain table recomputed (default 2, drawn at random)",
    )
    p.add_argument("--seed", default=None, metavar="S", help="check: draw the rows with this seed")
    p.set_defaults(run=cmd_fixtures)
    return parser


def _join_negative_ranges(argv: Sequence[str]) -> list[str]:
    """`--range -2-5` as `--range=-2-5`: argparse would take the value for an option."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] == "--range" and arg.startswith("-") and looks_like_range(arg):
            out[-1] = f"{out[-1]}={arg}"
        else:
            out.append(arg)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    args: argparse.Namespace | None = None
    try:
        args = build_parser().parse_args(_join_negative_ranges(sys.argv[1:] if argv is None else argv))
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except RequestError as exc:
        print(f"freecell-harness: {printable(str(exc), one_line=True)}", file=sys.stderr)
        return EXIT_REQUEST
    except HarnessError as exc:
        if os.environ.get("FREECELL_DEBUG"):
            raise
        print(f"freecell-harness: {printable(bug_message(exc), one_line=True)}", file=sys.stderr)
        return EXIT_BUG
    except BrokenPipeError:
        # The reader of `deal` went away (`| head`): not an error of ours; silence the flush at exit too.
        if sys.stdout is not None:
            _silence_stdout()
        return EXIT_OK
    except KeyboardInterrupt:
        kept = getattr(args, "resume", None)
        print(
            f"freecell-harness: interrupted{f' (--resume {kept} keeps what was finished)' if kept else ''}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug of ours: still one line, with the traceback on request
        if os.environ.get("FREECELL_DEBUG"):
            raise
        print(f"freecell-harness: {printable(bug_message(exc), one_line=True)}", file=sys.stderr)
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
