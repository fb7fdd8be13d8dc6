"""`freecell-harness` (also `python -m harness`): the command line of SPEC.md.

A command imports what it needs when it runs (inside its `cmd_…`): building the parser, `--help`
and `--version` load no dealer, no engine and no NumPy.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import reference
from harness.errors import HarnessError, RequestError, bug_message, environment_limit
from harness.intervals import Interval, in_domain, looks_like_range, parse_deal_number, parse_range
from harness.limits import DEFAULT_STARTUP_TIMEOUT, Limits
from harness.process import interrupts
from harness.text import counted, printable

if TYPE_CHECKING:
    from harness.fixtures import DomainTable

EXIT_OK, EXIT_NONCONFORMANT, EXIT_REQUEST, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

EXIT_CODES = """exit status:
  0    all that was checked conforms
  1    something does not (a divergence, an invalid board, a crash, a timeout, bad fixtures)
  2    the request itself is wrong or cannot be served (one line on stderr says what)
  3    the harness itself failed (a bug of ours)
  130  interrupted (Ctrl-C, SIGTERM): the verdict so far is printed and the report written"""

_IMPL_FORMS = "{the IMPL forms}"  # in a help text: each kind's form, as its Dealer class declares it
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
            wrong, owners = m[1].split("=")[0], _commands_of_options(self)
            if wrong in owners:  # given to a command that does not take it: say which ones do
                return f"; {wrong} is an option of {', '.join(sorted(owners[wrong]))} only"
            choices = sorted(owners)
        else:
            return ""
        close = difflib.get_close_matches(wrong, choices, n=1, cutoff=0.6)
        return f"; did you mean {close[0]!r}?" if close else ""


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Defaults shown (where there is one the help does not already say), the epilog kept as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if _IMPL_FORMS in text:  # asked for only when help is shown: it imports every kind's module
            from harness.adapters.registry import impl_forms

            text = text.replace(_IMPL_FORMS, ", ".join(impl_forms()))
        if action.default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)"


def _commands_of_options(parser: argparse.ArgumentParser, command: str = "") -> dict[str, set[str]]:
    """Every long option of the parser and its subcommands, with the commands that take it."""
    owners: dict[str, set[str]] = {}
    for action in parser._actions:
        for option in action.option_strings:
            if option.startswith("--") and option != "--help":
                owners.setdefault(option, set()).add(command or "freecell-harness")
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for option, commands in _commands_of_options(sub, f"{command} {name}".strip()).items():
                    owners.setdefault(option, set()).update(commands)
    return owners


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


class _VersionAction(argparse.Action):
    """`--version`: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> NoReturn:
        from harness.version import harness_version

        say(f"{parser.prog} {harness_version()}")
        parser.exit()


def _timeout(text: str) -> float:
    from harness.request import parse_timeout

    return parse_timeout(text)


def _startup_timeout(text: str) -> float:
    from harness.request import parse_startup_timeout

    return parse_startup_timeout(text)


def _dialect(text: str) -> str:
    if text not in reference.DIALECTS:
        raise argparse.ArgumentTypeError(f"unknown dialect {text!r}: choose one of {', '.join(reference.DIALECTS)}")
    return text


DEAL_PIECE = 4096  # boards of a text format written at once


def cmd_deal(args: argparse.Namespace) -> int:
    from harness.files import write_all

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
                    write_all(out, chunk)
            return EXIT_OK
        boards = (d for first, last in parts for d in reference.deal_range(first, last, args.dialect))
    else:
        numbers = [parse_deal_number(n, args.dialect) for n in args.numbers]
        boards = (reference.deal(number, args.dialect) for number in numbers)
    separator = "\n" if fmt in ("rows", "columns") else ""
    piece: list[str] = []
    for i, d in enumerate(boards):
        piece.append((separator if i else "") + d.format(fmt))
        if len(piece) == DEAL_PIECE:
            write_all(out, "".join(piece).encode())
            piece.clear()
    write_all(out, "".join(piece).encode())
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


def _add_timeout_options(p: argparse.ArgumentParser) -> None:
    """--timeout and --startup-timeout, as verify and profile take them."""
    p.add_argument(
        "--timeout", type=_timeout, default=10.0, metavar="SECONDS", help="per deal, 0.01 … 86400 (default 10)"
    )
    p.add_argument(
        "--startup-timeout",
        type=_startup_timeout,
        default=DEFAULT_STARTUP_TIMEOUT,
        metavar="SECONDS",
        help=f"more for a process's first answer, until it has started (default {DEFAULT_STARTUP_TIMEOUT:g})",
    )


def _add_card_options(p: argparse.ArgumentParser) -> None:
    """--cards and --suits, as verify, profile and ci shard take them: how a dealer's bare numbers read."""
    p.add_argument(
        "--cards",
        choices=("rank-major", "suit-major"),
        help="a dealer's cards as bare numbers: rank × 4 + suit, or suit × 13 + rank (with --suits)",
    )
    p.add_argument("--suits", metavar="CDHS", help="a dealer's suits as numbers: the suits 0 … 3, e.g. SHDC")


def _add_limit_options(p: argparse.ArgumentParser) -> None:
    from harness.limits import DEFAULT_LIMITS as D

    g = p.add_argument_group("limits of every dealer process (0: no limit; exceeding one is a crash at that deal)")
    g.add_argument(
        "--memory-limit",
        type=_limit(int, "megabytes"),
        default=D.memory_mb,
        metavar="MB",
        help=f"memory each dealer process tree uses, not its address space (default {D.memory_mb})",
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
    with interrupts.held():  # an interrupt before its run is raised at its start, so the report says so
        return _verify(args)


def _verify(args: argparse.Namespace) -> int:
    from harness import engine
    from harness.adapters import dealer_build, dealer_version
    from harness.intervals import merge_intervals
    from harness.progress import ProgressBar
    from harness.reports.github import annotation as github_annotation
    from harness.reports.junit import write_junit
    from harness.reports.report import Report, board_diff, verdict
    from harness.request import Request
    from harness.resume import ResumeLog

    if args.cluster and args.jobs is not None:
        raise RequestError(
            "verify: --jobs is for this machine's workers; with --cluster the cluster's workers take the blocks "
            "(one a thread: start them with --nthreads N)"
        )
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
        cards=args.cards,
        suits=args.suits,
        startup_timeout=args.startup_timeout,
    )
    outputs = (("--report", args.report), ("--junit", args.junit), ("--resume", args.resume), ("--html", args.html))
    for option, path in outputs:
        if path:
            check_output_path(option, path)
    ranges = request.ranges
    runner: engine.RunnerFactory = engine.LocalPool
    if args.cluster:
        from harness.cluster import cluster_runner

        runner = cluster_runner(args.cluster)
    bar = ProgressBar(request.total // request.shard.count, enabled=not args.quiet)
    resume = ResumeLog(args.resume) if args.resume else None
    try:
        with interrupts.released():
            outcome = engine.run(request, resume=resume, progress=bar, runner=runner)
    except KeyboardInterrupt:  # before the engine's workers ran: while it looked for the dealers, or read the log
        interrupts.kill_children()
        outcome = engine.Outcome(interrupted=True)
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
        dealer_build=dealer_build(request.impl),
        interrupted=outcome.interrupted,
        covered=tuple(merge_intervals(outcome.agreed)) if outcome.interrupted and outcome.agreed is not None else None,
    )
    # The verdict first: a file that cannot be written at the end must not take it away.
    say(
        verdict(report),
        f"{counted(report.checked - report.resumed, 'deal')} in {report.elapsed_s:.2f} s"
        f" ({report.deals_per_s:,.0f} deals/s{'' if args.cluster else ', ' + counted(request.jobs, 'job')})"
        + (f"; {report.resumed} more from the resume log" if report.resumed else "")
        + "".join(f"; {note}" for note in outcome.notes),
    )
    if outcome.first_failure is not None:
        say(board_diff(outcome.first_failure.expected, outcome.first_failure.actual))
    if args.annotate and (annotation := github_annotation(report)):
        say(annotation)
    if outcome.interrupted:
        resumable = f"; --resume {args.resume} continues it" if args.resume else ""
        print(f"freecell-harness: interrupted{resumable}", file=sys.stderr)
    code = EXIT_INTERRUPTED if outcome.interrupted else EXIT_OK if outcome.first_failure is None else EXIT_NONCONFORMANT
    try:
        if args.report:
            report.write_json(args.report)
        if args.junit:
            write_junit(args.junit, report, request.blocks())
        if args.html:
            from harness.reports.html import verify_html, write_html

            write_html(args.html, verify_html(report, request.blocks()))
    except RequestError as exc:
        print(f"freecell-harness: {exc}", file=sys.stderr)
        return EXIT_REQUEST if code == EXIT_OK else code
    return code


def cmd_report_merge(args: argparse.Namespace) -> int:
    from harness.reports.report import board_diff, merge_reports, read_report, verdict

    if args.out:
        check_output_path("--out", args.out)
    merged = merge_reports([(path, read_report(path)) for path in args.reports])
    say(verdict(merged))
    if merged.first_failure is not None:
        say(board_diff(merged.first_failure.expected, merged.first_failure.actual))
    # Not every deal checked, none failing (gaps): no verdict either way, as of an interrupted run.
    code = EXIT_INTERRUPTED if merged.incomplete else EXIT_OK if merged.first_failure is None else EXIT_NONCONFORMANT
    if args.out:
        merged.write_json(args.out)
    return code


def cmd_ci(args: argparse.Namespace) -> int:
    from harness import ci
    from harness.reports.github import job_summary
    from harness.reports.report import read_report

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
            cards=args.cards,
            suits=args.suits,
            out=Path(args.out),
            annotate=ci.on_github(),
            quiet=args.quiet,
            against=args.against,
            timeout=args.timeout,
            startup_timeout=args.startup_timeout,
        )
        code = main(argv)
        report_path = Path(args.out) / f"shard-{args.shard}.json"
        if code != EXIT_REQUEST and report_path.is_file():
            report = read_report(str(report_path))
            ci.append_summary(job_summary(report, [report]))
        return code
    paths = ci.shard_reports(args.directory)
    code = main(["report", "merge", *paths, "--out", args.out])
    if Path(args.out).is_file():
        merged = read_report(args.out)
        ci.append_summary(job_summary(merged, [read_report(p) for p in paths]))
    return code


def cmd_challenge(args: argparse.Namespace) -> int:
    import json

    from harness.challenge.command import format_table, judge_documents

    deal_range = parse_range(args.range, "classic") if args.range else (1, 32000)
    judged = judge_documents(args.documents, deal_range, _limits_of(args))
    if args.json:
        say(json.dumps(judged.reports, indent=2))  # ASCII: a document's control characters stay escaped
    else:
        sys.stdout.write(printable(format_table(judged.reports, deal_range)))
    if judged.unreadable:
        # exit 2 like any request that cannot be served, after judging the readable documents
        more = len(judged.unreadable) - 1
        raise RequestError(str(judged.unreadable[0]) + (f" (and {more} more)" if more else ""))
    return EXIT_OK if judged.conformant else EXIT_NONCONFORMANT


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
        named = _named_rows(args.row or (), tables)
        target = find_fixtures(args.dir)
        problems = check(target, tables=tables, domain_rows=rows, seed=seed, jobs=args.jobs, named_rows=named)
        for problem in problems:
            print(f"freecell-harness: fixtures check: {printable(problem, one_line=True)}", file=sys.stderr)
        if problems:
            return EXIT_NONCONFORMANT
        drawn = "every row" if rows is None else f"{rows} rows each, drawn with --seed {seed}"
        drawn += "".join(f", and row {a}-{b}" for a, b in named if rows is not None)
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
        return exc.exit_status
    print(f"fixtures regen: wrote {len(written)} files to {target} in {time.perf_counter() - started:.1f} s")
    return EXIT_OK


def _named_rows(texts: Sequence[str], tables: Sequence[DomainTable]) -> list[Interval]:
    """The rows `--row A-B` names: each must be a row of one of the whole-domain tables checked."""
    named = []
    for text in texts:
        row = parse_range(text, "fcpro", option="--row")
        if not any(row in table.rows() for table in tables):
            which = ", ".join(t.path for t in tables) or "none (--dialect has none)"
            raise RequestError(
                f"--row {text}: not a row of the whole-domain tables ({which}): their rows are "
                "k·1000000+1 … (k+1)·1000000, the last one cut at the dialect's last deal"
            )
        named.append(row)
    return named


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
            return exc.exit_status
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

    if args.html:
        check_output_path("--html", args.html)
    result = profile(
        args.impl,
        timeout=args.timeout,
        limits=_limits_of(args),
        startup_timeout=args.startup_timeout,
        cards=args.cards,
        suits=args.suits,
    )
    print(json.dumps(result.to_json(), indent=2) if args.json else printable(result.text()))
    if args.html:
        from harness.reports.html import profile_html, write_html

        write_html(args.html, profile_html(result))
    return EXIT_OK if result.matches else EXIT_NONCONFORMANT


def cmd_matrix(args: argparse.Namespace) -> int:
    if args.step == "diff":
        from harness.matrix.diff import diff_markdown, diff_matrices, diff_text
        from harness.matrix.runner import read_matrix

        changes = diff_matrices(read_matrix(Path(args.old)), read_matrix(Path(args.new)))
        say((diff_markdown(changes) if args.markdown else diff_text(changes)).rstrip("\n"))
        return EXIT_NONCONFORMANT if any(c.worse for c in changes) else EXIT_OK
    from harness.matrix.manifest import load_manifest
    from harness.matrix.runner import run_matrix

    manifest = load_manifest(
        args.manifest, lambda impl, options: build_parser().parse_args(["profile", impl, *options])
    )
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise RequestError(f"--out {args.out}: not a directory")
    if not out.parent.is_dir():
        raise RequestError(f"--out {args.out}: directory {out.parent} does not exist (create it first)")
    manifest.only(args.only)  # an unknown id is refused before any work
    sources = [Path(d) for d in args.sources or ()]
    for source in sources:
        if not (source / "matrix.json").is_file():
            raise RequestError(f"--from {source}: no matrix.json in it")
    out.mkdir(exist_ok=True)
    try:
        outcome = run_matrix(
            manifest,
            out,
            jobs=args.jobs,
            only=args.only,
            redo=args.redo,
            sources=sources,
            say=lambda s: say(printable(s)),
        )
    except KeyboardInterrupt:
        print(f"freecell-harness: matrix run interrupted: {out / 'matrix.json'} not written", file=sys.stderr)
        interrupts.end_interrupted(EXIT_INTERRUPTED)
    rows = outcome.document["implementations"]
    for line in outcome.unmet:
        say(printable(f"expectation not met: {line}"))
    say(f"{counted(len(rows), 'implementation')}: {out / 'index.html'}, {out / 'matrix.json'}, {out / 'summary.md'}")
    return EXIT_NONCONFORMANT if outcome.unmet else EXIT_OK


def _jobs(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 256:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a count of 1 … 256")
    return int(text)


def cmd_setup(args: argparse.Namespace) -> int:
    if args.what == "challenge":
        from harness.seeds import download_challenge

        if args.prefix is not None:
            raise RequestError("setup challenge: --prefix is for typescript (the file is kept in the user cache)")
        print(f"challenge file kept (SHA-256 checked): {download_challenge()}")
        return EXIT_OK
    from harness.node.typescript import TYPESCRIPT_ENV, install_typescript, where_the_harness_looks

    prefix = Path(args.prefix) if args.prefix else None
    package = install_typescript(prefix)
    print(f"typescript installed: {package}")
    looks = where_the_harness_looks()
    if prefix is not None and prefix.resolve() != looks.resolve():
        print(f"the harness looks in {looks}: set {TYPESCRIPT_ENV}={prefix.resolve()} for it to use this one")
    return EXIT_OK


_DIALECTS_HELP = f"which deals: {', '.join(reference.DIALECTS)}"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="freecell-harness", description="Is a FreeCell dealer Microsoft-exact?")
    parser.add_argument("--version", action=_VersionAction, help="show the version and exit")
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
    p.add_argument("impl", metavar="IMPL", help=_IMPL_FORMS)
    p.add_argument("--against", metavar="IMPL", default="reference", help="what IMPL is compared with")
    p.add_argument("--dialect", type=_dialect, default=reference.DEFAULT_DIALECT, help=_DIALECTS_HELP)
    p.add_argument(
        "--range",
        action="append",
        metavar="A-B",
        help="deals to check (repeatable; default: 1-32000 and 1000 deals each side of every boundary)",
    )
    p.add_argument("--sample", metavar="K", help="K deals: boundaries, the rest uniform")
    p.add_argument("--seed", metavar="S", help="seed of --sample (default: 0)")
    p.add_argument("--jobs", metavar="N", help="worker processes (default: the cores; at most 4 per core, 256)")
    p.add_argument("--shard", metavar="K/N", help="check only the K-th of N disjoint slices (default: all)")
    p.add_argument(
        "--cluster",
        metavar="tcp://HOST:PORT",
        help="compare the blocks on the workers of this Dask scheduler (needs freecell-harness[cluster])",
    )
    _add_timeout_options(p)
    p.add_argument("--encoding", default="utf-8", help="how program output is decoded")
    _add_card_options(p)
    p.add_argument("--report", metavar="FILE.json", help="write the JSON report (SPEC.md) here")
    p.add_argument("--junit", metavar="FILE.xml", help="write JUnit XML here, for CI test views")
    p.add_argument("--resume", metavar="FILE", help="log of finished blocks; an interrupted run continues from it")
    p.add_argument("--html", metavar="FILE.html", help="write a page with the boards and the domain checked, drawn")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
    p.add_argument(
        "--annotate",
        action="store_true",
        help="print a GitHub Actions ::error annotation for a failure (`ci shard` does on GitHub)",
    )
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
    from harness import ci

    steps = p.add_subparsers(dest="step", required=True, parser_class=_Parser, metavar="STEP")
    q = steps.add_parser("matrix", help="shard numbers 1 … N as JSON")
    q.add_argument("shards", type=int, metavar="N")
    q = steps.add_parser(
        "shard",
        help="verify one shard into --out (exits as verify would: 1 when the shard diverges)",
        description="Verify one shard, writing shard-K.json, shard-K.xml and shard-K.resume into --out.",
        epilog=ci.SHARD_EXIT_CODES,
    )
    q.add_argument("impl", metavar="IMPL")
    q.add_argument("--against", metavar="IMPL", default="reference", help="what IMPL is compared with")
    q.add_argument("--range", action="append", metavar="A-B", help="deals to check (repeatable; default: verify's)")
    q.add_argument("--sample", metavar="K")
    q.add_argument("--seed", default="0", metavar="S")
    q.add_argument("--dialect", default=reference.DEFAULT_DIALECT, help=_DIALECTS_HELP)
    q.add_argument("--shard", type=int, required=True, metavar="K")
    q.add_argument("--shards", type=int, required=True, metavar="N")
    q.add_argument("--jobs", metavar="N")
    _add_card_options(q)
    _add_timeout_options(q)
    q.add_argument("--out", default="freecell-reports", metavar="DIR")
    q.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
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
    p.add_argument("--html", metavar="FILE.html", help="write a page with a bar per dialect and the boards, drawn")
    _add_timeout_options(p)
    _add_card_options(p)
    _add_limit_options(p)
    p.set_defaults(run=cmd_profile)

    p = sub.add_parser(
        "matrix",
        help="many implementations profiled into one table (run), and what changed (diff)",
        description="The conformance matrix: a manifest's implementations profiled, side by side.",
    )
    steps = p.add_subparsers(dest="step", required=True, parser_class=_Parser, metavar="STEP")
    q = steps.add_parser(
        "run",
        help="profile every implementation of MANIFEST.toml into DIR (exit 1: an expectation not met)",
        description="Profile each implementation of the manifest and write matrix.json, index.html, "
        "summary.md and badges/ into DIR.",
    )
    q.add_argument("manifest", metavar="MANIFEST.toml")
    q.add_argument("--out", required=True, metavar="DIR", help="where the results go (a re-run keeps unchanged rows)")
    q.add_argument(
        "--jobs",
        type=_jobs,
        default=os.cpu_count() or 1,
        metavar="N",
        help="implementations profiled at once (default: the cores)",
    )
    q.add_argument("--only", nargs="+", action="extend", metavar="ID", help="profile only these implementations")
    q.add_argument("--redo", action="store_true", help="profile again the rows whose build has not changed")
    q.add_argument(
        "--from",
        dest="sources",
        nargs="+",
        action="extend",
        metavar="DIR",
        help="run nothing: combine the matrix.json of these directories (one CI job each) into DIR",
    )
    q = steps.add_parser(
        "diff",
        help="what changed between two matrix.json (exit 1: one got worse)",
        description="New failures, fixed ones, moved first failures, rows added and removed.",
    )
    q.add_argument("old", metavar="OLD.json")
    q.add_argument("new", metavar="NEW.json")
    q.add_argument("--markdown", action="store_true", help="a Markdown table (for a CI job summary)")
    p.set_defaults(run=cmd_matrix)

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
    p.add_argument(
        "--row",
        action="append",
        metavar="A-B",
        help="check: recompute this row of the whole-domain tables too (repeatable), e.g. 1000001-2000000",
    )
    p.set_defaults(run=cmd_fixtures)

    p = sub.add_parser(
        "setup",
        help="install what some runs need: the TypeScript compiler (npm, once), the original solution",
        description="Install the TypeScript compiler that `node:` runs .ts/.mts/.cts dealers with (typescript), "
        "or download freeCodeCamp's challenge file holding the original solution into the user cache (challenge).",
    )
    p.add_argument("what", choices=("typescript", "challenge"))
    p.add_argument(
        "--prefix",
        default=None,
        metavar="DIR",
        help="where npm installs it (default: $FREECELL_TYPESCRIPT, else ~/.cache/freecell-harness/typescript)",
    )
    p.set_defaults(run=cmd_setup)
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


def escape_what_cannot_be_written() -> None:
    """Text the terminal's encoding cannot hold (the POSIX locale's ASCII) is written as escapes (`\\u2026`),
    never an error that would take the verdict and its exit status with it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    args: argparse.Namespace | None = None
    escape_what_cannot_be_written()
    try:
        args = build_parser().parse_args(_join_negative_ranges(sys.argv[1:] if argv is None else argv))
        run: Callable[[argparse.Namespace], int] = args.run
        if run is not cmd_verify:  # verify releases Ctrl-C and SIGTERM itself, once its report can say so
            interrupts.release()
        return run(args)
    except HarnessError as exc:  # each kind of error says its exit status: 1, 2 (a RequestError), 3 (ours)
        if exc.exit_status == EXIT_BUG and os.environ.get("FREECELL_DEBUG"):
            raise
        said = bug_message(exc) if exc.exit_status == EXIT_BUG else str(exc)
        print(f"freecell-harness: {printable(said, one_line=True)}", file=sys.stderr)
        return exc.exit_status
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
    except Exception as exc:  # a bug of ours (or the machine's limit): still one line, the traceback on request
        if os.environ.get("FREECELL_DEBUG"):
            raise
        limit = environment_limit(exc)
        said = str(limit) if limit is not None else bug_message(exc)
        print(f"freecell-harness: {printable(said, one_line=True)}", file=sys.stderr)
        return EXIT_REQUEST if limit is not None else EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
