"""What people read about a match's past and about every match: the log, the record book, the
race as a chart, and scores for spreadsheets (CSV).

Kept apart from render.py (which draws the match being played) so that the commands that play
never load it. Functions return text; printing is the CLI's job. plotext is imported only by
``chart_text`` and the csv module only by the CSV functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pasur_cli.engine.errors import Plural, Words
from pasur_cli.engine.history import Event, Leftover, Played, Scored, TableDealt
from pasur_cli.engine.stats import PlayerRecord, RecordBook
from pasur_cli.text.i18n import _, ngettext
from pasur_cli.text.layout import safe, wrap
from pasur_cli.text.render import Look, comma

# -- pasur log ----------------------------------------------------------------------------


def _scores_line(look: Look, scores: Mapping[str, int]) -> str:
    return comma().join(look.say("{side} {points}", side=side, points=points) for side, points in scores.items())


def event_text(look: Look, event: Event) -> str | None:
    """One event as a line of the log (None for an event that says nothing: an empty leftover);
    every fact written by ``look`` (an isolate in a right-to-left language)."""
    if isinstance(event, TableDealt):
        return look.say("Deal {deal} ({dealer} deals). Table: {table}", deal=event.deal, dealer=event.dealer,
                        table=list(event.table))
    if isinstance(event, Played):
        play = event.play
        where = look.say("Deal {deal}, hand {hand}:", deal=event.deal, hand=play.hand)
        if play.taken:
            line = look.say("{player} plays {card} and takes {cards}", player=play.player, card=play.card,
                            cards=sorted(play.taken))
        else:
            line = look.say("{player} plays {card}: trailed", player=play.player, card=play.card)
        if play.sur and play.cancelled:
            line += " " + look.loud(look.say("(sur, cancelling a sur of {side})", side=play.cancelled))
        elif play.sur:
            line += " " + look.loud(_("(sur)"))
        elif play.no_sur:
            line += " " + _("(the table is cleared, but no sur)")
        return f"{where} {line}."
    if isinstance(event, Leftover):
        if not event.cards:
            return None
        return look.say("Deal {deal}, after the last card: {player} takes the table: {cards}.", deal=event.deal,
                        player=event.player, cards=sorted(event.cards))
    result = event.result
    scores = {side: result.scores[side].total for side in event.totals}  # in the match's order of sides
    if result.tallied:
        head = look.say("Deal {deal} ({dealer} dealt, tallied):", deal=result.number, dealer=result.dealer)
    else:
        head = look.say("Deal {deal} scored:", deal=result.number)
    # its parts are sentences whose facts look.say has written: each is put in as it is
    return _("{head} {scores}. Match: {totals}.").format(
        head=head, scores=_scores_line(look, scores), totals=_scores_line(look, event.totals))


def log_text(look: Look, match_id: int, events: Sequence[Event], width: int | None = None) -> str:
    """The play-by-play, a blank line after each scored deal; a line wider than ``width`` columns
    broken between words, the lines it continues on indented by two."""
    if not events:
        return look.say("Match {match}: nothing has been played yet.", match=match_id)
    lines: list[str] = []
    for event in events:
        line = event_text(look, event)
        if line is not None:
            lines.append(line if width is None else wrap(line, width, 2))
        if isinstance(event, Scored):
            lines.append("")
    return "\n".join(lines).rstrip("\n")


# -- pasur stats --------------------------------------------------------------------------
def _percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


def _ratio(value: float | None, places: int) -> str:
    return "-" if value is None else f"{value:.{places}f}"


def _grid(rows: list[list[object]], headers: list[str], width: int, parts: int = 2) -> str:
    """A table whose first column names a player or a partnership, whole on one line, and every
    other column figures (aligned right), fitted to ``width`` columns, with no padding beside its
    headers (two-line headers make columns narrow enough): split into at most ``parts`` tables,
    else each name on a line of its own above its figures (layout.named_table)."""
    from pasur_cli.text.layout import named_table
    return named_table(rows, headers, width, ["left", *["right"] * (len(headers) - 1)], padding=0, parts=parts,
                       joint=" & ")


def _record_rows(records: Iterable[PlayerRecord], accuracy: bool = False) -> list[list[object]]:
    """A row per record; with ``accuracy``, ending with the reviewed deals and the points lost a decision."""
    rows: list[list[object]] = []
    for r in records:
        rows.append([r.name, f"{r.won}/{r.matches}", _percent(r.won, r.matches), r.unfinished, r.deals,
                     _ratio(r.per_deal(r.points), 1), _ratio(r.per_deal(r.surs), 2),
                     _percent(r.clubs, r.deals), _percent(r.two_clubs, r.deals), _percent(r.ten_diamonds, r.deals),
                     "-" if r.best is None else r.best.points,
                     *([r.reviewed, _ratio(r.lost_per_decision, 2)] if accuracy else [])])
    return rows


def _record_headers(look: Look, first: str, accuracy: bool = False) -> list[str]:
    two, ten = ("2C", "10D") if look.ascii else ("2♣", "10♦")
    return [first, _("won/\nplayed"), _("win\nrate"), _("playing"), _("deals"), _("points\n/deal"),
            _("surs\n/deal"), _("clubs"), two, ten, _("best\ndeal"),
            *([_("reviewed\ndeals"), _("lost\n/decision")] if accuracy else [])]


def stats_text(look: Look, book: RecordBook, width: int = 80) -> str:
    """The record book as tables (players, partnerships, head to head) and its footnote, fitted to
    ``width`` columns."""
    left_out = ""
    if book.damaged:
        left_out = "\n" + look.say("Left out, damaged (see pasur matches): {matches}.",
                                    matches=", ".join(str(m) for m in book.damaged))
    if not book.players:
        return _("No matches yet: start one with pasur new NAME NAME.") + left_out
    reviewed = any(r.reviewed for r in book.players)  # the accuracy columns, once a deal is reviewed
    # each number with its own form (German "1 läuft", "2 laufen"); English has one for both
    parts = [look.say("Matches: {finished}, {playing}.",
                      finished=Words(Plural("{n} finished", "{n} finished", "n"), n=book.matches),
                      playing=Words(Plural("{n} still being played", "{n} still being played", "n"),
                                    n=book.unfinished)),
             _grid(_record_rows(book.players, reviewed), _record_headers(look, _("player"), reviewed), width)]
    if book.partnerships:
        parts.append(_("Partnerships (their side's figures):") + "\n"
                     + _grid(_record_rows(book.partnerships), _record_headers(look, _("partnership")), width))
    names = list(dict.fromkeys([*book.head_to_head, *(b for row in book.head_to_head.values() for b in row)]))
    if names:
        rows: list[list[object]] = [
            [a, *("-" if a == b else book.head_to_head.get(a, {}).get(b, "") for b in names)] for a in names]
        parts.append(wrap(_("Head to head (finished matches the row's player won against the column's):"), width) + "\n"
                     + _grid(rows, [_("won by"), *names], width, parts=len(names)))  # a table an opponent
    two, ten = ("2C", "10D") if look.ascii else ("2♣", "10♦")
    import textwrap  # the footnote is prose: kept within the terminal
    parts.append(textwrap.fill(_("Playing: matches not finished, which add only their deals. Clubs, {two} and {ten}:"
                                 " in how many of their deals they took them. Surs: held at a deal's end.").format(
                                     two=two, ten=ten), width=width, break_long_words=False, break_on_hyphens=False))
    if reviewed:
        parts[-1] += "\n" + textwrap.fill(_("Lost/decision: expected points lost per decision with a choice, over"
                                            " the reviewed deals (pasur review --all reviews every finished deal)."),
                                          width=width, break_long_words=False, break_on_hyphens=False)
    parts[-1] += left_out
    return "\n\n".join(parts)


# -- CSV ----------------------------------------------------------------------------------
SCORE_COLUMNS = ("clubs", "clubs_points", "two_clubs", "ten_diamonds", "aces", "jacks", "surs", "sur_points",
                 "seven_diamonds", "total")


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula (OWASP)


def _cell(value: object) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(FORMULA):  # a name a spreadsheet would run as a formula
        return "'" + value
    return value


def csv_text(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV document: a header row, then the rows (booleans as true/false, None empty)."""
    import csv
    import io
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headers)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return out.getvalue()


def score_csv_rows(score: dict[str, Any], running: Sequence[Mapping[str, int]]) -> tuple[list[str], list[list[object]]]:
    """``score --json``'s document as one row per deal and side, with the side's running total from
    ``running`` (``Match.running_totals()``; empty for a deal still being played: it is in no
    total yet)."""
    headers = ["match", "deal", "dealer", "complete", "tallied", "side", *SCORE_COLUMNS, "running_total"]
    rows: list[list[object]] = []
    for deal, totals in zip(score["deals"], [*running, None], strict=False):
        for side in score["sides"]:  # the match's order of sides in every deal
            items = deal["scores"][side]
            rows.append([score["match"], deal["number"], deal["dealer"], deal["complete"], deal["tallied"], side,
                         *(items[k] for k in SCORE_COLUMNS), totals[side] if totals and deal["complete"] else None])
    return headers, rows


STATS_COLUMNS = ("matches", "won", "win_rate", "unfinished", "deals", "points", "points_per_deal", "surs",
                 "surs_per_deal", "clubs", "two_clubs", "ten_diamonds")
ACCURACY_COLUMNS = ("reviewed_deals", "decisions", "points_lost", "lost_per_decision")


def stats_csv_rows(book: RecordBook) -> tuple[list[str], list[list[object]]]:
    """One row per player, then per partnership (``kind`` says which), every figure of the book
    but the head-to-head table (which ``--json`` gives)."""
    headers = ["kind", "name", *STATS_COLUMNS, "best_deal", "best_deal_match", "best_deal_number", *ACCURACY_COLUMNS]
    rows: list[list[object]] = []
    for kind, records in (("player", book.players), ("partnership", book.partnerships)):
        for record in records:
            d = record.as_json()
            best = record.best
            rows.append([kind, record.name, *(d[k] for k in STATS_COLUMNS),
                         *((best.points, best.match, best.deal) if best else (None, None, None)),
                         *(d[k] for k in ACCURACY_COLUMNS)])
    return headers, rows


# -- pasur score --chart ------------------------------------------------------------------
MARKERS, ASCII_MARKERS = ("●", "■", "▲", "◆"), ("o", "x", "+", "#")
COLORS = ("blue", "red", "green", "magenta")  # plotext's names; red as the cards' red suits
BOX_TO_ASCII = str.maketrans("┌┐└┘─│┬┴├┤┼", "++++-|+++++")


def race(match: Any) -> dict[str, list[int]]:
    """Each side's match total after every finished deal."""
    after = match.running_totals()
    return {side: [totals[side] for totals in after] for side in match.sides}


def axis_ticks(top: int, rows: int, mark: int | None) -> list[int]:
    """Round y ticks from 0 to ``top`` for a chart ``rows`` high, with ``mark`` among them and no
    other tick crowding it."""
    most = max(rows // 3, 2)
    step = next(s for s in _steps() if top / s <= most)  # at most ``most`` ticks, however large the totals
    ticks = list(range(0, top + 1, step))
    if mark is not None:
        ticks = sorted({t for t in ticks if abs(t - mark) >= step / 2} | {mark})
    return ticks


def _steps() -> Iterator[int]:
    """The round steps between ticks, smallest first: 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000 ..."""
    power = 1
    while True:
        for factor in (10, 20, 25, 50):
            step = factor * power // 10
            if step >= 5 and factor * power % 10 == 0:
                yield step
        power *= 10


def _sample(count: int, most: int) -> list[int]:
    """At most about ``most`` of the indices 0 .. count - 1, evenly spaced, the last always among them."""
    every = max(1, math.ceil(count / max(most, 1)))
    return sorted({*range(0, count, every), count - 1}) if count else []


def chart_text(look: Look, match_id: int, match: Any, width: int, height: int) -> str:
    """The race: each side's running total after every deal as a line with a marker per deal, the
    target as a line across (none with ``fixed_deals``), a legend.
    ``width`` and ``height`` are the characters it may fill."""
    if not match.results:
        return _("No deal has been scored yet: nothing to draw.")
    import plotext as plt  # only here: its import is longer than any other command's whole run
    series = race(match)
    deals = len(match.results)
    fixed = match.rules.fixed_deals
    target = None if fixed else match.rules.target
    last = max(deals, fixed or 0)
    top = max([*(max(ys) for ys in series.values()), target or 0])
    top = int(math.ceil(top * 1.05 / 5) * 5) or 5
    plt.clear_figure()
    plt.limitsize(False, False)  # the size asked for, not the terminal plotext sees (none in a pipe)
    plt.plotsize(max(width, 30), max(height - 3, 10))  # the title and legend take three lines
    plt.theme("clear")
    plt.xlim(0, last)
    plt.ylim(0, top)
    step = max(1, math.ceil(last / max((width - 10) // 6, 1)))
    plt.xticks(list(range(0, last + 1, step)))
    plt.yticks(axis_ticks(top, height, target))
    plt.xlabel(_("deal"))
    markers = ASCII_MARKERS if look.ascii else MARKERS
    line = "." if look.ascii else "braille"
    if target is not None:
        plt.hline(target, "gray")
    # a point per deal while the deals are fewer than the columns; past that, evenly spaced ones
    # (two a column for the lines, one every three columns for the markers), so that the time a
    # chart takes follows its size, not the number of deals
    drawn_at, marked_at = _sample(deals + 1, 2 * width), _sample(deals, max(width // 3, 1))
    for number, ys in enumerate(series.values()):
        line_ys = [0, *ys]
        plt.plot(drawn_at, [line_ys[i] for i in drawn_at], marker=line, color=COLORS[number])
    for number, ys in enumerate(series.values()):  # the points over every line
        plt.scatter([i + 1 for i in marked_at], [ys[i] for i in marked_at], marker=markers[number],
                    color=COLORS[number])
    drawn = plotted(look)
    legend = [_("{marker} {side}").format(marker=_painted(look, markers[n], n), side=safe(side))
              for n, side in enumerate(series)]
    rule = "-" if look.ascii else "─"
    if target is not None:
        legend.append(_("{line} target {target}").format(line=rule * 2, target=target))
    else:
        legend.append(ngettext("(a match of {deals} deal)", "(a match of {deals} deals)", fixed).format(deals=fixed))
    title = _("Match {match}: running totals after each deal").format(match=match_id)
    return "\n".join([title, drawn, wrap("   ".join(legend), width, 2)])  # long names: within the width


def plotted(look: Look) -> str:
    """The chart plotext holds, drawn as text and cleared: uncoloured without colour, boxes as ASCII
    with ``look.ascii``, no trailing spaces (the race, accuracy and rating charts end here)."""
    import plotext as plt
    drawn = plt.build()
    plt.clear_figure()
    if not look.color:
        drawn = plt.uncolorize(drawn)
    drawn = "\n".join(row.rstrip() for row in drawn.split("\n"))
    return drawn.translate(BOX_TO_ASCII) if look.ascii else drawn


def _painted(look: Look, marker: str, number: int) -> str:
    if not look.color:
        return marker
    codes = {"blue": 34, "red": 31, "green": 32, "magenta": 35}
    return f"\x1b[{codes[COLORS[number]]}m{marker}\x1b[0m"


# -- pasur stats --player NAME --chart ------------------------------------------------------
def accuracy_chart(look: Look, player: str, points: Sequence[tuple[int, float]], width: int, height: int) -> str:
    """A player's accuracy over time: the expected points lost per decision in each reviewed match
    (``points``: match id and that figure, in the order played), a marker per match.
    ``width`` and ``height`` are the characters it may fill."""
    if not points:
        return look.say("{player} has no reviewed deal yet: pasur review --all reviews every finished deal.",
                        player=player)
    import plotext as plt  # only here, as for the race
    xs = list(range(1, len(points) + 1))
    ys = [round(value, 2) for _, value in points]
    top = max(max(ys) * 1.1, 0.5)
    plt.clear_figure()
    plt.limitsize(False, False)
    plt.plotsize(max(width, 30), max(height - 3, 10))
    plt.theme("clear")
    plt.xlim(0.5, len(points) + 0.5)
    plt.ylim(0, top)
    shown = _sample(len(points), max((width - 10) // 6, 1))
    plt.xticks([xs[i] for i in shown], [str(points[i][0]) for i in shown])
    plt.xlabel(_("match"))
    marker = ASCII_MARKERS[0] if look.ascii else MARKERS[0]
    plt.plot(xs, ys, marker="." if look.ascii else "braille", color=COLORS[0])
    plt.scatter(xs, ys, marker=marker, color=COLORS[0])
    drawn = plotted(look)
    title = look.say("{player}: expected points lost per decision with a choice, one point per reviewed match"
                     " (lower is better)", player=player)
    return "\n".join([wrap(title, width, 2), drawn])
