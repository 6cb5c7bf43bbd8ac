"""``skat research kuhn``: Table 5.1 of the thesis, PIMC and random play in Kuhn poker.

Everything is computed exactly (no sampling, no seed): the equilibrium by CFR+ (or a member of
the known family), the challengers' strategies, their expected payoffs and best responses.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from skat import defaults
from skat.cli import checks
from skat.cli.checks import OptionError
from skat.display import save_json

HELP = """\
Kuhn poker's Table 5.1: the average payoff (bets per game) of a uniformly random player and of
PIMC search (every consistent world, no inference) as player 1 and as player 2, against a Nash
equilibrium and against a best response to the challenger, all computed exactly, next to the
thesis's values. The equilibrium is CFR+'s average strategy (--equilibrium cfr, to
--tolerance), the sequence-form linear program's (--equilibrium lp, needs scipy) or player
1's equilibrium with parameter A in 0..1/3 (--equilibrium alpha=A:
bet J with A, K with 3A, call with Q after checking with A + 1/3); player 2's equilibrium is
unique. --ties and --rule choose PIMC's tie-breaking and scoring (see docs/pimc-theory.md).
"""


def check(args: argparse.Namespace) -> None:
    from skat.research.games import GameError
    from skat.research.kuhn import equilibrium, kuhn_poker

    if args.equilibrium != "cfr":
        try:
            equilibrium(kuhn_poker(), args.equilibrium)
        except GameError as e:
            raise OptionError("--equilibrium", str(e)) from e
        except ImportError as e:
            raise OptionError("--equilibrium", f"'lp' needs scipy ({e})") from e


def run(args: argparse.Namespace, console: Console) -> int:
    from skat.research.kuhn import THESIS_TABLE, equilibrium, kuhn_poker, table
    from skat.research.solvers import cfr_plus

    game = kuhn_poker()
    if args.equilibrium == "cfr":
        sol = cfr_plus(game, tolerance=args.tolerance, max_iterations=defaults.CFR_MAX_ITERATIONS)
        eq, note = (
            sol.beh,
            f"CFR+ ({sol.iterations} iterations, exploitability {sol.exploitability:.1e})",
        )
    else:
        eq, note = equilibrium(game, args.equilibrium), args.equilibrium
    alpha = float(eq[0][game.seqs[0].start[game.set_keys[0].index((0, ""))] + 1])
    result = table(game, eq, ties=args.ties, rule=args.rule)
    t = Table(
        title=f"Kuhn poker, payoff to the challenger (equilibrium: {note}, alpha {alpha:.4f})"
    )
    for col in ("player", "vs Nash", "thesis", "vs best response", "thesis"):
        t.add_column(col, justify="right")
    for key, cells in result.items():
        thesis = THESIS_TABLE[key]
        t.add_row(
            key.replace("_", " "),
            f"{cells['nash']:+.3f}",
            f"{thesis['nash']:+.3f}",
            f"{cells['best_response']:+.3f}",
            f"{thesis['best_response']:+.3f}",
        )
    console.print(t)
    out: dict[str, object] = dict(result)
    out["meta"] = {
        "equilibrium": args.equilibrium,
        "alpha": alpha,
        "ties": args.ties,
        "rule": args.rule,
        "game_value_p1": -1 / 18,
        "thesis": THESIS_TABLE,
    }
    save_json(args.json, out)
    return 0


def add_command(kinds: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Adds ``research kuhn``."""
    from skat.research.solvers import PIMC_RULES, TIE_RULES

    k = kinds.add_parser(
        "kuhn",
        help="Kuhn poker: PIMC and random against Nash and best response (Table 5.1)",
        description=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    k.add_argument("--json", metavar="FILE", type=checks.out_file, help="write the table here")
    k.add_argument(
        "--equilibrium",
        default="cfr",
        metavar="cfr|lp|alpha=A",
        help="the equilibrium played against (default: cfr)",
    )
    k.add_argument(
        "--tolerance",
        type=checks.real(0.0, 1.0, below_hi=True),
        default=defaults.CFR_TOLERANCE,
        help=f"CFR+'s target exploitability (default: {defaults.CFR_TOLERANCE:g})",
    )
    k.add_argument(
        "--ties",
        choices=TIE_RULES,
        default=defaults.PIMC_TIES,
        help=f"PIMC's tie-breaking (default: {defaults.PIMC_TIES})",
    )
    k.add_argument(
        "--rule",
        choices=PIMC_RULES,
        default=defaults.PIMC_RULE,
        help=f"PIMC's action score over worlds (default: {defaults.PIMC_RULE})",
    )
    k.set_defaults(func=run, check=check)
