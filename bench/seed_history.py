"""Fill a transcript database with N realistic finished interviews (for history benchmarks and tests)."""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from interviewer.store import TranscriptStore

SCENARIOS = [
    "train-10b-8gpu",
    "serve-2b-p99",
    "realtime-translation",
    "attention-vs-rnn",
    "moe-routing",
    "parallelism-allreduce",
]
ANSWERS = [
    "ZeRO-3 shards optimizer states, gradients and parameters across the GPUs.",
    "Top-2 gating with a load balancing loss and a capacity factor of 1.25.",
    "Decode is memory-bound, so int8 weights halve the time per token.",
    "Ring all-reduce sends 2(n-1)/n of the buffer per GPU.",
    "We checkpoint shards asynchronously every 30 minutes.",
]


def seed(path: Path, count: int, turns_per_interview: int = 6) -> None:
    """Bulk insert in one transaction with the store's own schema (created by its migrations)."""
    store = TranscriptStore(path)
    rng = random.Random(7)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    db = store.db
    with db:
        for i in range(count):
            scenario = SCENARIOS[i % len(SCENARIOS)]
            started = start + timedelta(hours=i)
            score = round(rng.uniform(10, 95), 1)
            cursor = db.execute(
                "INSERT INTO interviews (scenario_id, scenario_hash, title, mode, level, status, started_at, finished_at, score)"
                " VALUES (?, 'seed', ?, 'offline', 'senior', 'finished', ?, ?, ?)",
                (scenario, scenario.replace("-", " ").title(), started.isoformat(), (started + timedelta(minutes=30)).isoformat(), score),
            )
            interview_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO turns (interview_id, seq, role, kind, content, created_at, meta_json) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        interview_id,
                        seq,
                        "candidate" if seq % 2 else "interviewer",
                        "answer" if seq % 2 else "question",
                        ANSWERS[(i + seq) % len(ANSWERS)] if seq % 2 else "What would you do next?",
                        (started + timedelta(minutes=seq)).isoformat(),
                        json.dumps({}),
                    )
                    for seq in range(turns_per_interview)
                ],
            )
    store.close()


if __name__ == "__main__":
    seed(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 10_000)
