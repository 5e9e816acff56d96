"""The command group as a whole: every command is registered and documented."""
from cli_runner import invoke, run_python
from skatdd.cli import all_commands

COMMANDS = {"solve", "batch", "bench", "best", "analyse", "null-ouvert", "score"}


def test_every_command_of_docs_cli_is_registered():
    assert COMMANDS <= set(all_commands())


def test_every_command_has_help_text():
    for name, command in all_commands().items():
        assert command.help and command.help.strip(), f"{name} has no help text"
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert f"Usage: cli {name}" in result.output or f"Usage: skatdd {name}" in result.output


def test_unknown_command_is_a_usage_error():
    result = invoke("solvee")
    assert result.exit_code == 2
    assert "solvee" in result.output


def test_a_command_imports_no_other_command() -> None:
    # The group imports a command's module when the command is asked for: `skatdd null-ouvert` starts
    # without the imports of match, bid or serve (about a third of a second in all).
    code = ("import sys\nfrom skatdd.cli import main\ntry:\n    main(['null-ouvert', '--help'])\nexcept SystemExit:\n"
            "    pass\nprint(sorted(m for m in sys.modules if m.startswith('skatdd.cli.')))")
    run = run_python(code)
    assert run.returncode == 0, run.stderr
    loaded = run.stdout.splitlines()[-1]
    assert "skatdd.cli.null_ouvert" in loaded
    for other in ("match", "bid", "serve", "analyse", "advise", "batch"):
        assert f"skatdd.cli.{other}'" not in loaded, loaded
