"""docs/reference/cli.md lists every command and option of the real parser, and nothing else.

Each command has a section headed `freecell-harness COMMAND` (`freecell-harness ci shard` for a
step); every option of its `--help` appears in it as `--option`, every positional argument by
its name or choices, and every option its table lists exists.  A new option without its line in
the reference fails here.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from harness.cli import build_parser

CLI_MD = Path(__file__).resolve().parent.parent / "docs" / "reference" / "cli.md"
_HEADING = re.compile(r"^(#{1,6}) (.*)$", re.MULTILINE)
_TABLE_OPTION = re.compile(r"^\| `(-[-\w]+)`(?:, `(-[-\w]+)`)?", re.MULTILINE)


def commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every command and step of the parser, by its words (() for the program itself)."""
    found = {path: parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= commands(sub, (*path, name))
    return found


def sections(text: str) -> dict[str, str]:
    """Heading text -> the text up to the next heading."""
    heads = list(_HEADING.finditer(text))
    return {
        m[2].strip(): text[m.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        for i, m in enumerate(heads)
    }


PARSERS = commands(build_parser())
SECTIONS = sections(CLI_MD.read_text(encoding="utf-8"))


def section_of(path: tuple[str, ...]) -> str:
    if not path:
        return SECTIONS["Command line"]
    title = " ".join(("freecell-harness", *path))
    assert title in SECTIONS, f"docs/reference/cli.md has no section '{title}'"
    return SECTIONS[title]


def documented_names(parser: argparse.ArgumentParser) -> list[str]:
    """What the reference must show of a parser: its options and its positional arguments."""
    names: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        if action.option_strings:
            names += action.option_strings
        elif action.choices:
            names += [str(c) for c in action.choices]
        else:
            names.append(action.metavar if isinstance(action.metavar, str) else action.dest)
    return names


CASES = [pytest.param(path, id=" ".join(path) or "freecell-harness") for path in PARSERS]


@pytest.mark.parametrize("path", CASES)
def test_every_option_of_the_help_is_in_the_reference(path: tuple[str, ...]) -> None:
    text = section_of(path)
    missing = [name for name in documented_names(PARSERS[path]) if f"`{name}" not in text]
    assert not missing, f"freecell-harness {' '.join(path)}: not in docs/reference/cli.md: {missing}"


@pytest.mark.parametrize("path", CASES)
def test_the_reference_lists_no_option_the_command_lacks(path: tuple[str, ...]) -> None:
    real = {o for a in PARSERS[path]._actions for o in a.option_strings}
    listed = {o for m in _TABLE_OPTION.finditer(section_of(path)) for o in m.groups() if o}
    assert listed <= real, f"freecell-harness {' '.join(path)}: documented but not an option: {listed - real}"


def test_the_walk_finds_every_command() -> None:
    # The two tests above are only as good as this list.
    words = {" ".join(p) for p in PARSERS}
    assert {"deal", "verify", "report", "ci", "ci matrix", "ci shard", "ci merge"} <= words
    assert {"challenge", "identify", "profile", "fixtures"} <= words


def test_a_missing_option_is_caught() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--brand-new-option")
    assert "--brand-new-option" in documented_names(parser)
    assert "`--brand-new-option" not in section_of(("verify",))


def test_the_exit_statuses_of_the_help_are_those_of_the_contract() -> None:
    from harness.cli import EXIT_CODES

    contract = (CLI_MD.parent / "contract.md").read_text(encoding="utf-8")
    table = sections(contract)["Exit statuses"]
    helped = [line.split()[0] for line in EXIT_CODES.splitlines()[1:]]
    documented = re.findall(r"^\| \*\*(\d+)\*\* \|", table, re.MULTILINE)
    assert helped == documented


class _Recorder:
    """Stands in for pytest's parser: records the options a plugin adds."""

    def __init__(self) -> None:
        self.options: list[str] = []

    def getgroup(self, *args: object, **kwargs: object) -> _Recorder:
        return self

    def addoption(self, *names: str, **kwargs: object) -> None:
        self.options += names

    def addini(self, *args: object, **kwargs: object) -> None:
        pass


def test_every_option_of_the_pytest_plugin_is_in_its_how_to() -> None:
    import importlib
    import tomllib

    pyproject = tomllib.loads((CLI_MD.parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    plugin = importlib.import_module(pyproject["project"]["entry-points"]["pytest11"]["freecell_harness"])
    recorder = _Recorder()
    plugin.pytest_addoption(recorder)
    how_to = (CLI_MD.parents[1] / "how-to" / "pytest.md").read_text(encoding="utf-8")
    assert recorder.options, "the plugin adds no option: the recorder no longer fits pytest_addoption"
    assert [o for o in recorder.options if f"`{o}`" not in how_to] == []


def test_the_readme_is_short_and_its_links_resolve() -> None:
    # The site's links are checked by `mkdocs build --strict`; the README is outside the site.
    root = CLI_MD.parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    assert targets, "no links found: the pattern no longer fits"
    local = [t for t in targets if "://" not in t]
    assert [t for t in local if not (root / t).exists()] == []
