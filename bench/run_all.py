"""Run the whole benchmark suite and print one table (medians and ratios, with the targets).

    python bench/run_all.py [--quick] [--fuzz-seconds 180] [--json]

Each benchmark is its own script in bench/ with a --json mode; this runs them one after the other
(on a quiet machine: they time things) and collects the figures.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

ROWS = [
    # (script, key, label, unit, target)
    ("tui_latency.py", "launch_to_home_ms_median", "launch → first interactive screen (tmux)", "ms", "< 600 ms"),
    ("tui_latency.py", "launch_to_scenario_list_ms_median", "launch → scenario list filled", "ms", ""),
    ("tui_latency.py", "first_question_ms_median", "scenario chosen → first question visible", "ms", ""),
    ("tui_latency.py", "bare_textual_launch_ms_median", "bare Textual app → rows, same venv (tmux)", "ms", ""),
    ("tui_latency.py", "scenario_list_to_bare_ratio", "launch → scenario list, ratio to the bare app", "×", "≤ 2.0"),
    ("tui_latency.py", "first_launch_to_scenario_list_ms_median", "very first launch (fresh data dir) → scenario list", "ms", ""),
    ("tui_latency.py", "first_reply_shown_ms_median", "first answer → reply drawn (models loading)", "ms", "≤ 1000 ms"),
    ("tui_latency.py", "first_turn_ms_median", "first answer → turn over (models loading)", "ms", ""),
    ("tui_latency.py", "warm_turn_ms_median", "answer → reply in the app (warm)", "ms", ""),
    ("tui_latency.py", "app_peak_rss_mib", "peak RSS of the app during an interview", "MiB", ""),
    ("bench_core.py", "turn_p50_ms", "offline turn latency p50 (engine, warm)", "ms", ""),
    ("bench_core.py", "turn_p95_ms", "offline turn latency p95 (engine, warm)", "ms", "< 150 ms"),
    ("bench_core.py", "turn_complete_p95_ms", "offline turn p95 until its last event (similarity added)", "ms", ""),
    ("bench_core.py", "grade6_cold_s", "`interviewer grade`, six turns, cold process", "s", ""),
    ("bench_core.py", "grade6_warm_ms", "grade six turns, warm", "ms", "< 500 ms"),
    ("bench_core.py", "check10_cold_s", "`interviewer check`, ten-claim paragraph, cold", "s", ""),
    ("bench_core.py", "check10_warm_ms", "check ten claims, warm", "ms", ""),
    ("bench_core.py", "interview_peak_rss_mib", "peak RSS of a plain-terminal interview", "MiB", ""),
    ("bench_core.py", "history_list_ms", "store: list + stats at 10,000 interviews", "ms", ""),
    ("bench_core.py", "history_search_ms", "store: full-text search at 10,000 interviews", "ms", ""),
    ("tui_history.py", "open_ms_median", "History screen open (rows shown), 10,000 interviews (tmux)", "ms", "< 1000 ms"),
    ("tui_history.py", "chart_ms_median", "History screen open, score chart drawn too", "ms", ""),
    ("tui_history.py", "search_ms_median", "History screen search, 10,000 interviews (tmux)", "ms", ""),
    ("retrieval_recall.py", "full_index_s", "knowledge base: full index build", "s", ""),
    ("retrieval_recall.py", "incremental_reindex_s", "knowledge base: incremental re-index (no change)", "s", ""),
    ("retrieval_recall.py", "query_median_ms", "knowledge query median (warm)", "ms", ""),
    ("retrieval_recall.py", "query_p95_ms", "knowledge query p95 (warm)", "ms", ""),
    ("retrieval_recall.py", "recall@3", "retrieval recall@3", "", "≥ 0.9"),
    ("claims_accuracy.py", "correct_called_incorrect", "claims: correct called incorrect", "", "0"),
    ("claims_accuracy.py", "wrong_caught", "claims: wrong claims caught", "", "≥ 0.9"),
    ("claims_accuracy.py --set sealed", "false_alarms", "claims, sealed blind set: texts with a false 'incorrect'", "", "0"),
    ("claims_accuracy.py --set sealed", "wrong_caught_share", "claims, sealed blind set: wrong claims caught", "", "≥ 0.9"),
    ("judge_accuracy.py --set sealed", "criterion_agreement", "judge, sealed blind set: criterion agreement", "", "≥ 0.85"),
    ("judge_accuracy.py --set sealed", "mean_abs_error", "judge, sealed blind set: mean |score − expert|", "", "≤ 8"),
    ("fuzz_claims.py", "inputs", "claim-parser fuzz: inputs", "", ""),
    ("fuzz_claims.py", "crashes", "claim-parser fuzz: crashes", "", "0"),
    ("fuzz_claims.py", "slow_calls", "claim-parser fuzz: calls over 2 s", "", ""),
    ("flops_70b.py", "median_seconds", "70B forward-FLOPs count (meta device)", "s", "seconds"),
    ("flops_70b.py", "peak_rss_delta_bytes", "70B forward-FLOPs: peak RSS growth", "bytes", ""),
]


def run(script: str, extra: list[str]) -> tuple[dict | None, str]:
    """``script`` may carry its own arguments ("judge_accuracy.py --set sealed")."""
    started = time.perf_counter()
    name, *arguments = script.split()
    proc = subprocess.run([sys.executable, str(HERE / name), "--json", *arguments, *extra], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    try:
        text = proc.stdout
        return json.loads(text[text.index("{") :]), f"{elapsed:.0f} s"
    except ValueError:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        return None, f"failed (exit {proc.returncode}): {tail[0]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer runs, 30 s of fuzzing")
    parser.add_argument("--fuzz-seconds", type=float, default=180.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = ["--runs", "3"] if args.quick else []
    extras = {
        "tui_latency.py": runs,
        "bench_core.py": runs,
        "tui_history.py": runs,
        "flops_70b.py": runs,
        "fuzz_claims.py": ["--seconds", str(30 if args.quick else args.fuzz_seconds)],
    }
    results: dict[str, dict | None] = {}
    status: dict[str, str] = {}
    for script in dict.fromkeys(row[0] for row in ROWS):
        print(f"running {script} …", file=sys.stderr, flush=True)
        results[script], status[script] = run(script, extras.get(script, []))
    table = []
    for script, key, label, unit, target in ROWS:
        value = (results.get(script) or {}).get(key)
        table.append({"metric": label, "value": value, "unit": unit, "target": target, "script": script})
    if args.json:
        print(json.dumps({"rows": table, "status": status}, indent=2))
        return 0
    width = max(len(row["metric"]) for row in table)
    print(f"\n{'metric':<{width}}  {'median/value':>14}  target")
    print("-" * (width + 30))
    for row in table:
        value = row["value"]
        shown = "—" if value is None else (f"{value:.3g}" if isinstance(value, float) else str(value))
        print(f"{row['metric']:<{width}}  {shown + (' ' + row['unit'] if row['unit'] and value is not None else ''):>14}  {row['target']}")
    print("\nscripts: " + "; ".join(f"{s} {t}" for s, t in status.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
