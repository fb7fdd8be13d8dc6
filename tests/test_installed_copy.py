"""An installed copy (a non-editable `pip install .` in a fresh venv) works from any directory:
`fixtures check`, `verify fixtures`, the plugin and `fixtures regen`, from a directory
that is not the checkout.  Slow (it builds a venv); the fast check that the package data holds the
fixtures is in test_fixtures.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.seeds import DEFAULT_SEED_NAME

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    subprocess.run(
        [str(where / "bin" / "pip"), "install", "-q", f"{ROOT}[pytest]", "pysol-cards"],
        check=True,
        capture_output=True,
    )
    return where


def run(venv: Path, cwd: Path, *argv: str, seed: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FREECELL_SEED", "PYTHONPATH")}
    if seed is not None:
        env["FREECELL_SEED"] = str(seed)
    return subprocess.run(
        [str(venv / "bin" / argv[0]), *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True, timeout=1800
    )


def test_the_installed_copy_carries_and_checks_its_fixtures_from_anywhere(venv: Path, tmp_path: Path) -> None:
    result = run(venv, tmp_path, "freecell-harness", "fixtures", "check")
    assert result.returncode == 0, result.stderr
    result = run(venv, tmp_path, "freecell-harness", "verify", "fixtures", "--range", "1-32000", "--jobs", "2")
    assert result.returncode == 0 and "CONFORMS" in result.stdout, result.stderr


def test_the_plugin_runs_from_anywhere_and_says_how_to_name_a_dealer(
    venv: Path, tmp_path: Path, node: str, seeds: Path
) -> None:
    (tmp_path / "test_conformance.py").write_text((ROOT / "tests" / "conformance" / "test_conformance.py").read_text())
    result = run(venv, tmp_path, "pytest", "-q", "-p", "no:cacheprovider", "--fc-range", "1-2000")
    assert result.returncode == pytest.ExitCode.USAGE_ERROR
    assert "--fc-impl" in result.stderr and "fc_impl" in result.stderr, result.stderr
    original = f"node:{seeds / DEFAULT_SEED_NAME}"
    dealers = ["--fc-impl", "fixtures", "--fc-impl", original]
    result = run(venv, tmp_path, "pytest", "-q", "-p", "no:cacheprovider", "--fc-range", "1-2000", *dealers)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout  # fixtures and the original JS, one block each


def test_regen_of_the_installed_copy_works_from_anywhere(venv: Path, tmp_path: Path, node: str, seeds: Path) -> None:
    seed = seeds / DEFAULT_SEED_NAME
    result = run(venv, tmp_path, "freecell-harness", "fixtures", "regen", seed=None)
    assert result.returncode == 2 and "FREECELL_SEED" in result.stderr, result.stderr
    result = run(venv, tmp_path, "freecell-harness", "fixtures", "regen", "--dir", str(tmp_path / "fx"), seed=seed)
    assert result.returncode == 0, result.stderr
    result = run(venv, tmp_path, "freecell-harness", "fixtures", "check", "--dir", str(tmp_path / "fx"), seed=seed)
    assert result.returncode == 0, result.stderr


def test_the_installed_copy_runs_a_matrix_from_anywhere(venv: Path, tmp_path: Path) -> None:
    (tmp_path / "dealer").mkdir()
    (tmp_path / "dealer" / "freecell.py").write_text((ROOT / "examples" / "python" / "freecell.py").read_text())
    (tmp_path / "m.toml").write_text('[[implementation]]\nid = "py"\ncwd = "dealer"\nimpl = "py:freecell:deal"\n')
    result = run(venv, tmp_path, "freecell-harness", "matrix", "run", "m.toml", "--out", "out")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "index.html").is_file() and "py: classic" in result.stdout
