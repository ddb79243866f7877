"""`score --csv` row by row against `score --json`, and `score --chart` for what it shows: a marker
at every deal's running total of every side, the target line, the legend (not exact characters)."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from matchbook import random_match, stored
from tier import sized

from pasur_cli.cli.app import main
from pasur_cli.text.render import Look
from pasur_cli.text.render_stats import ASCII_MARKERS, MARKERS, chart_text

SCORE_KEYS = ["clubs", "clubs_points", "two_clubs", "ten_diamonds", "aces", "jacks", "surs", "sur_points",
              "seven_diamonds", "total"]


def run(db: Path, *args: str, env: dict | None = None):
    return CliRunner(env=env).invoke(main, [*args, "--db", str(db)], catch_exceptions=False)


def as_json_value(text: str) -> object:
    """A CSV cell as the JSON value it must equal."""
    return {"true": True, "false": False}.get(text, int(text) if re.fullmatch(r"-?\d+", text) else text)


# each example builds and stores a whole match: a fraction of the profile's examples
@sized(6)
@given(seed=st.integers(0, 2**32 - 1), finished=st.booleans())
def test_score_csv_is_score_json_row_by_row(seed, finished):
    made = random_match(random.Random(seed), finished=finished)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pasur.db"
        [mid] = stored(db, [made])
        doc = json.loads(run(db, "score", "--json", "--match", str(mid)).output)
        raw = run(db, "score", "--csv", "--match", str(mid)).stdout_bytes
    reader = csv.reader(io.StringIO(raw.decode("utf-8"), newline=""))
    header, *rows = list(reader)
    assert header == ["match", "deal", "dealer", "complete", "tallied", "side", *SCORE_KEYS, "running_total"]
    expected = []
    running = dict.fromkeys(doc["sides"], 0)
    for deal in doc["deals"]:
        for side in doc["sides"]:
            score = deal["scores"][side]
            if deal["complete"]:
                running[side] += score["total"]
            expected.append([doc["match"], deal["number"], deal["dealer"], deal["complete"], deal["tallied"], side,
                             *(score[k] for k in SCORE_KEYS), running[side] if deal["complete"] else ""])
    assert [[as_json_value(v) for v in row] for row in rows] == expected
    assert running == doc["totals"]


def test_score_csv_is_utf8_whatever_the_locale(pasur, monkeypatch):
    pasur("new", "Zoë", "Ārash")
    pasur("tally", "--count", "Zoë: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Ārash: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    result = CliRunner(charset="ascii").invoke(main, ["score", "--csv"], catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout_bytes.decode("utf-8").splitlines()
    assert lines[1].split(",")[5] == "Zoë" and lines[2].split(",")[5] == "Ārash"


# -- the chart ----------------------------------------------------------------------------
def canvas(drawn: list[str]) -> tuple[list[str], list[str]]:
    """The y labels and the inside of the frame of a plotext chart, row by row."""
    top = next(i for i, row in enumerate(drawn) if "┌" in row)
    bottom = next(i for i, row in enumerate(drawn) if "└" in row)
    left = drawn[top].index("┌")
    labels = [row[:left].strip() for row in drawn[top + 1:bottom]]
    inside = [row[left + 1:].ljust(len(drawn[top]) - left - 1)[:len(drawn[top]) - left - 2]
              for row in drawn[top + 1:bottom]]
    return labels, inside


def running(match) -> dict[str, list[int]]:
    totals, out = dict.fromkeys(match.sides, 0), {s: [] for s in match.sides}
    for result in match.results:
        for side in match.sides:
            totals[side] += result.scores[side].total
            out[side].append(totals[side])
    return out


# each example builds and stores a whole match: a fraction of the profile's examples
@sized(6)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_chart_has_every_deal_point_the_target_and_a_legend(seed):
    *_, match = random_match(random.Random(seed))
    series = running(match)
    deals = len(match.results)
    top = max([*(t for ts in series.values() for t in ts), match.rules.target])
    # big enough that no two different totals or deals share a character cell
    text = chart_text(Look(), 7, match, width=12 * deals + 40, height=3 * top + 30)
    lines = text.split("\n")
    assert lines[0] == "Match 7: running totals after each deal"
    labels, inside = canvas(lines[1:-1])
    height, width = len(inside), len(inside[0])

    # every deal's point, by its side's marker, where its deal and total put it (a point under a
    # later side's point at the same deal and total is hidden by it)
    sides = list(series)
    cells = {}
    for number, side in enumerate(sides):
        for deal, total in enumerate(series[side], 1):
            cells[(deal, total)] = MARKERS[number]
    found = {(r, c): ch for r, row in enumerate(inside) for c, ch in enumerate(row) if ch in MARKERS}
    assert len(found) == len(cells)
    y_top = max(int(label) for label in labels if label)
    last = max(deals, match.rules.fixed_deals or 0)
    for (deal, total), marker in cells.items():
        row = round((1 - total / y_top) * (height - 1))
        col = round(deal / last * (width - 1))
        near = [found.get((r, c)) for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)]
        assert marker in near, (deal, total, marker)

    if match.rules.fixed_deals:
        fixed = match.rules.fixed_deals
        assert lines[-1].endswith(f"(a match of {fixed} deal{'s' if fixed != 1 else ''})")
    else:  # the target: a tick labelled with it, a line across its row
        target = match.rules.target
        row = inside[labels.index(str(target))]
        assert row.count("─") > 0.8 * width
        assert lines[-1].endswith(f"── target {target}")
    assert lines[-1].split("   ")[:len(sides)] == [f"{MARKERS[n]} {side}" for n, side in enumerate(sides)]


def test_the_chart_follows_the_look_and_the_terminal(pasur):
    pasur("new", "Ali", "Sara", "Reza")
    for _ in range(2):
        pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes", "--count", "Sara: clubs=5 aces=2",
              "--count", "Reza: jacks=3 ten_diamonds=yes")
    plain = CliRunner(env={"COLUMNS": "70", "LINES": "20"}).invoke(main, ["score", "--chart"]).output
    assert "\x1b" not in plain
    rows = plain.rstrip("\n").split("\n")
    assert len(rows) <= 20 and max(len(r) for r in rows) <= 70
    assert rows[-1] == "● Ali   ■ Sara   ▲ Reza   ── target 62"
    wide = CliRunner(env={"COLUMNS": "120", "LINES": "40"}).invoke(main, ["score", "--chart", "--ascii"]).output
    assert wide.isascii() and len(wide.split("\n")) > len(rows)
    assert wide.rstrip("\n").split("\n")[-1] == f"{ASCII_MARKERS[0]} Ali   x Sara   + Reza   -- target 62"
    from pasur_cli.store.database import Store
    store = Store()
    _, match = store.match(1)
    store.close()
    coloured = chart_text(Look(color=True), 1, match, 80, 24)
    assert "\x1b[" in coloured


def test_nothing_to_draw_before_a_deal_is_scored(pasur):
    pasur("new", "Ali", "Sara")
    assert pasur("score", "--chart").output == "No deal has been scored yet: nothing to draw.\n"
    assert pasur("score", "--chart", "--csv").exit_code == 2


def test_the_match_table_says_its_figures_are_running_totals(pasur):
    pasur("new", "Ali", "Sara")
    for _deal in range(2):
        pasur("tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
              "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    text = pasur("score").output
    rows = re.findall(r"^Ali +(?:\S+ +){7}(\S+)$", text, re.M)
    assert rows == ["12", "12"], text  # each deal: Ali 12 (7 for clubs, 2 for 2♣, 2 aces, 1 jack)
    table = text[text.index("Match (running totals)\n"):]
    assert re.search(r"^2 \(tallied\) +Sara +24 +16$", table, re.M), table  # the second row: the sums
