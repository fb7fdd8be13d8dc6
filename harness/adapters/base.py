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
from types import TracebackType
from typing import Self

from harness.failures import Failure
from harness.process import Limits

Answer = bytes | Failure  # a canonical line (LF included), or why the deal has none
DEFAULT_STARTUP_TIMEOUT = 60.0  # seconds more for a process's first answer, until it shows it has started


@dataclass(frozen=True, slots=True)
class DealerOptions:
    """How to open a dealer: picklable, so that every worker process opens its own."""

    dialect: str = "classic"
    timeout: float = 10.0  # seconds one deal may take before it is a `timeout`
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT  # (--startup-timeout)
    encoding: str = "utf-8"  # how program output is decoded
    memory_mb: int | None = 4096  # per dealer process; None: no limit
    cpu_s: float | None = None  # CPU seconds per dealer process
    open_files: int | None = 1024  # per dealer process
    processes: int | None = 256  # per dealer process tree

    @property
    def limits(self) -> Limits:
        return Limits(self.memory_mb, self.cpu_s, self.open_files, self.processes)


class Dealer(ABC):
    """An implementation under test (or the one tested against), open and ready to deal."""

    impl: str  # the IMPL string that opened it, for reports
    # True for a dealer that can answer a block's digest only for a whole block of the grid
    # (the golden fixtures' digest tables): the comparer then never cuts a block into chunks.
    whole_blocks_only: bool = False

    @abstractmethod
    def lines(self, deals: Sequence[int]) -> list[Answer]:
        """One answer per deal number, in order."""

    @classmethod  # noqa: B027 (most kinds need no check)
    def check(cls, argument: str, options: DealerOptions) -> None:
        """RequestError now if a dealer of this kind surely cannot be opened with `argument`; cheap: no
        process started, nothing dealt.  The parent of `--jobs` workers asks this instead of opening."""

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
