"""`verify --html` and `profile --html`: one self-contained HTML page (no script, no network) that a
person would rather look at than read.

It shows the verdict and the diagnosis, the expected and actual boards of the first failure drawn as
cards (the differing ones marked), and a bar over the dialect's domain, log-scaled, with 32000,
32767, 65535, 10⁶ and 2³¹ marked: green over the deals checked and conforming, red where a deal
was checked and failed, grey where nothing was checked (after a failure too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from harness.failures import Failure
from harness.files import write_atomically
from harness.intervals import Block
from harness.reports.cards import CARD_STYLE, boards_html
from harness.reports.report import Report, verdict
from reference import get_dialect

if TYPE_CHECKING:
    from harness.dealer_profile import Profile

GREEN, RED, GREY = "#228b22", "#cc0000", "#d9d9d9"  # conforming, failing, not checked
BAR_WIDTH, MIN_SPAN = 1000, 3  # the bar's width in its own units; the narrowest span drawn
# (deal, label, where the label goes): 32000 … 65535 lie close together on a log scale
MARKS = (
    (32000, "32000", "above-left"),
    (32767, "32767", "below"),
    (65535, "65535", "above-right"),
    (10**6, "10⁶", "below"),
    (2**31, "2³¹", "above-left"),
)
_LABEL = {"above-left": (14, "end"), "above-right": (14, "start"), "below": (72, "middle")}

Span = tuple[int, int]  # deals first … last


def verify_html(report: Report, blocks: Iterable[Block]) -> str:
    """The page of one `verify` run; `blocks` are those it was asked to check (this shard's)."""
    f = report.first_failure
    line = verdict(report)
    checked = [] if report.interrupted else _spans(blocks)
    if f is not None:  # blocks after the first failure are not checked
        checked = [(a, min(b, f.deal - 1)) for a, b in checked if a < f.deal]
    failing = [] if f is None else [(f.deal, f.deal)]  # what follows it was not checked
    body = [
        f"<h1>{escape(line.partition(':')[0])}</h1>",
        f'<p class="verdict">{escape(line)}</p>',
        _diagnosis(f),
        _bar(report.dialect, checked, failing, f.deal if f else None),
    ]
    if report.interrupted:
        body.append("<p>Interrupted: which deals were checked is not known, so none is drawn green.</p>")
    if f is not None:
        body.append(boards_html(f))
    return page(f"freecell-harness: {line.partition(':')[0]}", "\n".join(body))


def profile_html(profile: Profile, seed: int = 0) -> str:
    """The page of `profile`: a bar per dialect, drawn from what its text says, its first failure's
    diagnosis and boards."""
    body = [f"<h1>profile of {escape(profile.implementation)}</h1>", f'<p class="verdict">{escape(profile.text())}</p>']
    for name, result in profile.dialects.items():
        checked, failing = result.spans(seed)
        f = result.first_failure
        heading = f"<h2>{escape(name)}: {escape(result.status())}</h2>"
        body += [heading, _bar(name, checked, failing, f.deal if f else None)]
        if f is not None:
            body += [_diagnosis(f), boards_html(f)]
    return page(f"freecell-harness profile: {profile.summary}", "\n".join(body))


def write_html(path: str, page: str) -> None:
    write_atomically(path, page)


def _spans(blocks: Iterable[Block]) -> list[Span]:
    spans: list[Span] = []
    for block in blocks:
        if block.interval is not None:
            spans.append((block.interval.first, block.interval.last))
        else:
            spans += [(n, n) for n in block.deals]
    return spans


def _diagnosis(f: Failure | None) -> str:
    if f is None or f.diagnosis is None:
        return ""
    return f'<p class="diagnosis"><b>Diagnosis</b> ({escape(f.diagnosis.cause)}): {escape(f.diagnosis.message)}</p>'


# ------------------------------------------------------------------------------------- the bar


def _x(n: int, last: int) -> float:
    """Where deal n lies on the log-scaled bar of a domain ending at `last` (deals below 1: at 0)."""
    return BAR_WIDTH * math.log10(max(n, 1)) / math.log10(last + 1)


def _rects(spans: Sequence[Span], last: int, colour: str) -> list[str]:
    """One rect per run of spans that touch on the bar, widened to MIN_SPAN where narrower (so that a
    window of a few deals stays visible; runs of many narrow spans are not widened one by one, which
    would carry them past their last deal)."""
    columns: list[list[float]] = []
    for a, b in sorted(spans):
        x0, x1 = _x(a, last), _x(b + 1, last)
        if columns and x0 <= columns[-1][1]:
            columns[-1][1] = max(columns[-1][1], x1)
        else:
            columns.append([x0, x1])
    for column in columns:
        if column[1] - column[0] < MIN_SPAN:
            column[0] = min(column[0], BAR_WIDTH - MIN_SPAN)
            column[1] = column[0] + MIN_SPAN
    return [f'<rect x="{x0:.2f}" y="20" width="{x1 - x0:.2f}" height="36" fill="{colour}"/>' for x0, x1 in columns]


def _bar(dialect: str, checked: Sequence[Span], failing: Sequence[Span], first_failure: int | None) -> str:
    d = get_dialect(dialect)
    last = d.last
    parts = [f'<rect x="0" y="20" width="{BAR_WIDTH}" height="36" fill="{GREY}"/>']
    parts += _rects(checked, last, GREEN)
    parts += _rects(failing, last, RED)
    for n, label, where in MARKS:
        if n > last + 1:
            continue
        x = _x(n, last)
        y, anchor = _LABEL[where]
        parts.append(f'<line x1="{x:.2f}" y1="16" x2="{x:.2f}" y2="60" stroke="#000" stroke-width="1"/>')
        parts.append(f'<text x="{x:.2f}" y="{y}" text-anchor="{anchor}">{label}</text>')
    end = {2**31 - 1: "2³¹−1", 2**33 - 1: "2³³−1"}.get(last, str(last))
    parts.append(f'<text x="0" y="90" text-anchor="start">{"1" if d.first >= 1 else escape(str(d.first))}</text>')
    parts.append(f'<text x="{BAR_WIDTH}" y="90" text-anchor="end">{end}</text>')
    red = "" if first_failure is None else f", red where checked and failing (first at deal {first_failure})"
    caption = f"{dialect}: green checked and conforming{red}, grey not checked"
    return (
        f'<figure class="domain"><svg viewBox="-10 0 {BAR_WIDTH + 20} 96" role="img" '
        f'aria-label="{escape(caption)}">{"".join(parts)}</svg>'
        f"<figcaption>{escape(caption)} (log scale)</figcaption></figure>"
    )


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #111; background: #fff; }
h1 { margin: 0 0 .3em; }
.verdict { font-family: ui-monospace, monospace; white-space: pre-wrap; }
.diagnosis { background: #f3f3f3; padding: .5em; }
figure.domain { margin: 1em 0; }
figure.domain svg { width: 100%; height: auto; font-size: 12px; }
"""


def page(title: str, body: str, style: str = "") -> str:
    """A whole self-contained page (nothing fetched): the cards' style and `style`, then `body`."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}{CARD_STYLE}{style}</style></head>\n<body>\n{body}\n</body></html>\n"
    )
