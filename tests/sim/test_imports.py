"""The simulator's modules import each other without a circle (issue 14): faults build on the hand, the
table draws the faults; the hand and the faults see the others only through Protocols."""

from __future__ import annotations

import ast
from pathlib import Path

SIM = Path(__file__).resolve().parents[2] / "controller" / "sim"


def _imports(path: Path) -> set[str]:
    """Every controller.sim module `path` imports, also inside `if TYPE_CHECKING:` and functions."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("controller.sim."):
            out.add(node.module.rsplit(".", 1)[1])
    return out


def test_no_import_circle_in_controller_sim() -> None:
    graph = {p.stem: _imports(p) for p in SIM.glob("*.py") if p.stem != "__init__"}
    assert graph["hand"].isdisjoint({"faults", "table"}) and "table" not in graph["faults"]
    seen: set[str] = set()
    stack: list[str] = []

    def visit(node: str) -> None:
        assert node not in stack, f"import circle: {' -> '.join([*stack, node])}"
        if node in seen:
            return
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            visit(nxt)
        stack.pop()
        seen.add(node)

    for mod in sorted(graph):
        visit(mod)
