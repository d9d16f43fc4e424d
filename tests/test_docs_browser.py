"""The docs pictures are readable in a real browser: headless Chromium lays the built pages out.

At a desktop window (1280 CSS px wide) every picture inlined in a page must fit
the page's column at its drawn size and its text must be at least 10 CSS px
high. A script injected into a copy of each built page measures every
``<text>`` of every ``.promo-picture svg`` with ``getBoundingClientRect`` and
writes the numbers into the DOM, which ``chromium --dump-dom`` prints.
The tests skip where no Chromium is installed (``apt-get install chromium``).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import TypedDict

import pytest

pytest.importorskip("mkdocs.config")

#: Where Chromium (or Chrome) may be found on PATH, in order.
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: A typical desktop browser window, in CSS px: the tables page's column is about 690 px wide there.
WINDOW = (1280, 2000)
#: The smallest readable height of a picture's text, in CSS px.
MIN_TEXT_PX = 10.0
#: The built pages with pictures inlined, and how many each has at least.
PAGES = {"tables/index.html": 12, "index.html": 1, "choosing/index.html": 1}

#: Measures every inlined picture once the page and its fonts have loaded, as JSON in ``#promo-measure``.
MEASURE = """<script>
addEventListener("load", () => document.fonts.ready.then(() => {
  const found = [...document.querySelectorAll(".promo-picture")].map((div) => {
    const svg = div.querySelector("svg");
    const heights = [...svg.querySelectorAll("text")].map((t) => t.getBoundingClientRect().height);
    return {
      label: div.getAttribute("aria-label"),
      texts: heights.length,
      min_text: Math.min(...heights),
      width: svg.getBoundingClientRect().width,
      drawn_width: svg.viewBox.baseVal.width,
      column: div.clientWidth,
      scrolls: div.scrollWidth > div.clientWidth,
    };
  });
  const out = document.createElement("pre");
  out.id = "promo-measure";
  out.textContent = JSON.stringify(found);
  document.body.append(out);
}));
</script>"""


class Measured(TypedDict):
    """One picture as laid out: its text's smallest height, its width and its column's, in CSS px."""

    label: str
    texts: int
    min_text: float
    width: float
    drawn_width: float
    column: float
    scrolls: bool


def browser() -> str | None:
    """The path of a Chromium (or Chrome) executable, or ``None``."""
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def measure(page: Path, profile: Path) -> list[Measured]:
    """Lay ``page`` out in headless Chromium at :data:`WINDOW` and measure its inlined pictures.

    Parameters
    ----------
    page
        A built HTML page; the measuring copy is written next to it, so that its stylesheets load.
    profile
        An empty directory for the browser's profile.

    Returns
    -------
    list of Measured
        One entry per ``.promo-picture`` in the page, in page order.
    """
    exe = browser()
    assert exe is not None
    copy = page.with_name("measure-" + page.name)
    copy.write_text(page.read_text().replace("</body>", MEASURE + "</body>"))
    done = subprocess.run(
        [
            exe,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",  # CI runs as root
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            "--virtual-time-budget=20000",
            "--dump-dom",
            copy.as_uri(),
        ],
        check=False,  # a failed run is reported below, with its stderr
        capture_output=True,
        text=True,
        timeout=300,  # against a hung browser only
    )
    found = re.search(r'<pre id="promo-measure">(.*?)</pre>', done.stdout, re.DOTALL)
    assert found, f"{exe} measured nothing (exit {done.returncode}):\n{done.stderr[-2000:]}"
    result: list[Measured] = json.loads(html.unescape(found.group(1)))
    return result


@pytest.fixture
def site(request: pytest.FixtureRequest) -> Path:
    if browser() is None:
        pytest.skip(f"no Chromium found (looked for {', '.join(BROWSERS)} on PATH)")
    built: Path = request.getfixturevalue("built_site")
    return built


@pytest.mark.parametrize("page", PAGES)
def test_every_picture_fits_the_column_with_readable_text(site: Path, page: str, tmp_path: Path) -> None:
    built = site / page
    pictures = measure(built, tmp_path / "profile")
    assert len(pictures) == built.read_text().count("class='promo-picture'") >= PAGES[page]
    for p in pictures:
        assert p["texts"] > 0, p
        assert p["min_text"] >= MIN_TEXT_PX, f"{p['label']}: text {p['min_text']:g} px high: {p}"
        assert not p["scrolls"] and p["width"] <= p["column"], f"{p['label']} is wider than the column: {p}"
