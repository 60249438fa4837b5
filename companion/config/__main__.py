"""``python -m companion.config check [PATH]`` or ``... defaults``."""

import sys

from .command import main

sys.exit(main())
