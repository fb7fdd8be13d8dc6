"""A stream dealer that deals correctly, then exits (status 0, saying nothing): `quits_after.py
count` after answering 100 deals, `quits_after.py number` when asked for a deal above 100."""

import sys

import reference

HOW = sys.argv[1]
for answered, line in enumerate(sys.stdin):
    n = int(line)
    if (answered if HOW == "count" else n - 1) >= 100:
        sys.exit(0)
    sys.stdout.write(reference.deal(n).format("rows") + "\n")
    sys.stdout.flush()
