"""`freecell-harness` (also `python -m harness`): the command line of SPEC.md."""

from __future__ import annotations

import argparse
import codecs
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import reference
from harness.errors import RequestError
from harness.text import printable

EXIT_OK, EXIT_NONCONFORMANT, EXIT_REQUEST = 0, 1, 2
_INT = re.compile(r"[+-]?\d+")
_RANGE = re.compile(r"\s*([+-]?\d+)\s*(?:-|\.\.)\s*([+-]?\d+)\s*")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line, exit 2 (argparse's own error prints the whole usage first).
        raise RequestError(f"{self.prog.removeprefix('freecell-harness').strip() or 'usage'}: {message}")


def parse_deal_number(text: str, dialect: str, *, where: str = "deal number") -> int:
    """A deal number of `dialect` from the command line; RequestError naming it and the domain."""
    d = reference.get_dialect(dialect)
    if not _INT.fullmatch(text.strip()):
        raise RequestError(f"{where} {text!r} is not a whole number (the {d.name} domain is {d.describe_domain()})")
    try:
        return d.check(int(text))
    except ValueError as exc:
        raise RequestError(f"{where}: {exc}") from None


def parse_range(text: str, dialect: str) -> tuple[int, int]:
    """`A-B` (or `A..B`), inclusive, inside `dialect`'s domain."""
    m = _RANGE.fullmatch(text)
    if not m:
        raise RequestError(f"--range {text!r} is not of the form A-B, e.g. 1-32000")
    a = parse_deal_number(m[1], dialect, where=f"--range {text}: first deal")
    b = parse_deal_number(m[2], dialect, where=f"--range {text}: last deal")
    try:
        return reference.get_dialect(dialect).check_range(a, b)
    except ValueError as exc:
        raise RequestError(f"--range {text}: {exc}") from None


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
        first, last = parse_range(args.range, args.dialect)
        if fmt == "line":
            for chunk in reference.iter_lines(first, last, args.dialect):
                out.buffer.write(chunk)
        else:
            for i, d in enumerate(reference.deal_range(first, last, args.dialect)):
                out.write(("\n" if i and fmt in ("rows", "columns") else "") + d.format(fmt))
        return EXIT_OK
    numbers = [parse_deal_number(n, args.dialect) for n in args.numbers]
    for i, number in enumerate(numbers):
        out.write(("\n" if i and fmt in ("rows", "columns") else "") + reference.deal(number, args.dialect).format(fmt))
    return EXIT_OK


def _nonnegative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the timeout must be positive")
    return value


def _positive_int(text: str) -> int:
    if not _INT.fullmatch(text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return int(text)


def cmd_verify(args: argparse.Namespace) -> int:
    from harness import engine
    from harness.plan import ALL, Shard
    from harness.progress import ProgressBar
    from harness.report import Report, board_diff, verdict, write_junit
    from harness.resume import ResumeLog

    ranges = tuple(parse_range(r, args.dialect) for r in args.range or ())
    if ranges and args.sample is not None:
        raise RequestError("verify: give --range or --sample, not both")
    if args.seed is not None and args.sample is None:
        raise RequestError("verify: --seed goes with --sample")
    if not ranges and args.sample is None:
        ranges = ((1, 32000),)  # Microsoft's original deals
    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise RequestError(f"verify: unknown --encoding {args.encoding!r}") from None
    request = engine.Request(
        impl=args.impl,
        against=args.against,
        dialect=args.dialect,
        ranges=ranges,
        sample=args.sample,
        seed=args.seed or 0,
        jobs=args.jobs or engine.default_jobs(),
        shard=Shard.parse(args.shard) if args.shard else ALL,
        timeout=args.timeout,
        encoding=args.encoding,
    )
    total = sum(b - a + 1 for a, b in ranges) + (args.sample or 0)
    bar = ProgressBar(total // request.shard.count)
    resume = ResumeLog(args.resume) if args.resume else None
    try:
        outcome = engine.run(request, resume=resume, progress=bar)
    finally:
        bar.close()
        if resume:
            resume.close()
    report = Report(
        implementation=args.impl,
        against=args.against,
        dialect=args.dialect,
        checked=outcome.checked,
        first_failure=outcome.first_failure,
        elapsed_s=outcome.elapsed_s,
        shard=str(request.shard),
        ranges=ranges,
    )
    if args.report:
        report.write_json(args.report)
    if args.junit:
        label = ", ".join(f"{a}-{b}" for a, b in ranges) or f"sample {args.sample} seed {request.seed}"
        write_junit(args.junit, report, label)
    print(verdict(report))
    print(
        f"{report.checked} deals in {report.elapsed_s:.2f} s ({report.deals_per_s:,.0f} deals/s, {request.jobs} jobs)"
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
    from harness.fixtures import check_fixtures_command, regen_fixtures_command

    run = regen_fixtures_command if args.action == "regen" else check_fixtures_command
    return run(args.dir)


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
    p.add_argument("--sample", type=_positive_int, metavar="K", help="K deals: the boundaries, the rest uniform")
    p.add_argument("--seed", type=int, metavar="S", help="seed of --sample (default 0)")
    p.add_argument("--jobs", type=_positive_int, metavar="N", help="worker processes (default: the cores)")
    p.add_argument("--shard", metavar="K/N", help="check only the K-th of N disjoint slices")
    p.add_argument("--timeout", type=_nonnegative_float, default=10.0, metavar="SECONDS", help="per deal")
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

    p = sub.add_parser("fixtures", help="regenerate or check the golden fixtures")
    p.add_argument("action", choices=("regen", "check"))
    p.add_argument("--dir", default=None, help="the fixtures directory (default: the checkout's fixtures/)")
    p.set_defaults(run=cmd_fixtures)
    return parser


def _join_negative_ranges(argv: Sequence[str]) -> list[str]:
    """`--range -2-5` as `--range=-2-5`: argparse would take the value for an option."""
    out: list[str] = []
    for arg in argv:
        if out and out[-1] in ("--range", "--deal-range") and arg.startswith("-") and _RANGE.fullmatch(arg):
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
        print(
            printable(f"freecell-harness: internal error: {type(exc).__name__}: {exc}", one_line=True)
            + " (FREECELL_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return EXIT_REQUEST


if __name__ == "__main__":
    sys.exit(main())
