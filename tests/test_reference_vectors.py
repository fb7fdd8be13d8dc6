"""Published facts: the seed documents' own examples and every board of vectors/published.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from seed_examples import CLEAN_DOCUMENTS, GAMES, Rows, document, heading_board, hint_board

import reference
from harness.seeds import seeds_dir

ROW_LENGTHS = [8, 8, 8, 8, 8, 8, 4]
PUBLISHED = seeds_dir().parent / "vectors" / "published.json"


def _vectors() -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads(PUBLISHED.read_text(encoding="utf-8"))["vectors"]
    return vectors


def _columns_to_rows(columns: list[list[str]]) -> Rows:
    return [[col[r] for col in columns if r < len(col)] for r in range(max(map(len, columns)))]


def _published_columns(board: str) -> list[list[str]]:
    return [line.split() for line in board.splitlines()]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("prefix", CLEAN_DOCUMENTS)
def test_seed_hint_data_is_the_reference_deal(seeds: Path, prefix: str, game: int) -> None:
    rows = hint_board(document(prefix, seeds).read_text(encoding="utf-8"), game)
    assert len(rows) == 7
    assert [len(r) for r in rows] == ROW_LENGTHS
    got = reference.deal(game)
    assert [list(r) for r in got.rows] == rows
    assert json.loads(got.format("json")) == rows
    assert got.format("rows").splitlines() == [" ".join(r) for r in rows]


@pytest.mark.parametrize("game", GAMES)
def test_seed_description_example_is_the_reference_deal(seeds: Path, game: int) -> None:
    rows = heading_board(document("000", seeds).read_text(encoding="utf-8"), game)
    assert [len(r) for r in rows] == ROW_LENGTHS
    assert [list(r) for r in reference.deal(game).rows] == rows


@pytest.mark.parametrize("game", GAMES)
def test_seed_documents_agree_where_they_are_readable(seeds: Path, game: int) -> None:
    boards = [hint_board(p.read_text(encoding="utf-8"), game) for p in sorted(seeds.glob("*.txt"))]
    readable = [b for b in boards if [len(r) for r in b] == ROW_LENGTHS]
    assert len(readable) >= len(CLEAN_DOCUMENTS)
    assert all(b == readable[0] for b in readable)


def test_published_vectors_cover_every_dialect() -> None:
    assert {(v["dialect"], v["deal"]) for v in _vectors()} >= {
        ("classic", 1),
        ("classic", 617),
        ("fcpro", 3_000_000_000),
        ("xp", -1),
        ("xp", -2),
    }


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: f"{v['dialect']}-{v['deal']}")
def test_published_board_in_every_format(vector: dict[str, Any]) -> None:
    assert vector["layout"] == "columns"
    columns = _published_columns(vector["board"])
    assert [len(c) for c in columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    rows = _columns_to_rows(columns)
    dealt = [card for row in rows for card in row]
    got = reference.deal(vector["deal"], vector["dialect"])

    assert got.format("columns") == vector["board"]
    assert got.format("rows") == "".join(" ".join(r) + "\n" for r in rows)
    assert json.loads(got.format("json")) == rows
    assert got.format("line") == " ".join(dealt) + "\n"
    assert len(got.format("line").encode()) == 156
    assert [reference.CARD_NAMES[c] for c in got.cards] == dealt


@pytest.mark.parametrize("vector", _vectors(), ids=lambda v: f"{v['dialect']}-{v['deal']}")
def test_published_board_through_the_bulk_path(vector: dict[str, Any]) -> None:
    dealt = [card for row in _columns_to_rows(_published_columns(vector["board"])) for card in row]
    line = reference.canonical_lines([vector["deal"]], vector["dialect"])
    assert line == (" ".join(dealt) + "\n").encode()


@pytest.mark.parametrize("dialect", ["classic", "fcpro", "xp"])
@pytest.mark.parametrize("game", GAMES)
def test_seed_examples_are_the_same_deal_in_every_dialect(seeds: Path, dialect: str, game: int) -> None:
    rows = hint_board(document(CLEAN_DOCUMENTS[0], seeds).read_text(encoding="utf-8"), game)
    assert [list(r) for r in reference.deal(game, dialect).rows] == rows
