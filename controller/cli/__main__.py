"""``python -m pokertable.controller.cli``: the same as the ``pokertable`` console script."""

import sys

from pokertable.controller.cli.dispatch import main

if __name__ == "__main__":
    sys.exit(main())
