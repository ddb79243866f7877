"""The README stays a short guide and its pointers hold: it fits in 500 lines, keeps the two set-up
commands that CI runs, links every page of docs/ and bench/README.md, every relative link of the README and docs/ names a file that exists, the
module map of docs/architecture.md names every module, and bench/README.md gives a command for
every script in bench/."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_short():
    assert len(README.read_text().splitlines()) <= 500


def test_ci_runs_the_readme_test_command():
    setup = README.read_text().split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = [line.strip() for line in setup.splitlines() if line.startswith("    ")]
    assert commands[1] == "pip install '.[test]' && python -m pytest -q"
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert any(line.endswith(" && python -m pytest -q") for line in ci)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_a_file(page):
    targets = [t for t in LINK.findall(page.read_text()) if "://" not in t]
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing, missing


def test_the_readme_links_every_page_of_docs_and_bench():
    linked = {(ROOT / t).resolve() for t in LINK.findall(README.read_text())}
    assert {p.resolve() for p in PAGES[1:]} <= linked


def test_the_module_map_names_every_module():
    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text.split("## The modules", 1)[1].split("\n## ", 1)[0]
    package = ROOT / "pasur_cli"
    modules = {p.stem for p in package.glob("*/*.py") if p.stem != "__init__"}
    unnamed = sorted(m for m in modules if f"`{m}`" not in table and f"/{m}`" not in table)
    assert not unnamed, f"docs/architecture.md's module table does not name {unnamed}"


def test_every_bench_script_has_its_command():
    text = (ROOT / "bench" / "README.md").read_text()
    scripts = sorted(p.name for p in (ROOT / "bench").glob("*.py"))
    assert scripts
    assert [s for s in scripts if f"python bench/{s}" not in text] == []
