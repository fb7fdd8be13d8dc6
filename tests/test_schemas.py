"""The JSON Schemas of schemas/ accept what the command line really writes, and refuse wrong outputs.

Each output is produced here by running `python -m harness` (never built by hand), validated with
`jsonschema` against its schema (draft 2020-12), then mutated in the ways a broken writer would
break it, and each mutation must be refused.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
DEALERS = Path(__file__).resolve().parent / "dealers"
SEED = "000_8985819e1f56d382.txt"

Json = Any


def _load_schemas() -> dict[str, dict[str, Any]]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(SCHEMAS.glob("*.json"))}


SCHEMA_FILES = _load_schemas()
REGISTRY: Registry[Any] = Registry().with_resources(
    (schema["$id"], Resource.from_contents(schema)) for schema in SCHEMA_FILES.values()
)


def validator(name: str, pointer: str = "") -> jsonschema.protocols.Validator:
    schema = SCHEMA_FILES[name]
    if pointer:
        schema = {"$ref": f"{schema['$id']}#{pointer}"}
    return jsonschema.Draft202012Validator(schema, registry=REGISTRY)


def errors(name: str, document: Json, pointer: str = "") -> list[str]:
    return [e.message for e in validator(name, pointer).iter_errors(document)]


def harness(*argv: str, cwd: Path = ROOT, status: int | None = 0) -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-m", "harness", *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    if status is not None:
        assert done.returncode == status, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


# ------------------------------------------------------------------------------------- outputs


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("outputs")


@pytest.fixture(scope="module")
def reports(out_dir: Path) -> dict[str, Json]:
    """verify --report of runs that conform, diverge (with and without a diagnosis), sample and merge."""
    runs: dict[str, tuple[list[str], Path, int]] = {
        "conforms": (["reference", "--range", "1-300"], ROOT, 0),
        "sample": (["reference", "--sample", "40", "--seed", "3"], ROOT, 0),
        "wraps": (["py:mistaken:wraps", "--dialect", "fcpro", "--range", "2147483640-2147483650"], DEALERS, 1),
        "invalid-output": (["py:math:sqrt", "--range", "1-5"], ROOT, 1),  # a float: no board
        "suit-order": (["py:mistaken:suit_order", "--range", "1-5"], DEALERS, 1),
    }
    found = {}
    for name, (argv, cwd, status) in runs.items():
        path = out_dir / f"{name}.json"
        harness("verify", *argv, "--jobs", "1", "--quiet", "--report", str(path), cwd=cwd, status=status)
        found[name] = json.loads(path.read_text(encoding="utf-8"))
    shards = []
    for k in (1, 2):
        path = out_dir / f"shard-{k}.json"
        harness(
            "verify", "reference", "--range", "1-30000", "--shard", f"{k}/2", "--jobs", "1", "-q", "--report", str(path)
        )
        shards.append(str(path))
    harness("report", "merge", *shards, "--out", str(out_dir / "merged.json"))
    found["merged"] = json.loads((out_dir / "merged.json").read_text(encoding="utf-8"))
    return found


@pytest.fixture(scope="module")
def profile_output() -> Json:
    return json.loads(harness("profile", "py:wrapping:deal", "--json", cwd=DEALERS))


@pytest.fixture(scope="module")
def identify_output() -> Json:
    boards = harness("deal", "617", "-2", "--dialect", "xp")
    not_a_deal = " ".join(reversed(harness("deal", "1", "--format", "line").split()))
    return json.loads(
        subprocess.run(
            [sys.executable, "-m", "harness", "identify", "--json"],
            input=boards + "\n" + not_a_deal + "\n",
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    )


@pytest.fixture(scope="module")
def challenge_output(node: str, seeds: Path, out_dir: Path) -> Json:
    missing = out_dir / "no-such-document.md"
    documents = [str(seeds / SEED), str(seeds / "002_510b9092f5b6f07e.txt"), str(seeds / "004_0a5e90750e08c43d.txt")]
    return json.loads(harness("challenge", *documents, str(missing), "--range", "1-50", "--json", status=2))


@pytest.fixture(scope="module")
def resume_lines(out_dir: Path) -> list[Json]:
    log = out_dir / "run.log"
    argv = ["verify", "py:mistaken:off_by_one", "--range", "1-25000", "--jobs", "1", "-q", "--resume", str(log)]
    harness(*argv, cwd=DEALERS, status=1)
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


# --------------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("name", sorted(SCHEMA_FILES))
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    schema = SCHEMA_FILES[name]
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_real_reports_are_valid(reports: dict[str, Json]) -> None:
    for name, report in reports.items():
        assert errors("verify-report.json", report) == [], name
    # the outputs cover what the schema allows, not only the easy case
    assert reports["wraps"]["first_failure"]["diagnosis"]["cause"] == "wraps"
    assert reports["invalid-output"]["first_failure"]["kind"] == "invalid-output"
    assert reports["sample"]["sample"] == {"size": 40, "seed": 3}


def test_a_real_profile_is_valid(profile_output: Json) -> None:
    assert errors("profile.json", profile_output) == []
    assert profile_output["matches"] == ["classic"]


def test_a_real_identify_output_is_valid(identify_output: Json) -> None:
    assert errors("identify.json", identify_output) == []
    assert [len(board["matches"]) for board in identify_output] == [1, 1, 0]


@pytest.mark.node
def test_a_real_challenge_output_is_valid(challenge_output: Json) -> None:
    assert errors("challenge.json", challenge_output) == []
    assert [d["solution"] for d in challenge_output] == ["ok", "syntax-error", "ok", None]


def test_a_real_resume_log_is_valid(resume_lines: list[Json]) -> None:
    header, *blocks = resume_lines
    assert errors("resume-log.json", header, "/$defs/header") == []
    for block in blocks:
        assert errors("resume-log.json", block, "/$defs/block") == []
        assert errors("resume-log.json", block) == []
    assert any(b["failure"] for b in blocks)


# Wrong outputs: (what, the output they start from, how it is broken).
Mutation = Callable[[Json], None]


def _set(path: str, value: object) -> Mutation:
    def mutate(doc: Json) -> None:
        *parents, last = path.split("/")
        for key in parents:
            doc = doc[int(key) if key.isdigit() else key]
        doc[int(last) if last.isdigit() else last] = value

    return mutate


def _drop(path: str) -> Mutation:
    def mutate(doc: Json) -> None:
        *parents, last = path.split("/")
        for key in parents:
            doc = doc[int(key) if key.isdigit() else key]
        del doc[int(last) if last.isdigit() else last]

    return mutate


REPORT_MUTATIONS = [
    ("an unknown field", "conforms", _set("verdict", "ok")),
    ("a missing field", "conforms", _drop("checked")),
    ("a negative count", "conforms", _set("checked", -1)),
    ("a count as text", "conforms", _set("checked", "300")),
    ("conformant with a failure", "wraps", _set("conformant", True)),
    ("not conformant without a failure", "conforms", _set("conformant", False)),
    ("null conformant, not interrupted", "conforms", _set("conformant", None)),
    ("an unknown dialect", "conforms", _set("dialect", "windows")),
    ("a shard 0/2", "merged", _set("shard", "0/2")),
    ("a range of three numbers", "conforms", _set("ranges", [[1, 2, 3]])),
    ("a sample without its seed", "sample", _set("sample", {"size": 40})),
    ("an unknown failure kind", "wraps", _set("first_failure/kind", "crashed")),
    ("a failure without its message", "wraps", _drop("first_failure/message")),
    ("a line of 51 cards", "wraps", _set("first_failure/expected", "AC " * 50 + "AD")),
    (
        "a line with its LF",
        "wraps",
        lambda d: d["first_failure"].update(expected=d["first_failure"]["expected"] + "\n"),
    ),
    ("an unknown cause", "wraps", _set("first_failure/diagnosis/cause", "cosmic-ray")),
    ("a same_as of another shape", "wraps", _set("first_failure/diagnosis/same_as", {"deal": 1})),
    (
        "a diagnosis of a crash",
        "invalid-output",
        _set("first_failure/diagnosis", {"cause": "wraps", "message": "x", "same_as": None}),
    ),
    ("extra field in a diagnosis", "suit-order", _set("first_failure/diagnosis/why", "x")),
]


@pytest.mark.parametrize(("what", "start", "mutate"), REPORT_MUTATIONS, ids=[m[0] for m in REPORT_MUTATIONS])
def test_a_wrong_report_is_refused(reports: dict[str, Json], what: str, start: str, mutate: Mutation) -> None:
    report = copy.deepcopy(reports[start])
    assert errors("verify-report.json", report) == []
    mutate(report)
    assert errors("verify-report.json", report), f"{what}: accepted"


OTHER_MUTATIONS = [
    ("profile: an unknown field", "profile", _set("verdict", 1)),
    ("profile: a dialect missing", "profile", _drop("dialects/xp")),
    ("profile: an unknown dialect in matches", "profile", _set("matches", ["windows"])),
    ("profile: conformant with a failure", "profile", _set("dialects/fcpro/conformant", True)),
    ("profile: a failure of an unknown kind", "profile", _set("dialects/fcpro/first_failure/kind", "oops")),
    ("identify: board 0", "identify", _set("0/board", 0)),
    ("identify: deal 0", "identify", _set("0/matches/0/deal", 0)),
    ("identify: a match without dialects", "identify", _set("0/matches/0/dialects", [])),
    ("identify: an extra field", "identify", _set("0/found", True)),
    ("challenge: an unknown format", "challenge", _set("0/format", "yaml")),
    ("challenge: an unknown solution status", "challenge", _set("0/solution", "fine")),
    ("challenge: a hint status", "challenge", _set("0/hints/details/0/status", "skipped")),
    ("challenge: a language code", "challenge", _set("0/language", "english")),
    ("challenge: an unreadable one with a format", "challenge", _set("3/format", "markdown")),
    ("challenge: an extra field", "challenge", _set("1/solutions/0/notes", "")),
    ("resume: another format version", "header", _set("version", 3)),
    ("resume: an unknown run option", "header", _set("run/colour", True)),
    ("resume: a header without its run", "header", _drop("run")),
    ("resume: a block with an extra key", "block", _set("deals", [1])),
    ("resume: a negative count", "block", _set("checked", -5)),
    ("resume: a failure of another shape", "block", _set("failure", {"deal": 1})),
]


def _output(name: str, request: pytest.FixtureRequest) -> tuple[str, str, Json]:
    if name == "profile":
        return "profile.json", "", request.getfixturevalue("profile_output")
    if name == "identify":
        return "identify.json", "", request.getfixturevalue("identify_output")
    if name == "challenge":
        return "challenge.json", "", request.getfixturevalue("challenge_output")
    header, *blocks = request.getfixturevalue("resume_lines")
    if name == "header":
        return "resume-log.json", "", header
    return "resume-log.json", "", next(b for b in blocks if b["failure"])


@pytest.mark.parametrize(("what", "start", "mutate"), OTHER_MUTATIONS, ids=[m[0] for m in OTHER_MUTATIONS])
def test_a_wrong_output_is_refused(request: pytest.FixtureRequest, what: str, start: str, mutate: Mutation) -> None:
    schema, pointer, original = _output(start, request)
    document = copy.deepcopy(original)
    assert errors(schema, document, pointer) == []
    mutate(document)
    assert errors(schema, document, pointer), f"{what}: accepted"


def test_the_docs_name_every_schema() -> None:
    text = (ROOT / "docs" / "reference" / "json.md").read_text(encoding="utf-8")
    assert [n for n in SCHEMA_FILES if f"schemas/{n}" not in text] == []
