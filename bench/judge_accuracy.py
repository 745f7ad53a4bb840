"""How well the offline judge agrees with expert labels on answer sets it was never tuned on.

Usage: python bench/judge_accuracy.py [--set dev|dev4|sealed5|DIR] [--json] [--verbose]

Each file in ``bench/data/judge_dev``, ``judge_dev2`` and ``judge_dev3`` (the dev set the judge is
trained and tuned on), or in ``judge_dev4`` (the former sealed set, measured sealed until stop 24 and
then read for the claim checker's false alarms; never trained on), or in ``judge_sealed5`` (the
sealed set, measured only), holds one scenario's answer sets, each labelled
by an expert who saw only what a candidate sees (the scenario's prompt, questions and criteria):
met / partial / missed per criterion, the expected score and level, and the exact words of every
planted wrong number. For each set the bench runs ``grade_answers`` and reports:

- criterion agreement: the share of (set, criterion) pairs where the judge's status equals the
  expert's, overall and per kind of answer set;
- mean |score - expert score|, overall and per kind; the mean score of each kind per scenario;
- ordering: strong > adequate > weak in every scenario;
- the worst score of the kinds that must earn nothing (keyword lists, rejecting, off-topic,
  injection; the bar is 20), and how often the judge called "met" what the expert called "missed";
- numbers: planted wrong numbers caught, and "incorrect" verdicts on anything else (false alarms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DATA = ROOT / "bench" / "data"
SETS = {"dev": [DATA / "judge_dev", DATA / "judge_dev2", DATA / "judge_dev3"], "dev4": [DATA / "judge_dev4"], "sealed5": [DATA / "judge_sealed5"]}
"""``sealed5`` is the sealed test set (168 answer sets, 14 kinds × 12 scenarios, written blind at stop 25):
run it only to measure, never read its individual results."""
MUST_EARN_NOTHING = ("keyword-list", "rejecting", "off-topic", "injection")
NOTHING_BAR = 20.0
ORDER = ("strong", "adequate", "weak")


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def load_sets(directories: list[Path]) -> list[tuple[str, dict]]:
    import yaml

    items = []
    for path in sorted(p for directory in directories for p in directory.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for answer_set in data["sets"]:
            items.append((data["scenario"], answer_set))
    return items


def evaluate(items: list[tuple[str, dict]]) -> dict:
    from interviewer.engine import grade_answers
    from rubrics.loader import get_scenario

    agree = Counter()
    total = Counter()
    errors: dict[str, list[float]] = defaultdict(list)
    kind_scores: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    false_met = Counter()
    confusion = Counter()
    planted = caught = false_alarms = 0
    rows = []
    start = time.perf_counter()
    for scenario_id, answer_set in items:
        scenario = get_scenario(scenario_id).scenario
        card = grade_answers(scenario, [a or "" for a in answer_set["answers"]])
        kind = answer_set["kind"]
        status = {c.id: c.status.value for c in card.criteria}
        disagreements = []
        for cid, label in answer_set["labels"].items():
            got = status.get(cid, "missed")
            total[kind] += 1
            confusion[(label, got)] += 1
            if got == label:
                agree[kind] += 1
            else:
                disagreements.append(f"{cid}: expert {label}, judge {got}")
            if got == "met" and label == "missed":
                false_met[kind] += 1
        errors[kind].append(abs(card.score - float(answer_set["expected_score"])))
        kind_scores[scenario_id][kind].append(card.score)
        wrong = [c for c in card.claims if c.get("verdict") == "incorrect"]
        needles = [_norm(w) for w in answer_set.get("wrong_numbers") or []]
        planted += len(needles)
        for needle in needles:
            if any(needle in _norm(c["text"]) or _norm(c["text"]) in needle for c in wrong):
                caught += 1
        for claim in wrong:
            text = _norm(claim["text"])
            if not any(n in text or text in n for n in needles):
                false_alarms += 1
        rows.append({"id": answer_set["id"], "kind": kind, "score": card.score, "expected": answer_set["expected_score"],
                     "level": card.level, "expected_level": answer_set.get("expected_level"),
                     "disagreements": disagreements,
                     "false_alarms": [c["text"] for c in wrong if not any(n in _norm(c["text"]) or _norm(c["text"]) in n for n in needles)]})
    seconds = time.perf_counter() - start
    ordered = {}
    for scenario_id, kinds in kind_scores.items():
        means = [statistics.mean(kinds[k]) for k in ORDER if kinds.get(k)]
        ordered[scenario_id] = len(means) == len(ORDER) and all(a > b for a, b in zip(means, means[1:], strict=False))
    nothing_worst = {
        kind: max((max(kinds[kind]) for kinds in kind_scores.values() if kinds.get(kind)), default=None)
        for kind in MUST_EARN_NOTHING
    }
    all_errors = [e for values in errors.values() for e in values]
    return {
        "sets": len(items),
        "criterion_agreement": round(sum(agree.values()) / max(1, sum(total.values())), 4),
        "agreement_by_kind": {k: round(agree[k] / total[k], 3) for k in sorted(total)},
        "mean_abs_error": round(statistics.mean(all_errors), 2) if all_errors else 0.0,
        "mean_abs_error_by_kind": {k: round(statistics.mean(v), 1) for k, v in sorted(errors.items())},
        "ordered_scenarios": f"{sum(ordered.values())}/{len(ordered)}",
        "unordered": sorted(s for s, ok in ordered.items() if not ok),
        "worst_score_of_kinds_that_earn_nothing": nothing_worst,
        "met_where_expert_said_missed": dict(false_met),
        "confusion": {f"{a}->{b}": n for (a, b), n in sorted(confusion.items())},
        "planted_wrong_numbers_caught": f"{caught}/{planted}",
        "false_alarms": false_alarms,
        "mean_score_by_scenario_and_kind": {s: {k: round(statistics.mean(v), 1) for k, v in sorted(kinds.items())}
                                            for s, kinds in sorted(kind_scores.items())},
        "seconds": round(seconds, 1),
        "rows": rows,
    }


def render(report: dict) -> str:
    lines = [
        f"answer sets: {report['sets']}   ({report['seconds']} s)",
        f"criterion agreement (3-way exact): {report['criterion_agreement']:.1%}",
        f"mean |score - expert|: {report['mean_abs_error']}",
        f"strong > adequate > weak: {report['ordered_scenarios']} scenarios" + (f" (not: {', '.join(report['unordered'])})" if report["unordered"] else ""),
        f"worst score of kinds that must earn nothing (bar {NOTHING_BAR:.0f}): {report['worst_score_of_kinds_that_earn_nothing']}",
        f"met where the expert said missed: {report['met_where_expert_said_missed']}",
        f"planted wrong numbers caught: {report['planted_wrong_numbers_caught']}; false alarms: {report['false_alarms']}",
        "",
        f"{'kind':<18}{'agreement':>10}{'|err|':>8}",
    ]
    for kind, value in report["agreement_by_kind"].items():
        lines.append(f"{kind:<18}{value:>10.1%}{report['mean_abs_error_by_kind'][kind]:>8}")
    lines.append("")
    kinds = sorted({k for v in report["mean_score_by_scenario_and_kind"].values() for k in v})
    lines.append(f"{'scenario':<30}" + "".join(f"{k[:9]:>10}" for k in kinds))
    for scenario_id, values in report["mean_score_by_scenario_and_kind"].items():
        lines.append(f"{scenario_id:<30}" + "".join(f"{values.get(k, float('nan')):>10.1f}" for k in kinds))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="dev", help="dev, dev4, sealed5 (the sealed set: measure only), or a directory of answer-set files")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="list every disagreement (do not use on the sealed set while tuning)")
    args = parser.parse_args(argv)
    report = evaluate(load_sets(SETS.get(args.set, [Path(args.set)])))
    if args.json:
        print(json.dumps({k: v for k, v in report.items() if k != "rows" or args.verbose}, indent=2))
        return 0
    print(render(report))
    if args.verbose:
        for row in report["rows"]:
            print(f"\n{row['id']}: {row['score']} (expert {row['expected']}), {row['level']} (expert {row['expected_level']})")
            for line in row["disagreements"]:
                print(f"    {line}")
            for text in row["false_alarms"]:
                print(f"    false alarm: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
