"""``python -m rwshim`` is the ``rwshim`` command."""

import sys

from rwshim.cli import main

sys.exit(main())
