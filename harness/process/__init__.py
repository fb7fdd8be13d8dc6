"""Process supervision: starting dealer processes and seeing that nothing they start outlives them.

One module per concept: `proc` reads /proc (the one reader); `trees` finds, kills and reaps process
trees; `cgroups` makes a cgroup per spawner; `linux` asks for the parent-death signal; `sentinel` kills
what a harness process leaves when it dies; `supervisor` is this process's state and `kill_all`;
`spawner` (with the program it runs: spawner.c built, else `spawner_main`) starts every dealer
process with posix_spawn from a small process that carries the dealers' limits and cgroup
(`close_spawners` ends the idle ones); `child` is one supervised tree (`Child`, `spawn`); `runs` runs
a program to its end (`run`, or `start` and `Running.finish`; `sweep`);
`exits` says how a process ended (`exit_text`, `limit_in_words`); `interrupts` turns Ctrl-C and
SIGTERM into one exception and kills every child.

The names below load when first used (PEP 562): the entry point imports `interrupts` first, and the
command line's light commands must not pay for the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from harness.lazy import lazy_names

if TYPE_CHECKING:
    from harness.process.child import Child, spawn, start_spawner
    from harness.process.exits import exit_text, limit_in_words, memory_words
    from harness.process.linux import die_with_parent
    from harness.process.runs import LIVENESS_S, Run, Running, run, run_quietly, start, sweep
    from harness.process.spawner import close_spawners
    from harness.process.supervisor import kill_all

_HOMES: Final = {
    "Child": "harness.process.child",
    "LIVENESS_S": "harness.process.runs",
    "Run": "harness.process.runs",
    "Running": "harness.process.runs",
    "close_spawners": "harness.process.spawner",
    "die_with_parent": "harness.process.linux",
    "exit_text": "harness.process.exits",
    "kill_all": "harness.process.supervisor",
    "limit_in_words": "harness.process.exits",
    "memory_words": "harness.process.exits",
    "run": "harness.process.runs",
    "run_quietly": "harness.process.runs",
    "spawn": "harness.process.child",
    "start": "harness.process.runs",
    "start_spawner": "harness.process.child",
    "sweep": "harness.process.runs",
}

__all__ = [
    "LIVENESS_S",
    "Child",
    "Run",
    "Running",
    "close_spawners",
    "die_with_parent",
    "exit_text",
    "kill_all",
    "limit_in_words",
    "memory_words",
    "run",
    "run_quietly",
    "spawn",
    "start",
    "start_spawner",
    "sweep",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES, __all__)
