"""freecell-harness: compare FreeCell dealers with Microsoft's deals, exhaustively and fast.

The public API is what `__all__` names, importable from here (and the reference dealer,
`reference`, with its own `__all__`):

    from harness import open_dealer, DealerOptions, Block, identify, profile, RequestError

- `open_dealer(impl, options)` opens any IMPL of the command line ("node:dealer.js",
  "py:module:function", "cmd:…", "stream:…", "reference", "fixtures", "pysol-cards") as a `Dealer`;
  `DealerOptions` says how (dialect, timeout, encoding, `Limits`).
- `Block` is one unit of work of a run; `ConformanceSession` is what the pytest plugin's
  `fc_conformance` fixture gives a test; `deal_numbers` is a Hypothesis strategy (needs Hypothesis).
- `identify(board)` names the deal numbers that deal a board; `profile(impl)` says what a dealer
  implements, dialect by dialect.
- `Failure` and `Diagnosis` are what a failed deal says; the errors: `HarnessError` is the base of
  all, `RequestError` a bad request (exit 2), `HarnessBug` a bug of ours (exit 3).

Every other module and name (`harness.engine`, `harness.adapters.*`, `harness.process`, …) is
internal: it may change in any release.  Names load when first used (PEP 562), so that
`import harness.errors`, and the pytest plugin, import neither NumPy nor the engine.
"""

from __future__ import annotations

import sys as _sys

# Run as the command (`python -m harness`, `freecell-harness`), Ctrl-C and SIGTERM are held from this, the
# first line of ours that runs, until the entry point takes them over (`harness.process.interrupts`), so
# that one that comes while the rest is imported is exit 130 in one line, never an import's traceback.
# The `freecell-harness` command's launcher (harness/launcher.c) blocked them before the interpreter
# started: they are unblocked here, once held, and one that came meanwhile is held now.
_held_at_start: list[int] = []  # the signals that came meanwhile
_handlers_at_start: dict[int, object] = {}  # each signal held, and its handler before


def _hold_at_start(signum: int, frame: object) -> None:
    _held_at_start.append(signum)


def _run_as_the_command() -> bool:
    if _sys.argv[:1] == ["-m"]:  # `python [OPTIONS] -m MODULE`: while the package of MODULE is imported
        argv = [*_sys.orig_argv, ""]
        at = next((i for i, a in enumerate(argv) if a.startswith("-m")), -1)
        return (argv[at][2:] or argv[at + 1]) == "harness"
    return _sys.argv[0].rpartition("/")[2] in ("freecell-harness", "freecell-harness-python")


if _run_as_the_command():
    import _signal  # type: ignore[import-not-found]  # built in, loaded already (`signal` imports enum first)

    for _stopping in (_signal.SIGINT, _signal.SIGTERM):
        _before = _signal.getsignal(_stopping)
        if _before is not _signal.SIG_IGN:  # ignored at the start (a background job's Ctrl-C) stays ignored
            _handlers_at_start[_stopping] = _before
            _signal.signal(_stopping, _hold_at_start)
    _signal.pthread_sigmask(_signal.SIG_UNBLOCK, (_signal.SIGINT, _signal.SIGTERM))

from typing import TYPE_CHECKING, Final  # noqa: E402  (after the signals are held)

from harness.lazy import lazy_names  # noqa: E402

if TYPE_CHECKING:
    from harness.adapters import Dealer, DealerOptions, open_dealer
    from harness.conformance import ConformanceSession
    from harness.dealer_profile import profile
    from harness.diagnosis.identification import identify
    from harness.errors import HarnessBug, HarnessError, RequestError
    from harness.failures import Diagnosis, Failure
    from harness.intervals import Block
    from harness.limits import Limits
    from harness.strategies import deal_numbers

# Each public name, and the (internal) module that defines it.
_HOMES: Final = {
    "Block": "harness.intervals",
    "ConformanceSession": "harness.conformance",
    "Dealer": "harness.adapters.base",
    "DealerOptions": "harness.adapters.base",
    "Diagnosis": "harness.failures",
    "Failure": "harness.failures",
    "HarnessBug": "harness.errors",
    "HarnessError": "harness.errors",
    "Limits": "harness.limits",
    "RequestError": "harness.errors",
    "deal_numbers": "harness.strategies",
    "identify": "harness.diagnosis.identification",
    "open_dealer": "harness.adapters.registry",
    "profile": "harness.dealer_profile",
}

__all__ = [
    "Block",
    "ConformanceSession",
    "Dealer",
    "DealerOptions",
    "Diagnosis",
    "Failure",
    "HarnessBug",
    "HarnessError",
    "Limits",
    "RequestError",
    "deal_numbers",
    "identify",
    "open_dealer",
    "profile",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES, __all__)
