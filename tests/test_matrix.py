"""`matrix run` and `matrix diff` (SPEC.md, "The conformance matrix").

Every run here is the real command line (`python -m harness matrix …`) over real dealers: the
project's example dealers (a copy of examples/, so that their setups build into the copy), a
deliberately wrong one, rows whose setup fails or hangs, a program that is missing, one that never
answers, and expectations met and not.
"""

from __future__ import annotations

import copy
import html
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import need_tools, wait_for
from referencing import Registry, Resource
from test_html_report import chromium  # noqa: F401 (a fixture)

from harness.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (ROOT / "schemas").glob("*.json")}
REGISTRY: Registry[Any] = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in SCHEMAS.values())
FAST_EXAMPLES = ["c", "js", "rust", "perl", "awk", "python", "wrong-16-bit"]  # java: a process per deal, slow

Json = Any


def harness(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run(
        [sys.executable, "-m", "harness", *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def schema_errors(document: Json) -> list[str]:
    validator = jsonschema.Draft202012Validator(SCHEMAS["matrix.schema.json"], registry=REGISTRY)
    return [e.message for e in validator.iter_errors(document)]


def rows_of(out: Path) -> dict[str, Json]:
    return {row["id"]: row for row in json.loads((out / "matrix.json").read_text(encoding="utf-8"))["implementations"]}


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_tools("cc", "rustc", "node", "perl", "awk")
    copied = tmp_path_factory.mktemp("examples") / "examples"
    shutil.copytree(ROOT / "examples", copied, ignore=shutil.ignore_patterns("freecell", "*.class"))
    return copied


@pytest.fixture(scope="module")
def example_run(examples: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    out = examples.parent / "site"
    done = harness(
        "matrix", "run", str(examples / "matrix.toml"), "--out", str(out), "--jobs", "2", "--only", *FAST_EXAMPLES
    )
    return done, out


MIXED = """
[matrix]
title = "Mixed"

[[implementation]]
id = "python"
language = "Python"
cwd = "python"
impl = "py:freecell:deal"
expect = { classic = true, fcpro = 2147483648 }

[[implementation]]
id = "expects-fcpro"
language = "Python"
cwd = "python"
impl = "py:freecell:deal"
expect = { fcpro = true }

[[implementation]]
id = "known-failure-fixed"
language = "Python"
cwd = "python"
impl = "py:freecell:deal"
expect = { classic = 32768 }

[[implementation]]
id = "setup-fails"
language = "C"
cwd = "c"
setup = "echo compiling; echo 'freecell.c:1: error: no compiler today' >&2; exit 1"
impl = "stream:./never-built"

[[implementation]]
id = "setup-hangs"
language = "C"
setup = "sleep 120"
setup_timeout = 1
impl = "stream:./never-built"
expect = { classic = true }

[[implementation]]
id = "missing"
language = "C"
impl = "stream:./no-such-dealer"

[[implementation]]
id = "never-answers"
language = "shell"
impl = "stream:sleep 1000"
options = ["--timeout", "0.2", "--startup-timeout", "0.2"]
"""


@pytest.fixture(scope="module")
def mixed_run(examples: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    manifest = examples / "mixed.toml"
    manifest.write_text(MIXED, encoding="utf-8")
    out = examples.parent / "mixed-site"
    return harness("matrix", "run", str(manifest), "--out", str(out), "--jobs", "2"), out


# ------------------------------------------------------------------------------------ the example


def test_the_example_matrix_runs_and_meets_its_expectations(example_run: tuple[Any, Path]) -> None:
    done, out = example_run
    assert done.returncode == 0, done.stdout + done.stderr
    rows = rows_of(out)
    assert list(rows) == FAST_EXAMPLES
    assert all(r["status"] == "profiled" and r["expect_met"] is True for r in rows.values())
    assert schema_errors(json.loads((out / "matrix.json").read_text(encoding="utf-8"))) == []


@pytest.mark.parametrize(
    ("ident", "message", "color"),
    [
        ("c", "classic ✓ sampled", "green"),
        ("python", "classic ✓ sampled", "green"),
        ("wrong-16-bit", "classic ✗ at deal 32768 (truncated-16-bit)", "red"),
    ],
)
def test_badges_say_the_dialect_and_that_it_was_sampled(
    example_run: tuple[Any, Path], ident: str, message: str, color: str
) -> None:
    badge = json.loads((example_run[1] / "badges" / f"{ident}.json").read_text(encoding="utf-8"))
    assert badge == {
        "schemaVersion": 1,
        "label": rows_of(example_run[1])[ident]["name"],
        "message": message,
        "color": color,
    }


def test_summary_md_is_a_table_with_a_row_per_implementation(example_run: tuple[Any, Path]) -> None:
    text = (example_run[1] / "summary.md").read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(table) == 1 + len(FAST_EXAMPLES)
    wrong = next(line for line in table if "deliberately wrong" in line)
    cells = [c.strip() for c in wrong.strip("|").split(" | ")]
    assert cells[2:5] == ["✓", "✗ 32768 (truncated-16-bit)", "·"]  # classic regions: ok, fails, not reached


# --------------------------------------------------------------------------- rows that cannot run


@pytest.mark.parametrize(
    ("ident", "status", "reason"),
    [
        ("setup-fails", "setup-failed", r"setup failed: echo compiling; .*: exited with status 1; stderr: .*no compi"),
        ("setup-hangs", "setup-failed", r"did not finish within 1 s"),
        ("missing", "cannot-run", r"program not found or not executable: \./no-such-dealer"),
    ],
)
def test_a_row_that_cannot_run_says_why_and_the_run_goes_on(
    mixed_run: tuple[Any, Path], ident: str, status: str, reason: str
) -> None:
    row = rows_of(mixed_run[1])[ident]
    assert row["status"] == status
    assert re.search(reason, row["reason"]), row["reason"]
    assert row["profile"] is None and row["badge"]["color"] == "lightgrey"
    assert rows_of(mixed_run[1])["python"]["status"] == "profiled"


def test_a_dealer_that_never_answers_is_a_row_of_timeouts(mixed_run: tuple[Any, Path]) -> None:
    row = rows_of(mixed_run[1])["never-answers"]
    assert row["status"] == "profiled"
    assert {d["first_failure"]["kind"] for d in row["profile"]["dialects"].values()} == {"timeout"}


def test_unmet_expectations_are_named_and_exit_1(mixed_run: tuple[Any, Path]) -> None:
    done, out = mixed_run
    assert done.returncode == 1, done.stdout + done.stderr
    unmet = [line for line in done.stdout.splitlines() if line.startswith("expectation not met")]
    assert len(unmet) == 3, done.stdout
    assert "expects-fcpro: expected fcpro conforms, but first mismatch at deal 2147483648" in unmet[0]
    assert "known-failure-fixed: expected classic first failure at deal 32768, but it conforms" in unmet[1]
    assert "known failure is fixed" in unmet[1]
    assert "setup-hangs: expected classic conforms, but it could not be profiled" in unmet[2]
    met = {i: r["expect_met"] for i, r in rows_of(out).items()}
    assert met == {
        "python": True,
        "expects-fcpro": False,
        "known-failure-fixed": False,
        "setup-fails": None,
        "setup-hangs": False,
        "missing": None,
        "never-answers": None,
    }
    assert schema_errors(json.loads((out / "matrix.json").read_text(encoding="utf-8"))) == []


# ------------------------------------------------------------------------------------ bad manifests

GOOD_ROW = '[[implementation]]\nid = "a"\nimpl = "reference"\n'


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[matrix]\ntitle = 'x'\n", "no [[implementation]] entries"),
        ("[[implementation]]\nid = 'a'\nimpl = \n", "not TOML"),
        ("[matrix]\ncolour = 'x'\n" + GOOD_ROW, "[matrix]: unknown field 'colour'"),
        ("[[implementation]]\nid = 'A b'\nimpl = 'reference'\n", "implementation 1: field 'id'"),
        ("[[implementation]]\nid = 'a'\n", "implementation 1 (a): field 'impl': missing"),
        ("[[implementation]]\nid = 'a'\nimpl = 'dealer:x'\n", "(a): field 'impl': unknown implementation"),
        ("[[implementation]]\nid = 'a'\nimpl = 'py:nofunction'\n", "implementation 1 (a): field 'impl': py:nofunction"),
        (GOOD_ROW + "langauge = 'C'\n", "implementation 1 (a): field 'langauge': unknown field"),
        (GOOD_ROW + GOOD_ROW, "implementation 2 (a): field 'id': 'a' is used twice"),
        (GOOD_ROW + "cwd = 'nowhere'\n", "implementation 1 (a): field 'cwd'"),
        (GOOD_ROW + "options = ['--json']\n", "implementation 1 (a): field 'options': --json is not an option"),
        (GOOD_ROW + "options = ['--timeout', 'soon']\n", "implementation 1 (a): field 'options'"),
        (GOOD_ROW + "options = '--timeout 3'\n", "implementation 1 (a): field 'options': must be a list"),
        (GOOD_ROW + "expect = { klassic = true }\n", "implementation 1 (a): field 'expect.klassic': unknown dialect"),
        (GOOD_ROW + "expect = { classic = false }\n", "implementation 1 (a): field 'expect.classic'"),
        (GOOD_ROW + "expect = { classic = 4294967296 }\n", "field 'expect.classic': deal 4294967296 is not in"),
        (GOOD_ROW + "setup_timeout = -1\n", "implementation 1 (a): field 'setup_timeout'"),
        (GOOD_ROW + "exhaustive = 'r.json'\n", "implementation 1 (a): field 'exhaustive'"),
        (GOOD_ROW + "exhaustive = ['r.json']\n", "implementation 1 (a): field 'exhaustive': r.json: no such file"),
    ],
)
def test_a_bad_manifest_is_refused_in_one_line_naming_file_entry_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(text, encoding="utf-8")
    assert main(["matrix", "run", str(manifest), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(manifest) in err and said in err, err
    assert not (tmp_path / "out").exists()


def test_only_names_an_id_of_the_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "m.toml"
    manifest.write_text(GOOD_ROW, encoding="utf-8")
    assert main(["matrix", "run", str(manifest), "--out", str(tmp_path / "out"), "--only", "b"]) == 2
    assert "--only b: no implementation of that id" in capsys.readouterr().err


# --------------------------------------------------------------------------------- the schema

Mutation = Callable[[Json], None]
MUTATIONS: list[tuple[str, Mutation]] = [
    ("no title", lambda d: d.pop("title")),
    ("an unknown field", lambda d: d.update(colour="red")),
    ("a row without its badge", lambda d: d["implementations"][0].pop("badge")),
    ("a badge claiming more", lambda d: d["implementations"][0]["badge"].update(message="classic ✓")),
    ("a badge of another schema version", lambda d: d["implementations"][0]["badge"].update(schemaVersion=2)),
    ("a profiled row without its profile", lambda d: d["implementations"][0].update(profile=None)),
    ("a row that did not run, with a profile", lambda d: d["implementations"][-1].update(status="cannot-run")),
    ("an unknown status", lambda d: d["implementations"][0].update(status="fine")),
    ("a build that is no SHA-256", lambda d: d["implementations"][0].update(dealer_build="abc")),
    ("an expectation false", lambda d: d["implementations"][0]["expect"].update(classic=False)),
    ("a date without its zone", lambda d: d.update(date="2026-11-29 01:00:00")),
    ("a part without its failure", lambda d: d["implementations"][0]["parts"]["classic"][0].pop()),
]


@pytest.mark.parametrize(("what", "mutate"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_a_wrong_matrix_json_is_refused(example_run: tuple[Any, Path], what: str, mutate: Mutation) -> None:
    document = json.loads((example_run[1] / "matrix.json").read_text(encoding="utf-8"))
    assert schema_errors(document) == []
    wrong = copy.deepcopy(document)
    mutate(wrong)
    assert schema_errors(wrong) != [], what


# ------------------------------------------------------------------------------ re-runs and --from


def test_a_rerun_keeps_unchanged_rows_and_profiles_a_changed_build(examples: Path, tmp_path: Path) -> None:
    work = tmp_path / "examples"
    shutil.copytree(examples / "python", work / "python")
    shutil.copytree(examples / "wrong", work / "wrong")
    manifest = work / "m.toml"
    manifest.write_text(
        '[[implementation]]\nid = "one"\ncwd = "python"\nimpl = "py:freecell:deal"\n'
        '[[implementation]]\nid = "two"\ncwd = "wrong"\nimpl = "py:freecell16:deal"\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    first = harness("matrix", "run", str(manifest), "--out", str(out), "--jobs", "2")
    assert first.returncode == 0, first.stderr
    dealer = work / "wrong" / "freecell16.py"  # the wrong dealer is fixed: its build changes
    dealer.write_text(dealer.read_text(encoding="utf-8").replace("n = (n + 2**15)", "# n = (n + 2**15)"))
    second = harness("matrix", "run", str(manifest), "--out", str(out), "--jobs", "2")
    assert second.returncode == 0, second.stderr
    assert re.search(r"^one: unchanged \(build [0-9a-f]{12}, harness .*\): kept; --redo", second.stdout, re.M)
    assert re.search(r"^two: classic; wraps above", second.stdout, re.M), second.stdout
    rows = rows_of(out)
    assert rows["one"]["kept"] is True and rows["two"]["kept"] is False
    third = harness("matrix", "run", str(manifest), "--out", str(out), "--redo", "--only", "one")
    assert re.search(r"^one: classic; wraps above", third.stdout, re.M), third.stdout
    assert list(rows_of(out)) == ["one", "two"]  # the row not run is kept


@pytest.mark.slow
def test_from_combines_the_jobs_results_as_a_local_run_writes_them(
    example_run: tuple[Any, Path], examples: Path
) -> None:
    local = rows_of(example_run[1])
    jobs = []
    for ident in ("c", "wrong-16-bit"):
        job = examples.parent / f"job-{ident}"
        done = harness("matrix", "run", str(examples / "matrix.toml"), "--out", str(job), "--only", ident)
        assert done.returncode == 0, done.stderr
        jobs.append(str(job))
    combined = examples.parent / "combined"
    done = harness("matrix", "run", str(examples / "matrix.toml"), "--out", str(combined), "--from", *jobs)
    assert done.returncode == 1, done.stdout  # java and the others have no result: their expectations are unmet
    rows = rows_of(combined)
    for ident in ("c", "wrong-16-bit"):
        same = ("profile", "parts", "dealer_build", "badge", "coverage", "expect_met")
        assert {k: rows[ident][k] for k in same} == {k: local[ident][k] for k in same}
    assert rows["java"]["status"] == "not-run" and "no result for it" in rows["java"]["reason"]


# ------------------------------------------------------------------------------------ exhaustive


def _report(examples: Path, same_build: bool, whole: bool, tmp_path: Path) -> Path:
    path = tmp_path / f"report-{same_build}-{whole}.json"
    done = harness(
        "verify", "py:freecell:deal", "--range", "1-2000", "--jobs", "1", "-q", "--report", str(path),
        cwd=examples / "python",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(path.read_text(encoding="utf-8"))
    if not same_build:  # as the report of another build of the dealer says
        report["dealer_build"] = "0" * 64
    if whole:  # as a run over the whole domain would say (two billion deals: not run here)
        report["ranges"], report["checked"] = [[1, 2**31 - 1]], 2**31 - 1
    path.write_text(json.dumps(report), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("same_build", "whole", "message", "exhaustive"),
    [
        pytest.param(True, False, "classic ✓ sampled", [[1, 2000]], marks=pytest.mark.slow),
        (True, True, "classic ✓ exhaustive", [[1, 2**31 - 1]]),
        pytest.param(False, True, "classic ✓ sampled", [], marks=pytest.mark.slow),  # another build's: nothing
    ],
)
def test_a_badge_says_exhaustive_only_for_a_whole_range_report_of_the_same_build(
    examples: Path, tmp_path: Path, same_build: bool, whole: bool, message: str,
    exhaustive: list[list[int]],
) -> None:  # fmt: skip
    report = _report(examples, same_build, whole, tmp_path)
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        f'[[implementation]]\nid = "py"\ncwd = "{(examples / "python").as_posix()}"\nimpl = "py:freecell:deal"\n'
        f'exhaustive = ["{report.name}"]\n',
        encoding="utf-8",
    )
    assert harness("matrix", "run", str(manifest), "--out", str(tmp_path / "out")).returncode == 0
    row = rows_of(tmp_path / "out")["py"]
    assert row["badge"]["message"] == message
    assert row["coverage"]["dialects"]["classic"]["exhaustive"] == exhaustive
    assert bool(row["coverage"]["ignored"]) is not same_build


# ------------------------------------------------------------------------------------------ diff


def test_diff_names_a_dealer_that_turned_wrong_and_exits_1(example_run: tuple[Any, Path], tmp_path: Path) -> None:
    old = json.loads((example_run[1] / "matrix.json").read_text(encoding="utf-8"))
    new = copy.deepcopy(old)
    wrong = next(r for r in new["implementations"] if r["id"] == "wrong-16-bit")
    python = next(r for r in new["implementations"] if r["id"] == "python")
    for field in ("profile", "parts"):  # the Python dealer now deals as the 16-bit port does
        python[field] = copy.deepcopy(wrong[field])
    new["implementations"].remove(next(r for r in new["implementations"] if r["id"] == "perl"))
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    done = harness("matrix", "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "python classic: new failure: conforms → mismatch at deal 32768 (truncated-16-bit) [worse]" in lines
    assert any(line.startswith("perl: removed:") for line in lines)
    back = harness("matrix", "diff", str(tmp_path / "new.json"), str(tmp_path / "old.json"), "--markdown")
    assert back.returncode == 0, back.stdout  # fixed, and a row added: nothing worse
    assert "| python | classic | fixed | mismatch at deal 32768 (truncated-16-bit) | conforms |  |" in back.stdout
    same = harness("matrix", "diff", str(tmp_path / "old.json"), str(tmp_path / "old.json"))
    assert (same.returncode, same.stdout.strip()) == (0, "no implementation changed")


# ------------------------------------------------------------------------------------------ the site


def test_the_site_is_self_contained_and_draws_each_first_failure(example_run: tuple[Any, Path]) -> None:
    out = example_run[1]
    for page in [out / "index.html", *(out / "impl").glob("*.html")]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"https?:|<link|<img|\bsrc=|url\(|@import", text), page
        assert 'name="viewport"' in text
    wrong = (out / "impl" / "wrong-16-bit.html").read_text(encoding="utf-8")
    assert wrong.count('class="card') == 3 * 2 * 52  # classic, fcpro and xp: expected and actual boards
    assert "verify py:freecell16:deal --dialect classic --range=32768-32768" in wrong


def test_the_command_on_the_page_re_runs_the_failure(example_run: tuple[Any, Path], examples: Path) -> None:
    page = (example_run[1] / "impl" / "wrong-16-bit.html").read_text(encoding="utf-8")
    command = re.findall(r'<pre class="command"><code>(.*?)</code></pre>', page)[0]
    cd, _, verify = html.unescape(command).partition(" && ")
    argv = shlex.split(verify)
    assert cd == "cd wrong" and argv[:2] == ["freecell-harness", "verify"]
    done = harness(*argv[1:], cwd=examples / cd.removeprefix("cd "))
    assert done.returncode == 1 and "32768" in done.stdout, done.stdout + done.stderr


def _dom(browser: str, page: Path, tmp_path: Path, view: str) -> str:
    argv = [
        browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri() + view,
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, timeout=300, env=dict(os.environ, HOME=str(tmp_path)), text=True)
    assert "<table" in done.stdout, done.stderr[-2000:]
    return done.stdout


@pytest.mark.chromium
@pytest.mark.parametrize(
    ("view", "shown"),
    [
        ("", FAST_EXAMPLES),
        ("#language=Python", ["python", "wrong-16-bit"]),
        ("#verdict=fails", ["wrong-16-bit"]),
        ("#language=C&verdict=fails", []),
        ("#sort=implementation&order=down", ["rust", "python", "perl", "js", "c", "awk", "wrong-16-bit"]),
    ],
)
def test_the_table_filters_and_sorts_in_chromium(
    chromium: str,  # noqa: F811
    example_run: tuple[Any, Path],
    tmp_path: Path,
    view: str,
    shown: list[str],
) -> None:
    dom = _dom(chromium, example_run[1] / "index.html", tmp_path, view)
    rows = re.findall(r'<tr class="row[^"]*" data-id="([^"]+)"[^>]*?( hidden="")?>', dom)
    assert len(rows) == len(FAST_EXAMPLES)
    visible = [ident for ident, hidden in rows if not hidden]
    if "sort=" in view:
        assert visible == shown
    else:
        assert sorted(visible) == sorted(shown)


# ------------------------------------------------------------------------------------- the workflow


@pytest.mark.slow
def test_the_workflows_steps_profile_each_row_and_combine_them_as_a_local_run(examples: Path, tmp_path: Path) -> None:
    """plan, row (once per id) and combine of .github/workflows/matrix.yml, run by bash as the runner runs
    them, with the artifacts moved between them as upload/download-artifact would."""
    from test_ci import WORKFLOWS, _run_script

    workflow = WORKFLOWS / "matrix.yml"
    repo = tmp_path / "repo"
    shutil.copytree(examples / "python", repo / "python")
    shutil.copytree(examples / "wrong", repo / "wrong")
    (repo / "matrix.toml").write_text(
        '[[implementation]]\nid = "right"\ncwd = "python"\nimpl = "py:freecell:deal"\nexpect = { classic = true }\n'
        '[[implementation]]\nid = "wrong"\ncwd = "wrong"\nimpl = "py:freecell16:deal"\nexpect = { classic = true }\n',
        encoding="utf-8",
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = {
        "PATH": os.pathsep.join((str(bin_dir), os.environ["PATH"])),
        "PYTHONPATH": str(ROOT),
        "MANIFEST": "matrix.toml",
        "GITHUB_OUTPUT": str(tmp_path / "output"),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
    }

    def step(script: str, **more: str) -> subprocess.CompletedProcess[bytes]:
        (tmp_path / "output").write_text("")
        return subprocess.run(["bash", "-e", "-c", script], env={**env, **more}, cwd=repo, capture_output=True)

    assert step(_run_script("", workflow, step="- id: plan")).returncode == 0
    ids = json.loads((tmp_path / "output").read_text().removeprefix("ids="))
    assert ids == ["right", "wrong"]
    rows = tmp_path / "rows"
    for ident in ids:
        done = step(_run_script("", workflow, step="- name: profile ${{ matrix.id }}"), ID=ident)
        assert done.returncode == 0, done.stderr.decode()  # 1 (the wrong one's expectation) is combine's to say
        (rows / f"matrix-row-{ident}").mkdir(parents=True)
        shutil.copy(repo / "matrix-row" / "matrix.json", rows / f"matrix-row-{ident}" / "matrix.json")
        shutil.rmtree(repo / "matrix-row")  # each job starts from a fresh checkout
    done = step(_run_script("combine", workflow), ROWS=str(rows))
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / "output").read_text() == "status=1\n"  # the wrong one's expectation is not met
    combined = rows_of(repo / "matrix-site")
    assert [r["status"] for r in combined.values()] == ["profiled", "profiled"]
    assert combined["wrong"]["expect_met"] is False and combined["right"]["expect_met"] is True
    assert "| 16-bit" not in (tmp_path / "summary").read_text() and "| wrong |" in (tmp_path / "summary").read_text()
    assert (repo / "matrix-site" / "index.html").is_file() and (
        repo / "matrix-site" / "badges" / "wrong.json"
    ).is_file()


# ------------------------------------------------------------------------------------- interrupts


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_matrix_run_ends_at_once_in_one_line_and_leaves_no_process(tmp_path: Path, signum: int) -> None:
    from test_interrupts import _as_from_a_terminal, marked_processes

    marker = f"FREECELL_MATRIX_TEST={uuid.uuid4()}"
    (tmp_path / "m.toml").write_text(
        '[[implementation]]\nid = "building"\nsetup = "sleep 300"\nimpl = "stream:./never-built"\n'
        '[[implementation]]\nid = "hanging"\nimpl = "stream:sleep 301"\noptions = ["--startup-timeout", "300"]\n',
        encoding="utf-8",
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), FREECELL_MATRIX_TEST=marker.partition("=")[2])
    argv = [sys.executable, "-m", "harness", "matrix", "run", "m.toml", "--out", "out", "--jobs", "2"]
    with subprocess.Popen(
        argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_as_from_a_terminal
    ) as run:
        try:
            wait_for(lambda: len(_sleeps(marker)) == 2, "the setup and the dealer started")
            run.send_signal(signum)
            _, stderr = run.communicate(timeout=10)
        finally:
            run.kill()
    assert run.returncode == 130, stderr
    assert stderr.decode().count("\n") == 1 and "interrupted" in stderr.decode(), stderr
    assert not (tmp_path / "out" / "matrix.json").exists()
    wait_for(lambda: marked_processes(marker) == [], "every process gone", limit_s=2)


def _sleeps(marker: str) -> list[int]:
    from test_interrupts import marked_processes

    def command(pid: int) -> str:
        try:
            return Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:  # it ended since it was listed (a shell of the setup, say)
            return ""

    return [p for p in marked_processes(marker) if command(p) == "sleep"]


@pytest.mark.parametrize(
    ("old_deal", "new_deal", "worse"),
    [(32768, 1000, True), (1000, 32768, False), (32768, 32768, False)],  # the last: another kind, same deal
    ids=["earlier", "later", "another kind"],
)
def test_diff_says_a_moved_first_failure_is_worse_only_when_it_comes_earlier(
    example_run: tuple[Any, Path], tmp_path: Path, old_deal: int, new_deal: int, worse: bool
) -> None:
    old = json.loads((example_run[1] / "matrix.json").read_text(encoding="utf-8"))
    new = copy.deepcopy(old)
    for document, deal in ((old, old_deal), (new, new_deal)):
        wrong = next(r for r in document["implementations"] if r["id"] == "wrong-16-bit")
        wrong["profile"]["dialects"]["classic"]["first_failure"]["deal"] = deal
    if old_deal == new_deal:
        wrong["profile"]["dialects"]["classic"]["first_failure"].update(kind="crash", diagnosis=None)
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    done = harness("matrix", "diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert done.returncode == int(worse), done.stdout + done.stderr
    assert done.stdout.startswith("wrong-16-bit classic: moved: ") and done.stdout.count("\n") == 2


@pytest.mark.parametrize(
    ("content", "said"), [("{", "not JSON"), ('{"title": "x"}', "not a matrix.json")], ids=["not JSON", "no rows"]
)
def test_diff_refuses_what_is_no_matrix_json_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, said: str
) -> None:
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    assert main(["matrix", "diff", str(tmp_path / "bad.json"), str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.json" in err and said in err, err


def test_a_setup_shared_by_rows_runs_once_per_folder(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    rows = [("a", "."), ("b", "."), ("c", "other")]
    (tmp_path / "m.toml").write_text(
        "".join(
            f'[[implementation]]\nid = "{ident}"\ncwd = "{cwd}"\nsetup = "echo ran >> setup.log"\n'
            'impl = "stream:./not-built"\n'
            for ident, cwd in rows
        ),
        encoding="utf-8",
    )
    done = harness("matrix", "run", str(tmp_path / "m.toml"), "--out", str(tmp_path / "out"), "--jobs", "3")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "setup.log").read_text() == (tmp_path / "other" / "setup.log").read_text() == "ran\n"
    assert {r["status"] for r in rows_of(tmp_path / "out").values()} == {"cannot-run"}
