"""Benchmarks and tests that stay alive: the bench scripts use pasur's public names only and .ci/run
runs each one's quick mode; no test imports or patches a private name."""

import ast
from pathlib import Path

import pytest

import pasur_cli

ROOT = Path(__file__).resolve().parent.parent
BENCH = sorted((ROOT / "bench").glob("*.py"))


def private_uses(tree: ast.AST) -> list[str]:
    """Every private name ``tree`` imports, reads off another object or patches by name (``self``
    and ``cls`` are the file's own; ``_`` is gettext's)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_") and a.name != "_"]
            found += [node.module for part in node.module.split(".") if part.startswith("_") and not part.endswith("__")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.endswith("__") \
                and node.attr != "_" and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(ast.unparse(node))
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith(("setattr", "patch", "delattr")):
            found += [arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                      and any(p.startswith("_") and not p.endswith("__") for p in arg.value.split("."))]
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "tests").glob("*.py")), ids=lambda p: p.name)
def test_no_test_uses_a_private_name(path):
    assert private_uses(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_private_name_finder_finds_each_way():
    text = ("from pasur_cli.engine.record import _written\nimport x\nx._y\nm.setattr(store, '_read_header', 1)\n"
            "monkeypatch.setattr('a.b._c', 1)\nself._own\ni18n._('text')\n")
    assert private_uses(ast.parse(text)) == ["pasur_cli.engine.record._written", "x._y", "_read_header", "a.b._c"]


@pytest.mark.parametrize("path", BENCH, ids=lambda p: p.name)
def test_each_bench_script_uses_public_names_only(path):
    """Only ``pasur_cli``'s public names (its ``__all__``), never a module inside it; the command
    through a process."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert private_uses(tree) == []
    inside = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
              and node.module.startswith("pasur_cli.")]
    inside += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names
               if a.name.startswith("pasur_cli.")]
    assert inside == []
    named = [a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module == "pasur_cli"
             for a in node.names]
    assert set(named) <= set(pasur_cli.__all__)


@pytest.mark.parametrize("path", BENCH, ids=lambda p: p.name)
def test_ci_runs_each_bench_scripts_quick_mode(path):
    """After the tests: each script with --quick (each mode of it that has one)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest -q\n" in ci and ci.index("python -m pytest -q\n") < ci.index(f"bench/{path.name} ")
    runs = [line for line in ci.splitlines() if f"bench/{path.name} " in line]
    assert runs and all("--quick" in line for line in runs)
    modes = [a for a in ("--load", "--bounds", "--roundtrip", "--flood") if a in path.read_text(encoding="utf-8")]
    assert all(any(mode in line for line in runs) for mode in modes)
