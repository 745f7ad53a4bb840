"""Accuracy of the numeric claim checker on the labelled claim set (tests/fixtures/claims.yaml).

Usage: python bench/claims_accuracy.py [--fixture PATH] [--verbose] [--json]
       python bench/claims_accuracy.py --set sealed|sealed7|dev [--json]

With ``--set``, the blind-written sets in ``bench/data/claims`` (``claims_sealed_*.yaml``: the sealed
test set, run only to measure; ``claims_dev_*.yaml``: the dev set) are scored instead. Each item
names one claim (an exact substring of its text) labelled correct, incorrect or no-claim, and every
other number in the text is correct; per kind it reports false alarms (an "incorrect" verdict
anywhere in a text whose label is correct or no-claim), catches (an "incorrect" verdict on the
labelled wrong claim) and no-verdicts (a wrong claim that got no verdict or "unverifiable").

Prints the number of sentences and claims, how many correct claims were called incorrect (the
acceptance bar is 0), the share of wrong claims caught (the bar is ≥ 90 %), unverifiable counts,
and the confusion table (rows: the label; columns: the checker's verdict, "missed" when it found
no claim there, "extra" for claims nobody labelled). Exit code 1 if an acceptance bar is missed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FIXTURE = ROOT / "tests" / "fixtures" / "claims.yaml"
VERDICTS = ("correct", "incorrect", "unverifiable")
MIN_WRONG_CAUGHT = 0.90


@dataclass
class Report:
    sentences: int = 0
    claims: int = 0
    seconds: float = 0.0
    confusion: Counter = field(default_factory=Counter)
    """(label, verdict) → count; verdict "missed" if no claim was found, label "extra" if none was expected."""
    mismatches: list[dict] = field(default_factory=list)

    def count(self, label: str, verdict: str | None = None) -> int:
        return sum(n for (lab, ver), n in self.confusion.items() if lab == label and (verdict is None or ver == verdict))

    @property
    def correct_called_incorrect(self) -> int:
        return self.count("correct", "incorrect")

    @property
    def wrong_caught(self) -> float:
        total = self.count("incorrect")
        return self.count("incorrect", "incorrect") / total if total else 1.0

    @property
    def passed(self) -> bool:
        return self.correct_called_incorrect == 0 and self.wrong_caught >= MIN_WRONG_CAUGHT

    def as_dict(self) -> dict:
        return {
            "sentences": self.sentences,
            "claims_labelled": self.claims,
            "correct_claims": self.count("correct"),
            "wrong_claims": self.count("incorrect"),
            "unverifiable_claims": self.count("unverifiable"),
            "correct_called_incorrect": self.correct_called_incorrect,
            "wrong_caught": round(self.wrong_caught, 4),
            "unverifiable_verdicts": sum(n for (_, ver), n in self.confusion.items() if ver == "unverifiable"),
            "exact_agreement": 1 - len(self.mismatches) / self.sentences if self.sentences else 1.0,
            "confusion": {f"{lab}->{ver}": n for (lab, ver), n in sorted(self.confusion.items())},
            "seconds": round(self.seconds, 2),
            "passed": self.passed,
        }


def load_items(path: Path = FIXTURE) -> list[dict]:
    import yaml

    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(items, list):
        raise ValueError(f"{path}: expected a list of items")
    for index, item in enumerate(items):
        if not isinstance(item, dict) or "text" not in item or "expect" not in item:
            raise ValueError(f"{path}: item {index}: needs 'text' and 'expect'")
        for verdict in item["expect"]:
            if verdict not in VERDICTS:
                raise ValueError(f"{path}: item {index}: unknown verdict {verdict!r}")
    return items


def score(items: list[dict]) -> Report:
    from interviewer.claims import check_claims

    report = Report()
    start = time.perf_counter()
    for item in items:
        checks = check_claims(item["text"], item.get("facts"))
        got = [c.verdict for c in checks]
        expected = list(item["expect"])
        report.sentences += 1
        report.claims += len(expected)
        for index in range(max(len(got), len(expected))):
            label = expected[index] if index < len(expected) else "extra"
            verdict = got[index] if index < len(got) else "missed"
            report.confusion[(label, verdict)] += 1
        if got != expected:
            report.mismatches.append({"text": item["text"], "facts": item.get("facts"), "expected": expected, "got": got,
                                      "explanations": [c.explanation for c in checks]})
    report.seconds = time.perf_counter() - start
    return report


def render(report: Report) -> str:
    lines = [
        f"sentences: {report.sentences}",
        f"labelled claims: {report.claims} ({report.count('correct')} correct, {report.count('incorrect')} wrong, "
        f"{report.count('unverifiable')} unverifiable); {report.count('extra')} unlabelled extra claims",
        f"correct claims called incorrect: {report.correct_called_incorrect} (must be 0)",
        f"wrong claims caught: {report.count('incorrect', 'incorrect')}/{report.count('incorrect')} = {report.wrong_caught:.1%} (must be ≥ {MIN_WRONG_CAUGHT:.0%})",
        f"unverifiable verdicts: {sum(n for (_, v), n in report.confusion.items() if v == 'unverifiable')} "
        f"(on claims labelled unverifiable: {report.count('unverifiable', 'unverifiable')}/{report.count('unverifiable')}; "
        f"on correct claims: {report.count('correct', 'unverifiable')}; on wrong claims: {report.count('incorrect', 'unverifiable')})",
        f"sentences with exactly the expected verdicts: {report.sentences - len(report.mismatches)}/{report.sentences}",
        "",
        "confusion (rows: label, columns: verdict)",
    ]
    columns = (*VERDICTS, "missed")
    header = f"{'':>14}" + "".join(f"{c:>14}" for c in columns)
    lines.append(header)
    for label in (*VERDICTS, "extra"):
        if label == "extra" and not report.count("extra"):
            continue
        lines.append(f"{label:>14}" + "".join(f"{report.confusion.get((label, c), 0):>14}" for c in columns))
    lines.append("")
    lines.append(f"{'PASS' if report.passed else 'FAIL'} ({report.seconds:.1f} s)")
    return "\n".join(lines)


CLAIM_SETS = ROOT / "bench" / "data" / "claims"


def score_blind_set(which: str) -> dict:
    """Per-kind false alarms, catches and no-verdicts on ``claims_<which>_*.yaml`` (see the module doc)."""
    import yaml

    from interviewer.claims import check_claims
    from rubrics.loader import get_scenario

    per_kind: dict[str, Counter] = {}
    failures = []
    start = time.perf_counter()
    items = [item for path in sorted(CLAIM_SETS.glob(f"claims_{which}_*.yaml")) for item in yaml.safe_load(path.read_text(encoding="utf-8"))]
    for item in items:
        facts = dict(get_scenario(item["scenario"]).scenario.facts) if item.get("scenario") else None
        checks = check_claims(item["text"], facts)
        at = item["text"].find(item["claim"])
        span = (at, at + len(item["claim"]))
        on_claim = [c for c in checks if c.span and c.span[0] < span[1] and span[0] < c.span[1]]
        counts = per_kind.setdefault(item["kind"], Counter())
        expect = item["expect"]
        counts[expect] += 1
        incorrect = [c for c in checks if c.verdict == "incorrect"]
        if expect == "incorrect":
            if any(c.verdict == "incorrect" for c in on_claim):
                counts["caught"] += 1
            else:
                counts["no_verdict"] += 1
                failures.append((item["id"], expect, [c.verdict for c in on_claim]))
            off_claim = [c for c in incorrect if c not in on_claim]
            counts["false_alarm"] += bool(off_claim)
        elif incorrect:
            counts["false_alarm"] += 1
            failures.append((item["id"], expect, [c.verdict for c in incorrect]))
    seconds = time.perf_counter() - start
    total = sum(per_kind.values(), Counter())
    return {
        "items": len(items),
        "correct": total["correct"], "incorrect": total["incorrect"], "no_claim": total["no-claim"],
        "false_alarms": total["false_alarm"],
        "wrong_caught": f"{total['caught']}/{total['incorrect']}",
        "wrong_caught_share": round(total["caught"] / total["incorrect"], 3) if total["incorrect"] else 1.0,
        "by_kind": {kind: {"correct": c["correct"], "wrong": c["incorrect"], "no_claim": c["no-claim"], "false_alarms": c["false_alarm"],
                           "caught": c["caught"], "no_verdict": c["no_verdict"]} for kind, c in sorted(per_kind.items())},
        "seconds": round(seconds, 2),
        "failure_ids": [f[0] for f in failures],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--verbose", action="store_true", help="print each sentence whose verdicts differ from the labels")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    sets = sorted({path.name.split("_")[1] for path in CLAIM_SETS.glob("claims_*_*.yaml")})
    parser.add_argument("--set", choices=sets, help="score the blind-written sets in bench/data/claims instead (sealed7: the newest sealed set)")
    args = parser.parse_args(argv)
    if args.set:
        blind = score_blind_set(args.set)
        if args.json:
            print(json.dumps({k: v for k, v in blind.items() if k != "failure_ids" or args.verbose}, indent=2))
            return 0
        print(f"{args.set} set: {blind['items']} items ({blind['correct']} correct, {blind['incorrect']} wrong, {blind['no_claim']} no-claim), {blind['seconds']} s")
        print(f"texts with a false 'incorrect': {blind['false_alarms']} (bar 0); wrong claims caught: {blind['wrong_caught']} (bar 90%)")
        print(f"{'kind':<18}{'correct':>8}{'wrong':>7}{'no-claim':>9}{'false al.':>10}{'caught':>8}{'no verd.':>9}")
        for kind, c in blind["by_kind"].items():
            print(f"{kind:<18}{c['correct']:>8}{c['wrong']:>7}{c['no_claim']:>9}{c['false_alarms']:>10}{c['caught']:>8}{c['no_verdict']:>9}")
        if args.verbose:
            print("failures:", " ".join(blind["failure_ids"]))
        return 0
    report = score(load_items(args.fixture))
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(render(report))
    if args.verbose:
        for mismatch in report.mismatches:
            print(f"\n- {mismatch['text']} {mismatch['facts'] or ''}\n  expected {mismatch['expected']}, got {mismatch['got']}")
            for explanation in mismatch["explanations"]:
                print(f"    {explanation}")
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
