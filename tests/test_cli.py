"""The command group as a whole: every command is registered and documented."""
from cli_runner import invoke
from skatdd.cli import cli

COMMANDS = {"solve", "batch", "bench", "best", "analyse", "null-ouvert", "score"}


def test_every_command_of_docs_cli_is_registered():
    assert COMMANDS <= set(cli.commands)


def test_every_command_has_help_text():
    for name, command in cli.commands.items():
        assert command.help and command.help.strip(), f"{name} has no help text"
        result = invoke(name, "--help")
        assert result.exit_code == 0, name
        assert f"Usage: cli {name}" in result.output or f"Usage: skatdd {name}" in result.output


def test_unknown_command_is_a_usage_error():
    result = invoke("solvee")
    assert result.exit_code == 2
    assert "solvee" in result.output
