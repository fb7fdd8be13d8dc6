"""The CI steps (`freecell-harness ci`) that the reusable workflow and the action run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import ci
from harness.cli import main

pytestmark = pytest.mark.usefixtures("test_dealers")


# Blocks of 10,000 go round-robin to 3 shards: 25555 lies in 20001-30000, shard 3's.
@pytest.mark.parametrize(
    ("planted", "verdict", "deal", "shard_statuses"),
    [("25555", 1, 25555, [0, 0, 1]), ("99999", 0, None, [0, 0, 0])],
)
def test_shards_then_merge_give_the_verdict_of_one_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    planted: str,
    verdict: int,
    deal: int | None,
    shard_statuses: list[int],
) -> None:
    monkeypatch.setenv("PLANTED_DEAL", planted)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    statuses = []
    for k in (1, 2, 3):  # as three matrix jobs would, each uploading its own directory
        shard = ["shard", "py:planted:deal", "--range", "1-40000", "--shard", str(k), "--shards", "3"]
        statuses.append(main(["ci", *shard, "--jobs", "1", "--out", str(tmp_path / "artifacts" / f"shard-{k}")]))
    assert statuses == shard_statuses  # a shard's job fails exactly when its verify would
    merged = tmp_path / "merged.json"
    assert main(["ci", "merge", str(tmp_path / "artifacts"), "--out", str(merged)]) == verdict
    data = json.loads(merged.read_text())
    assert data["checked"] == (40000 if deal is None else data["checked"]) and data["shard"] == "1/1"
    assert (data["first_failure"] or {}).get("deal") == deal
    assert ("DIVERGES" if deal else "CONFORMS") in summary.read_text()
    assert sorted(p.name for p in (tmp_path / "artifacts" / "shard-2").iterdir()) == [
        "shard-2.json",
        "shard-2.resume",
        "shard-2.xml",
    ]


@pytest.mark.parametrize(
    ("argv", "code", "expected"),
    [
        (["matrix", "4"], 0, "[1, 2, 3, 4]\n"),
        (["matrix", "0"], 2, ""),
        (["shard", "nonsense", "--shard", "1", "--shards", "2"], 2, ""),
        (["shard", "reference", "--range", "5-1", "--shard", "1", "--shards", "1"], 2, ""),
    ],
)
def test_steps_exit_as_verify_would(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], code: int, expected: str
) -> None:
    out = ["--out", str(tmp_path / "reports")] if argv[0] == "shard" else []
    assert main(["ci", *argv, *out]) == code
    captured = capsys.readouterr()
    assert captured.out == expected or not expected
    assert (captured.err.count("\n") == 1) == (code == 2)


def test_shard_takes_quiet_as_verify_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`ci shard -q` was refused (exit 2): the step takes verify's -q/--quiet and passes it on."""
    shard = ["ci", "shard", "reference", "--range", "1-300", "--shard", "1", "--shards", "1", "--jobs", "1"]
    assert main([*shard, "-q", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().err == ""
    argv = ci.shard_argv("reference", ranges=(), sample=None, seed="0", dialect="classic", shard=1, shards=1,
                         jobs=None, out=tmp_path, quiet=True)  # fmt: skip
    assert "--quiet" in argv


def test_shard_help_shows_its_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["ci", "shard", "--help"])
    text = capsys.readouterr().out
    assert "0    every deal of this shard conforms" in text
    assert "1    a deal of this shard does not conform" in text


def test_merge_without_reports_is_a_request_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ci", "merge", str(tmp_path)]) == 2
    assert "no shard-*.json" in capsys.readouterr().err


WORKFLOWS = Path(__file__).parents[1] / ".github" / "workflows"


@pytest.mark.parametrize("workflow", sorted(p.name for p in WORKFLOWS.glob("*.yml")))
def test_no_workflow_restores_a_resume_log_of_an_earlier_run(workflow: str) -> None:
    text = (WORKFLOWS / workflow).read_text()
    for line in text.splitlines():
        if "restore-keys:" in line:
            assert "github.run_id" in line, f"{workflow}: {line.strip()} restores logs of other runs"


ACTION = Path(__file__).parents[1] / "action.yml"


def _run_script(step_id: str, path: Path = ACTION, *, step: str | None = None) -> str:
    """The `run: |` script of the step `id: step_id` (or the step whose line is `step`) of the action
    (or of the workflow at `path`), read by indentation, as YAML does."""
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == (step or f"id: {step_id}"))
    run = next(i for i in range(start, len(lines)) if lines[i].strip() == "run: |")
    indent = len(lines[run + 1]) - len(lines[run + 1].lstrip())
    body = []
    for line in lines[run + 1 :]:
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        body.append(line[indent:])
    return "\n".join(body) + "\n"


def _actions_verify_step(tmp_path: Path, test_dealers: Path, impl: str, **more: str) -> int:
    """The action's verify step as the runner runs it (bash, the harness's own venv), on one shard of
    deals 1-100; its exit status, after checking that it said the same in $GITHUB_OUTPUT."""
    venv_bin = tmp_path / "runner" / "freecell-harness" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").symlink_to(sys.executable)
    output = tmp_path / "github_output"
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": os.pathsep.join((str(Path(__file__).parents[1]), str(test_dealers))),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "GITHUB_OUTPUT": str(output),
        "IMPL": impl,
        "RANGE": "1-100",
        "DIALECT": "classic",
        "SHARD": "1",
        "SHARDS": "1",
        "OUT": str(tmp_path / "out" / "shard-1"),
        **more,
    }
    run = subprocess.run(["bash", "-e", "-c", _run_script("verify")], env=env, cwd=tmp_path, capture_output=True)
    assert output.read_text() == f"status={run.returncode}\n", run.stderr.decode()
    return run.returncode


@pytest.mark.parametrize(("planted", "status"), [("5", 1), ("99999", 0)])
def test_the_actions_verify_step_fails_exactly_when_the_dealer_diverges(
    tmp_path: Path, test_dealers: Path, planted: str, status: int
) -> None:
    assert _actions_verify_step(tmp_path, test_dealers, "py:planted:deal", PLANTED_DEAL=planted) == status
    assert (tmp_path / "out" / "shard-1" / "shard-1.json").is_file()


# A dealer of bare-number cards through a shard: read as stated, refused in one line (exit 2) without.
NUMBERED = "py:shapes.numeric_cards:card_numbers"
STATED = ("--cards", "suit-major", "--suits", "SHDC")


@pytest.mark.parametrize(
    ("options", "status", "says"),
    [(STATED, 0, ""), ((), 2, "with --cards {rank-major,suit-major} and --suits CDHS"), (STATED[:2], 2, "--suits")],
    ids=["stated", "unstated", "no --suits"],
)
def test_a_shard_reads_bare_numbers_as_its_options_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: tuple[str, ...], status: int, says: str
) -> None:
    shard = ["ci", "shard", NUMBERED, "--range", "1-300", "--shard", "1", "--shards", "1", "--jobs", "1"]
    assert main([*shard, *options, "--out", str(tmp_path)]) == status
    err = capsys.readouterr().err
    if status == 0:
        assert json.loads((tmp_path / "shard-1.json").read_text())["checked"] == 300
    else:
        assert err.count("\n") == 1 and says in err, err


@pytest.mark.parametrize(
    ("cards", "suits", "status"),
    [("suit-major", "SHDC", 0), ("", "", 2), ("suit-major", "CDHS", 1)],
    ids=["stated", "unstated", "stated wrongly"],
)
def test_the_actions_verify_step_passes_cards_and_suits_on(
    tmp_path: Path, test_dealers: Path, cards: str, suits: str, status: int
) -> None:
    assert _actions_verify_step(tmp_path, test_dealers, NUMBERED, CARDS=cards, SUITS=suits) == status


@pytest.mark.parametrize(
    ("cards", "suits", "status"), [("suit-major", "SHDC", 0), ("", "", 2)], ids=["stated", "unstated"]
)
def test_the_workflows_shard_step_passes_cards_and_suits_on(
    tmp_path: Path, test_dealers: Path, cards: str, suits: str, status: int
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = {
        "PATH": os.pathsep.join((str(bin_dir), os.environ["PATH"])),
        "PYTHONPATH": os.pathsep.join((str(Path(__file__).parents[1]), str(test_dealers))),
        "IMPL": NUMBERED,
        "RANGE": "1-100",
        "DIALECT": "classic",
        "SHARD": "1",
        "SHARDS": "1",
        "CARDS": cards,
        "SUITS": suits,
    }
    shard_step = "- name: verify shard ${{ matrix.shard }}/${{ inputs.shards }}"
    script = _run_script("", WORKFLOWS / "verify.yml", step=shard_step)
    run = subprocess.run(["bash", "-e", "-c", script], env=env, cwd=tmp_path, capture_output=True)
    assert run.returncode == status, run.stderr.decode()
    assert (tmp_path / "freecell-reports" / "shard-1" / "shard-1.json").is_file() == (status == 0)


def test_the_actions_verify_step_passes_against_and_the_timeouts_on(tmp_path: Path, test_dealers: Path) -> None:
    """The action had no input for --against, --timeout or --startup-timeout: a run against the
    fixtures, or with a slower dealer's timeouts, could not be asked for."""
    status = _actions_verify_step(
        tmp_path, test_dealers, "py:planted:deal", AGAINST="fixtures", TIMEOUT="30", STARTUP_TIMEOUT="90"
    )
    report = json.loads((tmp_path / "out" / "shard-1" / "shard-1.json").read_text())
    assert status == 0 and report["against"] == "fixtures"
    argv = ci.shard_argv("x", ranges=(), sample=None, seed="0", dialect="classic", shard=1, shards=1, jobs=None,
                         out=tmp_path, against="fixtures", timeout=30.0, startup_timeout=90.0)  # fmt: skip
    assert argv[argv.index("--timeout") + 1] == "30.0" and argv[argv.index("--startup-timeout") + 1] == "90.0"


# (IMPL, whether the action and the workflow set up the TypeScript compiler for it)
NEEDS_TYPESCRIPT = {
    "node:deck.ts": ("node:src/deck.ts", "true"),
    "node:deck.mts#deal": ("node:deck.mts#deal", "true"),
    "a .cts file alone": ("deck.cts", "true"),
    "node:deal.js": ("node:deal.js", "false"),
    "stream: a program reading a .ts file": ("stream:./run deck.ts", "false"),
    "py:": ("py:deck:deal", "false"),
}


@pytest.mark.parametrize("where", ["action", "workflow"])
@pytest.mark.parametrize(("impl", "typescript"), NEEDS_TYPESCRIPT.values(), ids=NEEDS_TYPESCRIPT.keys())
def test_a_typescript_dealer_gets_the_compiler_in_ci(tmp_path: Path, where: str, impl: str, typescript: str) -> None:
    """A .ts dealer could not run in the action or the workflow: nothing set up the compiler."""
    script = _run_script("needs", ACTION if where == "action" else WORKFLOWS / "verify.yml")
    output = tmp_path / "github_output"
    env = {"PATH": os.environ["PATH"], "IMPL": impl, "GITHUB_OUTPUT": str(output)}
    subprocess.run(["bash", "-e", "-c", script], env=env, cwd=tmp_path, check=True)
    assert output.read_text() == f"typescript={typescript}\n"


@pytest.mark.parametrize("path", [ACTION, WORKFLOWS / "verify.yml"], ids=["action", "workflow"])
def test_the_cached_compiler_is_the_one_setup_typescript_pins(path: Path) -> None:
    from harness.node.typescript import TYPESCRIPT_VERSION

    text = path.read_text()
    assert f"key: freecell-typescript-{TYPESCRIPT_VERSION}-" in text
    assert 'setup typescript --prefix "$RUNNER_TEMP/freecell-typescript"' in text
    assert "FREECELL_TYPESCRIPT: ${{ runner.temp }}/freecell-typescript" in text


def test_the_actions_verify_step_runs_a_typescript_dealer_with_the_compiler_it_set_up(
    tmp_path: Path, test_dealers: Path, compiler: Path
) -> None:
    """As the action lays it out: the compiler under $RUNNER_TEMP/freecell-typescript, named by the step's env."""
    (tmp_path / "runner").mkdir()
    (tmp_path / "runner" / "freecell-typescript").symlink_to(compiler, target_is_directory=True)
    dealer = Path(__file__).with_name("ts") / "classic" / "src" / "deal.ts#dealCodes"
    status = _actions_verify_step(
        tmp_path, test_dealers, f"node:{dealer}", FREECELL_TYPESCRIPT=str(tmp_path / "runner" / "freecell-typescript")
    )
    assert status == 0


@pytest.mark.parametrize("where", ["action", "workflow"])
def test_a_py_dealers_imports_are_installed_where_the_harness_runs(tmp_path: Path, where: str) -> None:
    """A py: dealer importing a package of its own could not be checked: nothing installed it where
    the harness (and so the py: runner) runs.  A stand-in python records what it is asked to install."""
    harness_bin = tmp_path / "runner" / "freecell-harness" / "bin"
    job_bin = tmp_path / "job-bin"
    for folder in (harness_bin, job_bin):
        folder.mkdir(parents=True)
        python = folder / "python"
        python.write_text(f'#!/bin/sh\necho "{folder.name} $*" >> "{tmp_path}/installed"\n')
        python.chmod(0o755)
    step = "- name: install what the py dealer imports, " + (
        "into the harness's venv (where py dealers run)" if where == "action" else "where the harness runs"
    )
    script = _run_script("", ACTION if where == "action" else WORKFLOWS / "verify.yml", step=step)
    env = {
        "PATH": os.pathsep.join((str(job_bin), os.environ["PATH"])),
        "RUNNER_TEMP": str(tmp_path / "runner"),
        "PYTHON_PACKAGES": "-r requirements.txt numpy",
    }
    subprocess.run(["bash", "-e", "-c", script], env=env, cwd=tmp_path, check=True)
    # the action: the harness's own venv; the workflow: the job's Python, where the harness is installed
    where_installed = "bin" if where == "action" else "job-bin"
    assert (tmp_path / "installed").read_text() == f"{where_installed} -m pip install -q -r requirements.txt numpy\n"


def test_the_workflow_takes_its_runner_and_a_shard_jobs_time_limit() -> None:
    """Every job ran on ubuntu-latest with GitHub's default limit: no input chose either."""
    lines = (WORKFLOWS / "verify.yml").read_text().splitlines()
    inputs = {line.strip().removesuffix(":") for line in lines if line.startswith("      ") and line.endswith(":")}
    assert {"runs-on", "timeout-minutes", "against", "timeout", "startup-timeout", "python-packages"} <= inputs
    jobs = [
        i
        for i, line in enumerate(lines)
        if line.startswith("  ") and not line.startswith("   ") and i > lines.index("jobs:")
    ]
    runs_on = [line.strip() for line in lines if line.startswith("    runs-on:")]
    assert len(jobs) == 3 and runs_on == ["runs-on: ${{ inputs.runs-on }}"] * len(jobs), runs_on
    assert "    timeout-minutes: ${{ inputs.timeout-minutes }}" in lines[jobs[1] : jobs[2]]
