"""``python -m skat``: the ``skat`` command."""

import sys

from skat.cli import main

sys.exit(main())
