from typing import Any, Final

BY_IDENTITY: Final[int]
BY_ATTRIBUTES: Final[int]
BY_ITEMS: Final[int]
BY_POSITION: Final[int]

def line(
    items: object,
    how: int,
    cls: type | None,
    fields: tuple[str, ...],
    types: tuple[type, ...],
    table: dict[Any, Any],
    distinct: bool,
    /,
) -> bytes | None: ...

WANT_RANK: Final[int]
WANT_SUIT: Final[int]
WANT_DIGIT: Final[int]

def fitting(data: bytes | memoryview, width: int, want: bytes, board: bytes, /) -> int: ...
