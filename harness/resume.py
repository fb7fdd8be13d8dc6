"""`--resume FILE`: a log of finished blocks, so an interrupted run continues where it stopped.

JSON lines: first the run's fingerprint, then one line per finished block.  Lines are appended
whole and flushed, so an interruption loses at most the line being written, which is ignored.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO

from harness.compare import BlockResult
from harness.errors import RequestError
from harness.failures import Failure


class ResumeLog:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._file: IO[str] | None = None

    def load(self, fingerprint: dict[str, object]) -> dict[str, BlockResult]:
        """Blocks already finished by this run; starts a new log if there is none."""
        done: dict[str, BlockResult] = {}
        if self.path.exists():
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError) as exc:
                raise RequestError(f"--resume {self.path}: cannot read: {exc}") from None
            header = _parse(lines[0]) if lines else None
            if header is not None and header.get("run") != fingerprint:
                raise RequestError(f"--resume {self.path}: the log belongs to another run ({header.get('run')})")
            for line in lines[1:]:
                entry = _parse(line)
                if entry is None:
                    continue  # a torn last line from an interruption
                failure = entry.get("failure")
                done[str(entry["block"])] = BlockResult(
                    str(entry["block"]),
                    int(entry["checked"]),  # type: ignore[call-overload]
                    Failure.from_json(failure) if isinstance(failure, dict) else None,
                )
            if header is None:
                lines = []
        else:
            lines = []
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("a", encoding="utf-8")
            if not lines:
                self._file.seek(0)
                self._file.truncate()
                self._write({"run": fingerprint})
        except OSError as exc:
            raise RequestError(f"--resume {self.path}: cannot write: {exc}") from None
        return done

    def append(self, result: BlockResult) -> None:
        failure = result.failure.to_json() if result.failure else None
        self._write({"block": result.key, "checked": result.checked, "failure": failure})

    def _write(self, entry: dict[str, object]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file:
            self._file.close()


def _parse(line: str) -> dict[str, object] | None:
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return None
    return entry if isinstance(entry, dict) else None
