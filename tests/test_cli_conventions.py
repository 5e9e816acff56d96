"""One set of conventions: the shared options mean the same in every command, the entry points name their keywords alike.

The options are declared once, in :mod:`skatdd.cli.options`; these tests
walk every command of the ``skatdd`` group (and the public entry points of
``import skatdd``), so a command or function added later is held to them too.
"""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import click
import pytest

import skatdd
from cli_runner import command_imports
from skatdd.cli import COMMAND_MODULES, COMMAND_SUMMARIES, all_commands, options
from skatdd.core.seeds import DEFAULT_SEED

#: Every (command name, option) of the group.
PARAMS = [(name, param) for name, command in sorted(all_commands().items()) for param in command.params
          if isinstance(param, click.Option)]
#: The entry points of ``import skatdd`` that run a command's logic.
ENTRY_POINTS = ["advise", "analyse", "odds", "bid", "best", "null_ouvert", "match"]
CLI_DIR = Path(options.__file__).parent


def _with(name: str) -> list[tuple[str, click.Option]]:
    found = [(command, param) for command, param in PARAMS if param.name == name]
    assert found, name  # a convention about an option no command has would hold by default
    return found


def test_every_jobs_option_has_its_short_form() -> None:
    for command, param in _with("jobs"):
        assert sorted(param.opts) == ["--jobs", "-j"], command
        assert param.default is None, command


def test_every_seed_option_has_the_one_default() -> None:
    for command, param in _with("seed"):
        assert param.default == DEFAULT_SEED, command
        assert param.opts == ["--seed"], command


def test_every_seat_option_has_the_one_type() -> None:
    seats = _with("seat") + _with("declarer")
    assert {command for command, _ in _with("seat")} >= {"bid", "odds"}
    for command, param in seats:
        assert param.type is options.SEAT, (command, param.name)


def test_the_other_shared_options_are_alike() -> None:
    for command, param in _with("tt_mb"):
        assert param.opts == ["--tt-mb"] and param.callback is options.check_tt_mb, command
    for command, param in _with("dask"):
        assert param.opts == ["--dask"] and param.metavar == "ADDRESS", command
    for command, param in _with("output"):
        assert sorted(param.opts) == ["--output", "-o"], command
    for command, param in _with("as_json"):
        assert param.opts == ["--json"] and param.is_flag, command


@pytest.mark.parametrize("path", sorted(p.name for p in CLI_DIR.glob("*.py") if p.name != "options.py"))
def test_the_shared_options_are_declared_only_in_the_options_module(path: str) -> None:
    text = (CLI_DIR / path).read_text(encoding="utf-8")
    inline = re.findall(r'click\.option\(\s*"(--jobs|-j|--seed|--seat|--declarer|--tt-mb|--dask|--output|-o|--json)"',
                        text)
    assert not inline, f"cli/{path} declares {inline} itself: use skatdd.cli.options"


def test_the_entry_points_name_their_keywords_alike() -> None:
    for name in ENTRY_POINTS:
        parameters = inspect.signature(getattr(skatdd, name)).parameters
        assert not {"runner", "tt_mb"} & set(parameters), name
        assert "solver" in parameters, name
        if "seed" in parameters:
            assert parameters["seed"].default == DEFAULT_SEED, name
    for name in ("advise", "odds", "bid", "null_ouvert", "match"):
        assert "jobs" in inspect.signature(getattr(skatdd, name)).parameters, name
    for name in ("advise", "odds", "bid", "match"):
        assert "seed" in inspect.signature(getattr(skatdd, name)).parameters, name


def test_the_group_help_lists_each_commands_own_summary() -> None:
    # `skatdd --help` reads COMMAND_SUMMARIES so as not to import every command: they must say what the
    # commands' docstrings say, for every width Click may cut them to.
    commands = all_commands()
    assert set(COMMAND_SUMMARIES) == set(COMMAND_MODULES) == set(commands)
    for name, command in commands.items():
        for limit in (20, 45, 80, 200):
            stand_in = click.Command(name, help=COMMAND_SUMMARIES[name])
            assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit), (name, limit)


def test_the_group_help_imports_no_command() -> None:
    shown, loaded = command_imports("--help")
    assert "null-ouvert  Is this null ouvert unbeatable?" in shown
    assert {m for m in loaded if m.startswith("skatdd.cli.")} <= {"skatdd.cli.common"}
