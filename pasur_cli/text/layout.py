"""How text is laid out at a terminal: the columns text takes (``text_width``), lines broken
between words (``wrap``, ``help_text``), and tables drawn by tabulate and made to fit a width
(``table``, ``tables``, ``fit_table``, ``shrink_columns``). Knows no sentence and no match.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pasur_cli.text import i18n


class Drawn(str):
    """Text pasur drew itself: a card (in colour), a sentence whose facts were written by ``fact``.
    A sentence or a table takes it as it is; any other text (a name, a date, anything read from
    the database) goes through ``visible`` first, the escaping ``log`` gives its facts."""

    __slots__ = ()


def safe(text: object) -> str:
    """``text`` as a sentence or a table shows it: drawn text as it is, any other with the
    characters a terminal would act on escaped (``visible``)."""
    if isinstance(text, Drawn):
        return text
    if not isinstance(text, str):
        text = str(text)
    return text if text.isprintable() else visible(text)


def visible(text: str) -> str:
    """``text`` (a path, a name typed on the command line, a system's reason) with each character
    a terminal would act on written as its escape (``\\x1b``, ``\\u202e``): controls, bidi and other
    format characters, lone surrogates. Spaces, line breaks and the joiners of Persian words stay."""
    shown = Visible("".join(ch if ch.isprintable() or ch in " \n\u00a0\u200c\u200d"
                            else ch.encode("unicode_escape").decode("ascii") for ch in text))
    shown.original = text
    return shown


class Visible(Drawn):
    """Text with its controls escaped; a template's ``{text!r}`` gets the original's repr, which
    escapes them itself (once)."""

    original: str

    def __repr__(self) -> str:
        return repr(self.original)


class Figure(str):
    """A table cell that is text but reads as a number (``1 (5)``: one sur, five points): its
    column aligns right, as a column of numbers does."""

    __slots__ = ()


NUMBERS = (int, Figure)  # what a table aligns right


def table(rows: Sequence[Sequence[object]], headers: list[str], width: int | None = None,
          align: list[str] | None = None, padding: int = 2) -> str:
    """A plain text table; columns of numbers (ints, ``Figure``s) align right (unless ``align``
    says how each column aligns), nothing else is reinterpreted. A header is at least ``padding``
    columns narrower than its column. With ``width``, made to fit that many columns when it can
    (see ``fit_table``)."""
    if not "".join([cell for row in rows for cell in row if isinstance(cell, str)]).replace("\n", "").isprintable():
        rows = [[safe(cell) if isinstance(cell, str) else cell for cell in row] for row in rows]  # text from the file
    # (a cell's line breaks are its own: safe keeps them, so cells with no other control are drawn as they are)
    if not "".join(headers).isprintable():
        headers = [safe(h) for h in headers]
    align = align or ["right" if rows and all(isinstance(r[i], NUMBERS) for r in rows) else "left"
                      for i in range(len(headers))]
    if i18n.is_rtl():
        drawn = _plain_rtl(rows, headers, align, padding)
        if drawn is not None and (width is None or drawn[1] <= width):
            return drawn[0]  # fits as it is (measured as fit_table measures): no fitting to measure
    else:
        plain = _plain_table(rows, headers, align, padding)
        if plain is not None and (width is None or max(map(len, plain.split("\n"))) <= width):
            return plain  # fits as it is: no fitting to measure
    if width is not None:
        fitted, fitted_headers, fitted_padding = fit_table(rows, headers, width, padding)
        if len(headers) > 2 and table_width(fitted, fitted_headers, fitted_padding) > width:
            # still too wide (many columns of figures): the columns that fit, then the others in a
            # table of their own, each row named again by the first column; the names left whole
            # (breaking them did not make the table fit) unless the first two columns need it
            rows, headers, padding = fit_table(rows, headers, width, padding, break_cells=False)
            if table_width([r[:2] for r in rows], headers[:2], padding) > width:
                rows, headers, padding = fitted, fitted_headers, fitted_padding
            keep = 2
            while table_width([r[:keep + 1] for r in rows], headers[:keep + 1], padding) <= width:
                keep += 1
            return (table([r[:keep] for r in rows], headers[:keep], None, align[:keep], padding) + "\n\n"
                    + table([[r[0], *r[keep:]] for r in rows], [headers[0], *headers[keep:]], width,
                            [align[0], *align[keep:]], padding))
        rows, headers, padding = fitted, fitted_headers, fitted_padding
    rtl = i18n.is_rtl()
    if rtl:
        # every cell an isolate and every line left to right, so that a terminal applying bidi
        # neither reverses the columns nor runs two Persian cells together
        rows = [["\n".join(i18n.isolate(line) for line in str(cell).split("\n")) for cell in row] for row in rows]
        headers = ["\n".join(i18n.isolate(line) for line in h.split("\n")) for h in headers]
    plain = None if rtl else _plain_table(rows, headers, align, padding)
    if plain is not None:
        return plain
    import tabulate  # only for a table _plain_table does not draw (loading it costs more than most tables)
    saved, tabulate.MIN_PADDING = tabulate.MIN_PADDING, padding
    try:
        text = str(tabulate.tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True,
                                     colalign=align))
    finally:
        tabulate.MIN_PADDING = saved
    return "\n".join(i18n.LRM + line for line in text.split("\n")) if rtl else text


def named_table(rows: Sequence[Sequence[object]], headers: list[str], width: int, align: list[str],
                padding: int = 2, parts: int = 2, joint: str = " ") -> str:
    """A table whose first column names its rows (a player, a partnership), fitted to ``width``
    columns without ever breaking a name: its headers broken onto lines first; then, when it is
    still wider, its other columns spread over at most ``parts`` tables, each begun by the names;
    past that, each name on a line of its own above its row's other cells (in as many tables as
    their columns need). A name wider than ``width`` alone breaks at ``joint`` first (the " & "
    between partners), then between words."""
    body, heads, padding = fit_table(rows, headers, width, padding, break_cells=False)
    groups = _column_groups(body, heads, width, padding, first=0)
    if groups is not None and len(groups) <= parts:
        return "\n\n".join(table([[r[0], *(r[i] for i in group)] for r in body], [heads[0], *(heads[i] for i in group)],
                                   None, [align[0], *(align[i] for i in group)], padding) for group in groups)
    names = [_name_lines(str(r[0]), width, joint) for r in body]
    shown = []
    for group in _column_groups(body, heads, width - NAMED_INDENT, padding, first=None) or [[*range(1, len(heads))]]:
        cells = [[r[i] for i in group] for r in body]
        filled = [any(str(c).strip() for c in row) for row in cells]  # a row of empty cells draws no line
        drawn = [_indented(line) for line in table([row for row, full in zip(cells, filled, strict=True) if full],
                                                    [heads[i] for i in group], None, [align[i] for i in group],
                                                    padding).split("\n")]
        top = len(drawn) - sum(filled)  # the headers' lines and the rule: each row is one line under them
        lines, row_lines = [*_name_lines(heads[0], width, joint), *drawn[:top]], iter(drawn[top:])
        for name, full in zip(names, filled, strict=True):
            lines += [*name, next(row_lines)] if full else name
        shown.append("\n".join(lines))
    return "\n\n".join(shown)


def _indented(line: str) -> str:
    """A line of a named_table's cells, moved ``NAMED_INDENT`` columns from the names (after the
    left-to-right mark that begins it in a right-to-left language)."""
    mark = i18n.LRM if line.startswith(i18n.LRM) else ""
    return mark + " " * NAMED_INDENT + line.removeprefix(mark)


NAMED_INDENT = 2  # a named_table's cells under a name written on a line of its own


def _name_lines(name: str, width: int, joint: str) -> list[str]:
    """A row's name as the lines written above its cells: whole when it fits ``width``, else broken
    at ``joint``, then between words; each line an isolate in a right-to-left language."""
    lines = [name]
    if text_width(name) > width and joint.strip() and joint in name:
        pieces = name.split(joint)
        lines = [piece + joint.rstrip() for piece in pieces[:-1]] + [pieces[-1]]
    lines = [part for line in lines for part in wrap(safe(line), width).split("\n")]
    return [i18n.LRM + i18n.isolate(line) for line in lines] if i18n.is_rtl() else lines


def _column_groups(body: list[list[object]], headers: list[str], width: int, padding: int,
                   first: int | None) -> list[list[int]] | None:
    """The columns after the first, in order, as groups that each fit ``width`` as a table (begun
    by column ``first`` when it is given); None when one column does not fit."""
    lead = [] if first is None else [first]
    groups: list[list[int]] = []
    for i in range(1, len(headers)):
        if groups and table_width([[r[c] for c in [*lead, *groups[-1], i]] for r in body],
                                  [headers[c] for c in [*lead, *groups[-1], i]], padding) <= width:
            groups[-1].append(i)
        elif table_width([[r[c] for c in [*lead, i]] for r in body], [headers[c] for c in [*lead, i]],
                         padding) <= width:
            groups.append([i])
        else:
            return None
    return groups


def _plain_table(rows: Sequence[Sequence[object]], headers: list[str], align: list[str], padding: int) -> str | None:
    """What tabulate's "simple" format draws (numbers not parsed, ``padding`` beside the headers)
    for a table of cells one column a character (text or whole numbers), written out here, or
    None for any other table: `score` draws a table for every deal and one row for each of them,
    and tabulate's time adds up over thousands of deals (`python bench/growth.py --bounds`). A
    test holds the two equal."""
    if not rows or any(len(row) != len(headers) for row in rows) or any(a not in ("left", "right") for a in align):
        return None
    found = _plain_columns(rows, headers)
    if found is None:
        return None
    columns, broken = found
    if not broken:
        widths = [max(len(h) + padding, max(map(len, column))) for h, column in zip(headers, columns, strict=True)]
        form = _line_form(widths, align)
        return "\n".join([form.format(*headers).rstrip(), "  ".join("-" * w for w in widths).rstrip(),
                          *map(str.rstrip, map(form.format, *columns))])
    # cells of several lines: each line aligned in its column, a row as high as its highest cell
    split = [[c.split("\n") for c in row] for row in zip(*columns, strict=True)]
    heads = [h.split("\n") for h in headers]
    if not all(y.strip() for x in (*heads, *(x for r in split for x in r)) for y in x):
        return None  # an empty cell or a blank line in one: tabulate's own way
    widths = [max(max((len(x) for x in h), default=0) + padding, *(len(x) for row in split for x in row[i]))
              for i, h in enumerate(heads)]
    form = _line_form(widths, align)  # `matches`: a row of a few lines for each of thousands of matches

    def lines(items: Sequence[list[str]]) -> list[str]:
        high = max(map(len, items))
        if high == 1:
            return [form.format(*(item[0] for item in items)).rstrip()]
        return [form.format(*(item[n] if n < len(item) else "" for item in items)).rstrip() for n in range(high)]
    rule = "  ".join("-" * w for w in widths).rstrip()
    return "\n".join([*lines(heads), rule, *(x for r in split for x in lines(r))])


def _plain_rtl(rows: Sequence[Sequence[object]], headers: list[str], align: list[str],
               padding: int) -> tuple[str, int] | None:
    """What ``table`` draws through tabulate in a right-to-left language (every cell an isolate,
    every line begun with a left-to-right mark), and its width, for a table of one-line cells (text
    or whole numbers) that text_width and wcwidth measure alike, written out here; None for any
    other table (a long record's running totals are slow through tabulate). A test holds the two
    equal."""
    if (not rows or not headers or any(len(row) != len(headers) for row in rows)
            or any(a not in ("left", "right") for a in align)):
        return None
    columns: list[list[str]] = []  # each column's cells as text
    sizes: list[list[int]] = []  # the columns each cell takes
    for column in zip(*rows, strict=True):
        texts = [str(c) if c.__class__ is int else c for c in column]
        if not all(isinstance(c, str) for c in texts):
            return None
        columns.append(texts)
        sizes.append(list(map(_alike_width, texts)))
    head = list(map(_alike_width, headers))
    if min(head) < 0 or min(map(min, sizes)) < 0:
        return None  # a line break, a control, a script measured otherwise: tabulate's own way
    widths = [max(h + padding, max(column)) for h, column in zip(head, sizes, strict=True)]
    fsi, pdi = i18n.FSI, i18n.PDI

    def line(cells: Sequence[str], taken: Sequence[int]) -> str:
        padded = (" " * (w - n) + f"{fsi}{c}{pdi}" if a == "right" else f"{fsi}{c}{pdi}" + " " * (w - n)
                  for c, n, w, a in zip(cells, taken, widths, align, strict=True))
        return i18n.LRM + "  ".join(padded).rstrip()
    lines = [line(headers, head), i18n.LRM + "  ".join("-" * w for w in widths).rstrip(),
             *map(line, zip(*columns, strict=True), zip(*sizes, strict=True))]
    return "\n".join(lines), sum(widths) + 2 * (len(widths) - 1)


def _plain_columns(rows: Sequence[Sequence[object]], headers: list[str]) -> tuple[list[list[str]], bool] | None:
    """Each column's cells as text, stripped as tabulate strips them, and whether a header or a cell
    has a line break; None unless every cell is text or a whole number and every character one
    column wide. The rows are as long as the headers. A column of whole numbers (most of them)
    needs no look at its text."""
    columns: list[list[str]] = []
    given: list[str] = [*headers]  # the text of every column not all whole numbers: as given, and stripped
    stripped: list[str] = []
    for column in zip(*rows, strict=True):
        if all(c.__class__ is int for c in column):
            columns.append(list(map(str, column)))
            continue
        cells = [str(c) if c.__class__ is int else c for c in column]
        if not all(isinstance(c, str) for c in cells):
            return None
        given += cells
        columns.append([c.strip() for c in cells])
        stripped += columns[-1]
    if not _narrow("".join(headers).replace("\n", "") + "".join(stripped).replace("\n", "")):
        return None  # ASCII, Latin letters and the suits only
    return columns, "\n" in "".join(given)


def _line_form(widths: list[int], align: list[str]) -> str:
    """The format of a line of a plain table: each cell padded (as rjust and ljust pad) to its
    column's width, two spaces between columns."""
    return "  ".join(f"{{:{'>' if a == 'right' else '<'}{w}}}" for w, a in zip(widths, align, strict=True))


def tables(bodies: Sequence[Sequence[Sequence[object]]], headers: list[str], width: int | None = None) -> list[str]:
    """``[table(rows, headers, width) for rows in bodies]``: many tables under the same headers, drawn
    together where they can be (`score` draws a table for every deal): stacked into one plain
    table, each table whose columns come out as wide, and aligned, as the stack's takes its lines
    from it; any other is drawn alone. A test holds the two equal."""
    stack = [row for rows in bodies for row in rows]
    n, padding = len(headers), 2
    found = None
    if (stack and not i18n.is_rtl() and all(len(row) == n for row in stack) and "".join(headers).isprintable()
            and "".join([c for row in stack for c in row if isinstance(c, str)]).isprintable()):
        found = _plain_columns(stack, headers)
    if found is None or found[1]:  # a right-to-left language, a line break, a control...: each table alone
        return [table(rows, headers, width) for rows in bodies]
    columns = found[0]
    right = [all(isinstance(row[i], NUMBERS) for row in stack) for i in range(n)]
    widths = [max(len(h) + padding, max(map(len, column))) for h, column in zip(headers, columns, strict=True)]
    form = _line_form(widths, ["right" if r else "left" for r in right])
    head, rule = form.format(*headers).rstrip(), "  ".join("-" * w for w in widths).rstrip()
    lines = list(map(str.rstrip, map(form.format, *columns)))
    if width is not None and max(len(head), len(rule), *map(len, lines)) > width:
        return [table(rows, headers, width) for rows in bodies]
    # a table has the stack's columns when, in each column wider than its header, a cell of its
    # own is as wide, and each column aligned left in the stack holds text of its own too
    wide = [i for i in range(n) if widths[i] > len(headers[i]) + padding]
    left = [i for i in range(n) if not right[i]]
    drawn, start = [], 0
    for rows in bodies:
        end = start + len(rows)
        if (rows and all(max(map(len, columns[i][start:end])) == widths[i] for i in wide)
                and all(not all(isinstance(row[i], NUMBERS) for row in rows) for i in left)):
            drawn.append("\n".join([head, rule, *lines[start:end]]))
        else:
            drawn.append(table(rows, headers, width))
        start = end
    return drawn


def _narrow(text: str) -> bool:
    """Whether every character of ``text`` takes one column (tabulate's measure and ``len`` agree):
    printable, and below the combining marks but the soft hyphen, or a suit."""
    if not text.isprintable():
        return False
    if text.isascii():
        return True
    for suit in "♣♦♥♠":  # score's headers: 2♣ 10♦
        text = text.replace(suit, "")
    return not text or (max(text) < "\u0300" and "\u00ad" not in text)


def fit_table(rows: Sequence[Sequence[object]], headers: list[str], width: int,
              padding: int = 2, break_cells: bool = True) -> tuple[list[list[object]], list[str], int]:
    """(rows, headers, padding) of a table made to fit ``width`` columns, each step taken only while
    it is still wider: the headers broken between words onto more lines (each as narrow as its
    column's cells, or its longest word); no padding beside the headers; then the text cells of
    the widest text columns (side and player names) broken between words. Numbers are never
    broken, so a table of many numbers can stay wider than a very narrow terminal. Without
    ``break_cells``, no cell is broken."""
    body = [list(r) for r in rows]
    if table_width(body, headers, padding) <= width:
        return body, headers, padding

    def cells(i: int) -> int:
        return max((text_width(line) for r in body for line in str(r[i]).split("\n")), default=0)
    headers = [wrap(h, max(cells(i), *(_word_width(word) for word in h.split()))) if h.strip() else h
               for i, h in enumerate(headers)]
    if table_width(body, headers, padding) <= width:
        return body, headers, padding
    padding = 0
    texts = [i for i in range(len(headers))
             if break_cells and body and not all(isinstance(r[i], NUMBERS) for r in body)]
    return shrink_columns(body, headers, width, texts, padding), headers, padding


def shrink_columns(body: list[list[object]], headers: list[str], width: int, columns: Sequence[int],
                   padding: int = 2, hang: int = 0) -> list[list[object]]:
    """The rows with their text broken between words, the widest of ``columns`` first, while the
    table is wider than ``width`` and breaking still makes it narrower (the one place a table is
    shrunk to fit: score, stats and matches tables all come here); a continued line is indented
    ``hang`` columns."""
    texts = list(columns)
    while texts and (excess := table_width(body, headers, padding) - width) > 0:
        col = max(texts, key=lambda i: column_width(body, headers, i, padding))
        room = max(1, column_width(body, headers, col, padding) - excess)
        narrower = [[*r[:col], wrap(str(r[col]), room, hang), *r[col + 1:]] for r in body]
        if table_width(narrower, headers, padding) >= table_width(body, headers, padding):
            texts.remove(col)  # its words are as narrow as they get
        else:
            body = narrower
    return body


def share_columns(widths: Mapping[int, int], least: Mapping[int, int], excess: int) -> dict[int, int]:
    """The columns (by index) a table's text columns are broken to so that together they give up
    ``excess`` columns: the widest brought down first, to one level (never under ``least``); only
    those made narrower are given. Breaking them to these widths may still need their words
    broken (``wrap(..., break_words=True)``)."""
    goal = sum(widths.values()) - excess
    level = max(widths.values(), default=0)
    while level > 0 and sum(max(least[i], min(w, level)) for i, w in widths.items()) > goal:
        level -= 1
    shared = {i: max(least[i], min(w, level)) for i, w in widths.items()}
    return {i: room for i, room in shared.items() if room < widths[i]}


def help_text(text: str, width: int) -> str:
    """A help text that fits ``width`` columns: an indented line with two columns (``  7c   play
    7♣ ...``) and the lines that continue its second column are one item, wrapped with the
    second column's indent; any other line wraps with a two-column hanging indent."""
    import re
    items: list[tuple[str, int]] = []  # (text, the column its continuation lines start at)
    for line in text.split("\n"):
        column = re.match(r"( +\S+(?: \S+)*  +)\S", line)
        if items and line.startswith(" ") and line[:items[-1][1]].isspace() and items[-1][1] > 2:
            items[-1] = (items[-1][0] + " " + line.strip(), items[-1][1])  # the second column goes on
        elif column:
            items.append((line, len(column.group(1))))
        else:
            items.append((line, 2))
    return "\n".join(wrap(line, width, column - (len(line) - len(line.lstrip(" ")))) for line, column in items)


def text_width(text: str) -> int:
    """Columns ``text`` takes at a terminal at most (wide scripts count 2, combining marks and colour
    codes 0). The isolates and marks around a right-to-left language's facts count 0, as wcwidth
    counts them and as tmux 3.3 and terminals that apply bidi show them (measured: the cursor
    does not move)."""
    if "\x1b" in text:
        import re
        text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    width = _known_width(text)
    if width is not None:
        return width
    from unicodedata import category, combining, east_asian_width
    return sum(0 if combining(ch) or category(ch) == "Cf" else 2 if east_asian_width(ch) in "WF" else 1
               for ch in text)


def _known_width(text: str) -> int | None:
    """``text_width`` of text in the scripts and marks pasur writes, measured without loading
    unicodedata (start-up time); None for any other."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        o = ord(ch)
        if 0x200C <= o <= 0x200F or 0x2066 <= o <= 0x2069:
            continue  # joiners, direction marks and isolates take no column
        if (0x20 <= o < 0x300 and o != 0xAD) or 0x2010 <= o <= 0x2027 or 0x2030 <= o <= 0x205E or ch in "♣♦♥♠" or (
                0x0606 <= o <= 0x06D5 and o != 0x061C and not 0x064B <= o <= 0x065F and o != 0x0670):
            width += 1
        else:
            return None
    return width


# the characters wcwidth measures 0 and text_width too (the joiners, marks and isolates), gone; and
# the Arabic signs U+0610-U+061A, which text_width counts 1 and wcwidth 0, made unprintable
_ALIKE = {**dict.fromkeys(map(ord, "\u200c\u200d\u200e\u200f\u2066\u2067\u2068\u2069")),
          **dict.fromkeys(range(0x0610, 0x061B), "\x00")}


def _alike_width(text: str) -> int:
    """The columns of ``text`` when ``text_width`` and wcwidth (tabulate's measure) give the same
    for each of its characters (a test checks every one), else -1 (as wcwidth says "unknown")."""
    if text.isascii():
        return len(text) if text.isprintable() else -1
    width = _known_width(text) if text.translate(_ALIKE).isprintable() else None
    return -1 if width is None else width


def wrap(text: str, width: int, hang: int = 0, break_words: bool = False) -> str:
    """``text`` with each line wider than ``width`` columns broken between words, never inside a
    fact (a Unicode isolate), each line it continues on indented ``hang`` columns more than its
    own indent; a word wider than the line stays whole, or with ``break_words`` is broken where
    the line ends. A prompt's trailing space is kept."""
    if 2 * len(text) <= width:  # every line fits, whatever its characters (`score`: a title for each deal)
        return str(text)
    return "\n".join(_wrap_line(line, width, hang, break_words) for line in text.split("\n"))


def _pieces(word: str, width: int) -> list[str]:
    """``word`` cut into pieces of at most ``width`` columns (at least a character each); a fact
    (an isolate) cut in two is closed at the end of a piece and opened again in the next."""
    pieces, piece, depth = [], "", 0
    for ch in word:
        if piece.strip(i18n.FSI) and text_width(piece + ch) > width:
            pieces.append(piece + i18n.PDI * depth)
            piece = i18n.FSI * depth
        depth += (ch == i18n.FSI) - (ch == i18n.PDI)
        piece += ch
    return [*pieces, piece]


def _wrap_line(line: str, width: int, hang: int, break_words: bool = False) -> str:
    if 2 * len(line) <= width or text_width(line) <= width:
        return line
    body = line.lstrip(" ")
    indent = " " * (len(line) - len(body))
    end = " " if body.endswith(" ") else ""
    # each word with whether it follows the one before without a space: between two wide (CJK)
    # characters a line may break as between words (Unicode's line breaking, UAX 14)
    words: list[tuple[str, bool]] = []
    depth, word, glued, previous = 0, "", False, ""
    for ch in body.rstrip(" "):  # spaces inside an isolate do not break: its fact keeps its direction
        depth += (ch == i18n.FSI) - (ch == i18n.PDI)
        if ch == " " and depth <= 0:
            words.append((word, glued))
            word, glued = "", False
        elif depth <= 0 and word and _wide(ch) and _wide(previous):
            words.append((word, glued))
            word, glued = ch, True
        else:
            word += ch
        previous = ch
    words.append((word, glued))
    if break_words:  # a word wider than a continued line: in pieces that each fit one
        room = width - len(indent) - hang
        words = [(piece, glued if n == 0 else True) for w, glued in words
                 for n, piece in enumerate(_pieces(w, room) if text_width(w) > room else [w])]
    lines, current, lead = [], indent, indent
    for w, glued in words:
        joint = "" if glued else " "
        if not w:  # two spaces in a row: kept inside the line, never at a break
            current += " "
        elif current.strip() and text_width(current.rstrip(" ") + joint + w) > width:
            lines.append(current.rstrip(" "))
            lead = indent + " " * hang
            current = lead + w
        else:
            current += (joint if current.strip() else "") + w
    lines.append(current.rstrip(" ") + end)
    return "\n".join(lines)


def _word_width(word: str) -> int:
    """The columns a header keeps a word on one line: all of them, but for wide (CJK) text, which
    breaks between any two characters, at most 16 (a 40-character name is 80 columns)."""
    width = text_width(word)
    return min(width, 16) if width > 16 and any(_wide(ch) for ch in word) else width


def _wide(ch: str) -> bool:
    """Whether ``ch`` is a wide (East Asian) character, two columns at a terminal."""
    if not ch or ch < "\u1100":
        return False
    from unicodedata import east_asian_width
    return east_asian_width(ch) in "WF"


def column_width(rows: Sequence[Sequence[object]], headers: list[str], i: int, padding: int = 2) -> int:
    """Columns tabulate's simple format gives column ``i``: its widest line, or its header's widest
    line and ``padding`` (tabulate's MIN_PADDING)."""
    cells = {str(r[i]) for r in rows}  # each different cell measured once (a long `matches` repeats its names)
    text = "\n".join(cells)
    if text.isascii() and "\x1b" not in text:  # one column a character: the longest line (`score` fitted narrow)
        return max(max(text_width(line) for line in headers[i].split("\n")) + padding, *map(len, text.split("\n")))
    return max([max(text_width(line) for line in headers[i].split("\n")) + padding,
                *(text_width(line) for cell in cells for line in cell.split("\n"))])


def table_width(rows: Sequence[Sequence[object]], headers: list[str], padding: int = 2) -> int:
    return sum(column_width(rows, headers, i, padding) for i in range(len(headers))) + 2 * (len(headers) - 1)
