"""``python -m skat.cli``: the ``skat`` command."""

import sys

from skat.cli import main

sys.exit(main())
