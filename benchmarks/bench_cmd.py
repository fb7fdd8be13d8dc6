"""What `cmd:` costs beside what its processes cost: the harness against a shell loop, same run.

    python benchmarks/bench_cmd.py [--deals N] [--rounds R] [--formats line,rows]

Builds examples/c/freecell.c (needs cc) and times, for deals 1 … N and each output format: (1) a
shell loop that starts the dealer once per deal (`for n in …; do freecell -f FORMAT $n; done >
/dev/null`); (2) the command a user runs, `freecell-harness verify cmd:… --range 1-N --jobs 1`, from
its start to its end, which starts the dealer once per deal too: the ratio (2) ÷ (1) is the figure
(the goal: at most 2×); (3) the same run inside a warm Python process (`engine.run`, as the pytest
plugin runs it): (2) less the command's own start (the interpreter, its imports) and end; and (4)
the part of (3) that starts the processes: `harness.process.run` once per deal, one after another,
through the spawner (a small process, compiled where a C compiler was at install, that has set the
dealers' limits and cgroup on itself and starts each with posix_spawn in a session of its own).
(3) also asks for each deal's process before it judges the last output (the spawner starts it once
the last tree is gone), and judges each output while the next runs; (4) does neither.  They take
turns, R rounds; the best of each is printed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness
import reference
from harness import engine, process
from harness.engine import Request
from harness.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
COMMAND = shutil.which("freecell-harness", path=str(Path(sys.executable).parent)) or "freecell-harness"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--formats", default="line,rows", help="the dealer's output formats, comma-separated")
    args = parser.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        print("bench_cmd: needs cc or gcc", file=sys.stderr)
        return 2
    # The modules compiled, as pip compiles them at install: an editable checkout run where
    # PYTHONDONTWRITEBYTECODE is set would compile them at every start of the command.
    packages = [str(Path(m.__file__).parent) for m in (harness, reference)]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *packages], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as tmp:
        exe = str(Path(tmp) / "freecell")
        subprocess.run([cc, "-O2", "-o", exe, str(ROOT / "examples" / "c" / "freecell.c")], check=True)
        for fmt in args.formats.split(","):
            measure_format(exe, fmt, args.deals, args.rounds)
    return 0


def measure_format(exe: str, fmt: str, deals: int, rounds: int) -> None:
    loop = f'n=1; while [ $n -le {deals} ]; do "{exe}" -f {fmt} $n; n=$((n + 1)); done > /dev/null'

    def shell() -> float:
        started = time.perf_counter()
        subprocess.run(["sh", "-c", loop], check=True)
        return time.perf_counter() - started

    impl = f"cmd:{exe} -f {fmt} {{n}}"

    def command() -> float:
        started = time.perf_counter()
        done = subprocess.run(
            [COMMAND, "verify", impl, "--range", f"1-{deals}", "--jobs", "1", "--quiet"], capture_output=True
        )
        assert done.returncode == 0, done.stderr
        return time.perf_counter() - started

    def harness() -> float:
        outcome = engine.run(Request(impl=impl, ranges=((1, deals),), jobs=1))
        assert outcome.conformant and outcome.checked == deals, outcome.first_failure
        return outcome.elapsed_s

    def starts() -> float:
        started = time.perf_counter()
        for n in range(1, deals + 1):
            run = process.run([exe, "-f", fmt, str(n)], None, 10, 1 << 20, Limits())
            run.child.finish()
            assert run.returncode == 0
        return time.perf_counter() - started

    measures = {"shell loop": shell, "the command": command, "engine.run": harness, "process.run": starts}
    best = dict.fromkeys(measures, float("inf"))
    for _ in range(rounds):
        for name, measure in measures.items():
            best[name] = min(best[name], measure())
    print(f"{deals:,} deals, one process each, -f {fmt}, 1 job (best of {rounds} rounds)")
    for name, seconds in best.items():
        print(
            f"  {name:<13}{seconds:7.2f} s  ({deals / seconds:8,.0f} deals/s, "
            f"{1000 * seconds / deals:5.2f} ms a deal, {seconds / best['shell loop']:5.2f}× the shell loop)"
        )
    ratio = best["the command"] / best["shell loop"]
    print(f"  ratio        {ratio:7.2f}×  (the command ÷ the shell loop; goal: at most 2×)")


if __name__ == "__main__":
    sys.exit(main())
