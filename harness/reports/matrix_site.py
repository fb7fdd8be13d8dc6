"""The matrix as a site: index.html (the table, sortable and filterable by language and verdict, with an
inline script and style and nothing fetched, readable on a phone) and impl/ID.html (a row's profile,
each first failure's boards drawn as cards by `harness.reports.cards`, and the command that re-runs it)."""

from __future__ import annotations

from html import escape
from typing import Any

from harness.failures import Failure
from harness.matrix.results import REGIONS, Row, cell, cell_text, rerun_command
from harness.reports.cards import boards_html
from harness.reports.html import page
from harness.reports.matrix_table import expectation_text, speed_text, verdict

_STYLE = """
body { margin: 1em; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-size: 14px; }
th, td { border: 1px solid #ccc; padding: .3em .5em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; cursor: pointer; white-space: nowrap; }
td.conforms { background: #e3f5e1; text-align: center; }
td.fails { background: #fde2e1; }
td.not-reached, td.not-run { color: #777; text-align: center; }
td.summary { min-width: 24em; font-size: 13px; }
td.speed, td.conforms, td.fails { white-space: nowrap; }
tr.expect-unmet td:last-child { background: #fde2e1; font-weight: bold; }
.filters { margin: .5em 0; display: flex; gap: 1em; flex-wrap: wrap; }
.filters label { white-space: nowrap; }
pre.command { background: #f3f3f3; padding: .5em; white-space: pre-wrap; word-break: break-all; }
dd code { word-break: break-all; }
@media (max-width: 600px) { body { margin: .4em; } table { font-size: 12px; } .card { width: 2em; font-size: 14px; } }
"""

_SCRIPT = """
(function () {
  var table = document.getElementById('matrix'), body = table.tBodies[0];
  var language = document.getElementById('language'), wanted = document.getElementById('verdict');
  var headings = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var sorted = {};
  function filter() {
    Array.prototype.forEach.call(body.rows, function (row) {
      row.hidden = !((!language.value || row.dataset.language === language.value) &&
                     (!wanted.value || row.dataset.verdict === wanted.value));
    });
  }
  function sort(column, down) {
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.key || a.cells[column].textContent;
      var y = b.cells[column].dataset.key || b.cells[column].textContent;
      var nx = Number(x), ny = Number(y);
      var order = (x !== '' && y !== '' && !isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return down ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    headings.forEach(function (th) { th.removeAttribute('aria-sort'); });
    headings[column].setAttribute('aria-sort', down ? 'ascending' : 'descending');
    sorted = {sort: headings[column].textContent, order: down ? 'up' : 'down'};
  }
  function remember() {  // the view in the address, to be shared: #language=…&verdict=…&sort=…&order=…
    var said = {language: language.value, verdict: wanted.value, sort: sorted.sort, order: sorted.order};
    history.replaceState(null, '', '#' + Object.keys(said).filter(function (k) { return said[k]; })
      .map(function (k) { return k + '=' + encodeURIComponent(said[k]); }).join('&'));
  }
  language.addEventListener('change', function () { filter(); remember(); });
  wanted.addEventListener('change', function () { filter(); remember(); });
  headings.forEach(function (th, column) {
    th.addEventListener('click', function () {
      sort(column, !(sorted.sort === th.textContent && sorted.order === 'up'));
      remember();
    });
  });
  var asked = {};
  location.hash.slice(1).split('&').forEach(function (pair) {
    var at = pair.indexOf('=');
    if (at > 0) { asked[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1)); }
  });
  if (asked.language) { language.value = asked.language; }
  if (asked.verdict) { wanted.value = asked.verdict; }
  filter();
  var column = headings.map(function (th) { return th.textContent; }).indexOf(asked.sort);
  if (column >= 0) { sort(column, asked.order !== 'down'); }
}());
"""

_VERDICTS = ("conforms", "fails", "not run")


def index_page(document: dict[str, Any]) -> str:
    rows = document["implementations"]
    languages = sorted({row["language"] for row in rows if row["language"]})
    head = ["implementation", "language", *(r.title for r in REGIONS), "summary", "speed", "expect"]
    body = [
        f"<h1>{escape(document['title'])}</h1>",
        f"<p>freecell-harness {escape(document['harness_version'])}, {escape(document['date'])}. "
        f"{len(rows)} implementations: "
        + ", ".join(f"{sum(verdict(r) == v for r in rows)} {v}" for v in _VERDICTS)
        + ". ✓: every deal checked in the region conforms (its boundaries and a sample; "
        "a badge says exhaustive only where whole ranges were checked); ✗ N: the first failing deal and its "
        "cause; ·: not reached (it already fails below); –: not run. Click a heading to sort.</p>",
        '<div class="filters"><label>language <select id="language"><option value="">all</option>'
        + "".join(f'<option value="{escape(x)}">{escape(x)}</option>' for x in languages)
        + '</select></label><label>verdict <select id="verdict"><option value="">all</option>'
        + "".join(f'<option value="{v}">{v}</option>' for v in _VERDICTS)
        + "</select></label></div>",
        '<div class="table-wrap"><table id="matrix"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>",
        *(_index_row(row) for row in rows),
        "</tbody></table></div>",
        f"<script>{_SCRIPT}</script>",
    ]
    return page(document["title"], "\n".join(body), _STYLE)


def _index_row(row: Row) -> str:
    link = f' <a href="{escape(row["source"])}">source</a>' if row.get("source") else ""
    cells = [
        f'<td data-key="{escape(row["name"])}">'
        f'<a href="impl/{escape(row["id"])}.html">{escape(row["name"])}</a>{link}</td>',
        f"<td>{escape(row['language'])}</td>",
    ]
    for region in REGIONS:
        c = cell(row, region)
        title = {
            "conforms": "every deal checked conforms",
            "fails": f"first {c.get('kind')} at deal {c.get('deal')}",
            "not-reached": f"not reached: it fails at deal {c.get('deal')}, below",
            "not-run": "not run",
        }[c["status"]]
        key = {"conforms": "0", "not-reached": "2", "not-run": "3"}.get(c["status"]) or f"{1 + c['deal'] / 2**34:.12f}"
        cells.append(f'<td class="{c["status"]}" title="{escape(title)}" data-key="{key}">{escape(cell_text(c))}</td>')
    said = row["profile"]["summary"] if row.get("profile") else f"{row['status']}: {row['reason']}"
    cells.append(f'<td class="summary">{escape(said)}</td>')
    cells.append(f'<td class="speed" data-key="{row.get("deals_per_s") or 0}">{escape(speed_text(row))}</td>')
    cells.append(f"<td>{expectation_text(row)}</td>")
    unmet = " expect-unmet" if row["expect_met"] is False else ""
    return (
        f'<tr class="row{unmet}" data-id="{escape(row["id"])}" data-language="{escape(row["language"])}" '
        f'data-verdict="{verdict(row)}">{"".join(cells)}</tr>'
    )


def implementation_page(document: dict[str, Any], row: Row) -> str:
    body = [
        '<p><a href="../index.html">← all implementations</a></p>',
        f"<h1>{escape(row['name'])}</h1>",
        "<dl>",
        *(
            f"<dt>{label}</dt><dd>{value}</dd>"
            for label, value in (
                ("language", escape(row["language"] or "–")),
                ("source", f'<a href="{escape(row["source"])}">{escape(row["source"])}</a>' if row["source"] else "–"),
                ("IMPL", f"<code>{escape(row['impl'])}</code> in <code>{escape(row['cwd'])}</code>"),
                ("setup", f"<code>{escape(row['setup'])}</code>" if row["setup"] else "–"),
                ("build", f"<code>{escape(row['dealer_build'] or 'unknown')}</code>"),
                ("speed", escape(speed_text(row))),
                ("expectations", escape(expectation_text(row))),
                ("badge", escape(row["badge"]["message"])),
            )
        ),
        "</dl>",
    ]
    profile = row.get("profile")
    if profile is None:
        body.append(f'<p class="verdict">{escape(row["status"])}: {escape(row["reason"] or "")}</p>')
        return page(f"{row['name']}: {row['status']}", "\n".join(body), _STYLE)
    body.append(f'<p class="verdict">{escape(profile["summary"])}</p>')
    for name, result in profile["dialects"].items():
        f = result["first_failure"]
        covered = row["coverage"]["dialects"][name]["exhaustive"]
        scope = f"{result['checked']} deals checked (windows around every boundary and a sample)"
        if covered:
            scope += "; exhaustively by verify reports of this build: " + ", ".join(f"{a}…{b}" for a, b in covered)
        if f is None:
            body.append(f"<h2>{escape(name)}: conforms</h2><p>{escape(scope)}</p>")
            continue
        failure = Failure.from_json(f)
        body += [
            f"<h2>{escape(name)}: first {escape(failure.kind)} at deal {failure.deal}</h2>",
            f"<p>{escape(failure.explanation)}</p><p>{escape(scope)}</p>",
            "<p>Re-run this failure (from the manifest's folder):</p>",
            f'<pre class="command"><code>{escape(rerun_command(row, name, failure.deal))}</code></pre>',
            boards_html(failure),
        ]
    return page(f"{row['name']}: {profile['summary']}", "\n".join(body), _STYLE)
