"""The scoreboard in a real browser: Debian's Chromium driven by Selenium through Debian's
chromedriver (no driver or browser downloaded), reaching nothing but loopback. Behind the
``browser`` marker: `.ci/run` installs Chromium and runs them (`python -m pytest -m browser`).

Every wait is on the page's state (WebDriverWait), with the issue's bound of 2 s for a change
recorded by another process. PASUR_SCREENSHOTS=FOLDER keeps the phone and TV screenshots there
(the README's come from here)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("starlette")
webdriver = pytest.importorskip("selenium.webdriver")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from serving import served  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHANGE = 2.0  # seconds: a play recorded elsewhere is on the page within this
ALICE = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def browser():
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        pytest.fail("Chromium is not installed: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions", "--disable-background-networking",
                # every request through a proxy that is not there, but loopback (Chromium bypasses it for
                # loopback by itself; <-loopback> would send loopback to the dead proxy too)
                "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=127.0.0.1;localhost"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)  # no Selenium Manager: the path is given
    try:
        yield driver
    finally:
        driver.quit()


def size(driver, width, height, scheme="light"):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def pasur(db, *args):
    """`pasur ARGS` in another process, as a player at the table would type it."""
    done = subprocess.run([sys.executable, "-m", "pasur_cli", "--db", str(db), *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PASUR_LANG": "en"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def open_page(driver, url, query=""):
    driver.get(url + (("&" if "?" in url else "?") + query if query else ""))
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.body.dataset.ready"))


def text(driver, css):
    """An element's text without the isolates around each fact (U+2068, U+2069)."""
    return driver.find_element(By.CSS_SELECTOR, css).text.replace("\u2068", "").replace("\u2069", "")


def totals(driver):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#sides .total")]


def wait(driver, condition, timeout=CHANGE):
    """Until ``condition`` holds; an element the page drew anew while it was read is read again."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition(d))


@pytest.fixture
def playing(tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Ali", "Sara")
    pasur(db, "deal", "5C", "9D", "3H", "KS")
    return db


def test_the_page_follows_plays_undo_and_the_end_of_a_deal(browser, playing):
    size(browser, 1280, 720)
    with served(playing) as server:
        open_page(browser, server.url)
        assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#sides .name")] == ["Ali", "Sara"]
        assert totals(browser) == ["0", "0"]
        assert text(browser, "#goal") == "target 62"
        assert text(browser, "#turn") == "Sara to play"
        assert [e.get_attribute("data-card") for e in browser.find_elements(By.CSS_SELECTOR, "#table .card")] == \
            ["5C", "9D", "3H", "KS"]
        assert not browser.find_element(By.ID, "last-box").is_displayed()  # no play yet
        assert len(browser.find_elements(By.CSS_SELECTOR, "#chart circle")) == 2  # each side's 0 before deal 1

        pasur(playing, "play", "4C")
        wait(browser, lambda d: text(d, "#turn") == "Ali to play")
        assert text(browser, "#last") == "Sara played 4♣"
        pasur(playing, "play", "JD")  # the jack takes all but the king
        wait(browser, lambda d: text(d, "#last").startswith("Ali played J♦ and took"))
        taken = browser.find_elements(By.CSS_SELECTOR, "#last .cards .card")
        assert sorted(e.get_attribute("data-card") for e in taken) == ["3H", "4C", "5C", "9D"]
        now = browser.find_elements(By.CSS_SELECTOR, "#race tr.now td")
        assert [e.text for e in now] == ["1", "0"]  # if the deal ended now: Ali's jack
        assert text(browser, "#race tbody tr:first-child") == "Clubs 2 0"

        pasur(playing, "undo")
        wait(browser, lambda d: text(d, "#last") == "Sara played 4♣")
        assert [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#race tr.now td")] == ["0", "0"]
        assert text(browser, "#turn") == "Ali to play"

        pasur(playing, "undo")
        pasur(playing, "undo")  # the table too: the deal is awaited
        wait(browser, lambda d: text(d, "#deal") == "Deal 1: Ali deals; the table is awaited")
        assert not browser.find_element(By.ID, "table").is_displayed()
        assert not browser.find_element(By.ID, "last-box").is_displayed()
        pasur(playing, "tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
              "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
        wait(browser, lambda d: totals(d) == ["12", "8"])
        dots = browser.find_elements(By.CSS_SELECTOR, "#chart circle[data-deal='1']")
        assert [d.get_attribute("data-total") for d in dots] == ["12", "8"]
        assert text(browser, "#deals tfoot") == "Total 12 8"
        assert "tallied" in text(browser, "#deals tbody")


def test_the_winner_is_shown(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Ali", "Sara", "--rule", "target=10")
    with served(db) as server:
        open_page(browser, server.url)
        assert not browser.find_element(By.ID, "winner").is_displayed()
        pasur(db, "tally", "--count", "Ali: clubs=8 aces=2 jacks=1 two_clubs=yes",
              "--count", "Sara: clubs=5 aces=2 jacks=3 ten_diamonds=yes")
        wait(browser, lambda d: text(d, "#winner") == "Ali won the match")
        assert not browser.find_element(By.ID, "now").is_displayed()
        assert "leading" in browser.find_element(By.CSS_SELECTOR, "#sides .side.s0").get_attribute("class")


def test_a_viewer_that_lost_the_server_catches_up(browser, playing):
    with served(playing) as server:
        open_page(browser, server.url)
        port = server.port
    wait(browser, lambda d: d.find_element(By.ID, "offline").is_displayed(), timeout=10)
    pasur(playing, "play", "9S")  # while nobody serves
    with served(playing, "--port", str(port)) as again:
        assert again.port == port
        wait(browser, lambda d: text(d, "#last") == "Sara played 9♠", timeout=10)
        assert not browser.find_element(By.ID, "offline").is_displayed()


def test_persian_reads_right_to_left(browser, playing):
    pasur(playing, "play", "9S")
    with served(playing) as server:
        open_page(browser, server.url, "lang=fa")
        assert browser.execute_script("return [document.documentElement.dir, document.documentElement.lang,"
                                      " getComputedStyle(document.body).direction]") == ["rtl", "fa", "rtl"]
        assert text(browser, "h1 span[data-w]") == "تابلوی امتیاز پاسور"
        assert totals(browser) == ["۰", "۰"]  # Persian digits
        assert "نوبت" in text(browser, "#turn") and "Ali" in text(browser, "#turn")
        first, second = browser.find_elements(By.CSS_SELECTOR, "#sides .side")
        assert first.rect["x"] > second.rect["x"]  # the first side on the right
        assert text(browser, "#langs a[aria-current]") == "فارسی"


@pytest.mark.parametrize("lang,title", [("de", "Pasur-Anzeigetafel"), ("es", "Marcador de Pasur")])
def test_german_and_spanish(browser, playing, lang, title):
    with served(playing) as server:
        open_page(browser, server.url, f"lang={lang}")
        assert browser.title == title
        assert browser.execute_script("return document.documentElement.dir") == "ltr"


def test_a_name_with_html_in_it_is_shown_as_typed(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", ALICE, "<b>Sara</b>")
    pasur(db, "deal", "5C", "9D", "3H", "KS")
    pasur(db, "play", "9S")
    with served(db) as server:
        open_page(browser, server.url)
        names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#sides .name")]
        assert names == [ALICE, "<b>Sara</b>"]
        assert text(browser, "#last") == "<b>Sara</b> played 9♠"
        assert browser.find_elements(By.CSS_SELECTOR, "#sides b, #last b") == []
        assert len(browser.find_elements(By.TAG_NAME, "script")) == 1  # the page's own
        assert browser.execute_script("return document.querySelectorAll('svg title')[0].textContent") == ALICE + ": 0"


def test_under_lan_the_token_is_needed(browser, playing):
    with served(playing, "--lan") as server:
        browser.get(f"http://127.0.0.1:{server.port}/")
        assert "forbidden" in browser.find_element(By.TAG_NAME, "body").text
        open_page(browser, f"http://127.0.0.1:{server.port}{server.prefix}/")
        assert totals(browser) == ["0", "0"]
        # the language links keep the token
        browser.find_element(By.CSS_SELECTOR, "#langs a[data-lang='de']").click()
        wait(browser, lambda d: d.title == "Pasur-Anzeigetafel" and d.execute_script("return document.body.dataset.ready"),
             timeout=10)
        assert browser.current_url.startswith(f"http://127.0.0.1:{server.port}{server.prefix}/?")


def test_every_write_method_is_refused_to_the_page(browser, playing):
    with served(playing) as server:
        open_page(browser, server.url)
        statuses = browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            Promise.all(["POST", "PUT", "PATCH", "DELETE"].flatMap((method) =>
                ["", "state", "events", "words"].map((path) => fetch(path, {method}).then((r) => r.status))))
              .then(done);""")
        assert statuses == [405] * 16
    assert pasur(playing, "show", "--json").count('"length": 1') == 1


def test_the_page_runs_no_inline_script(browser, playing):
    """The Content-Security-Policy allows the page's own files only: a script that got into the
    page as markup would not run."""
    with served(playing) as server:
        open_page(browser, server.url)
        assert browser.execute_script("const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
                                      " document.body.append(s); return window.ran === undefined") is True


SHOTS = [("phone", 390, 844, "light", ""), ("phone-fa-dark", 390, 844, "dark", "lang=fa"),
         ("tv", 1280, 720, "light", ""), ("tv-dark", 1280, 720, "dark", "")]


def test_screenshots_at_phone_and_tv_sizes(browser, tmp_path):
    db = tmp_path / "pasur.db"
    pasur(db, "new", "Maman", "Sara", "Baba", "Reza")
    for ali, sara, surs in [("clubs=8 aces=2 jacks=1 two_clubs=yes", "clubs=5 aces=2 jacks=3 ten_diamonds=yes", None),
                            ("clubs=4 aces=1 jacks=2", "clubs=9 aces=3 jacks=2 two_clubs=yes ten_diamonds=yes", "Maman=1"),
                            ("clubs=7 aces=3 jacks=3 ten_diamonds=yes", "clubs=6 aces=1 jacks=1 two_clubs=yes", "Sara=2")]:
        pasur(db, "tally", "--count", f"Maman & Baba: {ali}", "--count", f"Sara & Reza: {sara}",
              *(["--surs", surs] if surs else []))
    pasur(db, "deal", "5C", "9D", "3H", "KS")
    for card in ("4C", "JD", "10D", "9C"):
        pasur(db, "play", card)
    keep = os.environ.get("PASUR_SCREENSHOTS")
    with served(db) as server:
        for name, width, height, scheme, query in SHOTS:
            size(browser, width, height, scheme)
            open_page(browser, server.url, query)
            if width < 600:  # a phone: the whole page, as its owner scrolls through it
                height = browser.execute_script("return document.documentElement.scrollHeight")
                size(browser, width, height, scheme)
            path = tmp_path / f"{name}.png"
            browser.save_screenshot(str(path))
            data = path.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (width, height)
            if width >= 600:  # a TV: all of it on one screen
                assert browser.execute_script("return document.documentElement.scrollHeight") <= height
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(path, Path(keep) / path.name)
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
