"""Random complete games per second: inside Rust, through the Python API, and over OpenSpiel's
``skat`` game where ``open_spiel`` is installed (``pip install open_spiel``).

Usage: ``python benchmarks/bench_rules.py [--games N] [--repeat R] [--json FILE]``
(the same as ``skat bench rules``).
"""

from __future__ import annotations

import sys

from skat.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "rules", *sys.argv[1:]]))
