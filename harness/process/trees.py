"""Process trees: finding the live ones (by process group, session, or the marker their environment
carries), killing them, and reaping the killed that are children of this process."""

from __future__ import annotations

import contextlib
import os
import signal
import time

from harness.process.proc import environ_has_any, proc_stat, process_table, tree_of


def live_trees(me: int, leaders: set[int], markers: set[bytes], oldest: int) -> set[int]:
    """Every live process led by one of `leaders` (its group or session) or carrying one of `markers`
    (started no earlier than `oldest`, so that a reused pid is not taken), with its descendants; never `me`
    as a root."""
    table = process_table()
    roots = {
        pid
        for pid, proc in table.items()
        if not proc.zombie
        and pid != me
        and (proc.pgid in leaders or proc.sid in leaders or (proc.started >= oldest and environ_has_any(pid, markers)))
    }
    return {pid for pid in tree_of(table, roots) if not table[pid].zombie}


def descendants(pid: int) -> dict[int, tuple[int, int]]:
    """Every live descendant of `pid`: {pid: (process group, start time)}."""
    table = process_table()
    return {p: (table[p].pgid, table[p].started) for p in tree_of(table, {pid}) - {pid}}


def kill_tree(processes: dict[int, tuple[int, int]]) -> None:
    """SIGKILL each process (and the group it leads) that is still the process it was."""
    for pid, (group, started) in processes.items():
        stat = proc_stat(pid)
        if stat is None or stat.started != started:
            continue  # gone, or its number reused by another process
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if group == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)


def reap(pids: set[int]) -> None:
    """Wait for those of killed `pids` that are our children; reaping one may make its orphans ours."""
    progress = True
    while pids and progress:
        progress = False
        for pid in list(pids):
            for _ in range(200):
                try:
                    if os.waitpid(pid, os.WNOHANG)[0]:
                        pids.discard(pid)
                        progress = True
                        break
                except ChildProcessError:
                    break
                time.sleep(0.001)
