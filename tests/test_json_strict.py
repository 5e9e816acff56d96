"""JSON in and out is strict JSON: no ``NaN``, ``Infinity`` or numbers too large for a float.

Python's json module reads ``NaN``, ``Infinity`` and ``1e400`` (as ``inf``)
and writes them back as ``NaN`` / ``Infinity``, which strict parsers (and
most other languages) reject.  skatdd refuses such numbers on input (exit 2
for one input, an error line in a file of lines) and writes every JSON with
``allow_nan=False`` through one helper, :func:`skatdd.formats.json_text.json_text`.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from skatdd.cli import cli
from skatdd.core.errors import DealFormatError
from skatdd.formats.files import record_id
from skatdd.formats.json_text import json_text
from skatdd.formats.readers import deal_from_json

ROOT = Path(__file__).resolve().parents[1]
DEAL = "CJ SJ HA HT HK DA DT D9 D8 D7 / CA CT CK CQ C9 SA ST SK SQ S9 / HJ DJ C8 C7 S8 S7 HQ H9 H8 H7 / DK DQ"
HANDS = ", ".join(json.dumps(hand) for hand in DEAL.split(" / ")[:3])
#: Every spelling Python's json module turns into a non-finite float.
NON_FINITE = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "12345678901234567890e300"]


def deal_line(ident: str, **extra: str) -> str:
    """A JSON deal whose ``id`` is the raw JSON text *ident* (not a Python value: ``NaN`` stays ``NaN``)."""
    fields = "".join(f', "{name}": {value}' for name, value in extra.items())
    return f'{{"id": {ident}, "game": "diamonds", "declarer": 0, "hands": [{HANDS}], "skat": "DK DQ"{fields}}}'


def strict_loads(text: str) -> Any:
    """``json.loads`` as a strict parser reads: ``NaN``/``Infinity`` and overflowing numbers are errors."""
    def refuse(token: str) -> Any:
        raise ValueError(f"not JSON: {token}")

    def finite(token: str) -> float:
        value = float(token)
        if not math.isfinite(value):
            refuse(token)
        return value

    return json.loads(text, parse_constant=refuse, parse_float=finite)


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# --------------------------------------------------------------------------- reading


@pytest.mark.parametrize("token", NON_FINITE)
def test_the_reader_refuses_a_non_finite_number(token: str) -> None:
    with pytest.raises(DealFormatError, match=re.escape(token)):
        deal_from_json(deal_line(token))


@pytest.mark.parametrize("token", NON_FINITE)
def test_a_non_finite_number_anywhere_in_the_object_is_refused(token: str) -> None:
    # An unknown field is ignored, but its text must still be JSON.
    with pytest.raises(DealFormatError, match=re.escape(token)):
        deal_from_json(deal_line('"x"', comment=f"[1, {{\"deep\": {token}}}]"))


def test_large_but_finite_numbers_and_ordinary_floats_are_still_read() -> None:
    assert deal_from_json(deal_line("1e308")).require_spec().id == 1e308
    assert deal_from_json(deal_line("-0.5")).require_spec().id == -0.5


@pytest.mark.parametrize("token", ["NaN", "1e400"])
def test_a_line_id_that_is_not_json_is_not_echoed(token: str) -> None:
    assert record_id(deal_line(token)) is None
    assert record_id(deal_line("7")) == 7


@pytest.mark.parametrize("token", NON_FINITE)
@pytest.mark.parametrize("command", ["solve", "best", "advise", "analyse"])
def test_every_command_refuses_a_non_finite_id_with_exit_2(command: str, token: str) -> None:
    extra = {"analyse": ["--no-review"], "advise": ["--worlds", "2"]}.get(command, [])
    result = invoke(command, deal_line(token), "--json", *extra)
    assert_one_line_error(result, token, "finite")


@pytest.mark.parametrize("token", ["NaN", "-1e400"])
def test_batch_gives_the_line_an_error_record_and_solves_the_others(token: str) -> None:
    text = "\n".join([deal_line("1"), deal_line(token), deal_line("3")]) + "\n"
    result = invoke("batch", "-", "--jobs", "1", "--tt-mb", "16", input=text)
    assert result.exit_code == 2
    rows = [strict_loads(line) for line in result.stdout.splitlines()]  # every line is strict JSON
    assert [row["id"] for row in rows] == [1, None, 3]
    assert rows[1]["line"] == 2 and token in rows[1]["error"] and "value" not in rows[1]
    assert rows[0]["value"] == rows[2]["value"] == 120
    assert "Traceback" not in result.stderr and "line 2: malformed JSON" in result.stderr


def test_analyse_gives_a_file_line_an_error_record(tmp_path: Path) -> None:
    record = (ROOT / "tests" / "data" / "iss-games.txt").read_text().splitlines()[0]
    path = tmp_path / "games.txt"
    path.write_text("\n".join([record, deal_line("Infinity", played='"HA"')]) + "\n")
    result = invoke("analyse", str(path), "--no-review", "--jobs", "1", "--tt-mb", "16")
    assert result.exit_code == 2
    rows = [strict_loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["id"] == "541932" and "error" not in rows[0]
    assert rows[1] == {"line": 2, "id": None, "error": rows[1]["error"]} and "Infinity" in rows[1]["error"]


# --------------------------------------------------------------------------- writing


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, {"id": [1, math.nan]}])
def test_the_writer_never_writes_a_non_finite_number(value: Any) -> None:
    with pytest.raises(ValueError):
        json_text(value)


def test_the_writer_keeps_text_as_is_and_escapes_only_what_utf8_cannot_hold() -> None:
    assert json_text({"id": "Skat ♣", "n": [1, 2.5]}) == '{"id": "Skat ♣", "n": [1, 2.5]}'
    assert json_text({"id": "\ud800"}) == '{"id": "\\ud800"}'
    assert json_text({"a": [1, 2]}, compact=True) == '{"a":[1,2]}'


def test_every_json_skatdd_writes_goes_through_the_one_writer() -> None:
    """No module but skatdd.formats.json_text calls json.dump/json.dumps (which write NaN by default)."""
    offenders = []
    for path in sorted((ROOT / "src" / "skatdd").rglob("*.py")):
        if path.name == "json_text.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if re.search(r"\bjson\.dumps?\(", line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert offenders == []
