"""Hostile `py:` dealers: correct, except at deal 3.  $HOSTILE_RUN marks every process they start
(in its argv); $STARTED_DIR/<name> is written when a helper has started; a writer writes to
$HOSTILE_WRITE_TO."""

import os
import subprocess
import sys
import time

import reference

SLEEPER = "import time; time.sleep(300)"


def _started(name: str) -> None:
    with open(os.path.join(os.environ["STARTED_DIR"], name), "w") as f:
        f.write("started\n")


def _correct(n: int) -> str:
    return reference.deal(n).format("line")


def escaper(n: int) -> str:
    if n == 3:
        subprocess.Popen([sys.executable, "-c", SLEEPER, os.environ["HOSTILE_RUN"]], start_new_session=True)
        _started("escaper")
    return _correct(n)


def double_fork(n: int) -> str:
    if n == 3:
        if (pid := os.fork()) == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", SLEEPER, os.environ["HOSTILE_RUN"]])
            os._exit(0)
        os.waitpid(pid, 0)
        _started("double_fork")
    return _correct(n)


def fork_bomb(n: int) -> str:
    if n == 3:
        while True:
            if os.fork() == 0:  # forks until the limit refuses: then the fork raises
                time.sleep(300)
                os._exit(0)
    return _correct(n)


def memory_raiser(n: int) -> str:
    if n == 3:
        hoard = [bytearray(64 << 20) for _ in range(1000)]  # MemoryError under --memory-limit: raised, not a crash
        return str(len(hoard))
    return _correct(n)


def control_chars(n: int) -> str:
    if n == 3:
        print("\x1b]0;owned\x07\x1b[2J", file=sys.stderr, flush=True)
        raise ValueError("deal \x1b[31m3\x1b[0m\x07 is \x9b2J cursed")
    return _correct(n)


def control_board(n: int) -> str:
    line = _correct(n)
    return line.replace(" ", "\x1b]0;owned\x07 ", 1) if n == 3 else line


def writer(n: int) -> str:
    if n == 3:
        with open(os.environ["HOSTILE_WRITE_TO"], "w") as f:
            f.write("written by the dealer\n")
    return _correct(n)
