"""The command line: ``huarong`` and ``python -m huarong``; the only place that prints.

Subcommands live in the modules of this package and are imported only when used, so
``huarong --help`` and ``huarong show`` start without loading numba.  The original engine's
spellings (``--cal CODE [FILE]`` ...) are accepted too and rewritten to the subcommands.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from typing import Any

import click

# name -> (module, attribute, one-line help shown by `huarong --help`)
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "show": ("huarong.cli.core", "show", "Draw a layout."),
    "solve": ("huarong.cli.core", "solve", "Minimum-step solution of a layout."),
    "hint": ("huarong.cli.core", "hint", "The best next steps from a layout, in words."),
    "path": ("huarong.cli.core", "path", "Shortest path between two layouts."),
    "group": ("huarong.cli.core", "group", "Every layout of a layout's group."),
    "paths": ("huarong.cli.paths", "paths",
              "A shortest path to every solution or every farthest layout."),
    "shortest-paths": ("huarong.cli.paths", "shortest_paths",
                       "Every shortest path, layer by layer, and how many."),
    "analyze": ("huarong.cli.core", "analyze", "The layer model of a layout."),
    "analyze-group": ("huarong.cli.batch", "analyze_group",
                      "Farthest and solution figures of every layout of a group."),
    "analyze-multi-group": ("huarong.cli.batch", "analyze_multi_group",
                            "analyze-group for the group of every seed in a file."),
    "all": ("huarong.cli.database", "all_cases", "Enumerate and classify every layout."),
    "all-code": ("huarong.cli.database", "all_code", "Write the code of every layout."),
    "db": ("huarong.cli.database", "db", "The database of all 29,334,498 layouts."),
    "stats": ("huarong.cli.web", "stats", "Statistics of the standard layouts."),
    "serve": ("huarong.cli.web", "serve", "HTTP API and solution viewer."),
    "draw": ("huarong.cli.draw", "draw", "A layout's group drawn as a graph (PNG or SVG)."),
    "graph": ("huarong.cli.graph_tools", "graph",
              "A layout's group as a graph file (GraphML, GEXF, JSON, Parquet, CSV)."),
    "bottlenecks": ("huarong.cli.graph_tools", "bottlenecks",
                    "Cut vertices, bridges, dead ends and basins of a layout's group."),
    "difficulty": ("huarong.cli.difficulty", "difficulty",
                   "How hard a layout is for a person: predicted time, solve share, grade."),
    "npuzzle": ("huarong.cli.npuzzle", "npuzzle_group", "The 8-puzzle and N x M puzzles."),
    "puzzle": ("huarong.cli.puzzle", "puzzle",
               "Any sliding-block puzzle: solve, cluster, analyze, draw, graph, list, search, "
               "design, card, difficulty."),
}

# The original spellings write the original engine's files byte for byte.
_ORIGINAL = ("--format", "original")

# The original engine's options: spelling -> (subcommand, positional argument names that
# become options, in the seed's order; None keeps an argument positional; extra flags).
_LEGACY: dict[str, tuple[str, tuple[str | None, ...], tuple[str, ...]]] = {
    "--show": ("show", (None, "--width"), ()),
    "--cal": ("solve", (None, "--output"), ()),
    "--cal-target": ("path", (None, None, "--output"), ()),
    "--group": ("group", (None, "--output"), ()),
    "--analy": ("analyze", (None, "--output"), ()),
    "--analy-quiet": ("analyze", (None, "--output"), ("--quiet",)),
    "--analy-group": ("analyze-group", (None, None, None), _ORIGINAL),
    "--analy-group-integral": ("analyze-group", (None, None, None),
                               (*_ORIGINAL, "--integral")),
    "--analy-multi-group": ("analyze-multi-group", (None, None, None), _ORIGINAL),
    "--analy-multi-group-integral": ("analyze-multi-group", (None, None, None),
                                     (*_ORIGINAL, "--integral")),
    "--cal-path": ("solve", (None, "--output"), ("--compact",)),
    "--cal-target-path": ("path", (None, None, "--output"), ("--compact",)),
    "--cal-solution-path": ("paths", (None, "--output"), ("--to", "solutions")),
    "--cal-farthest-path": ("paths", (None, "--output"), ("--to", "farthest")),
    "--group-path": ("shortest-paths", (None, "--output"), ()),
    "--all": ("all", (), _ORIGINAL),
    "--all-code": ("all-code", (None,), _ORIGINAL),
}


def translate_legacy(args: Sequence[str]) -> list[str]:
    """Rewrite the original engine's ``--cal CODE [FILE]`` style into subcommand form."""
    if not args or args[0] not in _LEGACY:
        return list(args)
    command, slots, flags = _LEGACY[args[0]]
    # The seed's arguments come first; from the first option on (`--cal CODE -c`,
    # `--all --output-dir DIR`) everything passes through unchanged.
    rest = list(args[1:])
    first_option = next((i for i, arg in enumerate(rest) if arg.startswith("-")), len(rest))
    positional, options = rest[:first_option], rest[first_option:]
    if len(positional) > len(slots):
        raise click.UsageError(f"{args[0]} takes at most {len(slots)} arguments, "
                               f"got {len(positional)}: {' '.join(positional)}")
    translated = [command, *flags]
    for slot, value in zip(slots, positional, strict=False):
        translated += [value] if slot is None else [slot, value]
    translated += options
    return translated


# click >= 8.2 raises this for a group called without a subcommand; older click prints
# the help itself.
_NO_ARGS_IS_HELP: type[click.UsageError] = getattr(click.exceptions, "NoArgsIsHelpError",
                                                   type("_NeverRaised", (click.UsageError,), {}))


class _StdoutClosed(BaseException):
    """The reader of stdout went away (``huarong db query ... | head``)."""


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        module_name, attribute, _ = _COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Help text comes from the table, so `huarong --help` imports no subcommand module.
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_) for name, (_, _, help_) in _COMMANDS.items()])
        with formatter.section("The original engine's spellings"):
            formatter.write_dl([
                ("--show CODE [WIDTH]", "show"), ("--cal CODE [FILE]", "solve"),
                ("--cal-target CODE TARGET [FILE]", "path"), ("--group CODE [FILE]", "group"),
                ("--analy CODE [FILE]", "analyze"), ("--analy-quiet CODE FILE", "analyze -q"),
                ("--analy-group[-integral] CODE FARTHEST SOLUTION", "analyze-group"),
                ("--analy-multi-group[-integral] SEEDS FARTHEST SOLUTION",
                 "analyze-multi-group"),
                ("--cal-path CODE [FILE]", "solve -c"),
                ("--cal-target-path CODE TARGET [FILE]", "path -c"),
                ("--cal-solution-path CODE [FILE]", "paths --to solutions"),
                ("--cal-farthest-path CODE [FILE]", "paths --to farthest"),
                ("--group-path CODE [FILE]", "shortest-paths"),
                ("--all", "all"), ("--all-code FILE", "all-code"),
            ])

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # Past click's own handler of EPIPE, which would exit with status 1.
            raise _StdoutClosed from None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, translate_legacy(args))

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Run the command; any bad input ends with one line on stderr and exit status 2."""
        from huarong.cli._common import (
            BROKEN_PIPE_EXIT,
            INTERRUPTED_EXIT,
            MACHINE_FAULT_EXIT,
            TERMINATED_EXIT,
            MachineFault,
            Terminated,
            describe_fault,
            is_machine_fault,
            sigterm_unwinds,
        )

        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            with sigterm_unwinds():
                return super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except _NO_ARGS_IS_HELP as bare:
            # A bare `huarong`, `huarong db` or `huarong npuzzle`: their usage, as --help.
            bare.show()
            sys.exit(bare.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("huarong: interrupted", err=True)
            sys.exit(INTERRUPTED_EXIT)
        except Terminated:
            click.echo("huarong: terminated", err=True)
            sys.exit(TERMINATED_EXIT)
        except _StdoutClosed:
            # The reader stopped early (`| head`): not an error worth a word. Point stdout at
            # /dev/null so the interpreter's last flush does not complain either.
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(BROKEN_PIPE_EXIT)
        except MachineFault as fault:
            _say_error(fault.format_message())
            sys.exit(MACHINE_FAULT_EXIT)
        except click.ClickException as error:
            _say_error(error.format_message())
            sys.exit(2 if error.exit_code in (1, 2) else error.exit_code)
        except Exception as error:
            if _debugging():
                traceback.print_exc()
            if is_machine_fault(error):
                # A fault no command caught with its own place option.
                _say_error(describe_fault(error, getattr(error, "filename", None) or "a file",
                                          "the command's options"))
                sys.exit(MACHINE_FAULT_EXIT)
            if isinstance(error, (ValueError, OSError)):
                # Core modules raise ValueError subclasses that name the bad input.
                _say_error(str(error))
                sys.exit(2)
            _say_error(f"internal error: {type(error).__name__}: {error} (run again with "
                       "--debug or HUARONG_DEBUG=1 to see where)")
            sys.exit(MACHINE_FAULT_EXIT)


def _say_error(message: str) -> None:
    click.echo(f"huarong: error: {' '.join(message.split())}", err=True)


def _debugging() -> bool:
    """``--debug`` or ``HUARONG_DEBUG=1``: a fault shows its traceback before its line."""
    return bool(os.environ.get("HUARONG_DEBUG"))


def _debug_callback(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    if value:
        os.environ["HUARONG_DEBUG"] = "1"
    return value


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="huarong")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True,
              callback=_debug_callback,
              help="Show the traceback of a fault (as does HUARONG_DEBUG=1).")
def main() -> None:
    """huarong: Klotski (华容道) and sliding-tile puzzles, solved exactly.

    Layouts are given as a 9-hex-digit common code (1A9BF0C00), a klotski.online id
    (24422442233221121001) or grid text ("VCCV/VCCV/VHHV/VSSV/S..S")."""
    from huarong.cli._common import announce_file_notices, announce_first_compile

    announce_first_compile()
    announce_file_notices()


