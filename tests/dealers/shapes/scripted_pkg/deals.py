"""`py:scripted_pkg.deals:deal`."""

from shapes.microsoft import names


def deal(seed: int) -> list[str]:
    return names(seed)
