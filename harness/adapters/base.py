"""The one question every implementation answers: "the boards for these deal numbers".

A `Dealer` answers it for a block of deal numbers, either as canonical lines (one answer per
deal: the 156-byte line, or a `Failure` saying why there is none) or, when it can do that
faster, as the block's digest.  The engine never knows what language it is talking to.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import ClassVar, Self

from harness.failures import Failure
from harness.limits import DEFAULT_LIMITS, DEFAULT_STARTUP_TIMEOUT, Limits

Answer = bytes | Failure  # a canonical line (LF included), or why the deal has none


@dataclass(frozen=True, slots=True)
class DealerOptions:
    """How to open a dealer: picklable, so that every worker process opens its own."""

    dialect: str = "classic"
    timeout: float = 10.0  # seconds one deal may take before it is a `timeout`
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT  # (--startup-timeout)
    encoding: str = "utf-8"  # how program output is decoded
    limits: Limits = DEFAULT_LIMITS  # of every dealer process tree
    cards: str | None = None  # --cards: how bare card numbers are numbered (rank-major, suit-major)
    suits: str | None = None  # --suits: the suits numbered 0 … 3, as a permutation of CDHS


class Dealer(ABC):
    """An implementation under test (or the one tested against), open and ready to deal."""

    # What each kind declares of itself (harness.adapters.registry lists the kinds):
    kind: ClassVar[str]  # the IMPL kind: "node"
    form: ClassVar[str]  # how its IMPL is written: "node:PATH"; a form without ":" takes no argument
    package: ClassVar[str | None] = None  # the distribution whose version is the dealer's, if the harness knows one
    # A dealer that may answer a block in bulk (a program's output of a fixed layout, hashed as it comes) …
    may_read_in_bulk: ClassVar[bool] = False
    # … checked against one whose digests of whole-domain rows the fixtures store (the reference): such a
    # row is then one block, its expected digest read, not dealt.
    stores_row_digests: ClassVar[bool] = False

    impl: str  # the IMPL string that opened it, for reports
    # True for a dealer that answers from digests of whole blocks of a grid (the golden fixtures' tables):
    # a request's blocks then follow that grid, and the comparer deals each in chunks in order, which
    # such a dealer reproduces as they come (so that a run stopped mid-block keeps what it compared) …
    whole_blocks_only: bool = False
    # … unless both dealers are `bulk`: each answers a million-deal block in seconds, in this process (the
    # reference, the fixtures), and the block is compared whole, from the stored digest, with no dealing added.
    bulk: bool = False

    @classmethod
    def takes_argument(cls) -> bool:
        """Whether the IMPL is `kind:ARGUMENT` (else the bare kind)."""
        return ":" in cls.form

    @classmethod  # noqa: B027 (most kinds take any argument)
    def parse_argument(cls, argument: str) -> None:
        """RequestError if `argument` is malformed for this kind; no I/O."""

    @classmethod
    def build_files(cls, argument: str) -> list[Path]:
        """The files a build of this dealer is made of (its script, program, module, tables): what a
        resume log records the hashes of, so that a rebuilt dealer never continues an old log."""
        return []

    @abstractmethod
    def lines(self, deals: Sequence[int]) -> list[Answer]:
        """One answer per deal number, in order."""

    @classmethod  # noqa: B027 (most kinds need no check)
    def check(cls, argument: str, options: DealerOptions) -> None:
        """RequestError now if a dealer of this kind surely cannot be opened with `argument`; cheap: no
        process started, nothing dealt.  The parent of `--jobs` workers asks this instead of opening."""

    @classmethod  # noqa: B027 (most kinds have nothing to prepare)
    def prepare(cls, options: DealerOptions) -> None:
        """Do now, once per process, what this kind's first deal would (build tables): a worker runs it in a
        thread while the other dealer of its comparison starts and deals, and does not wait for it: a kind
        that prepares makes its first deal wait for a preparing under way.  Nothing is dealt or decided here."""

    def start_early(self) -> None:  # noqa: B027 (most kinds start nothing before their first deal)
        """Start now what the first deal would (a process), while the other dealer prepares; nothing is
        dealt, and a start that fails is left for the first deal to meet and say."""

    def block_digest(self, deals: Sequence[int]) -> str | None:
        """SHA-256 (hex) of the deals' canonical lines, or None when any deal fails."""
        h = hashlib.sha256()
        for answer in self.lines(deals):
            if isinstance(answer, Failure):
                return None
            h.update(answer)
        return h.hexdigest()

    def reset(self) -> None:  # noqa: B027 (in-process dealers keep no state of ours)
        """Forget all state: the next call starts from a fresh process."""

    def close(self) -> None:  # noqa: B027 (most dealers hold nothing to release)
        """Release processes and files; the dealer is not used again."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()
