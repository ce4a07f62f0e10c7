"""The web table in a real headless browser (Chromium from the system's packages, driven by Selenium):
every shipped game's page at every seat, and a whole game played by clicking against bots. Skipped when
no browser is installed (`.ci/run` installs chromium and chromium-driver when it can). Screenshots go to
$MEEPLE_SCREENSHOTS when set, else to the test's temporary folder."""
import os
import re
import shutil
import threading
from pathlib import Path

import pytest

webdriver = pytest.importorskip("selenium.webdriver")
pytest.importorskip("flask")

from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from interpreter.webtable import create_app  # noqa: E402
from test_presentation import SHIPPED  # noqa: E402

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (BROWSER and DRIVER), reason="no Chromium and chromedriver installed")


@pytest.fixture(scope="module")
def server():
    app = create_app()
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", app
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1500,1800"):
        options.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    except WebDriverException as exc:
        pytest.skip(f"the browser does not start: {exc.msg}")
    yield driver
    driver.quit()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("MEEPLE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def gone(element):
    """A wait condition: `element` has left the page (the browser may say so in more than one way), and
    the next page is loaded."""
    def check(driver):
        try:
            element.is_enabled()
            return False
        except WebDriverException:
            return driver.execute_script("return document.readyState") == "complete"
    return check


def new_table(driver, base, game, players, seats):
    driver.get(base + "/")
    driver.find_element(By.CSS_SELECTOR, f"#game option[value='{game}']").click()
    box = driver.find_element(By.ID, "players")
    box.clear()
    box.send_keys(str(players))
    for i, kind in enumerate(seats, 1):
        driver.find_element(By.CSS_SELECTOR, f"#seat{i} option[value='{kind}']").click()
    driver.find_element(By.ID, "start").click()
    links = WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.seat-link"))
    return [a.get_attribute("href") for a in links]


@pytest.mark.parametrize("game", SHIPPED)
def test_every_seats_page_in_the_browser(server, browser, shots, game):
    base, app = server
    from interpreter.game import load_game

    players = min(load_game(game).player_counts)
    links = new_table(browser, base, game, players, ["human"] * players)
    assert len(links) == players
    for seat, link in enumerate(links, 1):
        browser.get(link)
        assert browser.find_element(By.CSS_SELECTOR, "section.own h2").text.endswith(f"Player {seat}")
        assert browser.find_elements(By.CSS_SELECTOR, "svg")
        path = shots / f"{game}-seat{seat}.png"
        assert browser.save_screenshot(str(path)) and path.stat().st_size > 10_000


def test_a_whole_game_by_clicking_against_bots(server, browser, shots):
    base, app = server
    links = new_table(browser, base, "puerto_rico", 3, ["human", "random", "greedy"])
    browser.get(links[0])
    clicks = 0
    while not browser.find_elements(By.ID, "winner"):
        buttons = browser.find_elements(By.CSS_SELECTOR, "button.choice")
        assert buttons, "a page without a result offers choices"
        buttons[0].click()
        WebDriverWait(browser, 20).until(gone(buttons[0]))  # the next page has come
        clicks += 1
        assert clicks < 1000
    assert clicks > 20
    assert re.match(r"Winner|Winners", browser.find_element(By.ID, "winner").text)
    assert browser.find_element(By.ID, "record").get_attribute("href").endswith("/record")
    path = shots / "puerto_rico-game-over.png"
    assert browser.save_screenshot(str(path)) and path.stat().st_size > 10_000
