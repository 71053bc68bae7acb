"""The controller's one exception root, below every layer.

Every error a controller package raises on purpose subclasses ``ControllerError``, so the
CLI and the room can catch the controller's own refusals in one clause and let anything
else (a bug) through with its traceback. Each keeps its older base too (``ValueError`` for
bad input), so existing ``except ValueError`` callers still work.

>>> from pokertable.controller.history.phh import PhhError
>>> issubclass(PhhError, ControllerError) and issubclass(PhhError, ValueError)
True
"""


class ControllerError(Exception):
    """Something the controller refuses or cannot do; the message names the rule or field."""
