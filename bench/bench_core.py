"""Core speed: offline turn latency, grading (cold and warm), claim checking, store at 10,000 interviews.

    python bench/bench_core.py [--json] [--runs N]

Figures are medians (and p95 where a distribution matters) over several runs; cold figures start
a fresh process so they include imports and model loading.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
EVAL = REPO / "tests" / "fixtures" / "eval"

TEN_CLAIMS = (
    "10B params with Adam in mixed precision is 160 GB. ZeRO-3 over 8 GPUs gets it to 20 GB each. "
    "The KV cache for Llama-2-7B at 4k is 2 GB. Decode is memory-bound, about 1.3 ms/token for 2B int8 on an A100 40GB. "
    "GPT-3 175B on 300B tokens took about 3.14e23 FLOPs. Ring all-reduce sends 1.75x the gradient size per GPU on 8 GPUs. "
    "With 4 pipeline stages and 4 micro-batches the bubble is about 43%. Chinchilla says a 10B model wants 200B tokens. "
    "At 1000 requests per second and 200 ms latency we have 200 requests in flight. "
    "Llama-2-7B has about 6.7B parameters."
)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def ms(seconds: float) -> float:
    return round(1000 * seconds, 1)


def turn_latency() -> dict:
    """Answer sent → next interviewer message, offline, embedder warm, over scripted interviews."""
    from interviewer import events as ev
    from interviewer.config import Settings
    from interviewer.engine import warm_up
    from interviewer.interviews import start_interview
    from interviewer.store import open_store

    warm_up()
    store = open_store()
    latencies: list[float] = []
    completed: list[float] = []
    """Until the turn's last event: the semantic similarity is added after the reply."""

    async def run(scenario_id: str, answers: list[str]) -> None:
        agent = start_interview(scenario_id, settings=Settings(), store=store)
        async for _ in agent.start():
            pass
        for answer in answers:
            started = time.perf_counter()
            replied = None
            async for event in agent.respond(answer):  # read every event, as the app does
                if replied is None and isinstance(event, ev.InterviewerMessage):
                    replied = time.perf_counter() - started
            if replied is not None:
                latencies.append(replied)
                completed.append(time.perf_counter() - started)
            if agent.finished:
                break

    for path in sorted(EVAL.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        for level in ("strong", "adequate", "weak", "wrong_numbers"):
            asyncio.run(run(data["scenario"], data[level]))
    return {
        "turns": len(latencies),
        "turn_p50_ms": ms(statistics.median(latencies)),
        "turn_p95_ms": ms(percentile(latencies, 0.95)),
        "turn_max_ms": ms(max(latencies)),
        "turn_complete_p95_ms": ms(percentile(completed, 0.95)),
    }


def grade_timing(runs: int) -> dict:
    answers = yaml.safe_load((EVAL / "train-10b-8gpu.yaml").read_text())["strong"]
    answers = (answers * 2)[:6]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(answers, handle)
    cold = []
    for _ in range(max(1, runs // 2)):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "interviewer", "grade", "--scenario", "train-10b-8gpu", "--answers", handle.name, "--json"],
            check=True,
            capture_output=True,
        )
        cold.append(time.perf_counter() - started)
    from interviewer.engine import grade_answers, warm_up
    from rubrics.loader import get_scenario

    warm_up()
    scenario = get_scenario("train-10b-8gpu").scenario
    grade_answers(scenario, answers)
    warm = []
    for _ in range(runs):
        started = time.perf_counter()
        grade_answers(scenario, answers)
        warm.append(time.perf_counter() - started)
    os.unlink(handle.name)
    return {"grade6_cold_s": round(statistics.median(cold), 2), "grade6_warm_ms": ms(statistics.median(warm))}


def check_timing(runs: int) -> dict:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "interviewer", "check", TEN_CLAIMS, "--json"], check=True, capture_output=True, text=True)
    cold = time.perf_counter() - started
    claims = json.loads(result.stdout)["claims"]
    from interviewer.claims import check_claims

    check_claims(TEN_CLAIMS)
    warm = []
    for _ in range(runs):
        started = time.perf_counter()
        check_claims(TEN_CLAIMS)
        warm.append(time.perf_counter() - started)
    return {
        "check10_claims_found": len(claims),
        "check10_correct": sum(c["verdict"] == "correct" for c in claims),
        "check10_cold_s": round(cold, 2),
        "check10_warm_ms": ms(statistics.median(warm)),
    }


def interview_rss() -> dict:
    """Peak resident memory of a plain-terminal interview process (the engine the app runs)."""
    answers = yaml.safe_load((EVAL / "serve-2b-p99.yaml").read_text())["strong"]
    script = "\n".join(answers + ["/end"]) + "\n"
    subprocess.run([sys.executable, "-m", "interviewer", "interview", "--scenario", "serve-2b-p99"], input=script, text=True, capture_output=True, check=True)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"interview_peak_rss_mib": round(peak_kib / 1024, 1)}


def store_at_scale(count: int = 10_000) -> dict:
    """The history queries at 10,000 stored interviews (the screen's own numbers are in tui_latency)."""
    from bench.seed_history import seed
    from interviewer.store import TranscriptStore

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.db"
        seed(path, count)
        store = TranscriptStore(path)
        list_times, search_times = [], []
        for _ in range(5):
            started = time.perf_counter()
            store.list_interviews()
            store.scenario_stats()
            list_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            store.list_interviews(search="gating")
            search_times.append(time.perf_counter() - started)
        return {
            "history_rows": store.count(),
            "history_list_ms": ms(statistics.median(list_times)),
            "history_search_ms": ms(statistics.median(search_times)),
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    with tempfile.TemporaryDirectory() as home:
        os.environ["INTERVIEWER_HOME"] = home
        results: dict = {}
        results.update(turn_latency())
        results.update(grade_timing(args.runs))
        results.update(check_timing(args.runs))
        results.update(interview_rss())
        results.update(store_at_scale())
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:>26}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
