"""History screen at scale: open and search with 10,000 stored interviews (headless Textual).

    python bench/tui_history.py [--count 10000] [--runs 5] [--json]

Open: from pressing ``h`` on the home screen until the table shows rows and the total. Search:
from submitting a query until the matching rows are shown. Medians over runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


async def wait_until(pilot, predicate, timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("the history screen did not update in time")
        await pilot.pause(0.005)


async def measure(store, count: int) -> tuple[float, float]:
    from textual.widgets import Input

    from interviewer.config import Settings
    from tui.app import make_app
    from tui.widgets.interview_table import InterviewTable

    app = make_app(Settings(), store=store)
    async with app.run_test(size=(120, 40)) as pilot:
        # Measure the screen, not the model warm-up that runs in the background after launch.
        from interviewer.engine import is_warm

        await wait_until(pilot, is_warm, timeout=120)
        await wait_until(pilot, lambda: all(w.is_finished for w in app.workers))
        started = time.perf_counter()
        await pilot.press("h")
        await wait_until(
            pilot,
            lambda: type(app.screen).__name__ == "HistoryScreen"
            and app.screen.query_one(InterviewTable).row_count > 0
            and str(count) in str(app.screen.sub_title),
        )
        opened = time.perf_counter() - started
        table = app.screen.query_one(InterviewTable)
        search = app.screen.query_one("#history-search", Input)
        search.value = "balancing"
        started = time.perf_counter()
        await search.action_submit()
        await pilot.pause()
        await wait_until(pilot, lambda: all(w.is_finished for w in app.workers))
        await pilot.pause()
        searched = time.perf_counter() - started
        assert table.row_count > 0
        return opened, searched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from bench.seed_history import seed

    with tempfile.TemporaryDirectory() as home:
        os.environ["INTERVIEWER_HOME"] = home
        from interviewer.store import TranscriptStore

        path = Path(home) / "interviewer.db"
        seed(path, args.count)
        opens, searches = [], []
        for _ in range(args.runs):
            store = TranscriptStore(path)
            opened, searched = asyncio.run(measure(store, args.count))
            store.close()
            opens.append(opened)
            searches.append(searched)
    report = {
        "interviews": args.count,
        "runs": args.runs,
        "open_ms_median": round(1000 * statistics.median(opens), 1),
        "search_ms_median": round(1000 * statistics.median(searches), 1),
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:>18}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
