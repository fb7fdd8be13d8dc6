"""`python -m harness` and the `freecell-harness` command: Ctrl-C and SIGTERM are taken over before the
command line (and NumPy, the engine, the dealers) is imported, so that an interrupt at any moment is
exit 130 in one line, never an import's traceback."""

import sys

from harness.process import interrupts


def main() -> int:
    interrupts.take_over_at_start()
    from harness.cli import EXIT_INTERRUPTED
    from harness.cli import main as run_command_line

    status = run_command_line()
    if status == EXIT_INTERRUPTED:
        interrupts.end_interrupted(status)
    return status


if __name__ == "__main__":
    sys.exit(main())
