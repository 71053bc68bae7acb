"""L5, the ``pokertable`` command: ``dispatch.py`` picks the subcommand, each of which is an
argparse front over the layers below. Nothing imports this package but its console script.

``python -m pokertable.controller.cli`` runs it too (``__main__.py``).
"""

from pokertable.controller.cli.dispatch import main

__all__ = ["main"]
