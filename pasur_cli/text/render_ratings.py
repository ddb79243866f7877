"""`pasur stats --ratings` in words: the ratings as a table or CSV rows, one player's rating over
time as a chart (plotext, imported only there)."""

from __future__ import annotations

from collections.abc import Sequence

from pasur_cli.engine.names import name_key
from pasur_cli.engine.ratings import SPREAD, START, PlayerRating, Ratings, RatingStep
from pasur_cli.text.i18n import _
from pasur_cli.text.layout import Figure, named_table
from pasur_cli.text.render import Look

CSV_COLUMNS = ("rank", "name", "rating", "mu", "sigma", "matches", "won")


def _places(value: float) -> Figure:
    return Figure(f"{value:.1f}")


def ranked(ratings: Ratings, player: str | None = None) -> list[tuple[int, PlayerRating]]:
    """Each rating with its place in the list (1: the best); only ``player``'s (compared as names
    are) when given."""
    key = None if player is None else name_key(player)
    return [(number, r) for number, r in enumerate(ratings.players, 1) if key is None or name_key(r.name) == key]


def ratings_text(look: Look, ratings: Ratings, width: int = 80, player: str | None = None) -> str:
    """The ratings (``player``'s alone when given) as a table fitted to ``width`` columns, best
    first, with a footnote on how they are made and read."""
    if not ratings.players:
        return _("No finished match yet: nothing to rate.")
    headers = ["#", _("player"), _("rating"), _("mean"), "±", _("matches"), _("won")]
    rows: list[list[object]] = [
        [number, r.name, _places(r.conservative), _places(r.mu), _places(r.sigma), r.matches, r.won]
        for number, r in ranked(ratings, player)]
    body = named_table(rows, headers, width, ["right", "left", *["right"] * 5], padding=0, parts=1, joint=" & ")
    import textwrap  # the footnote is prose: kept within the terminal
    note = look.say_count("Rated from {n} finished match (OpenSkill, Plackett-Luce). Rating: the mean less three"
                          " times the uncertainty (±), what a player's results show with near certainty; it rises"
                          " as they play.",
                          "Rated from {n} finished matches (OpenSkill, Plackett-Luce). Rating: the mean less three"
                          " times the uncertainty (±), what a player's results show with near certainty; it rises"
                          " as they play.", ratings.matches, n=ratings.matches)
    return body + "\n\n" + textwrap.fill(note, width=width, break_long_words=False, break_on_hyphens=False)


def ratings_csv_rows(ratings: Ratings, player: str | None = None) -> tuple[list[str], list[list[object]]]:
    """One CSV row per player (``player`` alone when given), best first: rank, name, rating
    (mu - 3 sigma), mu, sigma, matches, won (figures rounded to 3 places)."""
    rows: list[list[object]] = []
    for number, rating in ranked(ratings, player):
        data = rating.as_json()
        rows.append([number, *(data[k] for k in CSV_COLUMNS[1:])])
    return list(CSV_COLUMNS), rows


def rating_chart_text(look: Look, rating: PlayerRating, steps: Sequence[RatingStep], width: int,
                      height: int) -> str:
    """One player's rating after each of their rated matches: the conservative rating as a line,
    the mean as another, a legend under them."""
    import math

    import plotext as plt  # only here, as for `score --chart`
    mus = [START[0], *(s.mu for s in steps)]  # from where every player starts: match 0
    lows = [START[0] - SPREAD * START[1], *(s.conservative for s in steps)]
    xs = list(range(len(mus)))
    plt.clear_figure()
    plt.limitsize(False, False)
    plt.plotsize(max(width, 30), max(height - 3, 10))
    plt.theme("clear")
    plt.xlim(0, len(steps))
    plt.xticks(list(range(0, len(steps) + 1, max(1, math.ceil(len(steps) / max((width - 10) // 6, 1))))))
    plt.xlabel(_("matches played"))
    line = "." if look.ascii else "braille"
    plt.plot(xs, mus, marker=line, color="blue")
    plt.plot(xs, lows, marker=line, color="red")
    from pasur_cli.text.render_stats import plotted
    drawn = plotted(look)
    figures = {name: _places(value) for name, value in
               (("rating", rating.conservative), ("mean", rating.mu), ("sigma", rating.sigma))}
    title = look.say_count("{player}: rating {rating} (mean {mean} ± {sigma}) after {n} match.",
                           "{player}: rating {rating} (mean {mean} ± {sigma}) after {n} matches.", rating.matches,
                           player=rating.name, n=rating.matches, **figures)
    legend = _("upper line: the mean; lower line: the rating (the mean less three times the uncertainty)")
    return "\n".join([title, drawn, legend])
