#!/usr/bin/env python
"""TUI latency in a real terminal (tmux): launch → home screen, and answer → interviewer reply.

    python bench/tui_latency.py                 # 5 launches, 5 sessions × 4 answers, offline mode
    python bench/tui_latency.py --runs 9 --json # more runs, one JSON object on stdout
    python bench/tui_latency.py --launch-only   # launches only, against the bare Textual app

Launch: from the moment tmux starts ``python -m interviewer`` (no arguments) until the home
screen's text is on screen (``capture-pane`` polled every 10 ms), and until the scenario list
is filled, for a returning user (a data folder the app has run in before) and, separately, for
the very first launch (a fresh data folder, so no scenario-list cache); the same for
``bench/bare_textual_app.py`` (a bare Textual app with a bordered list, launched alternately in
the same venv and terminal), and the ratio of the two medians. First question: from Enter on a
scenario until its first question is shown. Turn:
from ``send-keys C-s`` until the reply is in and the editor offers Ctrl+S again (see
``tmux_session.send_and_wait``), with the models already warm (steady state); the first turn of
each session is reported on its own, since it races the background warm-up: until its reply is
drawn, and until the turn is over (the answer's similarity is added after the reply). Peak RSS: the
app's VmHWM at the end of a session.
Medians over runs. Each interview session uses a fresh data folder; the knowledge index is shared between
runs (``--chroma-dir``) so that building it is not what gets measured.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_textual_app import READY_TEXT as BARE_READY_TEXT
from tmux_session import (
    DEFAULT_CHROMA_CACHE,
    CheckFailed,
    TmuxApp,
    app_command,
    app_env,
    idle,
    send_and_wait,
    send_and_wait_for_reply,
    transcript_shown,
    typed,
)

HOME_TEXT = "search scenarios"
LIST_TEXT = " scenarios ─"
ANSWERS = [
    "Mixed-precision AdamW keeps 16 bytes per parameter, so 10B parameters need 160 GB of model states.",
    "I would shard them with ZeRO-3 over the 8 GPUs, which leaves 20 GB of model states per GPU.",
    "Activations: I would turn on activation checkpointing and keep bf16 for the matmuls.",
    "With Chinchilla's 20 tokens per parameter that is 200B tokens, about 1.2e22 FLOPs.",
    "Gradient accumulation keeps the global batch near a million tokens with a linear warmup.",
    "I would checkpoint every hour, optimizer state included, to local NVMe and then the object store.",
    "ZeRO-2 would need 37.5 GB per GPU of model states, too close to the 40 GB limit.",
    "Loss spikes: skip the bad batches, lower the learning rate and restart from the last checkpoint.",
]
"""Distinct answers, so a repeated text can never be mistaken for the one just typed."""


def measure_bare_launch(size: tuple[int, int]) -> float:
    """Launch → rows shown for ``bench/bare_textual_app.py``: the same venv, terminal and polling."""
    with tempfile.TemporaryDirectory(prefix="interviewer-latency-") as folder:
        command = [sys.executable, str(Path(__file__).resolve().parent / "bare_textual_app.py")]
        app = TmuxApp(command, width=size[0], height=size[1], env=app_env(Path(folder), None), cwd=Path(folder))
        try:
            started = app.start()
            app.wait_for(BARE_READY_TEXT, timeout=60, poll=0.01)
            shown = time.monotonic() - started
            app.keys("C-q")
            return shown
        finally:
            app.stop()


def measure_launch(entry: str, chroma_dir: Path | None, size: tuple[int, int], data_home: Path | None = None) -> tuple[float, float]:
    """(launch → home screen, launch → scenario list); ``data_home``: a data folder to reuse (a
    returning user's), else a fresh one (the very first launch)."""
    with tempfile.TemporaryDirectory(prefix="interviewer-latency-") as scratch:
        folder = data_home or Path(scratch)
        app = TmuxApp(app_command(entry), width=size[0], height=size[1], env=app_env(folder, chroma_dir), cwd=folder)
        try:
            started = app.start()
            app.wait_for(HOME_TEXT, timeout=60, poll=0.01)
            home = time.monotonic() - started
            app.wait_for(LIST_TEXT, timeout=60, poll=0.01)
            listed = time.monotonic() - started
            app.keys("C-q")
            time.sleep(0.3)  # let it exit before the next launch reuses the folder
            return home, listed
        finally:
            app.stop()


def measure_turns(
    entry: str, chroma_dir: Path | None, size: tuple[int, int], answers: int
) -> tuple[float, float, list[float], float | None]:
    """(scenario chosen → first question, first turn right after opening, steady-state turns with
    the models warm, the app's peak RSS in MiB)."""
    with tempfile.TemporaryDirectory(prefix="interviewer-latency-") as folder:
        app = TmuxApp(app_command(entry), width=size[0], height=size[1], env=app_env(Path(folder), chroma_dir), cwd=Path(folder))
        try:
            app.start()
            app.wait_for(LIST_TEXT, timeout=60)
            app.keys("/")
            app.type("10B-parameter")
            app.wait_until(lambda s: "The Transformer" not in s, "the search to filter", timeout=10)
            chosen = time.monotonic()
            app.keys("Enter")
            app.wait_until(lambda s: idle(s) and transcript_shown(s), "the first question", timeout=120)
            question = time.monotonic() - chosen
            app.type(ANSWERS[0])
            app.wait_until(typed(ANSWERS[0]), "the answer in the editor", timeout=20)
            first_shown, first = send_and_wait_for_reply(app, timeout=180)
            app.wait_until(lambda s: "loading models" not in s, "the warm-up", timeout=300)
            steady = []
            for index in range(answers):
                text = ANSWERS[1 + index % (len(ANSWERS) - 1)]
                app.type(text)
                app.wait_until(typed(text), "the answer in the editor", timeout=20)
                steady.append(send_and_wait(app, timeout=180))
            peak = app.peak_rss_mib()
            app.keys("C-q")
            return question, (first_shown, first), steady, peak
        finally:
            app.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="launches and interview sessions to time (default 5)")
    parser.add_argument("--answers", type=int, default=4, help="steady-state answers per session (default 4)")
    parser.add_argument("--entry", choices=["cli", "tui"], default="cli", help="cli: python -m interviewer; tui: python -m tui")
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--chroma-dir", type=Path, default=DEFAULT_CHROMA_CACHE)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--launch-only", action="store_true", help="time the launches only (no interview sessions)")
    args = parser.parse_args(argv)
    size = tuple(int(part) for part in args.size.lower().split("x"))
    say = (lambda *a, **k: None) if args.json else print

    try:
        say(f"warming the knowledge index cache in {args.chroma_dir} (not timed)…", flush=True)
        measure_launch(args.entry, args.chroma_dir, size)
        measure_bare_launch(size)
        returning_home = Path(tempfile.mkdtemp(prefix="interviewer-latency-home-"))
        measure_launch(args.entry, args.chroma_dir, size, returning_home)  # the user's first launch, untimed
        launches, firsts_launch, bare = [], [], []
        for run in range(args.runs):
            # Alternate with the bare app, so a machine that gets busier slows both alike.
            bare.append(measure_bare_launch(size))
            home, listed = measure_launch(args.entry, args.chroma_dir, size, returning_home)
            launches.append((home, listed))
            firsts_launch.append(measure_launch(args.entry, args.chroma_dir, size)[1])
            say(
                f"  launch {run + 1}: home screen {home * 1000:6.0f} ms, scenario list {listed * 1000:6.0f} ms"
                f" (fresh data dir {firsts_launch[-1] * 1000:6.0f} ms), bare Textual app {bare[-1] * 1000:6.0f} ms",
                flush=True,
            )
        shutil.rmtree(returning_home, ignore_errors=True)
        questions, firsts, firsts_shown, steady, peaks = [], [], [], [], []
        for run in range(0 if args.launch_only else args.runs):
            question, (first_shown, first), turns, peak = measure_turns(args.entry, args.chroma_dir, size, args.answers)
            questions.append(question)
            firsts_shown.append(first_shown)
            firsts.append(first)
            steady.extend(turns)
            if peak is not None:
                peaks.append(peak)
            warm = ", ".join(f"{t * 1000:.0f}" for t in turns)
            say(
                f"  session {run + 1}: first question {question * 1000:6.0f} ms, first reply drawn {first_shown * 1000:6.0f} ms,"
                f" first turn over {first * 1000:6.0f} ms,"
                f" warm turns {warm} ms",
                flush=True,
            )
    except CheckFailed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        return 1

    def median_ms(values) -> int | None:
        values = list(values)
        return round(statistics.median(values) * 1000) if values else None

    listed_median = statistics.median(listed for _, listed in launches)
    bare_median = statistics.median(bare)
    summary = {
        "entry": args.entry,
        "terminal": args.size,
        "runs": args.runs,
        "launch_to_home_ms_median": median_ms(h for h, _ in launches),
        "launch_to_scenario_list_ms_median": median_ms(listed for _, listed in launches),
        "first_launch_to_scenario_list_ms_median": median_ms(firsts_launch),
        "bare_textual_launch_ms_median": median_ms(bare),
        "scenario_list_to_bare_ratio": round(listed_median / bare_median, 2),
        "first_question_ms_median": median_ms(questions),
        "first_reply_shown_ms_median": median_ms(firsts_shown),
        "first_turn_ms_median": median_ms(firsts),
        "warm_turn_ms_median": median_ms(steady),
        "warm_turns_measured": len(steady),
        "app_peak_rss_mib": round(max(peaks)) if peaks else None,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(
            f"\nmedians ({args.entry} entry, {args.size}, {args.runs} runs):\n"
            f"  launch → home screen        {summary['launch_to_home_ms_median']:6d} ms\n"
            f"  launch → scenario list      {summary['launch_to_scenario_list_ms_median']:6d} ms"
            f"  (a fresh data dir, the very first launch: {summary['first_launch_to_scenario_list_ms_median']} ms)\n"
            f"  bare Textual app → rows     {summary['bare_textual_launch_ms_median']:6d} ms"
            f"  (scenario list / bare = {summary['scenario_list_to_bare_ratio']:.2f}×)\n"
            f"  scenario → first question   {summary['first_question_ms_median']} ms\n"
            f"  first answer → reply drawn  {summary['first_reply_shown_ms_median']} ms\n"
            f"  first answer → turn over    {summary['first_turn_ms_median']} ms\n"
            f"  answer → reply (warm)       {summary['warm_turn_ms_median']} ms  ({len(steady)} turns)\n"
            f"  app peak RSS                {summary['app_peak_rss_mib']} MiB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
