"""Why a deal did not conform: SPEC.md's failure kinds, as one value type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

FailureKind = Literal["mismatch", "invalid-output", "crash", "timeout", "error"]
FAILURE_KINDS: Final[tuple[str, ...]] = get_args(FailureKind)


@dataclass(frozen=True, slots=True)
class Failure:
    """Deal `deal` failed with `kind`.  `expected`/`actual` are canonical lines without their LF."""

    deal: int
    kind: FailureKind
    message: str
    expected: str | None = None
    actual: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "kind": self.kind,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Failure:
        kind = data["kind"]
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r}")
        return cls(
            deal=int(data["deal"]),  # type: ignore[call-overload]
            kind=kind,  # type: ignore[arg-type]
            message=str(data["message"]),
            expected=None if data.get("expected") is None else str(data["expected"]),
            actual=None if data.get("actual") is None else str(data["actual"]),
        )
