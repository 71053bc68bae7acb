"""The top-level folders install under one namespace, ``pokertable.*``: a folder with an
``__init__.py`` that pyproject.toml forgets would be missing from the wheel, and a
generic top-level name (``controller``, ``mqtt``) would clash with other PyPI projects."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _folder_of(package: str) -> Path:
    """The repository folder a ``pokertable.*`` package is installed from."""
    parts = package.split(".")
    for cut in range(len(parts), 1, -1):
        parent = ".".join(parts[:cut])
        if parent in SETUPTOOLS["package-dir"]:
            return REPO / SETUPTOOLS["package-dir"][parent] / Path(*parts[cut:])
    raise AssertionError(f"{package} has no package-dir mapping")


def test_every_python_package_folder_is_installed() -> None:
    listed = {_folder_of(name).resolve() for name in SETUPTOOLS["packages"]}
    on_disk = {
        init.parent.resolve()
        for top in SETUPTOOLS["package-dir"].values()
        for init in (REPO / top).rglob("__init__.py")
    }
    assert on_disk == listed, f"missing from pyproject packages: {sorted(on_disk - listed)}"


def test_every_package_imports_under_the_namespace() -> None:
    for name in SETUPTOOLS["packages"]:
        assert name.startswith("pokertable."), name
        module = importlib.import_module(name)
        assert Path(module.__file__ or "").resolve().parent == _folder_of(name).resolve()


def test_no_generic_top_level_import_names_remain() -> None:
    generic = ("controller", "hardware", "mqtt", "firmware", "bench")
    offenders = []
    for path in [*REPO.glob("*/**/*.py")]:
        if path.parts[len(REPO.parts)] in {".venv", "typings", ".namespace", "firmware"}:
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            words = line.split()
            if len(words) >= 2 and words[0] in {"from", "import"} and (
                words[1].split(".")[0] in generic
            ):
                offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_mypy_namespace_links_point_at_the_top_level_folders() -> None:
    links = REPO / ".namespace" / "pokertable"
    for package, folder in SETUPTOOLS["package-dir"].items():
        link = links / package.split(".", 1)[1]
        assert link.is_symlink() and link.resolve() == (REPO / folder).resolve(), link
