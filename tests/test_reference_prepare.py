"""A worker prepares the reference's tables in a thread and does not wait for it: the other dealer deals
meanwhile, and the reference's first use waits for the preparing under way instead of building the same
tables beside it."""

from __future__ import annotations

import threading

import pytest

import reference
from harness.adapters import DealerOptions
from harness.adapters import reference as reference_adapter
from harness.adapters.reference import ReferenceDealer


@pytest.mark.parametrize(
    ("use", "deals"),
    [
        ("lines", [1, 2]),
        ("block_digest", [3, 4, 5]),
        ("stored_digest", range(1, 10_001)),  # a whole row of the classic 10,000-deal table
    ],
)
def test_the_reference_s_first_use_waits_for_its_preparing(
    use: str, deals: list[int] | range, monkeypatch: pytest.MonkeyPatch
) -> None:
    building, release = threading.Event(), threading.Event()
    real = reference.block_digest

    def held_build(*args: object, **kwargs: object) -> str:
        building.set()
        assert release.wait(60), "never released"
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reference, "block_digest", held_build)
    preparing = threading.Thread(target=ReferenceDealer.prepare, args=(DealerOptions(),), daemon=True)
    preparing.start()
    assert building.wait(60), "the preparing never began"
    monkeypatch.setattr(reference, "block_digest", real)
    got: list[object] = []
    user = threading.Thread(target=lambda: got.append(getattr(ReferenceDealer(DealerOptions()), use)(deals)))
    user.start()
    user.join(0.5)
    assert user.is_alive() and not got, f"{use} did not wait for the preparing under way"
    release.set()
    preparing.join(60)
    user.join(60)
    assert got and got[0] is not None
    assert not reference_adapter._preparing.locked()
