"""The spawner: a small single-threaded process, one per harness process, that starts every dealer process.

Run as `python -I -S spawner_main.py FD`, FD its end of a SOCK_SEQPACKET socket
(`harness.process.spawner` starts it and talks to it; it imports nothing of the harness).  Forking
this small process costs a fraction of forking the harness (large, multi-threaded, which is why
starting a dealer from it needed a slow fork to run Python code before exec), and the parent-death
signal that a dealer asks for here is tied to this single-threaded process, never to a harness
thread that may end first.

Each message asks for one process: its argv, environment, working directory, resource limits, the
cgroup to join, and four file descriptors (its stdin, stdout and stderr, and the write end of a
status pipe), plus a fifth, the write end of an exec pipe that the new process holds until its exec:
on it the new process writes `+` once it has joined its cgroup, then, if it cannot exec the program,
`errno:message`; the exec closes it.  On the status
pipe the spawner writes `P <pid>` once it has forked, and `X <wait status> <peak RSS in KiB>` once
the process has ended and is reaped; then closes it.

When the harness process ends in any way (even SIGKILL) the kernel closes its end of the socket: the
spawner then kills every process it started (each with its process group) and ends.  Each of them
also has the parent-death signal (SIGKILL) set on this process: none outlives it.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import gc
import marshal
import mmap
import os
import resource
import select
import signal
import socket
import sys

TYPE_CHECKING = False  # not typing's: importing it would grow this process, and each fork copies it
if TYPE_CHECKING:
    from typing import Any

_PR_SET_PDEATHSIG = 1
_MAX_MESSAGE = 1 << 22
_FDS = 5  # stdin, stdout, stderr, status, exec


def _start(how: tuple[Any, ...], fds: list[int], me: int, prctl: Any) -> None:
    """In the forked child: become the requested process, or report why not on the exec pipe.  As little
    as can be is done here (each page of this interpreter it touches is copied): the rest is `_prepare`'s."""
    programs, argv, env, cgroup_procs, rlimits, nproc = how
    try:
        os.setsid()
        if cgroup_procs is not None:
            try:
                fd = os.open(cgroup_procs, os.O_WRONLY)
                os.write(fd, b"0")  # 0: the writing process
                os.close(fd)
                nproc = None
                os.write(fds[4], b"+")
            except OSError:  # the kernel refused: the harness sees it is not a member, and scans /proc
                pass
        for kind, limit in rlimits:
            resource.setrlimit(kind, limit)
        if nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, nproc)
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != me:  # the spawner is already gone: so is the harness
            os._exit(127)
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
        os.dup2(fds[0], 0)
        os.dup2(fds[1], 1)
        os.dup2(fds[2], 2)
        failure: OSError = FileNotFoundError(2, "No such file or directory")
        for program in programs:
            try:
                os.execve(program, argv, env)
            except OSError as exc:  # as execvp does: the first error other than "not found" is the one
                if exc.errno not in (errno.ENOENT, errno.ENOTDIR) and failure.errno in (errno.ENOENT, errno.ENOTDIR):
                    failure = exc
        raise failure
    except BaseException as exc:
        number = exc.errno if isinstance(exc, OSError) and exc.errno else 0
        with contextlib.suppress(OSError):
            os.write(fds[4], f"{number}:{exc.strerror if isinstance(exc, OSError) else exc}".encode(errors="replace"))
    os._exit(127)


def _prepare(request: dict[str, Any]) -> tuple[Any, ...]:
    """What the child needs, worked out before the fork: the paths to try, the limits capped by the hard
    ones; the working directory is the spawner's own, changed here when the harness's has."""
    if request["cwd"] != os.getcwd():
        os.chdir(request["cwd"])
    argv, env = request["argv"], request["env"]
    program = argv[0]
    if "/" in program:
        programs = [program]
    else:
        path = env.get("PATH", os.defpath)
        programs = [os.path.join(d, program) for d in path.split(os.pathsep)]
    rlimits = []
    for kind, value in [*request["rlimits"], *([("cpu", request["cpu_s"])] if request["cpu_s"] else [])]:
        if kind == "cpu":
            rlimits.append((resource.RLIMIT_CPU, (value, value + 1)))  # SIGXCPU, then SIGKILL a second later
            continue
        _soft, hard = resource.getrlimit(kind)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        rlimits.append((kind, (value, value)))
    nproc = None
    if request["nproc"]:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
        value = request["nproc"][1]
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        nproc = (value, value)
    return programs, argv, env, request["cgroup_procs"], rlimits, nproc


def main() -> None:
    gc.disable()  # a collection touches every object: each page it touches is copied at the next fork
    control = socket.socket(fileno=int(sys.argv[1]))
    control.set_inheritable(False)
    me = os.getpid()
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    # The child starts with these signals at their defaults, as a program expects; blocked here, so that a
    # status pipe the harness closed early is an error, not this process's end.  A fork unblocks them.
    for number in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE, signal.SIGXFSZ})
    buffer = mmap.mmap(-1, _MAX_MESSAGE)  # its pages are made only as messages fill them: a fork copies less
    ancillary_size = socket.CMSG_LEN(_FDS * 4)
    gc.freeze()
    status_of: dict[int, int] = {}  # pid → the write end of its status pipe
    while True:
        with contextlib.suppress(InterruptedError):
            ready, _, _ = select.select([control.fileno(), wake_read], [], [])
        if wake_read in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_read, 4096):
                    pass
        while status_of:
            try:
                pid, wait_status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if not pid:
                break
            fd = status_of.pop(pid, None)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.write(fd, f"X {wait_status} {usage.ru_maxrss}\n".encode())
                os.close(fd)
        if control.fileno() not in ready:
            continue
        try:
            size, ancillary, _flags, _address = control.recvmsg_into([buffer], ancillary_size, socket.MSG_CMSG_CLOEXEC)
        except InterruptedError:
            continue
        except OSError:
            size = 0
        if not size:
            break  # the harness process ended
        fds = [
            int.from_bytes(data[i : i + 4], sys.byteorder, signed=True)
            for level, kind, data in ancillary
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS
            for i in range(0, len(data) - len(data) % 4, 4)
        ]
        if len(fds) != _FDS:
            for fd in fds:
                os.close(fd)
            continue
        try:
            how = _prepare(marshal.loads(bytes(buffer[:size])))
        except (OSError, ValueError, EOFError, TypeError, KeyError) as exc:
            with contextlib.suppress(OSError):
                os.write(fds[4], f"0:the spawner could not read the request: {exc}".encode(errors="replace"))
            for fd in fds:
                os.close(fd)
            continue
        pid = os.fork()
        if pid == 0:
            _start(how, fds, me, prctl)
        status = fds[3]
        with contextlib.suppress(OSError):
            os.write(status, f"P {pid}\n".encode())
        status_of[pid] = status
        for fd in (*fds[:3], fds[4]):
            os.close(fd)
    for pid in status_of:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
