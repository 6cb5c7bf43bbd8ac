"""Every command line the documentation shows is one the programs accept.

The ``bash`` blocks of README.md, docs/*.md and benchmarks/RESULTS.md are run by ``bash`` with
an empty ``PATH``: no program starts, and every command they would run (after the shell has
expanded its loops, variables and quotes) is recorded instead by ``command_not_found_handle``.
Each recorded ``skat ...`` line is then parsed by the real ``skat`` parser and checked by its
command's ``check`` (player specs built, ranges tested), and each ``python benchmarks/X.py
...`` or ``python -m skat.openspiel ...`` line by that program's own parser; nothing is run.
A ``skat ...`` code span in the prose is often a name only (``skat train selfplay``), so it
must only name a real command and options that command has.

Invariant: a documented command fails here only for a reason a reader would hit too (an
option that does not exist, a value out of range, a player option misspelt). Paths are the one
thing left out: the pages name files an earlier command makes (records, models), so the
parser's file checks accept any path and a player option naming a missing file is not an error.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from skat import SkatError
from skat.cli import build_parser, checks

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    ROOT / "README.md",
    ROOT / "benchmarks" / "RESULTS.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
BLOCK = re.compile(r"```(?:bash|sh|shell)\n(.*?)```", re.S)
FIELD, RECORD = "\x1f", "\x1e"
# Records each command the block would run (its words after expansion) and succeeds. One
# write per command, so that the two sides of a pipe cannot interleave their words.
RECORDER = (
    "command_not_found_handle() { local IFS=$'\\x1f';"
    ' printf \'%s\\x1f\\x1e\' "$*" >> "$SKAT_DOC_LOG"; return 0; }\n'
)
# The argparse types that look at the file system.
FILE_TYPES = {checks.in_file, checks.in_path, checks.in_dir, checks.out_dir, checks.out_file}
# Words of a player-spec error that mean a named file is missing (see the module docstring).
MISSING_FILE = re.compile(r"no such file|no file|cannot read|not found|does not exist", re.I)


def blocks() -> Iterator[tuple[str, str]]:
    """(page and block number, block text) of every shell block."""
    for page in PAGES:
        for i, m in enumerate(BLOCK.finditer(page.read_text()), 1):
            yield f"{page.relative_to(ROOT).as_posix()}#{i}", m.group(1)


def recorded(block: str, tmp: Path) -> list[list[str]]:
    """The commands ``block`` would run, as argument lists, without running any of them."""
    log = tmp / "commands.log"
    log.write_bytes(b"")
    env = {"PATH": "/nonexistent", "SKAT_DOC_LOG": str(log), "HOME": str(tmp)}
    done = subprocess.run(
        ["/bin/bash", "-c", RECORDER + block],
        cwd=tmp,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    return [r.split(FIELD)[:-1] for r in text.split(RECORD) if r]


def lenient(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """``parser`` with every file-system check replaced by plain text, subcommands included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                lenient(sub)
        elif action.type in FILE_TYPES:
            action.type = None
    return parser


class Parsed(Exception):
    """Raised instead of running a script once its parser has accepted the command line."""


def load_script(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"doc_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def parse_script(main: Any, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs ``main`` only as far as its ``parse_args``; fails if that rejects ``argv``."""
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self: argparse.ArgumentParser, *a: Any, **k: Any) -> Any:
        original(self, *a, **k)
        raise Parsed

    with monkeypatch.context() as m:
        m.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
        m.setattr(sys, "argv", argv)
        with pytest.raises(Parsed):
            main(argv[1:]) if _takes_argv(main) else main()


def _takes_argv(main: Any) -> bool:
    return bool(main.__code__.co_argcount)


def check_skat(argv: list[str]) -> None:
    parser = lenient(build_parser())
    try:
        args = parser.parse_args(argv)
    except checks.UsageError as e:
        pytest.fail(f"skat {' '.join(argv)}: {e}")
    check = getattr(args, "check", None)
    if check is None:
        return
    try:
        check(args)
    except SkatError as e:  # OptionError, or a check's own (a tables directory, ...)
        if not MISSING_FILE.search(str(e)):
            pytest.fail(f"skat {' '.join(argv)}: {e}")


CASES = list(blocks())


def test_the_pages_show_commands() -> None:
    assert len(CASES) > 50
    assert sum(b.count("skat ") for _, b in CASES) > 100


@pytest.mark.parametrize(("where", "block"), CASES, ids=[w for w, _ in CASES])
def test_documented_commands_parse(
    where: str, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    for argv in recorded(block, tmp_path):
        program, rest = argv[0], argv[1:]
        if program == "skat":
            check_skat(rest)
        elif program == "python" and rest[:2] == ["-m", "skat.openspiel"]:
            if importlib.util.find_spec("pyspiel") is None:
                continue  # the optional extra is not installed
            from skat import openspiel

            parse_script(openspiel.main, ["skat.openspiel", *rest[2:]], monkeypatch)
        elif program == "python" and rest and rest[0].startswith("benchmarks/"):
            script = ROOT / rest[0]
            assert script.is_file(), f"{where}: no script {rest[0]}"
            parse_script(load_script(script).main, rest, monkeypatch)


def test_the_recorder_sees_through_loops_and_quotes(tmp_path: Path) -> None:
    block = 'P="a=1,b=2"\nfor S in 1 2; do skat x --seed $S "$P"; done\npip install -e ".[test]"\n'
    assert recorded(block, tmp_path) == [
        ["skat", "x", "--seed", "1", "a=1,b=2"],
        ["skat", "x", "--seed", "2", "a=1,b=2"],
        ["pip", "install", "-e", ".[test]"],
    ]
    piped = recorded("skat bench solver --positions 5 | tail -1  # a comment\n" * 20, tmp_path)
    assert sorted(map(tuple, piped)) == [
        *[("skat", "bench", "solver", "--positions", "5")] * 20,
        *[("tail", "-1")] * 20,
    ]


def test_a_misspelt_option_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(pytest.fail.Exception, match="--dealz"):
        check_skat(["tournament", "rules", "random", "--dealz", "3"])
    with pytest.raises(pytest.fail.Exception, match="wrlds"):
        check_skat(["tournament", "kermit:wrlds=3", "random", "--deals", "3"])
    check_skat(["tournament", "kermit:model=no-such-model.npz", "rules", "--deals", "3"])
    path, options = command_and_options(["train", "bidding\\|inference", "--dealz"])
    assert path == ["skat", "train", "bidding"] and "--out" in options
    assert "--dealz" not in options
    script = ROOT / "benchmarks" / "opening_leads.py"
    main = load_script(script).main
    parse_script(main, [str(script), "ku.iss", "--specs", "kermit"], monkeypatch)
    with pytest.raises(SystemExit):
        parse_script(main, [str(script), "ku.iss", "--spex", "kermit"], monkeypatch)


def inline_commands() -> Iterator[tuple[str, str]]:
    """(page, text) of every ``skat ...`` code span outside the blocks (often a name only)."""
    for page in PAGES:
        prose = BLOCK.sub("", page.read_text()).replace("\n", " ")
        for m in re.finditer(r"`(skat [^`]+)`", prose):
            yield page.relative_to(ROOT).as_posix(), m.group(1)


def command_and_options(words: list[str]) -> tuple[list[str], set[str]]:
    """The (sub)command ``words`` name and the option strings it accepts."""
    parser: argparse.ArgumentParser = build_parser()
    path = ["skat"]
    for alternatives in words:
        word = alternatives.replace("\\|", "|").split("|")[0]  # `train bidding\|inference`
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            break
        parser = subs[0].choices[word]
        path.append(word)
    return path, {s for a in parser._actions for s in a.option_strings}


def test_commands_named_in_prose_exist_with_their_options() -> None:
    spans = list(inline_commands())
    assert len(spans) > 100
    wrong = []
    for page, span in spans:
        words = span.split()[1:]
        path, options = command_and_options(words)
        if len(path) == 1 and words and not words[0].startswith("-"):
            wrong.append(f"{page}: `{span}`: no command {words[0]!r}")
        for word in words:
            option = word.split("=")[0]
            if re.fullmatch(r"--[a-z][a-z0-9-]*", option) and option not in options:
                wrong.append(f"{page}: `{span}`: {' '.join(path)} has no {option}")
    assert not wrong, "\n".join(wrong)
