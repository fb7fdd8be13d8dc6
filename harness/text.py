"""Text that a dealer wrote (its stderr, its output, its exception messages), made safe to show.

A dealer's text reaches terminals, JUnit XML and logs.  Raw, its control characters move the
cursor, clear the screen, set the window title or ring the bell, and make XML unparseable
(XML 1.0 allows no C0 control but tab, LF and CR, no surrogate, and neither U+FFFE nor U+FFFF).
`printable` writes each such character as a visible escape instead: ESC as `\\x1b`.
"""

from __future__ import annotations

import re
from typing import Final

# C0 controls but tab and LF, DEL, C1 controls, lone surrogates, and the two non-characters XML forbids.
_UNSAFE: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_UNSAFE_ON_ONE_LINE: Final = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(m: re.Match[str]) -> str:
    code = ord(m[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, one_line: bool = False) -> str:
    """`text` with every control character written as an escape (`\\x1b`); tab and LF are kept
    unless `one_line`, which escapes them too."""
    return (_UNSAFE_ON_ONE_LINE if one_line else _UNSAFE).sub(_escape, text)


def counted(number: int, noun: str) -> str:
    """`1 deal`, `2 deals`: a count and its noun, singular for one."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
