"""Allow ``python -m cartoqa``."""

import sys

from cartoqa.cli import main

sys.exit(main())
