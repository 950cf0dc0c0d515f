"""The house rules the code's shape must keep: no import circle between the modules of
``src/huarong`` and no Python or JavaScript file there over 500 lines.

Imports are read with :mod:`ast` from every statement, at module level, inside functions
(the kernels and heavy libraries are imported lazily) and under ``TYPE_CHECKING`` alike: a
circle only a lazy import keeps from failing is still two modules that need each other."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

import huarong

PACKAGE = Path(huarong.__file__).parent
MOST_LINES = 500


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _python_files() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def imported_modules(path: Path, modules: set[str], package_root: Path = PACKAGE) -> set[str]:
    """The modules of ``modules`` that the file at ``path`` (in the package at
    ``package_root``) imports: ``from package import name`` names the submodule when
    ``name`` is one, else the package."""
    name = module_name(path, package_root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
    return {module for module in found if module in modules and module != name}


def import_graph() -> nx.DiGraph:
    files = _python_files()
    modules = {module_name(path) for path in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for path in files:
        graph.add_edges_from((module_name(path), target)
                             for target in imported_modules(path, modules))
    return graph


def test_the_import_reader_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    """The reader against a hand-made package: a function-level import, a relative one, a
    ``from package import submodule`` and a name imported from a module."""
    source = tmp_path / "huarong" / "part" / "first.py"
    source.parent.mkdir(parents=True)
    source.write_text("from . import second\nfrom huarong.engine.layout import Layout\n"
                      "def later():\n    import huarong.graph\n    from .third import x\n")
    modules = {"huarong.part.second", "huarong.part.third", "huarong.engine.layout",
               "huarong.graph", "huarong.part.first"}
    assert imported_modules(source, modules, tmp_path / "huarong") == (
        modules - {"huarong.part.first"})


def test_no_import_circle() -> None:
    graph = import_graph()
    assert graph.number_of_edges() > graph.number_of_nodes()  # the reader found imports
    circles = sorted(" -> ".join([*cycle, cycle[0]])
                     for cycle in nx.simple_cycles(graph) if len(cycle) <= 6)
    # Each circle once, by the smallest set of modules that need each other.
    strongly = [sorted(part) for part in nx.strongly_connected_components(graph)
                if len(part) > 1]
    assert not strongly, "import circles:\n" + "\n".join(circles or map(str, strongly))


@pytest.mark.parametrize("suffix", [".py", ".js"])
def test_no_file_over_500_lines(suffix: str) -> None:
    long = {str(path.relative_to(PACKAGE)): lines
            for path in sorted(PACKAGE.rglob(f"*{suffix}"))
            if "__pycache__" not in path.parts and "vendor" not in path.parts
            and (lines := len(path.read_text("utf-8").splitlines())) > MOST_LINES}
    assert not long, f"files over {MOST_LINES} lines: {long}"
