"""A cgroup per spawner (`harness.process.spawner`), so per live dealer process tree: it lists every
process of the tree, escaped or not, and may bound their number.  Made under the pids hierarchy of
cgroup v1 where it is writable, else under this process's own cgroup v2 where the harness may make
cgroups and move processes.

It may also bound the memory the tree really uses (resident and swapped, not the address space it
reserves): cgroup v2's memory.max where the memory controller is enabled for it, else a second cgroup
made under this process's own in the memory hierarchy of cgroup v1 (`Cgroup.make_memory`)."""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

CGROUP_PIDS = Path("/sys/fs/cgroup/pids")  # the pids hierarchy of cgroup v1 (hybrid systems)
CGROUP_MEMORY = Path("/sys/fs/cgroup/memory")  # the memory hierarchy of cgroup v1


@functools.cache
def own_cgroup2() -> Path | None:
    """This process's own cgroup v2, if the harness may make cgroups under it and move processes there."""
    try:
        own = next(line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::"))
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except (OSError, StopIteration):
        return None
    for line in mounts:
        fields = line.split()
        if "-" in fields[:-1] and fields[fields.index("-") + 1] == "cgroup2" and fields[3] == "/":
            path = Path(fields[4]) / own.strip().lstrip("/")
            if os.access(path, os.W_OK) and os.access(path / "cgroup.procs", os.W_OK):
                return path
    return None


@functools.cache
def own_memory_cgroup1() -> Path | None:
    """This process's own cgroup in the memory hierarchy of cgroup v1, if the harness may make cgroups there."""
    try:
        own = next(
            line.split(":", 2)[2]
            for line in Path("/proc/self/cgroup").read_text().splitlines()
            if "memory" in line.split(":", 2)[1].split(",")
        )
    except (OSError, StopIteration, IndexError):
        return None
    path = CGROUP_MEMORY / own.strip().lstrip("/")
    return path if os.access(path, os.W_OK) and (path / "memory.limit_in_bytes").exists() else None


def cgroup_roots() -> list[Path]:
    """Where a dealer's cgroup may be made, best first: the pids cgroup v1 bounds its processes;
    a cgroup v2 under our own lists them (and bounds them only where `pids` is delegated to it)."""
    roots = [CGROUP_PIDS] if os.access(CGROUP_PIDS, os.W_OK) else []
    own = own_cgroup2()
    return roots + ([own] if own is not None else [])


def _read(file: str) -> bytes:
    """A small file of the cgroup's, read with two system calls and a close (read once or twice a deal)."""
    fd = os.open(file, os.O_RDONLY | os.O_CLOEXEC)
    try:
        data = b""
        while chunk := os.read(fd, 1 << 16):  # to its end: a pid cut in two would be another pid
            data += chunk
        return data
    finally:
        os.close(fd)


PREFIX = "freecell-harness-"  # then "<pid of the harness process>-…"
ABANDONED_AFTER_S = 60  # a cgroup just made is left alone: its harness may live in another pid namespace


def sweep_abandoned(roots: list[Path]) -> None:
    """Remove, under `roots`, the empty cgroups of harness processes that have ended: those that neither they
    nor their sentinels could remove (a member that stayed a zombie for seconds, where init reaps late)."""
    now = time.time()
    for root in roots:
        try:
            names = [n for n in os.listdir(root) if n.startswith(PREFIX)]
        except OSError:
            continue
        for name in names:
            owner = name[len(PREFIX) :].partition("-")[0]
            path = root / name
            try:
                if not owner.isdigit() or os.path.exists(f"/proc/{owner}"):
                    continue
                if now - path.stat().st_mtime > ABANDONED_AFTER_S:
                    path.rmdir()  # refused while it has members: then it is not abandoned
            except OSError:
                continue


UNJOINABLE: set[Path] = set()  # roots whose cgroups a child was once made but could not join (a container's)


class Cgroup:
    """A cgroup for one child: lists every process of its tree, escaped or not; may bound their number."""

    def __init__(self, path: Path, limit: int | None, memory_mb: int | None = None) -> None:
        self.path = path
        self._procs, self._events = str(path / "cgroup.procs"), str(path / "pids.events")
        path.mkdir()
        self.bounds_processes = self.bounds_memory = False
        try:
            if not (path / "cgroup.procs").exists():
                raise NotADirectoryError(f"{path} is not a cgroup")
            if limit and (path / "pids.max").exists():
                (path / "pids.max").write_text(f"{limit}\n")
                self.bounds_processes = True
            if memory_mb:
                self.bounds_memory = self._bound_memory(memory_mb << 20)
        except OSError:
            path.rmdir()
            raise

    def _bound_memory(self, limit: int) -> bool:
        """Bound the memory its members use, swap included (v2's memory.max, or v1's limits); whether it can."""
        path = self.path
        if (path / "memory.max").exists():
            (path / "memory.max").write_text(f"{limit}\n")
            if (path / "memory.swap.max").exists():
                (path / "memory.swap.max").write_text("0\n")
            return True
        if (path / "memory.limit_in_bytes").exists():
            (path / "memory.limit_in_bytes").write_text(f"{limit}\n")
            if (path / "memory.memsw.limit_in_bytes").exists():  # only with swap accounting
                (path / "memory.memsw.limit_in_bytes").write_text(f"{limit}\n")
            return True
        return False

    @classmethod
    def make(cls, name: str, limit: int | None, memory_mb: int | None = None) -> Cgroup | None:
        for root in cgroup_roots():
            if root in UNJOINABLE:
                continue
            try:
                return cls(root / name, limit, memory_mb)
            except OSError:
                continue
        return None

    @classmethod
    def make_memory(cls, name: str, memory_mb: int) -> Cgroup | None:
        """A cgroup of cgroup v1's memory hierarchy that bounds its members' memory, where one can be made."""
        root = own_memory_cgroup1()
        if root is None or root in UNJOINABLE:
            return None
        try:
            made = cls(root / name, None, memory_mb)
        except OSError:
            return None
        if not made.bounds_memory:
            made.remove()
            return None
        return made

    @property
    def procs_file(self) -> str:
        """The file a process writes its pid to, to join."""
        return str(self.path / "cgroup.procs")

    def members(self) -> set[int]:
        try:
            return {int(p) for p in _read(self._procs).split()}
        except (OSError, ValueError):
            return set()

    def limit_hits(self) -> int:
        """How many times a fork was refused for its process limit so far (pids.events)."""
        try:
            lines = _read(self._events).decode().splitlines()
            return sum(int(line.split()[1]) for line in lines if line.split()[0] == "max")
        except (OSError, ValueError, IndexError):
            return 0

    def oom_kills(self) -> int:
        """How many of its members the kernel killed so far for its memory limit (0: none, or no such count)."""
        for file in ("memory.events", "memory.oom_control"):  # v2, v1
            try:
                lines = _read(str(self.path / file)).decode().splitlines()
            except OSError:
                continue
            return sum(int(line.split()[1]) for line in lines if line.split()[:1] == ["oom_kill"])
        return 0

    def remove(self) -> None:
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)  # the last members are still being torn down by the kernel
