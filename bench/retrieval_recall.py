"""Retrieval quality and speed of the knowledge base, on the candidate-style question sets.

    python bench/retrieval_recall.py [--k 3] [--chroma-url URL] [--json]

Reports recall@k (the expected note among the notes of the top-k passages), MRR, the first full
index build time (in a fresh folder) and the incremental re-index time, and query latency
(median and p95, warm). The acceptance bar is recall@3 >= 0.9.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent


def load_questions() -> list[dict]:
    questions = []
    for path in sorted(HERE.glob("retrieval_questions_*.yaml")):
        questions.extend(yaml.safe_load(path.read_text()))
    return questions


def evaluate(index, questions: list[dict], k: int) -> dict:
    hits, reciprocal, latencies, misses = 0, 0.0, [], []
    for item in questions:
        started = time.perf_counter()
        passages = index.search(item["question"], k=max(k, 10))
        latencies.append(time.perf_counter() - started)
        notes = list(dict.fromkeys(p.note for p in passages))
        top_k_notes = [p.note for p in passages[:k]]
        if item["note"] in top_k_notes:
            hits += 1
        else:
            misses.append({"question": item["question"], "expected": item["note"], "got": top_k_notes})
        if item["note"] in notes:
            reciprocal += 1 / (notes.index(item["note"]) + 1)
    latencies.sort()
    return {
        "questions": len(questions),
        f"recall@{k}": hits / len(questions),
        "mrr": reciprocal / len(questions),
        "query_median_ms": 1000 * statistics.median(latencies),
        "query_p95_ms": 1000 * latencies[int(0.95 * (len(latencies) - 1))],
        "misses": misses,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--chroma-url", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from interviewer.embeddings import get_embedder
    from knowledge.indexer import KnowledgeIndex, make_client

    started = time.perf_counter()
    embedder = get_embedder()
    embedder.embed(["warm"])
    load_s = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        client = make_client(args.chroma_url, Path(folder))
        if args.chroma_url:
            from knowledge.indexer import COLLECTION

            try:
                client.delete_collection(COLLECTION)
            except Exception:
                pass
        index = KnowledgeIndex(client, embedder)
        full = index.sync()
        incremental = KnowledgeIndex(client, embedder).sync()
        result = evaluate(index, load_questions(), args.k)
    result.update(
        {
            "embedder_load_s": load_s,
            "passages": len(index.chunks),
            "full_index_s": full.seconds,
            "incremental_reindex_s": incremental.seconds,
            "incremental_changed": incremental.changed,
        }
    )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            if key != "misses":
                print(f"{key:>24}: {value:.4g}" if isinstance(value, float) else f"{key:>24}: {value}")
        for miss in result["misses"]:
            print(f"  miss: {miss['question']!r} expected {miss['expected']}, got {miss['got']}")
    return 0 if result[f"recall@{args.k}"] >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
