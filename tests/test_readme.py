"""The README and the docs stay true: their examples run, the names they teach exist, and every option is documented.

* ```pycon blocks (README.md, docs/python.md, docs/cli.md) are doctests, run
  in order in one namespace per file (a later block may use an earlier
  block's names) from the repository's root, so every output shown is checked;
* ```python blocks are run as they stand (the plug-in player, ...);
* ```console blocks of the README are command lines (``$ skatdd ...``) with
  their output: each is run and must print what is shown, ``...`` standing
  for lines left out and wall-clock times masked; so are the ```console
  blocks of the docs pages (:data:`DOC_CONSOLE_PAGES`), run by the shell as
  written, node counts masked too (the slow examples there are plain
  fenced blocks, not run);
* every dotted name ``skatdd.x.y`` in backticks, prose and code alike, must
  import without a DeprecationWarning: the pages teach the public names and
  the layer paths, never an old module path;
* every command of the ``skatdd`` group and every option name of its
  ``--help`` (long and short) appears in docs/cli.md, in that command's own
  section or among the options common to every command.
"""
from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import types
import warnings
from pathlib import Path

import click
import pytest

from skatdd.cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
#: The pages whose ```pycon blocks are doctests and whose ```python blocks run.
EXAMPLE_PAGES = ["README.md", "docs/python.md", "docs/cli.md", "docs/game.md"]
#: skatdd.rl needs the rl extra (the test extra installs it); without it, the examples and names of it are left out.
RL_EXTRA = importlib.util.find_spec("pettingzoo") is not None


def blocks(language: str, page: str = "README.md") -> list[tuple[int, str]]:
    """``(line, text)`` of every fenced block of *language* in *page* (a path from the repository's root)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```$", text, flags=re.M | re.S):
        found.append((text.count("\n", 0, match.start()) + 2, match.group(1)))
    return found


def test_the_pages_have_examples_to_check() -> None:
    assert blocks("pycon") and len(blocks("pycon", "docs/python.md")) >= 2 and blocks("python", "docs/cli.md")
    assert len(blocks("console")) >= 8


@pytest.mark.parametrize("page", EXAMPLE_PAGES)
def test_the_pycon_examples_give_the_outputs_shown(page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)                       # the examples read examples/game.iss
    parser, globs = doctest.DocTestParser(), {"__name__": "readme"}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for line, text in blocks("pycon", page):
        if not RL_EXTRA and "skatdd.rl" in text:
            continue
        test = parser.get_doctest(text, globs, f"{page}:{line}", page, line - 1)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.failures == 0 and runner.tries >= 2, f"{page} examples failed (see the output above)"


#: Pages whose ```python blocks run but which have no ```pycon examples.
PYTHON_PAGES = ["docs/inference.md"]
PYTHON_BLOCKS = [(page, line, code) for page in EXAMPLE_PAGES + PYTHON_PAGES for line, code in blocks("python", page)]


@pytest.mark.parametrize(("page", "line", "code"), PYTHON_BLOCKS, ids=lambda value: str(value)[:20])
def test_the_python_examples_run(page: str, line: int, code: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)                       # docs/inference.md's example reads tests/data/iss-games.txt
    exec(compile(code, f"{page}:{line}", "exec"), {"__name__": "readme"})


# --------------------------------------------------------------------------- the README's command lines


def console_examples() -> list[tuple[int, str, str]]:
    """``(line, command, output)`` of every ``$ skatdd ...`` line of the README's console blocks."""
    found = []
    for line, text in blocks("console"):
        for match in re.finditer(r"^\$ (skatdd .*)\n((?:(?!\$ ).*\n)*)", text, flags=re.M):
            found.append((line + text.count("\n", 0, match.start()), match.group(1), match.group(2)))
    return found


def masked(text: str) -> str:
    """*text* with wall-clock times, which differ from run to run, replaced by ``T``."""
    return re.sub(r"time: [\d.]+ s", "time: T s", text)


@pytest.mark.parametrize(("line", "command", "shown"), console_examples(), ids=lambda value: str(value)[:40])
def test_the_readme_commands_print_what_it_shows(line: int, command: str, shown: str, tmp_path: Path) -> None:
    args = shlex.split(command)[1:]
    for i, arg in enumerate(args[:-1]):           # an output file named in the example is written to a fresh folder
        if arg in ("-o", "--output"):
            args[i + 1] = str(tmp_path / args[i + 1])
    proc = subprocess.run([sys.executable, "-m", "skatdd", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 0, f"README.md:{line}: {command}: {proc.stderr}"
    checker = doctest.OutputChecker()
    assert checker.check_output(masked(shown), masked(proc.stdout), doctest.ELLIPSIS), (
        f"README.md:{line}: {command} printed:\n{proc.stdout}")


#: The docs pages whose ```console blocks are run (the README's are above).
DOC_CONSOLE_PAGES = ["docs/cli.md"]


def doc_console_examples() -> list[tuple[str, int, str, str]]:
    """``(page, line, command, output)`` of every ``$ skatdd ...`` line of the docs pages' console blocks."""
    found = []
    for page in DOC_CONSOLE_PAGES:
        for line, text in blocks("console", page):
            for match in re.finditer(r"^\$ (skatdd .*)\n((?:(?!\$ ).*\n)*)", text, flags=re.M):
                found.append((page, line + text.count("\n", 0, match.start()), match.group(1), match.group(2)))
    return found


def masked_figures(text: str) -> str:
    """*text* with the figures that vary from run to run or engine to engine (times, node counts) masked."""
    text = re.sub(r"\b(time:?) [\d.]+ s\b", r"\1 T s", text)
    return re.sub(r"\b([Nn]odes:?) \d+(?:,\d{3})*", r"\1 N", text)


def test_the_docs_pages_have_console_examples() -> None:
    assert len(doc_console_examples()) >= 5


@pytest.mark.parametrize(("page", "line", "command", "shown"), doc_console_examples(),
                         ids=lambda value: str(value)[:40])
def test_the_docs_commands_print_what_they_show(page: str, line: int, command: str, shown: str) -> None:
    # The shell runs the line as written (``"$(sed -n 1p FILE)"`` included), with ``skatdd`` this interpreter's.
    script = f'skatdd() {{ "{sys.executable}" -m skatdd "$@"; }}\n{command}'
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=600,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == 0, f"{page}:{line}: {command}: {proc.stderr}"
    checker = doctest.OutputChecker()
    assert checker.check_output(masked_figures(shown), masked_figures(proc.stdout), doctest.ELLIPSIS), (
        f"{page}:{line}: {command} printed:\n{proc.stdout}")


def test_the_figure_mask_masks_times_and_nodes_only() -> None:
    assert masked_figures("Nodes: 1,234   time: 0.5 s   single-dummy: nodes 30,870, time 5.33 s   9 s") == (
        "Nodes: N   time: T s   single-dummy: nodes N, time T s   9 s")


# --------------------------------------------------------------------------- names


def resolve(name: str) -> object:
    """What *name* (``skatdd.x.y``) stands for, as Python finds it: attributes first, submodules when there is none.

    ``skatdd.advise`` is the package's function.  Raises AttributeError or
    ModuleNotFoundError when there is nothing.
    """
    parts = name.split(".")
    found: object = importlib.import_module(parts[0])
    for part in parts[1:]:
        if not hasattr(found, part) and isinstance(found, types.ModuleType):
            importlib.import_module(f"{found.__name__}.{part}")
        found = getattr(found, part)
    return found


#: The pages and the names they mention.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NAMES = sorted({(p.name, name) for p in PAGES
                for name in re.findall(r"\bskatdd(?:\.[A-Za-z_]\w*)+", p.read_text(encoding="utf-8"))
                if RL_EXTRA or not name.startswith("skatdd.rl")})


@pytest.mark.parametrize(("page", "name"), NAMES)
def test_every_name_the_pages_mention_exists_at_its_path(page: str, name: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        resolve(name)
    deprecated = [w for w in caught if issubclass(w.category, DeprecationWarning) and "skatdd" in str(w.message)]
    assert not deprecated, f"{page} names {name}, which warns: {deprecated[0].message}"


# --------------------------------------------------------------------------- docs/cli.md against --help


def sections(doc: str) -> dict[str, str]:
    """Each ``## `` / ``### `` heading of *doc* with its text up to the next heading of either level."""
    parts = re.split(r"^(#{2,3} .*)$", doc, flags=re.M)
    return {heading: body for heading, body in zip(parts[1::2], parts[2::2], strict=True)}


def mentions(text: str, option: str) -> bool:
    """Whether *text* names *option* (``--seat``, ``-j``) as a whole token."""
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def options_of(command: click.Command, ctx: click.Context) -> list[str]:
    """Every option name ``--help`` shows for *command*: long and short, secondary (``--no-x``) ones too."""
    return [name for param in command.get_params(ctx) if isinstance(param, click.Option) and not param.hidden
            for name in (*param.opts, *param.secondary_opts)]


#: As the CLI makes it (its context settings: ``-h``): Click caches each command's help option from the first
#: context that asks, so a bare Context here would leave ``-h`` out of the help printed later in this process.
GROUP_CTX = click.Context(cli, info_name="skatdd", **cli.context_settings)
COMMANDS = cli.list_commands(GROUP_CTX)
SECTIONS = sections(CLI_DOC)
COMMON = "".join(body for heading, body in SECTIONS.items() if heading in ("## Names", "## Common to every command"))


def command_section(name: str) -> str:
    """The heading and text of ``skatdd NAME``'s section of docs/cli.md, examples included ("" when there is none)."""
    found = [heading + body for heading, body in SECTIONS.items() if heading.startswith(f"### `skatdd {name} ")
             or heading == f"### `skatdd {name}`"]
    return "".join(found)


def test_the_group_has_commands_and_its_own_options_are_documented() -> None:
    assert {"solve", "analyse", "advise", "odds", "bid", "match", "serve"} <= set(COMMANDS)
    for option in options_of(cli, GROUP_CTX):
        assert mentions(COMMON, option), f"docs/cli.md does not document skatdd {option}"


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_and_option_of_help_is_in_docs_cli(name: str) -> None:
    command = cli.get_command(GROUP_CTX, name)
    assert command is not None
    section = command_section(name)
    assert section, f"docs/cli.md has no section '### `skatdd {name} ...`'"
    ctx = click.Context(command, info_name=name, parent=GROUP_CTX)
    missing = [option for option in options_of(command, ctx) if not mentions(section + COMMON, option)]
    assert not missing, f"docs/cli.md's skatdd {name} section (or 'Common to every command') lacks {missing}"


def test_the_readme_stays_short() -> None:
    """The README is for users (issue #31): at most 300 lines; the reference lives in docs/."""
    assert README.count("\n") <= 300, f"README.md has {README.count(chr(10))} lines: move detail to docs/"
