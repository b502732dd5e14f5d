"""The rules core must stay pure: no I/O, clock, randomness or adapter imports (architecture.md §1)."""

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "controller" / "core"
FORBIDDEN = {
    "asyncio", "serial", "serial_asyncio_fast", "gpiozero", "cv2", "aiomqtt", "paho", "socket", "time",
    "random", "sqlite3", "os", "subprocess", "threading", "datetime", "secrets", "uuid", "pathlib",
    "io", "aiohttp", "numpy", "pokerkit", "controller.hardware", "controller.daemon", "controller.sim",
    "controller.commands", "firmware_bridge",
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted(CORE.rglob("*.py")), ids=lambda p: p.name)
def test_core_module_imports_nothing_impure(path: Path) -> None:
    bad = [n for n in _imports(path) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)]
    assert not bad, f"{path.name} imports {bad}"


def test_core_modules_have_purpose_header() -> None:
    for path in CORE.rglob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc, f"{path.name} lacks its one-line purpose docstring"
