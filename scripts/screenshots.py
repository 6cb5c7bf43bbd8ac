"""Takes the README's screenshots of the web table with headless Chromium.

    python scripts/screenshots.py [--seed 11] [--out docs/img] [--variants]

Writes ``table.png`` (the table in card play, with a hint) and ``analysis.png`` (the result,
the score sheet and the open-handed analysis after the game); with ``--variants`` instead
``kontra.png`` (a list with Kontra and Ramsch: the person has said Kontra) and ``ramsch.png``
(the next game, passed by all three and played as a Ramsch, at its end; ``rules`` opponents,
seed 5). Needs Debian's chromium and
chromium-driver (``scripts/install-browser``). The opponents are the default AI players; the
person's moves follow the simple policy of ``tests/browser.py``, so the pictures repeat for a
given seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium.webdriver.common.by import By  # noqa: E402

from skat.ui.common import DEFAULT_OPPONENT  # noqa: E402
from skat.web.app import Tables  # noqa: E402
from skat.web.server import BackgroundServer  # noqa: E402
from tests.browser import (  # noqa: E402
    body,
    chrome,
    click_and_wait,
    new_list,
    ready,
    step,
    wait_for,
)


def variants_shots(out: Path) -> list[str]:
    """``kontra.png`` and ``ramsch.png`` (see the module's documentation)."""
    from selenium.webdriver.support.select import Select

    with BackgroundServer(Tables(opponents=["rules"], pace=0)) as server:
        d = chrome(1400, 900)
        try:
            d.get(server.url + "/")
            wait_for(d, lambda: ready(d), what="the first state")
            d.find_element(By.ID, "new-kontra").click()
            Select(d.find_element(By.ID, "new-ramsch")).select_by_value("ramsch")
            new_list(d, seed=5, games=2)
            while body(d, "over") != "true":
                if d.find_elements(By.CSS_SELECTOR, "#actions button.kontra"):
                    click_and_wait(d, "#actions button.kontra")
                    d.save_screenshot(str(out / "kontra.png"))
                    continue
                step(d, max_bid=0)
            click_and_wait(d, "#next-game")
            while body(d, "over") != "true":
                step(d, max_bid=0)
            d.save_screenshot(str(out / "ramsch.png"))
        finally:
            d.quit()
    return ["kontra.png", "ramsch.png"]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", default=str(ROOT / "docs" / "img"))
    p.add_argument("--opponents", default=DEFAULT_OPPONENT)
    p.add_argument("--variants", action="store_true", help="the table variants' pictures")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.variants:
        names = variants_shots(out)
        for name in names:
            print(f"{out / name} ({(out / name).stat().st_size // 1024} KB)")
        return 0
    tables = Tables(opponents=[args.opponents], pace=0)
    with BackgroundServer(tables) as server:
        d = chrome(1400, 900)
        try:
            d.get(server.url + "/")
            wait_for(d, lambda: ready(d), what="the first state")
            new_list(d, seed=args.seed, games=3)
            shot = False
            while body(d, "over") != "true":
                trick = d.find_elements(By.CSS_SELECTOR, "#trick .slot .card")
                legal = d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
                tricks_done = sum(
                    int(m.text.split("·")[1].split()[0])
                    for m in d.find_elements(By.CSS_SELECTOR, ".player .meta:not(.put-away)")
                )
                if (
                    not shot
                    and body(d, "phase") == "play"
                    and tricks_done >= 2
                    and trick
                    and len(legal) > 1
                    and "last" not in (d.find_element(By.ID, "trick").get_attribute("class") or "")
                ):
                    d.find_element(By.ID, "hint-button").click()
                    wait_for(d, lambda: bool(d.find_elements(By.CSS_SELECTOR, "#hint tr.best")))
                    d.save_screenshot(str(out / "table.png"))
                    shot = True
                step(d)
            d.find_element(By.ID, "analysis-button").click()
            wait_for(
                d,
                lambda: len(d.find_elements(By.CSS_SELECTOR, "#analysis-table tbody tr")) > 0,
                what="the analysis",
            )
            # the result, the analysis and the side panels (score sheet) in one picture
            height = d.execute_script(
                "const r = document.getElementById('result-panel').getBoundingClientRect();"
                "const a = document.getElementById('analysis').getBoundingClientRect();"
                "return a.bottom - r.top;"
            )
            d.set_window_size(1400, min(int(height) + 240, 1900))
            d.execute_script(
                "window.scrollTo(0, document.getElementById('result-panel').offsetTop - 16)"
            )
            d.save_screenshot(str(out / "analysis.png"))
        finally:
            d.quit()
    for name in ("table.png", "analysis.png"):
        path = out / name
        print(f"{path} ({path.stat().st_size // 1024} KB)" if path.exists() else f"no {path}")
    return 0 if (out / "table.png").exists() else 1


if __name__ == "__main__":
    sys.exit(main())
