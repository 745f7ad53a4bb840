"""History screen at scale, in a real terminal (tmux): open and search with 10,000 interviews.

    python bench/tui_history.py [--count 10000] [--runs 5] [--json]

Each run starts ``python -m interviewer`` in tmux on a copy of one seeded database, waits
until the models are warm (so the background warm-up is not what gets measured), then:

- open: from ``h`` on the home screen until the newest rows and the total are on screen;
- chart: from ``h`` until the score chart is drawn too (it is drawn on the next frame);
- search: from Enter on a query until the matching rows are on screen.

``capture-pane`` is polled every 20 ms. Medians over runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from tmux_session import DEFAULT_CHROMA_CACHE, CheckFailed, TmuxApp, app_command, app_env  # noqa: E402

SEARCH = "balancing"
ROWS_TEXT = "Newest 200"
CHART_TEXT = "Scores over time"


def measure(seeded: Path, count: int, chroma_dir: Path | None) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory(prefix="interviewer-history-") as folder:
        shutil.copy(seeded, Path(folder) / "interviewer.db")
        app = TmuxApp(app_command("cli"), width=120, height=40, env=app_env(Path(folder), chroma_dir), cwd=Path(folder))
        try:
            app.start()
            app.wait_for(" scenarios ─", timeout=60)
            app.wait_until(lambda s: "loading models" not in s, "the warm-up", timeout=300)
            time.sleep(1.0)  # let the warm-up thread's last imports finish
            started = time.monotonic()
            app.keys("h")
            app.wait_until(lambda s: ROWS_TEXT in s and f"{count} interviews" in s, "the history rows", timeout=60)
            opened = time.monotonic() - started
            app.wait_until(lambda s: CHART_TEXT in s, "the score chart", timeout=60)
            charted = time.monotonic() - started
            app.keys("/")
            app.type(SEARCH)
            app.wait_until(lambda s: SEARCH in s, "the query in the search box", timeout=10)
            started = time.monotonic()
            app.keys("Enter")
            app.wait_until(lambda s: f"matching “{SEARCH}”" in s, "the search results", timeout=60)
            searched = time.monotonic() - started
            app.keys("C-q")
            return opened, charted, searched
        finally:
            app.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--chroma-dir", type=Path, default=DEFAULT_CHROMA_CACHE)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from bench.seed_history import seed

    opens, charts, searches = [], [], []
    with tempfile.TemporaryDirectory(prefix="interviewer-history-seed-") as folder:
        seeded = Path(folder) / "interviewer.db"
        seed(seeded, args.count)
        try:
            for run in range(args.runs):
                opened, charted, searched = measure(seeded, args.count, args.chroma_dir)
                opens.append(opened)
                charts.append(charted)
                searches.append(searched)
                if not args.json:
                    print(f"  run {run + 1}: rows {opened * 1000:.0f} ms, chart {charted * 1000:.0f} ms, search {searched * 1000:.0f} ms")
        except CheckFailed as failure:
            print(f"FAILED: {failure}", file=sys.stderr)
            return 1
    report = {
        "interviews": args.count,
        "runs": args.runs,
        "open_ms_median": round(1000 * statistics.median(opens)),
        "chart_ms_median": round(1000 * statistics.median(charts)),
        "search_ms_median": round(1000 * statistics.median(searches)),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
