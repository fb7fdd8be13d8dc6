"""Bad input to the Python API: refused with TypeError/ValueError naming the dialect's domain."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import reference

# What each message must mention: the dialect's name and its domain's ends, as SPEC.md gives them.
DOMAIN_WORDS = {
    "classic": ["classic", "1", "2147483647"],
    "fcpro": ["fcpro", "1", "8589934591"],
    "xp": ["xp", "-2", "-1", "1000000"],
}
OUTSIDE = {
    "classic": [0, -1, -2, 2**31, 2**33 - 1, 2**64],
    "fcpro": [0, -1, -2, 2**33, 2**40],
    "xp": [0, -3, 1_000_001, 2**31 - 1],
}
NOT_INTEGERS = [1.5, 1.0, "abc", "", "1", "617", True, False, None, [1], b"1"]


def _cases(table: dict[str, list[Any]]) -> list[tuple[str, Any]]:
    return [(dialect, value) for dialect, values in table.items() for value in values]


def _names_domain(exc: BaseException, dialect: str) -> None:
    message = str(exc)
    missing = [w for w in DOMAIN_WORDS[dialect] if w not in message]
    assert not missing, f"{message!r} does not name {missing}"


ONE_DEAL_APIS: dict[str, Callable[[Any, str], object]] = {
    "deal": reference.deal,
    "random_numbers": reference.random_numbers,
    "canonical_lines": lambda n, d: reference.canonical_lines([1, n], d),
    "block_digest": lambda n, d: reference.block_digest([n], d),
    "check": lambda n, d: reference.DIALECTS[d].check(n),
}


@pytest.mark.parametrize("api", ONE_DEAL_APIS)
@pytest.mark.parametrize(("dialect", "number"), _cases(OUTSIDE))
def test_outside_the_domain_is_a_value_error(api: str, dialect: str, number: int) -> None:
    with pytest.raises(ValueError) as info:
        ONE_DEAL_APIS[api](number, dialect)
    _names_domain(info.value, dialect)


@pytest.mark.parametrize("api", ONE_DEAL_APIS)
@pytest.mark.parametrize(("dialect", "value"), _cases(dict.fromkeys(DOMAIN_WORDS, NOT_INTEGERS)))
def test_what_is_not_an_int_is_a_type_error(api: str, dialect: str, value: object) -> None:
    with pytest.raises(TypeError) as info:
        ONE_DEAL_APIS[api](value, dialect)
    _names_domain(info.value, dialect)


@pytest.mark.parametrize(("dialect", "number"), _cases(OUTSIDE))
def test_outside_the_domain_through_the_bulk_path(dialect: str, number: int) -> None:
    with pytest.raises(ValueError) as info:
        reference.lines_array([1, number], dialect)
    _names_domain(info.value, dialect)


@pytest.mark.parametrize(("dialect", "number"), _cases(OUTSIDE))
def test_outside_the_domain_through_a_range(dialect: str, number: int) -> None:
    """A range is checked as a whole: one that leaves the domain (or lies in one of its holes) is refused too."""
    for numbers in (range(number, number + 1), range(number - 2, number + 3), range(number + 2, number - 3, -1)):
        with pytest.raises(ValueError) as info:
            reference.canonical_lines(numbers, dialect)
        _names_domain(info.value, dialect)


@pytest.mark.parametrize("value", [1.5, True, "7", None, "abc"])
def test_bulk_path_refuses_what_is_not_an_int(value: Any) -> None:
    with pytest.raises(TypeError):
        reference.lines_array([value])


@pytest.mark.parametrize(
    ("dialect", "first", "last", "error"),
    [
        ("classic", 5, 1, ValueError),
        ("classic", 0, 5, ValueError),
        ("classic", 1, 2**31, ValueError),
        ("classic", 1.5, 3, TypeError),
        ("classic", 1, "2", TypeError),
        ("classic", True, 3, TypeError),
        ("fcpro", 2**33 - 1, 2**33, ValueError),
        ("fcpro", 2**32, 2**32 - 1, ValueError),
        ("xp", -1, 1, ValueError),
        ("xp", -2, 5, ValueError),
        ("xp", -3, -1, ValueError),
        ("xp", 999_999, 1_000_001, ValueError),
    ],
)
def test_bad_ranges(dialect: str, first: Any, last: Any, error: type[Exception]) -> None:
    for call in (
        lambda: reference.DIALECTS[dialect].check_range(first, last),
        lambda: list(reference.iter_lines(first, last, dialect)),
        lambda: list(reference.deal_range(first, last, dialect)),
    ):
        with pytest.raises(error) as info:
            call()
        assert dialect in str(info.value) or "reversed" in str(info.value) or "leaves" in str(info.value)


@pytest.mark.parametrize(("dialect", "first", "last"), [("xp", -2, -1), ("xp", -1, -1), ("fcpro", 2**31 - 1, 2**31)])
def test_good_ranges_at_the_edges(dialect: str, first: int, last: int) -> None:
    assert reference.DIALECTS[dialect].check_range(first, last) == (first, last)
    assert len(b"".join(reference.iter_lines(first, last, dialect))) == 156 * (last - first + 1)


@pytest.mark.parametrize("dialect", ["msvc", "Classic", "", " classic", None, 1])
def test_unknown_dialects(dialect: Any) -> None:
    for call in (
        lambda: reference.deal(1, dialect),
        lambda: reference.lines_array([1], dialect),
        lambda: list(reference.iter_lines(1, 2, dialect)),
        lambda: reference.block_digest(range(1, 3), dialect),
        lambda: reference.random_numbers(1, dialect),
    ):
        with pytest.raises(ValueError, match="classic, fcpro, xp"):
            call()


@pytest.mark.parametrize("fmt", ["csv", "", "Rows", "line ", None])
def test_unknown_formats(fmt: Any) -> None:
    with pytest.raises(ValueError, match="rows, columns, json, line"):
        reference.deal(1).format(fmt)
    with pytest.raises(ValueError, match="rows, columns, json, line"):
        reference.cards_from_text(reference.deal(1).line, fmt)


def _damaged() -> list[Any]:
    cases = []
    for fmt in ("rows", "columns", "line", "json"):
        text = reference.deal(617).format(fmt)
        card = '"7D"' if fmt == "json" else "7D"
        cases += [
            pytest.param(fmt, text.replace(card, card.replace("7D", "7X"), 1), id=f"{fmt}-not-a-card"),
            pytest.param(fmt, text + text, id=f"{fmt}-twice"),
            pytest.param(fmt, "", id=f"{fmt}-empty"),
        ]
        if fmt != "json":
            cases.append(pytest.param(fmt, text.replace(" ", "  ", 1), id=f"{fmt}-double-space"))
        if fmt != "line":
            missing = text.replace(card + ("," if fmt == "json" else " "), "", 1)
            cases.append(pytest.param(fmt, missing, id=f"{fmt}-card-missing"))
    line, rows = reference.deal(617).line, reference.deal(617).format("rows")
    cases += [
        pytest.param("line", line.replace("7D ", "", 1), id="line-51-cards"),
        pytest.param("rows", rows.replace("7D", "AD"), id="rows-duplicate"),
        pytest.param("line", line.replace("7D", "AD"), id="line-duplicate"),
    ]
    return cases


@pytest.mark.parametrize(("fmt", "text"), _damaged())
def test_damaged_text_does_not_read_back(fmt: str, text: str) -> None:
    with pytest.raises(ValueError):
        reference.cards_from_text(text, fmt)


def test_a_deal_must_hold_the_52_cards() -> None:
    cards = reference.deal(1).cards
    with pytest.raises(ValueError, match="permutation"):
        reference.Deal(1, "classic", cards[:-1] + cards[:1])
    with pytest.raises(ValueError, match="permutation"):
        reference.Deal(1, "classic", cards[:-1])
