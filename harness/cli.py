"""`freecell-harness` (also `python -m harness`): the command line of SPEC.md."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

import reference
from harness.errors import HarnessError, RequestError, bug_message
from harness.intervals import in_domain, looks_like_range, parse_deal_number, parse_range
from harness.request import parse_timeout
from harness.text import printable

EXIT_OK, EXIT_NONCONFORMANT, EXIT_REQUEST, EXIT_BUG = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, exit 2 (argparse's own error prints the whole usage first).
        raise RequestError(f"{self.prog.removeprefix('freecell-harness').strip() or 'usage'}: {message}")


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
    )
    ranges = request.ranges
    bar = ProgressBar(request.total // request.shard.count)
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
    )
    if args.report:
        report.write_json(args.report)
    if args.junit:
        label = ", ".join(f"{a}-{b}" for a, b in ranges) or f"sample {args.sample} seed {request.seed}"
        write_junit(args.junit, report, label)
    print(verdict(report))
    print(
        f"{report.checked - report.resumed} deals in {report.elapsed_s:.2f} s"
        f" ({report.deals_per_s:,.0f} deals/s, {request.jobs} jobs)"
        + (f"; {report.resumed} more from the resume log" if report.resumed else "")
    )
    if outcome.first_failure is not None:
        print(board_diff(outcome.first_failure.expected, outcome.first_failure.actual))
        return EXIT_NONCONFORMANT
    return EXIT_OK


def cmd_report_merge(args: argparse.Namespace) -> int:
    from harness.report import board_diff, merge_reports, read_report, verdict

    merged = merge_reports([(path, read_report(path)) for path in args.reports])
    if args.out:
        merged.write_json(args.out)
    print(verdict(merged))
    if merged.first_failure is not None:
        print(board_diff(merged.first_failure.expected, merged.first_failure.actual))
        return EXIT_NONCONFORMANT
    return EXIT_OK


def cmd_challenge(args: argparse.Namespace) -> int:
    from harness.challenge_command import run_challenge_command

    deal_range = parse_range(args.range, "classic") if args.range else (1, 32000)
    return run_challenge_command(args.documents, deal_range, as_json=args.json)


def cmd_fixtures(args: argparse.Namespace) -> int:
    import time

    from harness.fixtures import MANIFEST, check, default_dir, default_plan, find_fixtures

    if args.action == "check":
        target = find_fixtures(args.dir)
        problems = check(target)
        for problem in problems:
            print(f"freecell-harness: fixtures check: {printable(problem, one_line=True)}", file=sys.stderr)
        if problems:
            return EXIT_NONCONFORMANT
        print(f"fixtures check: {len(default_plan())} files match {MANIFEST} and the reference")
        return EXIT_OK
    from harness.fixtures.regen import Disagreement, regenerate

    target = Path(args.dir) if args.dir else default_dir()
    started = time.perf_counter()
    try:
        written = regenerate(target)
    except Disagreement as exc:
        print(f"freecell-harness: fixtures regen: {exc}; nothing written", file=sys.stderr)
        return EXIT_NONCONFORMANT
    print(f"fixtures regen: wrote {len(written)} files to {target} in {time.perf_counter() - started:.1f} s")
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

    result = profile(args.impl, timeout=args.timeout)
    print(json.dumps(result.to_json(), indent=2) if args.json else printable(result.text()))
    return EXIT_OK if result.matches else EXIT_NONCONFORMANT


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="freecell-harness", description="Is a FreeCell dealer Microsoft-exact?")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("deal", help="print deals from the reference dealer")
    p.add_argument("numbers", nargs="*", metavar="N")
    p.add_argument("--range", metavar="A-B")
    p.add_argument("--dialect", type=_dialect, default=reference.DEFAULT_DIALECT)
    p.add_argument("--format", choices=reference.FORMATS)
    p.set_defaults(run=cmd_deal)

    p = sub.add_parser("verify", help="compare an implementation with the reference (or another)")
    p.add_argument("impl", metavar="IMPL", help="reference, fixtures, pysol-cards, node:PATH, cmd:T, stream:C, py:M:F")
    p.add_argument("--against", metavar="IMPL", default="reference")
    p.add_argument("--dialect", type=_dialect, default=reference.DEFAULT_DIALECT)
    p.add_argument("--range", action="append", metavar="A-B", help="deals to check (repeatable; default 1-32000)")
    p.add_argument("--sample", metavar="K", help="K deals: the boundaries, the rest uniform")
    p.add_argument("--seed", metavar="S", help="seed of --sample (default 0)")
    p.add_argument("--jobs", metavar="N", help="worker processes (default: the cores; at most 4 per core, 256)")
    p.add_argument("--shard", metavar="K/N", help="check only the K-th of N disjoint slices")
    p.add_argument(
        "--timeout", type=parse_timeout, default=10.0, metavar="SECONDS", help="per deal, 0.01 … 86400 (default 10)"
    )
    p.add_argument("--encoding", default="utf-8", help="how program output is decoded (default utf-8)")
    p.add_argument("--report", metavar="FILE.json")
    p.add_argument("--junit", metavar="FILE.xml")
    p.add_argument("--resume", metavar="FILE", help="log of finished blocks; an interrupted run continues")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("report", help="work with verify reports")
    p.add_argument("action", choices=("merge",))
    p.add_argument("reports", nargs="+", metavar="REPORT.json")
    p.add_argument("--out", metavar="FILE.json")
    p.set_defaults(run=cmd_report_merge)

    p = sub.add_parser("challenge", help="read freeCodeCamp challenge documents and run their solutions")
    p.add_argument("documents", nargs="+", metavar="DOCUMENT")
    p.add_argument("--range", metavar="A-B", help="deals compared with the reference (default 1-32000)")
    p.add_argument("--json", action="store_true", help="a JSON list, one object per document")
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
    p.set_defaults(run=cmd_profile)

    p = sub.add_parser("fixtures", help="regenerate or check the golden fixtures")
    p.add_argument("action", choices=("regen", "check"))
    p.add_argument("--dir", default=None, help="the fixtures directory (default: the packaged fixtures)")
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
        # The reader went away (`| head`): not an error of ours; silence the flush at exit too.
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        print("freecell-harness: interrupted (a --resume log keeps what was finished)", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: still one line, with the traceback on request
        if os.environ.get("FREECELL_DEBUG"):
            raise
        print(f"freecell-harness: {printable(bug_message(exc), one_line=True)}", file=sys.stderr)
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
