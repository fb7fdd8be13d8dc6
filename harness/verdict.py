"""The verdict of a run, or of any part of one: deals checked and the smallest failure.

Parts (blocks, shards, a resumed log) may be merged in any order and any grouping with the same
result: checked deals add up, and the failure kept is the smallest deal's (ties broken by a fixed
order, so that merging is commutative and associative).  Engine, report merge, challenge, the
pytest plugin and the fixtures all decide through this one type.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from harness.errors import HarnessBug
from harness.failures import Failure


def _order(f: Failure) -> tuple[int, str, str, str, str]:
    return (f.deal, f.kind, f.message, f.expected or "", f.actual or "")


def smaller_failure(a: Failure | None, b: Failure | None) -> Failure | None:
    """The failure at the smaller deal (None only when neither is a failure)."""
    if a is None:
        return b
    if b is None:
        return a
    return a if _order(a) <= _order(b) else b


@dataclass(frozen=True, slots=True)
class Verdict:
    """`checked` deals compared; `first_failure` the smallest failing deal among them, or None."""

    checked: int = 0
    first_failure: Failure | None = None

    def __post_init__(self) -> None:
        if self.checked < 0:
            raise HarnessBug(f"a verdict of {self.checked} deals checked")

    @property
    def conformant(self) -> bool:
        return self.first_failure is None

    def merge(self, other: Verdict) -> Verdict:
        """The verdict of both parts together."""
        return Verdict(self.checked + other.checked, smaller_failure(self.first_failure, other.first_failure))

    def can_change(self, first_deal: int) -> bool:
        """Whether work starting at `first_deal` can still change the verdict: only before the failure."""
        return self.first_failure is None or first_deal < self.first_failure.deal


def merge_verdicts(parts: Iterable[Verdict]) -> Verdict:
    total = Verdict()
    for part in parts:
        total = total.merge(part)
    return total
