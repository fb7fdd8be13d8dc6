"""Hostile program dealers: `python hostile.py BEHAVIOUR MARKER [n]`.

Deals correctly (rows format), one deal per argument (cmd:) or per stdin line (stream:), after
doing BEHAVIOUR at deal 3.  Every process it starts carries MARKER in its argv, so that a test
can find any that outlive the run; STARTED_DIR/<kind>-MARKER is written when a helper starts.
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
    started = os.environ.get("STARTED_DIR")
    if started:
        with open(os.path.join(started, f"{BEHAVIOUR}-{MARKER}"), "w") as f:
            f.write("started\n")


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
    sys.stdout.write(reference.deal(n).format("rows") + "\n")
    sys.stdout.flush()
    if n == 3 and BEHAVIOUR == "sleeper":
        misbehave()


if len(sys.argv) > 3:
    show(int(sys.argv[3]))
else:
    for line in sys.stdin:
        show(int(line))
