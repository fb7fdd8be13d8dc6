"""`verify --html` and `profile --html`: one self-contained page, checked in a real headless browser
(Chromium): its screenshot shows the domain bar green where the dealer conforms, red where a deal
checked failed, grey where none was checked; and, from the page's SVG, where each colour lies."""

from __future__ import annotations

import math
import os
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from harness.cli import main
from harness.failures import Failure
from harness.reports.html import BAR_WIDTH, GREEN, MIN_SPAN, RED, profile_html, verify_html
from harness.reports.report import Report
from harness.request import Request

pytestmark = pytest.mark.usefixtures("test_dealers")
IN_CI = bool(os.environ.get("CI"))
BROWSERS = ("chromium", "chromium-browser", "google-chrome")


@pytest.fixture(scope="session")
def chromium() -> str:
    """A Chromium executable.  Missing, it fails the test in CI (.ci/run installs it) and skips it,
    loudly, elsewhere."""
    found = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if found is None and IN_CI:
        pytest.fail(f"Chromium is required in CI: none of {', '.join(BROWSERS)} on PATH")
    if found is None:
        pytest.skip(f"CHROMIUM MISSING, test not run: none of {', '.join(BROWSERS)} on PATH")
    return found


def screenshot(browser: str, page: Path, tmp_path: Path) -> np.ndarray:
    png = tmp_path / "shot.png"
    argv = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
        f"--screenshot={png}", "--window-size=1200,2000", page.as_uri(),
    ]  # fmt: skip
    run = subprocess.run(argv, capture_output=True, timeout=600, env=dict(os.environ, HOME=str(tmp_path)))
    assert png.is_file(), run.stderr.decode(errors="replace")[-2000:]
    return decode_png(png.read_bytes())


def decode_png(data: bytes) -> np.ndarray:
    """The RGB pixels (height × width × 3) of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], b""
    while pos < len(data):
        (size,) = struct.unpack(">I", data[pos : pos + 4])
        chunk, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + size]
        if chunk == b"IHDR":
            header = body
        elif chunk == b"IDAT":
            chunks.append(body)
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    channels = 3 if colour == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), dtype=np.uint8).reshape(height, width * channels + 1)
    out = np.zeros((height, width * channels), dtype=np.int64)
    previous = np.zeros(width * channels, dtype=np.int64)
    for y in range(height):
        kind, line = int(raw[y, 0]), raw[y, 1:].astype(np.int64)
        if kind == 1:  # Sub: each byte adds the one a pixel to its left, so a running sum per channel
            line = np.cumsum(line.reshape(width, channels), axis=0).reshape(-1) % 256
        elif kind == 2:  # Up
            line = (line + previous) % 256
        elif kind in (3, 4):  # Average, Paeth: byte by byte
            row = line.tolist()
            up = previous.tolist()
            for i in range(len(row)):
                left = row[i - channels] if i >= channels else 0
                up_left = up[i - channels] if i >= channels else 0
                if kind == 3:
                    row[i] = (row[i] + (left + up[i]) // 2) % 256
                else:
                    p = left + up[i] - up_left
                    pa, pb, pc = abs(p - left), abs(p - up[i]), abs(p - up_left)
                    row[i] = (row[i] + (left if pa <= pb and pa <= pc else up[i] if pb <= pc else up_left)) % 256
            line = np.array(row, dtype=np.int64)
        out[y] = previous = line
    return out.reshape(height, width, channels)[:, :, :3]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _columns_of(pixels: np.ndarray, colour: str) -> list[int]:
    """The x of every pixel of exactly `colour`."""
    return [int(x) for x in np.nonzero(np.all(pixels == _rgb(colour), axis=2))[1]]


@pytest.mark.chromium
@pytest.mark.parametrize(
    ("argv", "status", "red"),
    [
        (["verify", "py:planted:deal", "--range", "1-40000", "--jobs", "1", "-q"], 1, "right of the green"),
        (["verify", "reference", "--range", "1-20000", "--jobs", "1", "-q"], 0, None),
        (["profile", "py:mistaken:wraps"], 0, "somewhere"),  # fcpro from 2³¹ on, xp's fixed layouts
    ],
)
def test_the_page_shows_green_where_it_conforms_and_red_at_the_first_failure(
    chromium: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], status: int, red: str | None
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "32768")
    page = tmp_path / "report.html"
    assert main([*argv, "--html", str(page)]) == status
    pixels = screenshot(chromium, page, tmp_path)
    greens, reds = _columns_of(pixels, GREEN), _columns_of(pixels, RED)
    assert len(greens) > 1000, "no green bar in the screenshot"
    if red:
        assert len(reds) > 50, "no red in the screenshot"
    if red == "right of the green":  # red at the first failure, after what conformed; grey after it
        assert min(reds) > max(greens)
        assert max(reds) - min(reds) < 20
    if red is None:
        assert reds == []


def test_the_page_is_self_contained_and_marks_the_differing_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", "617")
    page = tmp_path / "report.html"
    assert main(["verify", "py:planted:deal", "--range", "600-700", "--jobs", "1", "-q", "--html", str(page)]) == 1
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"https?:|<script|<link|<img|\bsrc=|url\(|@import", text)
    assert len(re.findall(r'class="card[^"]*\bdiffers"', text)) == 4  # two cards swapped, marked on both boards
    assert text.count('class="card') == 2 * 52
    assert "Diagnosis" in text and "deal 617" in text


def test_html_names_an_unwritable_file_before_any_work(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["verify", "reference", "--range", "1-5", "--html", str(tmp_path / "no" / "r.html")]) == 2
    assert "--html" in capsys.readouterr().err


def _bars(page: str) -> list[dict[str, list[tuple[float, float]]]]:
    """Each bar of a page: the spans (x0, x1) of its rects, by colour."""
    bars = []
    for svg in re.findall(r"<svg.*?</svg>", page):
        found: dict[str, list[tuple[float, float]]] = {}
        rects = re.findall(r'<rect x="([\d.]+)" y="20" width="([\d.]+)" height="36" fill="(#\w+)"/>', svg)
        for x, width, fill in rects:
            found.setdefault(fill, []).append((float(x), float(x) + float(width)))
        bars.append(found)
    return bars


def _at(n: int, last: int) -> float:
    """Where deal n lies on a bar over 1 … last (log-scaled, as the page draws it)."""
    return BAR_WIDTH * math.log10(n) / math.log10(last + 1)


@pytest.mark.parametrize(("first", "last", "failing"), [(1, 10**6, 32768), (1, 40000, 32768), (5000, 10**6, 617_000)])
def test_the_verify_bar_is_red_only_where_a_deal_checked_failed(first: int, last: int, failing: int) -> None:
    request = Request("reference", ranges=((first, last),))
    failure = Failure(failing, "mismatch", "cards 1 and 2 differ")
    report = Report("py:d:deal", "reference", "classic", failing - first + 1, failure, 1.0, ranges=((first, last),))
    (bar,) = _bars(verify_html(report, request.blocks()))
    end = 2**31 - 1
    where = _at(failing, end)
    assert bar[RED] and all(where - MIN_SPAN <= x0 and x1 <= where + 2 * MIN_SPAN for x0, x1 in bar[RED]), bar[RED]
    assert all(x1 <= where + 0.02 for _, x1 in bar[GREEN])  # nothing after the failure was checked: grey


def test_the_profile_bar_and_text_tell_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.dealer_profile import profile

    result = profile("py:bounded:fcpro_but_classic_below_2_32")
    assert "(2³² … 2³³−1 conforms on the deals checked)" in result.summary
    page = profile_html(result)
    classic, fcpro, _ = _bars(page)
    end = 2**33 - 1
    assert fcpro[RED] and all(x1 <= _at(2**31, end) + 2 * MIN_SPAN for _, x1 in fcpro[RED]), fcpro[RED]
    assert any(x0 >= _at(2**32, end) for x0, _ in fcpro[GREEN])  # 2³² … 2³³−1: checked, conforming
    assert RED not in classic


def test_a_board_with_a_repeated_card_is_drawn_with_it_and_the_missing_one_marked() -> None:
    from reference import deal

    due = deal(5).line.split()
    given = " ".join("QS" if c == "KD" else c for c in due)
    failure = Failure(5, "invalid-output", "found 52 cards, repeated: QS, missing: KD", " ".join(due), given)
    report = Report("py:d:deal", "reference", "classic", 5, failure, 1.0, ranges=((1, 10),))
    page = verify_html(report, Request("reference", ranges=((1, 10),)).blocks())
    assert re.findall(r'class="card[^"]*\brepeated" title="(\w+)"', page) == ["QS", "QS"]
    assert re.findall(r'class="card[^"]*\bmissing" title="(\w+)"', page) == ["KD"]
    assert "no board from the implementation" not in page
    assert "repeated (marked on the actual board): QS; missing (marked where due): KD" in page
