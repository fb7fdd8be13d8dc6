"""`python -m harness` and the `freecell-harness` command: Ctrl-C and SIGTERM are taken over before the
command line (and NumPy, the engine, the dealers) is imported, so that an interrupt at any moment is
exit 130 in one line, never an import's traceback."""

import atexit
import contextlib
import os
import sys
import threading
from typing import NoReturn

from harness.process import interrupts
from harness.process.environment import set_for_this_process


def main() -> int:
    interrupts.take_over_at_start()
    if "OPENBLAS_NUM_THREADS" not in os.environ:
        # NumPy's linear algebra, which we do not use, would start a thread per core that spins
        # for a while at import (about 0.1 s of CPU); dealers get the variable as the user had it
        set_for_this_process("OPENBLAS_NUM_THREADS", "1")
    from harness.cli import EXIT_INTERRUPTED
    from harness.cli import main as run_command_line

    status = run_command_line()
    if interrupts.hold() and status != EXIT_INTERRUPTED:  # it came after the command had said all it had to
        print("freecell-harness: interrupted", file=sys.stderr)
        status = EXIT_INTERRUPTED
    if status == EXIT_INTERRUPTED:
        interrupts.end_interrupted(status)
    return status


def exit_at_once(status: int) -> NoReturn:
    """End the command with `status` as a normal exit would (threads joined, `atexit` run, output flushed),
    but without tearing the interpreter down object by object: after a run, some 0.1 s of CPU."""
    from harness.cli import EXIT_NONCONFORMANT, EXIT_OK, EXIT_REQUEST
    from harness.errors import environment_limit

    getattr(threading, "_shutdown", lambda: None)()  # non-daemon threads joined, as at a normal exit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:  # the reader went away (`| head`): not an error
            pass
        except (OSError, ValueError) as exc:
            if stream is sys.stdout and status in (EXIT_OK, EXIT_NONCONFORMANT):  # else it said what went wrong
                said = environment_limit(exc) or f"the output could not be written: {exc}"
                with contextlib.suppress(OSError, ValueError):
                    print(f"freecell-harness: {said}", file=sys.stderr)
                    sys.stderr.flush()
                status = status or EXIT_REQUEST
    os._exit(status)


if __name__ == "__main__":
    exit_at_once(main())
