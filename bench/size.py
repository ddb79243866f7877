"""The package's size: lines of pasur_cli/**/*.py, all of them and code only (no blank line, comment
or docstring), per layer, now or at git revisions.

    python bench/size.py [REV ...] [--quick]

Without REV: the working tree. A line counts as code when a token other than a comment, a line
break or a docstring stands on it (a docstring: the first statement of a module, class or
function, when it is a string). ``--quick``: the working tree's engine/ alone (that the script
runs; no figure).
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
        tokenize.ENDMARKER}


def docstring_lines(tree: ast.Module) -> set[int]:
    """The line numbers that docstrings of ``tree`` stand on."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return found


def count(text: str) -> tuple[int, int]:
    """(all lines, code lines) of one module's ``text``."""
    docs = docstring_lines(ast.parse(text))
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in SKIP:
            code.update(line for line in range(token.start[0], token.end[0] + 1) if line not in docs)
    return len(text.splitlines()), len(code)


def sources(rev: str | None, under: str) -> dict[str, str]:
    """Every module's text under ``under`` (``pasur_cli`` or a folder of it), at ``rev`` or in the
    working tree."""
    if rev is None:
        return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / under).rglob("*.py"))}
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, under], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    return {name: subprocess.run(["git", "show", f"{rev}:{name}"], cwd=ROOT, check=True, capture_output=True,
                                 text=True).stdout for name in names if name.endswith(".py")}


def report(rev: str | None, under: str) -> None:
    layers: dict[str, list[int]] = {}
    for name, text in sources(rev, under).items():
        parts = Path(name).parts
        layer = parts[1] if len(parts) > 2 else "(top)"
        lines, code = count(text)
        totals = layers.setdefault(layer, [0, 0, 0])
        totals[0] += 1
        totals[1] += lines
        totals[2] += code
    print(f"{under} at {rev or 'the working tree'}")
    print(f"{'layer':<10}{'modules':>8}{'lines':>9}{'code':>9}")
    for layer, (modules, lines, code) in sorted(layers.items()):
        print(f"{layer:<10}{modules:>8}{lines:>9,}{code:>9,}")
    print(f"{'all':<10}{sum(v[0] for v in layers.values()):>8}{sum(v[1] for v in layers.values()):>9,}"
          f"{sum(v[2] for v in layers.values()):>9,}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("revs", nargs="*", metavar="REV")
    parser.add_argument("--quick", action="store_true", help="the working tree's engine/ alone")
    args = parser.parse_args()
    if args.quick:
        report(None, "pasur_cli/engine")
        return
    for rev in args.revs or [None]:
        report(rev, "pasur_cli")


if __name__ == "__main__":
    main()
