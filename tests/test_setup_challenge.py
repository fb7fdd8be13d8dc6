"""`setup challenge`: freeCodeCamp's challenge file, fetched at a pinned commit, its SHA-256 checked,
kept in the user cache where the harness then finds the original solution.  Served here by a local
HTTP server on 127.0.0.1 (the URL given by $FREECELL_CHALLENGE_URL), never the network."""

from __future__ import annotations

import functools
import hashlib
import http.server
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harness import seeds as lookup
from harness.cli import main
from harness.errors import RequestError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
PINNED_COPY = "004_0a5e90750e08c43d.txt"  # the development layout's copy of the pinned file


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """(the folder served, its base URL); the server stops when the test ends."""
    folder = tmp_path / "www"
    folder.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield folder, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def fresh_clone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No ../shared/seeds anywhere, no $FREECELL_SEED: a user's fresh clone; the cache is empty."""
    monkeypatch.delenv(lookup.SEED_ENV, raising=False)
    monkeypatch.setattr(lookup, "PROJECT_ROOT", tmp_path / "clone" / "freecell-harness")
    work = tmp_path / "work" / "project"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _pinned_bytes(seeds_folder: Path) -> bytes:
    data = (seeds_folder / PINNED_COPY).read_bytes()
    assert hashlib.sha256(data).hexdigest() == lookup.CHALLENGE_SHA256  # the copy is the pinned file
    return data


def _tampered(data: bytes) -> bytes:
    return data.replace(b"% (Math.pow(2, 31))", b"% (Math.pow(2, 32))")


def test_the_url_is_the_curriculum_file_at_the_pinned_commit() -> None:
    assert (
        f"https://raw.githubusercontent.com/freeCodeCamp/freeCodeCamp/{lookup.CHALLENGE_COMMIT}/{lookup.CHALLENGE_PATH}"
    ) == lookup.CHALLENGE_URL
    assert len(lookup.CHALLENGE_COMMIT) == 40 and lookup.CHALLENGE_PATH.startswith("curriculum/challenges/")


def test_a_fresh_clone_without_the_original_solution_is_told_the_one_command(
    fresh_clone: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(RequestError, match=r"not found: run `freecell-harness setup challenge`"):
        lookup.require_seed_document()
    # the README's first example, typed in a fresh clone
    assert main(["verify", "node:../shared/seeds/000_8985819e1f56d382.txt", "--range", "1-3", "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run `freecell-harness setup challenge` once, then give node:" in err, err


def test_the_downloaded_file_is_kept_in_the_cache_and_found_there(
    node: str,
    seeds: Path,
    fresh_clone: Path,
    served: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, base = served
    data = _pinned_bytes(seeds)
    (folder / "deal.md").write_bytes(data)
    monkeypatch.setenv(lookup.CHALLENGE_URL_ENV, f"{base}/deal.md")
    assert main(["setup", "challenge"]) == 0
    kept = lookup.cached_challenge()
    assert kept.is_relative_to(fresh_clone) and kept.read_bytes() == data
    assert str(kept) in capsys.readouterr().out
    assert lookup.require_seed_document() == kept
    assert main(["verify", f"node:{kept}", "--range", "1-500", "--jobs", "1"]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("downloaded", [False, True], ids=["no original solution", "the downloaded one"])
def test_the_main_job_s_fixtures_check_passes_in_a_fresh_clone(
    seeds: Path,
    fresh_clone: Path,
    served: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    downloaded: bool,
) -> None:
    """The fixtures' record names the development layout's document: another one (the downloaded
    challenge file) is no sign that the fixtures were edited."""
    folder, base = served
    (folder / "deal.md").write_bytes(_pinned_bytes(seeds))
    monkeypatch.setenv(lookup.CHALLENGE_URL_ENV, f"{base}/deal.md")
    if downloaded:
        assert main(["setup", "challenge"]) == 0
    assert main(["fixtures", "check", "--dir", str(FIXTURES)]) == 0, capsys.readouterr().out


# What is served, and what the refusal says (exit 2, one line, nothing kept).
REFUSED = {
    "tampered": ("deal.md", _tampered, "SHA-256"),
    "missing": ("other.md", lambda data: data, "HTTP 404"),
    "truncated": ("deal.md", lambda data: data[:-1], "SHA-256"),
}


@pytest.mark.parametrize(("name", "change", "says"), REFUSED.values(), ids=REFUSED.keys())
def test_a_copy_that_is_not_the_pinned_file_is_refused_and_nothing_kept(
    seeds: Path,
    fresh_clone: Path,
    served: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    change: Callable[[bytes], bytes],
    says: str,
) -> None:
    folder, base = served
    (folder / name).write_bytes(change(_pinned_bytes(seeds)))
    monkeypatch.setenv(lookup.CHALLENGE_URL_ENV, f"{base}/deal.md")
    assert main(["setup", "challenge"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err, err
    assert not lookup.cached_challenge().exists()
    assert not list(fresh_clone.rglob("*")) or all(p.is_dir() for p in fresh_clone.rglob("*"))
