"""Hostile program dealers: `python hostile.py BEHAVIOUR MARKER [n]`.

Deals correctly (rows format), one deal per argument (cmd:) or per stdin line (stream:), after
doing BEHAVIOUR at deal 3.  Every process it starts carries MARKER in its argv, so that a test
can find any that outlive the run; STARTED_DIR/<kind>-MARKER is written when a helper starts.
A writer writes to $HOSTILE_WRITE_TO.
"""

import os
import subprocess
import sys
import time

import reference

BEHAVIOUR, MARKER = sys.argv[1], sys.argv[2]
SLEEPER = "import sys, time; time.sleep(300)"


def helper(*, escape: bool) -> None:
    subprocess.Popen(
        [sys.executable, "-c", SLEEPER, MARKER],
        start_new_session=escape,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started()


def started() -> None:
    where = os.environ.get("STARTED_DIR")
    if where:
        with open(os.path.join(where, f"{BEHAVIOUR}-{MARKER}"), "w") as f:
            f.write("started\n")


def daemonise() -> None:
    """The classic Unix daemon: fork, setsid, fork again, leave the directory, close every file;
    it tells the dealer through a pipe when it is ready, as daemons do."""
    ready_read, ready_write = os.pipe()
    if os.fork():
        os.close(ready_write)
        os.read(ready_read, 1)
        os.close(ready_read)
        os.wait()
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    os.chdir("/")
    os.umask(0)
    started()
    os.write(ready_write, b"!")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, 1024)
    os.execv(sys.executable, [sys.executable, "-c", SLEEPER, MARKER])


def misbehave() -> None:
    if BEHAVIOUR == "forker":  # a grandchild in the dealer's own process group
        helper(escape=False)
    elif BEHAVIOUR == "escaper":  # a grandchild in a session of its own
        helper(escape=True)
    elif BEHAVIOUR == "double-fork":  # a daemon: setsid, then its parent exits at once
        pid = os.fork()
        if pid == 0:
            os.setsid()
            helper(escape=True)
            os._exit(0)
        os.waitpid(pid, 0)
    elif BEHAVIOUR == "nohup":  # the shell's way: `nohup cmd &`, in a session of its own
        subprocess.run(
            ["sh", "-c", f'setsid nohup "{sys.executable}" -c "{SLEEPER}" {MARKER} >/dev/null 2>&1 &'], check=True
        )
        started()
    elif BEHAVIOUR == "daemon":
        daemonise()
    elif BEHAVIOUR == "env-clearing-escaper":  # no mark of the harness left in its environment
        subprocess.Popen(
            ["env", "-i", sys.executable, "-c", SLEEPER, MARKER],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started()
    elif BEHAVIOUR == "control-stderr":  # a title, a clear screen, a bell, a CSI in C1 form: then dies
        sys.stderr.write("\x1b]0;owned\x07\x1b[2J\x1b[31mboom\x9b0m\x00\r\n")
        sys.stderr.flush()
        sys.exit(1)
    elif BEHAVIOUR == "writer":
        with open(os.environ["HOSTILE_WRITE_TO"], "w") as f:
            f.write("written by the dealer\n")
    elif BEHAVIOUR == "memory-bomb":
        hog = []
        while True:
            hog.append(bytearray(16 << 20))
    elif BEHAVIOUR == "fd-exhauster":
        files = []
        while True:
            try:
                files.append(open(os.devnull))  # noqa: SIM115 (kept open on purpose)
            except OSError as exc:
                print(f"open: {exc}", file=sys.stderr)
                sys.exit(1)
    elif BEHAVIOUR == "fork-bomb":
        for _ in range(10_000):
            try:
                pid = os.fork()
            except OSError as exc:
                print(f"fork: {exc}", file=sys.stderr)
                sys.exit(1)
            if pid == 0:
                time.sleep(300)
                os._exit(0)
    elif BEHAVIOUR == "cpu-burner":
        while True:
            pass
    elif BEHAVIOUR == "quitter":
        sys.exit(0)
    elif BEHAVIOUR == "sleeper":  # answers, leaving a grandchild that sleeps on
        helper(escape=False)
    elif BEHAVIOUR == "escape-and-hang":  # for killing the harness meanwhile
        helper(escape=True)
        time.sleep(300)


def show(n: int) -> None:
    if n == 3 and BEHAVIOUR != "sleeper":
        misbehave()
    board = reference.deal(n).format("rows")
    if n == 3 and BEHAVIOUR == "control-board":  # a terminal title and a bell in the board's text
        board = board.replace(" ", "\x1b]0;owned\x07 ", 1)
    sys.stdout.write(board + "\n")
    sys.stdout.flush()
    if n == 3 and BEHAVIOUR == "sleeper":
        misbehave()


if len(sys.argv) > 3:
    show(int(sys.argv[3]))
else:
    for line in sys.stdin:
        show(int(line))
