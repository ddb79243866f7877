"""The event's page (`pasur serve --event NAME`) in a real browser (Chromium, as
tests/test_serve_browser.py drives it, behind the ``browser`` marker): the standings and the
round's tables, updated when a result is entered or a match ends; a tile opening its table's
board; names of 40 characters at phone and TV sizes (no word split, the standings table neither
clipped nor wider than its box). PASUR_SCREENSHOTS=FOLDER keeps the event's screenshot (docs/event.png)."""

import os
import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("starlette")
pytest.importorskip("selenium.webdriver")
import test_serve_browser  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from serving import served  # noqa: E402
from test_room_browser import LONG  # noqa: E402
from test_serve_browser import open_page, pasur, size, text, wait  # noqa: E402

browser = test_serve_browser.browser  # the same fixture: one Chromium for this module too

# Every word under the page's named things on one line, each such thing no wider than its box; the
# standings table no wider than its box (nor, on a TV, its box taller than it shows); the page no wider.
LAYOUT = """
const split = [], over = [];
const named = document.querySelectorAll('header h1, #standings th, #standings td, .tile .name, .tile p, #bye');
for (const node of named) {
  if (!node.offsetParent) continue;
  if (node.scrollWidth > node.clientWidth + 1) over.push(node.textContent);
  const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    for (const m of t.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
      if (tops.size > 1) split.push(m[0]);
    }
  }
}
const box = document.getElementById('standings-box'), table = document.getElementById('standings');
const style = getComputedStyle(box);
const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
return {split, over, names: named.length, pageWide: document.documentElement.scrollWidth > innerWidth,
        tableWide: table.offsetWidth > inner + 1, boxScroll: box.scrollHeight > box.clientHeight + 1,
        rows: table.tBodies[0].rows.length};
"""


def paired(db):
    """`pasur event pair`: each table's (number, first, second, match id)."""
    said = pasur(db, "event", "pair")
    return [(int(t), a, b, int(m)) for t, a, b, m in re.findall(r"Table (\d+): (.+?) against (.+?), match (\d+)\.", said)]


def tally_out(db, mid, winner, loser):
    """Finish match ``mid`` with one tallied deal: ``winner`` 65, ``loser`` 0."""
    pasur(db, "tally", "--match", str(mid), "--count", f"{winner}: clubs=13 aces=4 jacks=4 2c=yes 10d=yes",
          "--count", f"{loser}: clubs=0 aces=0 jacks=0 2c=no 10d=no", "--surs", f"{winner}=9")


def standings(driver):
    return [[c.text.replace("\u2068", "").replace("\u2069", "") for c in r.find_elements(By.CSS_SELECTOR, "th, td")]
            for r in driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")]


def test_the_event_page_shows_the_standings_and_the_round_and_follows_results(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "event", "new", "Spring", "--players", "Ali", "Sara", "Reza", "Mina", "Omid", "--rounds", "3")
    tables = paired(db)
    assert [t[0] for t in tables] == [1, 2]
    size(browser, 1280, 800)
    with served(db, "--event", "spring") as server:
        open_page(browser, server.url)
        assert browser.execute_script("return document.body.dataset.view") == "event"
        assert text(browser, "#match") == "· Spring, round 1 of 3"
        assert [e.get_attribute("data-table") for e in browser.find_elements(By.CSS_SELECTOR, "#event-tables .tile")] \
            == ["1", "2"]
        bye = next(n for n in ("Ali", "Sara", "Reza", "Mina", "Omid") if n not in {x for t in tables for x in t[1:3]})
        assert text(browser, "#bye") == f"Bye: {bye} (a win with no points difference)."
        assert len(standings(browser)) == 5 and standings(browser)[0][1] == bye  # the bye's win, alone on top
        (one, first, second, _), (_, third, fourth, two) = tables
        pasur(db, "event", "result", str(one), "62-48")
        wait(browser, lambda d: text(d, "#event-tables .tile[data-table='1'] .tile-score")
             == f"Given on paper: {first} 62–48 {second}")
        paper = browser.find_element(By.CSS_SELECTOR, "#event-tables .tile[data-table='1']")
        assert not paper.find_elements(By.CSS_SELECTOR, ".tile-sides, .tile-deal, .tile-turn")  # no 0–0 beside it
        assert browser.find_elements(By.CSS_SELECTOR, "#event-tables .tile[data-table='2'] .tile-sides .total")
        row = next(r for r in standings(browser) if r[1] == first)
        assert row[2:] == ["1", "1", "0", "0", "14", "62", ""]  # played, wins, byes, Buchholz, difference, points
        tally_out(db, two, fourth, third)
        wait(browser, lambda d: text(d, "#event-tables .tile[data-table='2'] .tile-turn") == f"{fourth} won the match")
        wait(browser, lambda d: next(r for r in standings(d) if r[1] == fourth)[2:8] == ["1", "1", "0", "0", "65", "65"])
        browser.find_element(By.CSS_SELECTOR, "#event-tables .tile[data-table='2']").click()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.view") == "board", timeout=10)
        assert browser.current_url == server.url + f"match/{two}/"
        browser.find_element(By.ID, "back").click()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.view") == "event", timeout=10)


@pytest.mark.parametrize("width,height", [(390, 844), (1920, 1080)], ids=["phone", "tv"])
def test_names_of_40_characters_fit_the_event_page(browser, tmp_path, width, height):
    """Six entrants, four named with 40 characters (words, one long word, Persian), round 2 being
    played: no word split, nothing wider than its box, the standings neither clipped nor scrolled."""
    db = tmp_path / "pasur.db"
    pasur(db, "event", "new", "Maximilianus Alexandrovich Wolkonskiovs2", "--players", *LONG, "Ali", "Sara")
    for number, first, second, mid in paired(db):
        if number % 2:
            pasur(db, "event", "result", str(number), "70-61")
        else:
            tally_out(db, mid, second, first)
    paired(db)
    size(browser, width, height)
    with served(db, "--event", "Maximilianus Alexandrovich Wolkonskiovs2") as server:
        for query in ("", "lang=fa"):
            open_page(browser, server.url, query)
            layout = browser.execute_script(LAYOUT)
            assert layout["rows"] == 6 and layout["names"] > 20, layout
            assert (layout["split"], layout["over"]) == ([], []), layout
            assert not (layout["pageWide"] or layout["tableWide"]), layout
            if width > 1000:
                assert not layout["boxScroll"], layout
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_event_page_screenshot(browser, tmp_path):
    """A Swiss event of seven players in round 3 at 1280x800: the standings and the round's three
    tables and the bye on one screen (docs/event.png comes from here, with PASUR_SCREENSHOTS=docs)."""
    db = tmp_path / "pasur.db"
    pasur(db, "event", "new", "Thursday club", "--players", "Maman", "Baba", "Sara", "Reza", "Nasrin", "Omid",
          "Kian", "--rounds", "4")
    for _ in range(2):
        for number, first, second, mid in paired(db):
            if number == 1:
                pasur(db, "event", "result", str(number), "74-56")
            else:
                tally_out(db, mid, first if number % 2 else second, second if number % 2 else first)
    third = paired(db)
    pasur(db, "event", "result", str(third[0][0]), "63-41")
    _, first, second, mid = third[1]
    pasur(db, "tally", "--match", str(mid), "--count", f"{first}: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", f"{second}: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
    pasur(db, "deal", "5C", "9D", "3H", "KS", "--match", str(mid))
    pasur(db, "play", "4C", "--match", str(mid))
    pasur(db, "deal", "2C", "9H", "3D", "QS", "--match", str(third[2][3]))
    size(browser, 1280, 800)
    with served(db, "--event", "Thursday club") as server:
        open_page(browser, server.url)
        assert text(browser, "#match") == "· Thursday club, round 3 of 4"
        assert len(browser.find_elements(By.CSS_SELECTOR, "#event-tables .tile")) == 3
        assert len(standings(browser)) == 7 and browser.find_element(By.ID, "bye").is_displayed()
        assert browser.execute_script("return document.documentElement.scrollHeight") <= 800
        path = tmp_path / "event.png"
        browser.save_screenshot(str(path))
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        keep = os.environ.get("PASUR_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
