"""The shape of the code (docs/architecture.md): which package may import which, and no cycles.

Imports are read from the source (module level and inside functions alike), so a lazy import
that closes a cycle counts too.
"""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("firmware_py", "hw", "sim")


INSTALLED_AS = {"hw": "dvonn_hw", "sim": "dvonn_sim"}  # folder -> package (pyproject.toml)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    parts[0] = INSTALLED_AS.get(parts[0], parts[0])
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
            if "node_modules" not in p.parts}


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules that `name` imports (resolving relative imports)."""
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".") if is_package else name.split(".")[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def test_the_runtime_never_imports_the_simulator(graph):
    """Only the commands (which compose the parts) and the developer tools may use `sim`."""
    allowed = ("firmware_py.commands", "firmware_py.tools")
    offenders = sorted(f"{m} imports {t}" for m, deps in graph.items()
                       if m.startswith("firmware_py") and not m.startswith(allowed)
                       for t in deps if t == "dvonn_sim" or t.startswith("dvonn_sim."))
    assert offenders == []


def test_nothing_below_imports_the_command_line_or_the_web(graph):
    """Data flows one way: the commands and the web view sit on top, nothing imports them (but
    the remote play, a front end beside the web view that shares its helpers)."""
    top = ("firmware_py.commands", "firmware_py.cli", "firmware_py.web")
    beside = ("firmware_py.tools", "firmware_py.__main__", "firmware_py.remote")
    offenders = sorted(f"{m} imports {t}" for m, deps in graph.items()
                       if not m.startswith(top + beside)
                       for t in deps if t.startswith(top))
    assert offenders == []


def test_no_import_cycles(graph):
    """Between modules (a package's __init__ re-exporting its own modules is not a cycle)."""
    def edges(m):
        return {t for t in graph[m] if not m.startswith(t + ".") and not t.startswith(m + ".")}

    cycles, state = [], {}

    def visit(m, path):
        state[m] = "open"
        for t in sorted(edges(m)):
            if state.get(t) == "open":
                cycles.append(" -> ".join(path[path.index(t):] + [t]))
            elif t not in state:
                visit(t, path + [t])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []


def test_the_composition_place_builds_what_the_commands_use():
    from dvonn_sim import compose

    assert doctest.testmod(compose).failed == 0


def test_the_installed_package_claims_no_generic_names_and_carries_its_pages(tmp_path):
    """What `pip install` puts in site-packages: firmware_py, dvonn_hw and dvonn_sim (the
    folders hw/ and sim/ under names no other project claims), with the web pages and profiles."""
    import subprocess
    import sys
    import zipfile

    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    top = {n.split("/")[0] for n in names if ".dist-info" not in n}
    assert top == {"firmware_py", "dvonn_hw", "dvonn_sim"}
    for page in ("firmware_py/web/static/index.html", "firmware_py/web/static/app.js",
                 "firmware_py/remote/static/remote.html", "dvonn_hw/profiles/default.toml",
                 "firmware_py/locale/de/LC_MESSAGES/dvonn_board.mo",
                 "firmware_py/locale/pl/LC_MESSAGES/dvonn_board.mo"):
        assert page in names
