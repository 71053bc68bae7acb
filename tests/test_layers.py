"""What may import what: the layers of controller/ and the folders around it, checked on the
source (every import statement, those inside functions included).

The layers, inside out (docs/architecture.md): ``rules`` and ``evaluation`` (L0), ``engine``
(L1), ``history``, ``interpretation`` and ``irregularities`` (L2, siblings), ``table`` (L3,
the live table, pure), ``app`` (L4, all I/O), ``cli`` and ``demo`` (L5, composition roots).
A layer imports only layers below it; ``errors.py`` is below them all. Around them:
``hardware`` imports only the wire codec of ``firmware``, ``mqtt`` nothing of ours, ``room``
only ``mqtt`` and the pure record (rules, evaluation, engine, history), ``bench`` never
``tests``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FOLDERS = ("controller", "hardware", "mqtt", "room", "bench", "firmware")

# Below every layer: the error root, ``extras.py`` (the one-line message for a missing
# optional dependency, which evaluation/ and the room raise) and ``sealing.py`` (hole cards
# sealed at rest: the table's journal and outbox and the room's archive share one format).
BOTTOM = {"errors", "extras", "sealing"}
L0 = BOTTOM | {"rules", "evaluation"}
L1 = L0 | {"engine"}
L3 = L1 | {"history", "interpretation", "irregularities", "table"}

# unit -> the units it may import (itself always)
MAY_IMPORT: dict[str, set[str]] = {
    **{f"controller.{name}": {"controller.errors"} - {f"controller.{name}"} for name in BOTTOM},
    "controller": set(),  # the package's own __init__: a docstring
    **{f"controller.{name}": {f"controller.{n}" for n in allowed} for name, allowed in {
        "rules": BOTTOM,
        "evaluation": BOTTOM,
        "engine": L0,
        "history": L1,
        "interpretation": L1,
        "irregularities": L1,
        "table": L3 - {"table"},
        "app": L3 | {"app"},
    }.items()},
    "controller.cli": set(),  # composition roots: see COMPOSITION_ROOTS
    "controller.demo": set(),
    "hardware": {"firmware.wire"},
    "mqtt": set(),
    "room": {"mqtt", *(f"controller.{n}" for n in L1 | {"history"})},
    "bench": set(),
    "firmware": set(),
}
MAY_IMPORT["controller.app"] |= {"hardware", "mqtt", "firmware.wire"}
# These import anything but tests/; nothing imports them, except that the CLI starts the demo.
COMPOSITION_ROOTS = {"controller.cli", "controller.demo", "bench"}

# Today's exceptions: (importer file, imported unit, why). It may only shrink.
ALLOWED: set[tuple[str, str]] = set()


def _unit_of_module(module: str) -> str | None:
    """The layer unit of a dotted name under pokertable (or tests), or None if not ours."""
    parts = module.split(".")
    if parts[0] == "tests":
        return "tests"
    if parts[0] != "pokertable" or len(parts) < 2:
        return None
    if parts[1] == "controller":
        return "controller" if len(parts) == 2 else f"controller.{parts[2]}"
    if parts[1] == "firmware" and len(parts) > 2 and parts[2] == "wire":
        return "firmware.wire"
    return parts[1]


def _unit_of_file(path: Path) -> str:
    rel = path.relative_to(REPO)
    top = rel.parts[0]
    if top == "controller" and len(rel.parts) > 1:
        inner = rel.parts[1]
        if inner == "__init__.py":
            return "controller"
        return f"controller.{inner.removesuffix('.py')}"
    return top


def _imports(path: Path) -> list[str]:
    """Every module a file imports, as ``module.name`` for ``from module import name`` (so
    ``from pokertable.controller import table`` counts as the table), and the literal name
    given to ``importlib.import_module``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found += [f"{node.module}.{alias.name}" for alias in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append(node.args[0].value)
    return found


def _sources() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (REPO / folder).rglob("*.py")
                  if "__pycache__" not in p.parts)


def _allowed(unit: str, target: str) -> bool:
    if target == "tests":
        return False
    if target == "controller.cli" or (target == "controller.demo" and unit != "controller.cli"):
        return False
    if unit in COMPOSITION_ROOTS:
        return True
    allowed = MAY_IMPORT.get(unit, set())
    return target in allowed or target.split(".")[0] in allowed


def _violations() -> set[tuple[str, str]]:
    out = set()
    for path in _sources():
        unit = _unit_of_file(path)
        for module in _imports(path):
            target = _unit_of_module(module)
            if target is None or target == unit or target.startswith(unit + "."):
                continue
            if not _allowed(unit, target):
                out.add((str(path.relative_to(REPO)), target))
    return out


def test_every_controller_module_is_in_a_layer() -> None:
    known = set(MAY_IMPORT)
    strays = sorted(str(p.relative_to(REPO)) for p in (REPO / "controller").rglob("*.py")
                    if _unit_of_file(p) not in known)
    assert not strays, f"modules in no layer (give each a package): {strays}"


def test_every_import_follows_the_layers() -> None:
    new = sorted(_violations() - ALLOWED)
    assert not new, "imports against the layers:\n" + "\n".join(f"{f} -> {t}" for f, t in new)


def test_the_allow_list_only_shrinks() -> None:
    """An exception that is gone must leave the list, so it cannot come back unseen."""
    assert sorted(ALLOWED - _violations()) == []


def test_the_rule_catches_an_import_against_the_layers(tmp_path: Path) -> None:
    """The walk sees imports inside functions, and ``from pokertable.controller import x``."""
    source = tmp_path / "probe.py"
    source.write_text("def late():\n    from pokertable.controller import table\n"
                      "    import pokertable.controller.app.journal\n")
    assert [_unit_of_module(m) for m in _imports(source)] == ["controller.table",
                                                              "controller.app"]


def test_the_table_says_no_where_the_layers_do() -> None:
    """A check on the rule itself, so an empty violation list means something."""
    assert not _allowed("controller.engine", "controller.table")
    assert not _allowed("controller.interpretation", "controller.irregularities")
    assert not _allowed("room", "controller.table")
    assert not _allowed("room", "controller.demo")
    assert not _allowed("hardware", "mqtt")
    assert not _allowed("bench", "tests")
    assert not _allowed("controller.demo", "controller.cli")
    assert _allowed("controller.cli", "controller.demo")
    assert _allowed("controller.app", "hardware")
    assert _allowed("room", "controller.history")


def test_the_room_archive_loads_no_live_table() -> None:
    """The room's hand archive needs the pure record only, not the live table or the demo."""
    probe = ("import sys, pokertable.room.hand_archive\n"
             "print('\\n'.join(m for m in sys.modules if m.startswith('pokertable.controller')))")
    loaded = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True,
                            text=True).stdout.split()
    heavy = ("table", "app", "cli", "demo")
    assert "pokertable.room.hand_archive" not in loaded  # printed names are the controller's
    assert any(m.startswith("pokertable.controller.history") for m in loaded)
    assert [m for m in loaded if m.split(".")[2:3] and m.split(".")[2] in heavy] == []


# --- no import cycle among the modules of controller/ -----------------------------------

# Cycles of modules that import each other today (each a sorted tuple of module names). It
# may only shrink; it is empty.
ALLOWED_CYCLES: set[tuple[str, ...]] = set()


def _module_name(path: Path, root: Path) -> str:
    parts = ("pokertable", *path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(path: Path) -> list[str]:
    """The imports under ``if TYPE_CHECKING:``: they name types for the checker and run
    nothing (the engine's action record names the event type, which names the engine's
    streets)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                if isinstance(inner, ast.Import):
                    found += [alias.name for alias in inner.names]
                elif isinstance(inner, ast.ImportFrom) and inner.module and not inner.level:
                    found += [f"{inner.module}.{alias.name}" for alias in inner.names]
    return found


def _runtime_imports(path: Path) -> list[str]:
    """``_imports`` less those under ``TYPE_CHECKING``."""
    found = _imports(path)
    for name in _type_only(path):
        found.remove(name)
    return found


def _module_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of ``root`` it imports when it runs, wherever the import stands:
    at the top or inside a function (not under ``TYPE_CHECKING``, which runs nothing).
    ``from package import name`` is the submodule when there is one, else the package (whose
    ``__init__`` runs)."""
    files = {_module_name(p, root): p for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        targets = set()
        for module in _runtime_imports(path):
            while module and module not in files:
                module = module.rpartition(".")[0]
            if module and module != name:
                targets.add(module)
        graph[name] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[tuple[str, ...]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.add(tuple(sorted(group)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_of_the_controller_imports_itself_back() -> None:
    """A module that needs one importing it has a dependency the layers do not show; an
    import moved inside a function hides the cycle from Python, not from this test."""
    new = sorted(_cycles(_module_graph(REPO / "controller")) - ALLOWED_CYCLES)
    assert not new, "import cycles in controller/:\n" + "\n".join(" -> ".join(c) for c in new)


def test_the_allowed_cycles_only_shrink() -> None:
    assert sorted(ALLOWED_CYCLES - _cycles(_module_graph(REPO / "controller"))) == []


def test_the_cycle_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    """Two modules that import each other, one of them only inside a function, are a cycle;
    a ``from package import module`` counts as the module; a type-only import does not."""
    package = tmp_path / "controller" / "table"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "hands.py").write_text("def finish():\n"
                                      "    from pokertable.controller.table import floor\n")
    (package / "floor.py").write_text("from pokertable.controller.table.hands import finish\n")
    (package / "state.py").write_text(
        "from typing import TYPE_CHECKING\nimport pokertable.controller.table.hands\n"
        "if TYPE_CHECKING:\n    from pokertable.controller.table.floor import Floor\n"
    )
    graph = _module_graph(tmp_path / "controller")
    assert graph["pokertable.controller.table.state"] == {"pokertable.controller.table.hands"}
    assert _cycles(graph) == {("pokertable.controller.table.floor",
                               "pokertable.controller.table.hands")}
