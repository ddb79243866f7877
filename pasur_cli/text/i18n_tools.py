"""The catalogs, for developers: extract every message, update the .po files, compile the .mo files.

    python -m pasur_cli.text.i18n_tools                  # pybabel extract + update + compile, in one step
    python -m pasur_cli.text.i18n_tools missing > t.json # every message some language lacks, to fill in
    python -m pasur_cli.text.i18n_tools fill t.json      # merge those translations, then compile

Needs Babel (the test extra). The messages are: the first argument of ``_``, ``N_``, ``ngettext``
(and ``N_plural``), of ``Look.say`` and ``Look.say_count``, and of the error classes (their
template; the two forms of a counted one, ``errors.Plural``); help texts (``help=`` and the
docstrings of click commands, read by ``extract`` below); and click's own strings a player can meet
(``CLICK_MESSAGES``). The template is pasur_cli/text/locale/pasur.pot; each language's catalog
pasur_cli/text/locale/CODE/LC_MESSAGES/pasur.po (edit these, or use missing/fill) compiles to
pasur.mo beside it, which the wheel ships. tests/test_i18n.py fails when a compiled catalog is
stale, when a message has no translation, or when a translation's fields differ from the English.
``update`` marks a changed message fuzzy with its old translation as a hint (compile leaves fuzzy
ones out): review every hint.
"""

from __future__ import annotations

import ast
import io
import sys
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from pasur_cli.engine.reading import N_
from pasur_cli.text.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent.parent
LOCALE = Path(__file__).resolve().parent / "locale"
TEMPLATE = LOCALE / "pasur.pot"
ERRORS = ("PasurError", "NotationError", "IllegalPlayError", "AmbiguousPlayError", "StoreError", "PathError",
          "BusyError", "DamagedError", "StaleError", "GoneError", "NoMatchError", "AlreadyImported", "FullError",
          "ChooseMatchError", "EventError")
# say, say_count: render.Look's sentences with facts
KEYWORDS = ("_", "N_", "ngettext:1,2", "N_plural:1,2", "say", "say_count:1,2", "say_side:1,2", "Words",
            "Plural:1,2", *ERRORS)


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair defined elsewhere (in click) for extraction."""
    return singular, plural


# click's strings that pasur can show (usage, help, parse errors, prompts); click looks them up
# through our catalog (i18n._lend_to_click). tests/test_i18n.py checks that click still has each.
CLICK_MESSAGES = (
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Positional arguments"), N_("Error: {message}"),
    N_("Try '{command} {option}' for help."), N_("Invalid value: {message}"),
    N_("Invalid value for {param_hint}: {message}"), N_("Missing argument"), N_("Missing option"),
    N_("Missing parameter"), N_("Missing {param_type}"), N_("Missing parameter: {param_name}"),
    N_("No such option {name!r}."), N_("No such command {name!r}."), N_("Missing command."),
    N_("Option {name!r} does not take a value."), N_("Argument {name!r} takes {nargs} values."),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"), N_("default: {default}"),
    N_("required"), N_("Aborted!"), N_("Show this message and exit."), N_("Show the version and exit."),
    N_("Could not open file {filename!r}: {message}"), N_("unknown error"), N_("file"), N_("directory"),
    N_("path"), N_("{name} {filename!r} does not exist."), N_("{name} {filename!r} is a file."),
    N_("{name} {filename!r} is a directory."), N_("{name} {filename!r} is not readable."),
    N_("{name} {filename!r} is not writable."), N_("Error: invalid input"), N_("Repeat for confirmation"),
    N_("Error: The two entered values do not match."),
)
CLICK_PLURALS = (
    N_plural("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"),
    N_plural("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"),
    N_plural("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."),
    N_plural("{value!r} is not {choice}.", "{value!r} is not one of {choices}."),
)


def extract(fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str],
            options: Any) -> Iterator[Any]:
    """Babel's Python extractor, plus the help texts click takes from keyword arguments and
    docstrings: ``help="..."`` in any call, and the docstring of a function decorated as a click
    command or group (cleaned as click shows it)."""
    from babel.messages.extract import extract_python
    source = fileobj.read()
    named = io.BytesIO(source)
    named.name = getattr(fileobj, "name", "(unknown)")  # so that Babel's warnings name the file
    yield from extract_python(named, keywords, comment_tags, options)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "help" and isinstance(keyword.value, ast.Constant) \
                        and isinstance(keyword.value.value, str):
                    yield keyword.value.lineno, None, keyword.value.value, []
        elif isinstance(node, ast.FunctionDef) and any(_is_command(d) for d in node.decorator_list):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                yield node.body[0].lineno, None, doc, []


def _is_command(decorator: ast.expr) -> bool:
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("command", "group")


def pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface
    CommandLineInterface().run(["pybabel", "--quiet", *args])  # type: ignore[no-untyped-call]


def messages() -> dict[str, str | None]:
    """Every message id in the code (without writing a file): msgid -> msgid_plural or None."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_keywords, parse_mapping_cfg
    with open(ROOT / "babel.cfg") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    found: dict[str, str | None] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / "pasur_cli", method_map, options_map, keywords=parse_keywords(list(KEYWORDS))):
        if isinstance(message, tuple):
            found[message[0]] = message[1]
        else:
            found.setdefault(message, None)
    return found


def update() -> None:
    """pybabel extract, then update (or init) each language, then compile."""
    import os

    from pasur_cli import __version__
    LOCALE.mkdir(exist_ok=True)
    os.chdir(ROOT)  # the locations written into the catalogs are relative to the repository
    old = TEMPLATE.read_text(encoding="utf-8") if TEMPLATE.exists() else ""
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), *(f"-k{k}" for k in KEYWORDS), "--add-location=file",
            "--sort-by-file", "--no-wrap", "--project=pasur", f"--version={__version__}",
            "--copyright-holder=the pasur authors", "--msgid-bugs-address=-", "-o", str(TEMPLATE),
            "pasur_cli")
    new = TEMPLATE.read_text(encoding="utf-8")
    if _without_date(new) == _without_date(old):  # keep the file as it was: no change, no diff
        TEMPLATE.write_text(old, encoding="utf-8")
    for code in LANGUAGES[1:]:
        if (LOCALE / code / "LC_MESSAGES" / "pasur.po").exists():
            pybabel("update", "-D", "pasur", "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", code, "--no-wrap",
                    "--previous", "--ignore-pot-creation-date", "--ignore-obsolete")
        else:
            pybabel("init", "-D", "pasur", "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", code, "--no-wrap")
    compile_all()


def compile_all() -> None:
    pybabel("compile", "-D", "pasur", "-d", str(LOCALE), "--statistics")


def _po(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "pasur.po"


def missing() -> dict[str, Any]:
    """Every message that some language lacks (or has only as fuzzy), with what each language has:
    {msgid: {"plural": msgid_plural or None, "fa": str or [forms], "de": ..., "es": ...}}."""
    from babel.messages.pofile import read_po
    out: dict[str, Any] = {}
    for code in LANGUAGES[1:]:
        with open(_po(code), "rb") as fp:
            catalog = read_po(fp, locale=code)
        for message in catalog:
            if not message.id:
                continue
            ids, texts = _forms(message.id), _forms(message.string)
            entry = out.setdefault(ids[0], {"plural": ids[1] if len(ids) > 1 else None})
            entry[code] = texts if len(ids) > 1 else texts[0]
            if message.fuzzy or not all(texts):
                entry["todo"] = True
    return {k: {n: v for n, v in e.items() if n != "todo"} for k, e in out.items() if e.get("todo")}


def _forms(value: object) -> list[str]:
    """A message's id or string as a list of its forms (one unless it has plurals)."""
    return [str(v or "") for v in value] if isinstance(value, tuple | list) else [str(value or "")]


def fill(path: str) -> None:
    """Merge translations in the shape ``missing`` prints into the catalogs, then compile."""
    import json

    from babel.messages.pofile import read_po, write_po
    with open(path, encoding="utf-8") as fp:
        given = json.load(fp)
    for code in LANGUAGES[1:]:
        with open(_po(code), "rb") as fp:
            catalog = read_po(fp, locale=code)
        for message in catalog:
            text = given.get(_forms(message.id)[0], {}).get(code)
            if message.id and text and all(text if isinstance(text, list) else [text]):
                message.string = tuple(text) if isinstance(text, list) else text
                message.flags.discard("fuzzy")
                message.previous_id = []
            # a hint's old msgid, read back as a comment ("# | msgid ..."), goes with the hint
            message.user_comments = [c for c in message.user_comments if not c.startswith("| ")]
        with open(_po(code), "wb") as fp:
            write_po(fp, catalog, width=0, include_lineno=False, include_previous=True)
    compile_all()


def main(argv: list[str]) -> None:
    if not argv:
        update()
    elif argv[0] == "missing":
        import json
        print(json.dumps(missing(), ensure_ascii=False, indent=1))
    elif argv[0] == "fill" and len(argv) == 2:
        fill(argv[1])
    else:
        raise SystemExit(__doc__)


def _without_date(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith('"POT-Creation-Date:'))


if __name__ == "__main__":
    main(sys.argv[1:])
