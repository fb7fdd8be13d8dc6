"""One row of a matrix, profiled in a process of its own (`python -m harness.matrix.row REQUEST`), so that
each row has its own working directory, and one dealer taking its process down takes no other row.

REQUEST is JSON: {"cwd", "impl", "options", "known_build"}.  Printed on stdout, as JSON: the row's
`dealer_build`; then `unchanged: true` (its build is `known_build`: not profiled again), or `error`
(the dealer cannot be run: the one line `profile` would say), or the `profile` as `profile --json`
writes it, each dialect's `parts` with their first failures, `elapsed_s` and `checked`.
"""

from __future__ import annotations

import json
import os
import sys
import time

from harness.errors import RequestError


def profile_row(request: dict[str, object]) -> dict[str, object]:
    from harness.adapters import dealer_build
    from harness.cli import _limits_of, build_parser
    from harness.dealer_profile import profile

    impl = str(request["impl"])
    options = [str(o) for o in request.get("options") or []]  # type: ignore[attr-defined]
    os.chdir(str(request["cwd"]))
    build = dealer_build(impl)
    if build is not None and build == request.get("known_build"):
        return {"dealer_build": build, "unchanged": True}
    started = time.monotonic()
    try:
        args = build_parser().parse_args(["profile", impl, *options])
        result = profile(
            impl,
            timeout=args.timeout,
            limits=_limits_of(args),
            startup_timeout=args.startup_timeout,
            cards=args.cards,
            suits=args.suits,
        )
    except RequestError as exc:
        return {"dealer_build": build, "error": str(exc)}
    return {
        "dealer_build": build,
        "profile": result.to_json(),
        "parts": {
            name: [[first, last, f.to_json() if f else None] for first, last, f in p.parts]
            for name, p in result.dialects.items()
        },
        "elapsed_s": round(time.monotonic() - started, 3),
        "checked": sum(p.checked for p in result.dialects.values()),
    }


def main() -> int:
    from harness.process import interrupts

    interrupts.release()
    print(json.dumps(profile_row(json.loads(sys.argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
