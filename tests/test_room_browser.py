"""The room's screen in a real browser (Chromium, as tests/test_serve_browser.py drives it, behind
the ``browser`` marker): two tables at once through alternating plays, a tile opening its table's
board, the finished deal's breakdown kept until the next table, and names of 40 characters broken
only between words at phone and TV sizes. PASUR_SCREENSHOTS=FOLDER keeps the room's screenshot."""

import os
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("starlette")
pytest.importorskip("selenium.webdriver")
import test_serve_browser  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from serving import served  # noqa: E402
from test_serve_browser import open_page, pasur, size, text, wait  # noqa: E402

browser = test_serve_browser.browser  # the same fixture: one Chromium for this module too

TABLE = ("5C", "9D", "3H", "KS")
TALLIES = [("clubs=8 aces=2 jacks=1 two_clubs=yes", "clubs=5 aces=2 jacks=3 ten_diamonds=yes"),
           ("clubs=4 aces=1 jacks=2", "clubs=9 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes"),
           ("clubs=7 aces=3 jacks=3 ten_diamonds=yes", "clubs=6 aces=1 jacks=1 two_clubs=yes")]
LONG = ["Maximilianus Alexandrovich Wolkonskiovsk",  # 40 characters each: words, one word, Persian
        "Bartholomewmaximilianalexandrawolkonskio",
        "شهرزاد دختر وزیر خراسان بزرگ و زیبای شهر",
        "عبدالرحمانابنمحمدابنعبداللهالخوارزمیسشسی"]

# Every word of every text node under the page's named things on one line (a word split across
# lines has its pieces at two heights), and each such thing no wider than its box; the page, the
# deals' box and its table no wider (nor the box taller) than they show.
LAYOUT = """
const split = [], over = [], outside = [];
const named = document.querySelectorAll('#sides .name, #turn, #winner, #deal, #last, #left li, .legend .key,'
  + ' .tile .name, .tile p, thead th, #race-title');
for (const node of named) {
  if (!node.offsetParent) continue;
  if (node.scrollWidth > node.clientWidth + 1) over.push(node.textContent);
  const mine = node.getBoundingClientRect(), box = node.closest('section, .tile').getBoundingClientRect();
  if (mine.left < box.left - 1 || mine.right > box.right + 1) outside.push(node.textContent);
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
const page = document.documentElement, box = document.getElementById('deals-box');
const deals = document.getElementById('deals');
const svg = document.querySelector('#chart svg');
const drawn = svg ? svg.getScreenCTM().a * svg.viewBox.baseVal.width / svg.getBoundingClientRect().width : 0;
return {split, over, outside, drawn, pageWide: page.scrollWidth > innerWidth,
        dealsScroll: box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight + 1,
        dealsWide: deals.offsetWidth > box.clientWidth,
        chart: svg ? svg.getBoundingClientRect().width / innerWidth : 0,
        names: named.length};
"""


def tiles(driver):
    return [(e.get_attribute("data-match"), e.find_element(By.CSS_SELECTOR, ".tile-turn").text.replace("\u2068", "")
             .replace("\u2069", "")) for e in driver.find_elements(By.CSS_SELECTOR, "#room .tile")]


def title(driver):
    """The race's heading as written (the style shows it in capitals)."""
    return driver.execute_script("return document.getElementById('race-title').textContent").replace(
        "\u2068", "").replace("\u2069", "")


def test_the_room_shows_two_tables_and_keeps_both_through_alternating_plays(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Ali", "Sara")
    pasur(db, "new", "Reza", "Mina")
    size(browser, 1280, 720)
    with served(db) as server:
        open_page(browser, server.url)
        assert browser.execute_script("return document.body.dataset.view") == "room"
        browser.execute_script("window.views = []; new MutationObserver(() => window.views.push("
                               "document.body.dataset.view)).observe(document.body, {attributes: true})")
        assert tiles(browser) == [("1", ""), ("2", "")]
        pasur(db, "deal", *TABLE, "--match", "1")
        wait(browser, lambda d: tiles(d) == [("1", "Sara to play"), ("2", "")])
        pasur(db, "deal", *TABLE, "--match", "2")
        wait(browser, lambda d: tiles(d) == [("1", "Sara to play"), ("2", "Mina to play")])
        for match, card, after in [("1", "4C", [("1", "Ali to play"), ("2", "Mina to play")]),
                                   ("2", "4C", [("1", "Ali to play"), ("2", "Reza to play")]),
                                   ("1", "JD", [("1", "Sara to play"), ("2", "Reza to play")]),
                                   ("2", "JD", [("1", "Sara to play"), ("2", "Mina to play")])]:
            pasur(db, "play", card, "--match", match)
            wait(browser, lambda d, after=after: tiles(d) == after)
        assert set(browser.execute_script("return window.views")) <= {"room"}  # never switched to a board
        assert not browser.find_element(By.ID, "board").is_displayed()


def test_a_tile_opens_its_table_s_board_at_its_own_address(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Ali", "Sara")
    pasur(db, "new", "Reza", "Mina")
    pasur(db, "deal", *TABLE, "--match", "2")
    size(browser, 1280, 720)
    with served(db) as server:
        open_page(browser, server.url, "lang=de")
        browser.find_element(By.CSS_SELECTOR, "#room .tile[data-match='2']").click()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.view") == "board", timeout=10)
        assert browser.current_url == server.url + "match/2/?lang=de"
        assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#sides .name")] == ["Reza", "Mina"]
        pasur(db, "play", "9S", "--match", "2")
        wait(browser, lambda d: "Mina" in text(d, "#last") and "9♠" in text(d, "#last"))
        browser.find_element(By.ID, "back").click()
        wait(browser, lambda d: d.execute_script("return document.body.dataset.view") == "room", timeout=10)
        assert browser.current_url == server.url + "?lang=de"


def test_the_finished_deal_s_breakdown_stays_until_the_next_table(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Ali", "Sara")
    size(browser, 1280, 720)
    with served(db) as server:
        open_page(browser, server.url)
        assert not browser.find_element(By.ID, "race-box").is_displayed()  # no deal yet
        ali, sara = TALLIES[0]
        pasur(db, "tally", "--count", f"Ali: {ali}", "--count", f"Sara: {sara}")
        wait(browser, lambda d: title(d) == "How deal 1 was scored")
        rows = [text(browser, f"#race tbody tr:nth-child({n})") for n in range(1, 8)]
        # Ali: 8 clubs (7 points), 2♣, 2 aces, 1 jack: 12; Sara: 5 clubs, 10♦, 2 aces, 3 jacks: 8
        assert rows == ["Clubs 7 (8) 0 (5)", "2♣ 2 0", "10♦ 0 3", "Aces 2 2", "Jacks 1 3", "Surs 0 (0) 0 (0)",
                        "Points 12 8"]
        pasur(db, "deal", *TABLE)
        wait(browser, lambda d: title(d) == "The deal's race")
        assert text(browser, "#race tbody tr:first-child") == "Clubs 0 0"  # the new deal's race: nothing taken yet
        assert browser.find_element(By.ID, "race").get_attribute("data-deal") is None


@pytest.mark.parametrize("width,height", [(390, 844), (1920, 1080)], ids=["phone", "tv"])
def test_names_of_40_characters_break_only_between_words(browser, tmp_path, width, height):
    """A match of four players named with 40 characters each (words, one long word, Persian), three
    deals tallied and one being played, and the room with it: no word split, nothing wider than
    its box, the deals table neither clipped nor scrolled inside, the chart as wide as before."""
    db = tmp_path / "pasur.db"
    assert all(len(name) == 40 for name in LONG)
    pasur(db, "new", *LONG)
    one, two = f"{LONG[0]} & {LONG[2]}", f"{LONG[1]} & {LONG[3]}"
    for first, second in TALLIES:
        pasur(db, "tally", "--match", "1", "--count", f"{one}: {first}", "--count", f"{two}: {second}")
    pasur(db, "deal", *TABLE, "--match", "1")
    pasur(db, "play", "4C", "--match", "1")
    size(browser, width, height)
    with served(db) as server:
        for query in ("", "lang=fa"):
            open_page(browser, server.url, query)
            layout = browser.execute_script(LAYOUT)
            assert layout["names"] > 10
            assert (layout["split"], layout["over"], layout["outside"]) == ([], [], []), layout
            assert not (layout["pageWide"] or layout["dealsScroll"] or layout["dealsWide"]), layout
            if width > 1000:
                assert layout["chart"] > 0.55, layout  # the chart keeps its two thirds of the TV
                assert layout["drawn"] > 0.95, layout  # and is drawn across all of it
        pasur(db, "new", LONG[3], LONG[1])  # a second table: the room
        open_page(browser, server.url)
        wait(browser, lambda d: d.execute_script("return document.body.dataset.view") == "room")
        layout = browser.execute_script(LAYOUT)
        assert (layout["split"], layout["over"], layout["outside"], layout["pageWide"]) == ([], [], [], False), layout
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_room_of_four_tables_screenshot(browser, tmp_path):
    """The room at 1280x800 with four tables in play: all on one screen (docs/room.png comes from
    here, with PASUR_SCREENSHOTS=docs)."""
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Maman", "Sara", "Baba", "Reza")
    for first, second in TALLIES[:2]:
        pasur(db, "tally", "--match", "1", "--count", f"Maman & Baba: {first}", "--count", f"Sara & Reza: {second}")
    pasur(db, "new", "Ali", "Nasrin")
    pasur(db, "deal", *TABLE, "--match", "2")
    pasur(db, "play", "4C", "--match", "2")
    pasur(db, "new", "Omid", "Mina", "Parisa")
    pasur(db, "tally", "--match", "3", "--count", "Omid: clubs=8 aces=2 jacks=1 two_clubs=yes",
          "--count", "Mina: clubs=5 aces=2 jacks=3 ten_diamonds=yes", "--count", "Parisa: clubs=0")
    pasur(db, "new", "Kian", "Shirin", "--rule", "target=10")
    ali, sara = TALLIES[0]
    pasur(db, "tally", "--match", "4", "--count", f"Kian: {ali}", "--count", f"Shirin: {sara}")  # won
    size(browser, 1280, 800)
    with served(db) as server:
        open_page(browser, server.url)
        assert [e.get_attribute("data-match") for e in browser.find_elements(By.CSS_SELECTOR, "#room .tile")] == \
            ["1", "2", "3", "4"]
        assert text(browser, "#room .tile[data-match='4'] .tile-turn") == "Kian won the match"
        assert browser.execute_script("return document.documentElement.scrollHeight") <= 800
        path = tmp_path / "room.png"
        browser.save_screenshot(str(path))
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        keep = os.environ.get("PASUR_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(keep) / path.name)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
