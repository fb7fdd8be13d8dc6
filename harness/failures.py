"""Why a deal did not conform: SPEC.md's failure kinds, as one value type, with its diagnosis."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal, get_args

FailureKind = Literal["mismatch", "invalid-output", "crash", "timeout", "error"]
FAILURE_KINDS: Final[tuple[str, ...]] = get_args(FailureKind)

Cause = Literal[
    "wraps",
    "truncated-16-bit",
    "clamped",
    "off-by-one",
    "other-dialect",
    "suit-order",
    "transposed",
    "reversed",
    "generator",
    "modulus",
    "other-deal",
    "unknown",
]
CAUSES: Final[tuple[str, ...]] = get_args(Cause)


@dataclass(frozen=True, slots=True)
class SameAs:
    """The actual board is `dialect`'s board of `deal`, under `transform` (None: as dealt)."""

    dialect: str
    deal: int
    transform: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"dialect": self.dialect, "deal": self.deal, "transform": self.transform}


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Why a mismatching board is what it is (SPEC.md, "Diagnosis")."""

    cause: Cause
    message: str
    same_as: SameAs | None = None

    def to_json(self) -> dict[str, object]:
        return {"cause": self.cause, "message": self.message, "same_as": self.same_as and self.same_as.to_json()}

    @classmethod
    def from_json(cls, data: object) -> Diagnosis:
        if not isinstance(data, dict) or data.get("cause") not in CAUSES:
            raise ValueError(f"not a diagnosis: {data!r}")
        same = data.get("same_as")
        same_as = None
        if same is not None:
            if not isinstance(same, dict):
                raise ValueError(f"not a same_as: {same!r}")
            transform = same.get("transform")
            same_as = SameAs(str(same["dialect"]), int(same["deal"]), None if transform is None else str(transform))
        return cls(cause=data["cause"], message=str(data["message"]), same_as=same_as)


KEEPS_STATE = "the dealer keeps state from deal to deal"


def kept_state(deal: int) -> str:
    """What shows a dealer keeps state: twice, not once, wrong again (by chance one deal in k, odds 1/k²)."""
    return (
        f"alone, from a fresh process, deal {deal} is right, and asked for deal {deal} twice again "
        "in the same process it is not"
    )


@dataclass(frozen=True, slots=True)
class Failure:
    """Deal `deal` failed with `kind`.  `expected`/`actual` are canonical lines without their LF."""

    deal: int
    kind: FailureKind
    message: str
    expected: str | None = None
    actual: str | None = None
    diagnosis: Diagnosis | None = None  # for a mismatch: why, when the harness can tell
    # Dealt again the same way, it did not recur (its message says so): no one need say it again.
    transient: bool = False
    # Right when dealt alone from a fresh process, wrong when asked twice again in that process: the
    # dealer keeps state from deal to deal (its message says so; a diagnosis never calls it chance).
    stateful: bool = False

    def diagnosed(self, diagnosis: Diagnosis | None) -> Failure:
        return replace(self, diagnosis=diagnosis)

    @property
    def explanation(self) -> str:
        """The diagnosis when there is one, else the message: what a verdict line says."""
        return self.diagnosis.message if self.diagnosis else self.message

    def to_json(self) -> dict[str, object]:
        return {
            "deal": self.deal,
            "kind": self.kind,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
            "diagnosis": self.diagnosis.to_json() if self.diagnosis else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Failure:
        kind = data["kind"]
        if kind not in FAILURE_KINDS:
            raise ValueError(f"unknown failure kind {kind!r}")
        diagnosis = data.get("diagnosis")
        return cls(
            deal=int(data["deal"]),  # type: ignore[call-overload]
            kind=kind,  # type: ignore[arg-type]
            message=str(data["message"]),
            expected=None if data.get("expected") is None else str(data["expected"]),
            actual=None if data.get("actual") is None else str(data["actual"]),
            diagnosis=None if diagnosis is None else Diagnosis.from_json(diagnosis),
        )
