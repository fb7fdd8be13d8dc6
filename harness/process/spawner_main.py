"""The spawner: a small single-threaded process that starts dealer processes with `posix_spawn`.

Run as `python -I -S spawner_main.py FD`, FD its end of a SOCK_SEQPACKET socket
(`harness.process.spawner` starts it and talks to it; it imports nothing of the harness).  Where a C
compiler was at install, the harness runs `_spawner FD` instead, built from spawner.c: the same
program, step for step, without an interpreter's costs (some 300 us of CPU per process started);
this file stays the fallback, and the description of both (FREECELL_HARNESS_SPAWNER=python forces
it).  A process started with `posix_spawn` (vfork and exec, no Python in between) costs about half
of one forked from Python, so everything a dealer must inherit is set once, on the spawner itself:

- its first message is the setup, `cgroup_procs memory_procs marker_name rlimits unjoined_rlimits
  unbounded_rlimits env`: the spawner joins the cgroup named (`cgroup_procs`, the path of its
  `cgroup.procs`, may be none) and the one that bounds memory (`memory_procs`: the same, another of
  cgroup v1's memory hierarchy, or none), and answers `J` and a digit for each (1: joined, 0: not),
  then sets its own resource limits `rlimits` (and `unjoined_rlimits`, RLIMIT_NPROC, where it could
  not join `cgroup_procs`, and `unbounded_rlimits`, RLIMIT_DATA, where it could not join
  `memory_procs`), soft and hard, each at most the hard limit it had, which every process it starts
  inherits;
- each later message asks for one process, `argv cwd marker cpu_s`, with two file descriptors
  (its stdout and stderr: its stdin is /dev/null) or three (stdin, stdout, stderr).  The process runs
  in `cwd`, in a session of its own, with no signal blocked or ignored, in `env` with
  `marker_name=marker` added, and RLIMIT_CPU set to `cpu_s` (0: none; SIGXCPU, SIGKILL a second
  later) with prlimit right after its start: the spawner's own CPU time must not count.  `argv[0]` is
  looked for as execvp does (on env's PATH, else /bin:/usr/bin).  The answer is `P<pid> <refused>
  <killed>`, `refused` the forks its cgroup had refused for its process limit the moment before
  (pids.events' `max`; 0 without a cgroup) and `killed` the processes the kernel had killed for its
  memory limit (`oom_kill`), so that only those after it are this process's; or `E<errno>:<message>`
  if it could not be started (errno 0: not an error of the system's); once the process has ended and
  been reaped, and every other member of the cgroup (what it started, escaped or not) killed,
  `X<pid> <wait status> <peak RSS in KiB>`.  With a cgroup, a request made while a process is live
  waits, and is started once that process has ended: one process tree at a time, and the harness may
  ask for the next before the last has ended.  Its answer then follows the `X` in the same message,
  after an LF.

A message to the spawner is a sequence of fields, each ended by a NUL byte: a string is its bytes
(`os.fsencode`), a number its decimal digits (at most 18), none an empty field, a list its length (a
number) then its items.  `rlimits` and the other two are lists of limits, each two numbers, the
resource (`RLIMIT_*`) and the value; `env` is a list of `NAME=value` strings, no NAME twice; `argv`
a list of strings.  A message not of this form is answered `E0:a malformed message` (the setup:
`E0:the spawner could not set itself up: a malformed message`).

When the harness process ends in any way (even SIGKILL) the kernel closes its end of the socket: the
spawner then kills every process it started (each with its process group) and every other member of
its cgroup (what they started, escaped or not), leaves the cgroup and removes it, and ends.  A dealer
has no parent-death signal of its own (posix_spawn cannot ask for one): if the spawner itself is
killed from outside, the harness sees its socket close and kills the dealer's tree
(`harness.process.child`), and the sentinel what is left.
"""

from __future__ import annotations

import _socket as socket  # not `socket` or `signal`: their Python halves (enum …) take longer to import than
import errno  # the rest of this process's start-up
import gc
import os
import resource
import select
import sys

TYPE_CHECKING = False  # not typing's: importing it would slow this process's start
if TYPE_CHECKING:
    import signal
else:
    import _signal as signal

_MAX_MESSAGE = 1 << 20


def _ignored() -> list[int]:
    """The signals this process ignores (inherited: nohup's SIGHUP, a background job's SIGINT …), to be
    reset in each process started; the ones it handles are reset by the exec itself."""
    found = []
    for number in [*range(1, 32), *range(34, signal.NSIG)]:
        try:
            if signal.getsignal(number) == signal.SIG_IGN:
                found.append(number)
        except (OSError, ValueError):
            continue
    return found


_cwd = [b""]  # the working directory of the moment (main), changed when the harness's has
_MALFORMED = "a malformed message"


class _Fields:
    """The fields of a message (the protocol above), taken in turn; ValueError where it has no more, or
    where a number is not one."""

    def __init__(self, message: bytes) -> None:
        if not message.endswith(b"\0"):
            raise ValueError(_MALFORMED)
        self.items, self.at = message.split(b"\0")[:-1], 0

    def string(self) -> bytes:
        if self.at == len(self.items):
            raise ValueError(_MALFORMED)
        self.at += 1
        return self.items[self.at - 1]

    def number(self) -> int:
        field = self.string()
        if not (field.isdigit() and len(field) <= 18):
            raise ValueError(_MALFORMED)
        return int(field)

    def strings(self) -> list[bytes]:
        return [self.string() for _ in range(self.number())]

    def limits(self) -> list[tuple[int, int]]:
        return [(self.number(), self.number()) for _ in range(self.number())]

    def end(self) -> None:
        if self.at != len(self.items):
            raise ValueError(_MALFORMED)


class _ignoring:  # contextlib.suppress, which would take longer to import than the rest
    def __init__(self, *kinds: type[BaseException]) -> None:
        self.kinds = kinds

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, value: object, traceback: object) -> bool:
        return kind is not None and issubclass(kind, self.kinds)


def _write(file: bytes, data: bytes) -> None:
    fd = os.open(file, os.O_WRONLY)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


class _Count:
    """A count of a cgroup's events file (`max` of pids.events; `oom_kill`), read again and again through
    the one file descriptor opened for it, the first of `files` beside the cgroup's `procs` there is
    (0: no cgroup, no such file)."""

    def __init__(self, procs: bytes | None, files: tuple[bytes, ...], key: bytes) -> None:
        self.fd, self.key = -1, key
        if procs is None:
            return
        for file in files:
            with _ignoring(OSError):
                self.fd = os.open(os.path.join(os.path.dirname(procs), file), os.O_RDONLY | os.O_CLOEXEC)
                return

    def read(self) -> int:
        if self.fd < 0:
            return 0
        try:
            data = os.pread(self.fd, 1 << 12, 0)  # from the start: the kernel writes it afresh
            return sum(int(line.split()[1]) for line in data.splitlines() if line.split()[:1] == [self.key])
        except (OSError, ValueError, IndexError):
            return 0

    def close(self) -> None:
        if self.fd >= 0:
            with _ignoring(OSError):
                os.close(self.fd)


def _members(cgroup_procs: bytes | None) -> set[int]:
    if cgroup_procs is None:
        return set()
    try:
        fd = os.open(cgroup_procs, os.O_RDONLY | os.O_CLOEXEC)
        try:
            data = b""
            while chunk := os.read(fd, 1 << 16):  # to its end: a pid cut in two would be another pid
                data += chunk
        finally:
            os.close(fd)
        return {int(p) for p in data.split()}
    except (OSError, ValueError):
        return set()


def _join(procs: bytes | None) -> bool:
    """Join the cgroup whose `cgroup.procs` is `procs`; whether it could."""
    if procs is None:
        return False
    try:
        _write(procs, b"0")  # 0: the writing process
        return True
    except OSError:  # the kernel refused: the harness finds the trees in /proc instead
        return False


def _set_up(message: bytes) -> tuple[dict[bytes, bytes], bytes, list[bytes], bytes | None, bytes | None]:
    """Join the cgroups, set the limits every process started here inherits; (env, marker name, the
    `cgroup.procs` of each cgroup joined, the one that lists the trees first, if joined; the ones named)."""
    fields = _Fields(message)
    cgroup_procs, memory_procs, marker_name = fields.string() or None, fields.string() or None, fields.string()
    rlimits, unjoined_rlimits, unbounded_rlimits = fields.limits(), fields.limits(), fields.limits()
    env: dict[bytes, bytes] = {}
    for entry in fields.strings():
        name, equals, setting = entry.partition(b"=")
        if not name or not equals or name in env:
            raise ValueError(_MALFORMED)
        env[name] = setting
    fields.end()
    if not marker_name or b"=" in marker_name:
        raise ValueError(_MALFORMED)
    joined = [procs for procs in (cgroup_procs, memory_procs) if procs is not None and _join(procs)]
    joined = list(dict.fromkeys(joined))  # v2: one cgroup does both
    if cgroup_procs not in joined:
        rlimits += unjoined_rlimits
    if memory_procs not in joined:
        rlimits += unbounded_rlimits
    for kind, limit in rlimits:
        _soft, hard = resource.getrlimit(kind)
        limit = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
        resource.setrlimit(kind, (limit, limit))  # hard too: a dealer cannot raise it
    return env, marker_name, joined, cgroup_procs, memory_procs


def _programs(program: bytes, env: dict[bytes, bytes]) -> list[bytes]:
    if b"/" in program:
        return [program]
    return [os.path.join(d, program) for d in env.get(b"PATH", os.defpath.encode()).split(b":")]


def _spawn(
    message: bytes, fds: list[int], env: dict[bytes, bytes], marker_name: bytes, devnull: int, reset: list[int]
) -> int:
    """Start the requested process; its pid.  OSError (as execvp gives it) if it cannot be started."""
    fields = _Fields(message)
    argv, cwd, marker, cpu_s = fields.strings(), fields.string(), fields.string(), fields.number()
    fields.end()
    if cwd != _cwd[0]:
        os.chdir(cwd)
        _cwd[0] = cwd
    env[marker_name] = marker
    if not argv:
        raise ValueError("posix_spawn: argv must not be empty")  # as posix_spawn would say it
    streams = fds if len(fds) == 3 else [devnull, *fds]
    actions = [(os.POSIX_SPAWN_DUP2, fd, target) for target, fd in enumerate(streams)]
    failure: OSError = FileNotFoundError(errno.ENOENT, "No such file or directory")
    for program in _programs(argv[0], env):
        try:
            pid = os.posix_spawn(program, argv, env, file_actions=actions, setsid=True, setsigmask=(), setsigdef=reset)
        except OSError as exc:  # as execvp does: the first error other than "not found" is the one
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR) and failure.errno in (errno.ENOENT, errno.ENOTDIR):
                failure = exc
            continue
        if cpu_s:
            # Set from here, not inherited: the spawner's own CPU time would count against it.  The
            # microseconds it runs before this lands cannot take it past a limit of a second or more.
            with _ignoring(OSError):
                resource.prlimit(pid, resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        return pid
    raise failure


PR_SET_CHILD_SUBREAPER = 36


def _become_subreaper() -> bool:
    """Have the orphans of what it starts (a dealer's children, reaped or not) reparented here, not to the
    machine's init: reaped here at once, a dead dealer's zombies never count against the next one's process
    limit (an init that does not reap, as in many containers, would leave them in the cgroup); whether it
    could.  Through `_ctypes`: `ctypes` would take longer to import than the rest of this process."""
    with _ignoring(ImportError, OSError, AttributeError):
        import _ctypes

        this_program = _ctypes.dlopen(None)  # type: ignore[arg-type]  # None: the program and its C library
        done = _ctypes.call_function(_ctypes.dlsym(this_program, "prctl"), (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0))
        return bool(done == 0)
    return False


def _childless() -> bool:
    """Whether it has no child process at all, ended or not.  For a subreaper, that no process it started
    has left anything behind: every descendant of a process that ended is a child of its now."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return False


def _reap_ended() -> None:
    """Reap every child that has ended (called when none is still to be reported: orphans reparented here)."""
    with _ignoring(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _kill_everything(live: set[int], cgroup_procs: bytes | None) -> None:
    """Kill every process started here (with its group) and every other member of the cgroup, and reap them
    (orphans are reparented here): when the harness is gone, or when none of them is still to be reported."""
    me = os.getpid()
    for pid in live:
        with _ignoring(OSError):
            os.killpg(pid, signal.SIGKILL)
        with _ignoring(OSError):
            os.kill(pid, signal.SIGKILL)
    for attempt in range(1000):
        doomed = _members(cgroup_procs) - {me}
        if not doomed:
            break
        for pid in doomed:
            with _ignoring(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap_ended()
        if attempt >= 10:
            select.select([], [], [], 0.001)  # the killed are still being torn down


def main() -> None:
    gc.disable()
    control = socket.socket(fileno=int(sys.argv[1]))
    os.set_inheritable(control.fileno(), False)
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    # Blocked here (and reset in each process started), so that a pipe the harness closed early is an
    # error, not this process's end.
    for number in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE, signal.SIGXFSZ})
    devnull = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    reset = _ignored()
    _cwd[0] = os.getcwdb()
    ancillary_size = socket.CMSG_LEN(3 * 4)
    try:
        env, marker_name, joined, cgroup_procs, memory_procs = _set_up(control.recv(_MAX_MESSAGE))
    except (OSError, ValueError, EOFError, TypeError) as exc:
        with _ignoring(OSError):
            control.send(f"E0:the spawner could not set itself up: {exc}".encode(errors="replace"))
        return
    named = (cgroup_procs, memory_procs)
    cgroup_procs = cgroup_procs if cgroup_procs in joined else None  # the one that lists the trees
    memory_procs = memory_procs if memory_procs in joined else None  # the one that bounds their memory
    subreaper = _become_subreaper()
    refused = _Count(cgroup_procs, (b"pids.events",), b"max")
    killed = _Count(memory_procs, (b"memory.events", b"memory.oom_control"), b"oom_kill")
    with _ignoring(OSError):
        control.send(b"J" + b"".join(b"1" if procs in joined else b"0" for procs in named))
    live: set[int] = set()
    waiting: list[tuple[bytes, list[int]]] = []  # requests made while a process was live: started in turn

    def answer(message: bytes, fds: list[int], before: bytes = b"") -> None:
        """Start what `message` asks for and say so (after `before`, an X that must come first)."""
        try:
            if len(fds) not in (2, 3):
                raise ValueError(f"{len(fds)} file descriptors, not 2 or 3")
            hits = f"{refused.read()} {killed.read()}"  # nothing else runs in the cgroup now
            pid = _spawn(message, fds, env, marker_name, devnull, reset)
        except (OSError, ValueError, EOFError, TypeError) as exc:
            number = exc.errno if isinstance(exc, OSError) and exc.errno else 0
            text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            said = f"E{number}:{text}".encode(errors="replace")
        else:
            live.add(pid)
            said = f"P{pid} {hits}".encode()
        finally:
            for fd in fds:
                os.close(fd)
        with _ignoring(OSError):
            control.send(before + b"\n" + said if before else said)  # one message: one wake-up of the harness

    while True:
        with _ignoring(InterruptedError):
            ready, _, _ = select.select([control.fileno(), wake_read], [], [])
        if wake_read in ready:
            with _ignoring(BlockingIOError):
                while os.read(wake_read, 4096):
                    pass
        while True:  # orphans (reparented here) too, whether or not a process of its own is live
            try:
                pid, wait_status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if not pid:
                break
            if pid not in live:
                continue  # an orphan of what it started, reparented here: reaped, nothing to say
            live.discard(pid)
            if not live and not (subreaper and _childless()):
                _kill_everything(set(), cgroup_procs)  # what it left, escaped or not: gone before the X
            ended = f"X{pid} {wait_status} {usage.ru_maxrss}".encode()
            while waiting and not live:
                answer(*waiting.pop(0), before=ended)  # started first: the harness waits for its X only
                ended = b""
            if ended:
                with _ignoring(OSError):
                    control.send(ended)
        if control.fileno() not in ready:
            continue
        try:
            message, ancillary, _, _ = control.recvmsg(_MAX_MESSAGE, ancillary_size, socket.MSG_CMSG_CLOEXEC)
        except InterruptedError:
            continue
        except OSError:
            message = b""
        if not message:
            break  # the harness process ended
        fds = [
            int.from_bytes(data[i : i + 4], sys.byteorder, signed=True)
            for level, kind, data in ancillary
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS
            for i in range(0, len(data) - len(data) % 4, 4)
        ]
        if live and cgroup_procs is not None:
            waiting.append((message, fds))  # one process tree at a time in the cgroup
        else:
            answer(message, fds)
    _kill_everything(live, cgroup_procs)
    refused.close()
    killed.close()
    for procs in joined:  # out of its cgroups, and the cgroups gone: the harness may not live to do it
        group = os.path.dirname(procs)
        with _ignoring(OSError):
            _write(os.path.join(os.path.dirname(group), b"cgroup.procs"), b"0")
            os.rmdir(group)
    os._exit(0)  # at once: the harness may be waiting for this process's end to remove its cgroup


if __name__ == "__main__":
    try:
        main()
    except BaseException:  # the harness (killed, or stopping) is gone mid-exchange: no traceback on its terminal
        os._exit(1)
