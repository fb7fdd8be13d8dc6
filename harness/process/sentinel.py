"""The sentinel: one detached process per harness process that kills what the harness process left.

It watches a pipe whose write end only the harness process holds: when that process ends in any way
(even SIGKILL), the kernel closes the pipe, and the sentinel kills every process still carrying the
harness's marker and every member of its cgroups, then removes those cgroups.  It is detached (a
double fork), so that no sweep of the harness process's descendants kills it before it has done its
work.

Its program is `SCRIPT` below, run by the interpreter (some 15 ms of CPU to start, paid by every
harness process that supervises dealers), or the same steps in C, `_spawner --sentinel` (spawner.c),
where the spawner was built; FREECELL_HARNESS_SPAWNER=python runs the script anyway.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from harness.process.compiled import compiled_spawner

SCRIPT = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)
if os.fork():
    os._exit(0)
entry, roots, prefix = sys.argv[1].encode(), sys.argv[2].split(os.pathsep), sys.argv[3]
sys.stdin.buffer.read()
def cgroups():
    found = []
    for root in roots:
        try:
            found += [os.path.join(root, n) for n in os.listdir(root) if n.startswith(prefix)]
        except OSError:
            pass
    return found
for _ in range(200):
    found = False
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                env = f.read().split(b"\\0")
        except OSError:
            continue
        if any(e.startswith(entry) for e in env):
            found = True
            try:
                os.kill(int(name), signal.SIGKILL)
            except OSError:
                pass
    for group in cgroups():
        try:
            members = open(group + "/cgroup.procs").read().split()
        except OSError:
            members = []
        for pid in members:
            found = True
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
    if not found:
        break
    time.sleep(0.02)
for group in cgroups():
    for _ in range(50):
        try:
            os.rmdir(group)
            break
        except FileNotFoundError:
            break
        except OSError:
            time.sleep(0.02)
"""


def start_sentinel(marker_prefix: str, cgroup_roots: Sequence[Path], cgroup_prefix: str) -> int | None:
    """Start the sentinel of this process; the write end of its pipe (keep it open: closing it, or this
    process's end, sets the sentinel to work), or None if it could not be started."""
    read_end, write_end = os.pipe()
    try:
        # `setsid -f` (util-linux) forks and ends at once, so that the launcher is not waited for while
        # Python starts (about 20 ms, paid by every harness process); without it (or where it has no -f),
        # the script's own fork detaches it.
        # The one in C starts in a millisecond: its own fork detaches it.
        compiled = compiled_spawner()
        setsid = None if compiled else shutil.which("setsid")
        launcher = _launch([setsid, "-f"] if setsid else [], read_end, marker_prefix, cgroup_roots, cgroup_prefix)
        if launcher.wait() != 0 and setsid:
            launcher = _launch([], read_end, marker_prefix, cgroup_roots, cgroup_prefix)
            launcher.wait()
    except OSError:
        os.close(write_end)
        return None
    finally:
        os.close(read_end)
    os.set_inheritable(write_end, False)
    return write_end  # closed by the kernel when this process ends, however


def _launch(
    detach: list[str], read_end: int, marker_prefix: str, cgroup_roots: Sequence[Path], cgroup_prefix: str
) -> subprocess.Popen[bytes]:
    """The sentinel's launcher: the sentinel itself is its child, adopted by init (or the nearest subreaper)."""
    compiled = compiled_spawner()
    program = [compiled, "--sentinel"] if compiled else [sys.executable, "-I", "-S", "-c", SCRIPT]
    return subprocess.Popen(
        [
            *detach,
            *program,
            marker_prefix,
            os.pathsep.join(map(str, cgroup_roots)),
            cgroup_prefix,
        ],
        stdin=read_end,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={},
    )
