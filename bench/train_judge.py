"""Train the calibrated judge (interviewer/engine/judge_model.json) on the dev answer sets.

Usage: python bench/train_judge.py [--check]

Reads only the dev sets bench/data/judge_dev, judge_dev2, judge_dev3 (never judge_dev4, the former sealed set), runs the offline
judge's evidence pipeline on each answer set, and fits a three-class softmax regression (missed /
partial / met) from ``judge_model.FEATURES`` to the expert labels, with L2 = 1e-3, by L-BFGS in
float64 from zeros: the same files give the same weights. It reports the leave-one-scenario-out
agreement of the judge as it runs (each scenario judged by a model trained on the other eleven,
through ``judge_model.decide`` and its hard limits) next to the rubric rule's, and writes the
weights with that figure and the data's SHA-256. ``--check`` retrains and fails if
the shipped file differs (the test suite runs it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEV = [ROOT / "bench" / "data" / "judge_dev", ROOT / "bench" / "data" / "judge_dev2", ROOT / "bench" / "data" / "judge_dev3"]
L2 = 1e-3
LABELS = {"missed": 0, "partial": 1, "met": 2}


def dataset() -> tuple[list[list[float]], list[int], list[str], str]:
    import yaml

    from interviewer.domain import Status
    from interviewer.engine import judge_model
    from interviewer.engine.evidence import CriterionHit
    from interviewer.engine.grading import collect_evidence
    from interviewer.engine.scoring import rubric_rule
    from rubrics.loader import get_scenario

    rows, labels, groups = [], [], []
    digest = hashlib.sha256()
    for path in sorted(p for directory in DEV for p in directory.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + text.encode())
        data = yaml.safe_load(text)
        scenario = get_scenario(data["scenario"]).scenario
        for answer_set in data["sets"]:
            hits, _claims, misconceptions = collect_evidence(scenario, [a or "" for a in answer_set["answers"]])
            for criterion in scenario.criteria:
                if criterion.asks_about:
                    continue  # framing criteria are judged by the facts asked about, never by the model
                hit = hits.get(criterion.id) or CriterionHit(criterion.id)
                against = [m for m in misconceptions if criterion.id in m.get("contradicts", [])]
                rule, _, _ = rubric_rule(criterion, hit, against)
                rows.append(judge_model.features(scenario, criterion, hit, rule, contradicted=bool(against)))
                labels.append(LABELS[answer_set["labels"][criterion.id]])
                groups.append(f"{data['scenario']}|rule={LABELS[Status(rule).value]}")
    return rows, labels, groups, digest.hexdigest()


def fit(rows, labels):
    import torch

    x = torch.tensor(rows, dtype=torch.float64)
    y = torch.tensor(labels)
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = (x - mean) / scale
    weights = torch.zeros(z.shape[1], 3, dtype=torch.float64, requires_grad=True)
    bias = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([weights, bias], max_iter=500, tolerance_grad=1e-10, tolerance_change=1e-12, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(z @ weights + bias, y) + L2 * (weights**2).sum()
        loss.backward()
        return loss

    optimizer.step(closure)
    return mean.tolist(), scale.tolist(), weights.detach().tolist(), bias.detach().tolist()


def leave_one_scenario_out(rows, labels, groups) -> tuple[float, float]:
    """Agreement of the model as the judge uses it (``judge_model.decide``, hard limits included)."""
    from interviewer.engine.judge_model import STATUSES, Model, decide

    scenarios = sorted({g.split("|")[0] for g in groups})
    model_right = rule_right = 0
    for held in scenarios:
        train = [i for i, g in enumerate(groups) if not g.startswith(held + "|")]
        model = Model(*fit([rows[i] for i in train], [labels[i] for i in train]))
        for i, g in enumerate(groups):
            if g.startswith(held + "|"):
                status, _ = decide(model, rows[i])
                model_right += STATUSES.index(status) == labels[i]
                rule_right += int(g.split("=")[1]) == labels[i]
    return model_right / len(rows), rule_right / len(rows)


def main(argv: list[str] | None = None) -> int:
    from interviewer.engine import judge_model

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the shipped weights differ from a fresh training run")
    args = parser.parse_args(argv)
    rows, labels, groups, digest = dataset()
    mean, scale, weights, bias = fit(rows, labels)
    result = {
        "features": list(judge_model.FEATURES), "mean": mean, "scale": scale, "weights": weights, "bias": bias,
        "l2": L2, "trained_on": [p.relative_to(ROOT).as_posix() for p in DEV], "data_sha256": digest, "rows": len(rows),
    }
    if args.check:
        shipped = json.loads(judge_model.WEIGHTS_FILE.read_text(encoding="utf-8"))
        same = shipped["data_sha256"] == digest and all(
            abs(a - b) <= 1e-6 * max(1.0, abs(a))
            for key in ("mean", "scale", "bias") for a, b in zip(shipped[key], result[key], strict=True)
        ) and all(abs(a - b) <= 1e-6 * max(1.0, abs(a)) for r1, r2 in zip(shipped["weights"], weights, strict=True) for a, b in zip(r1, r2, strict=True))
        print("shipped weights reproduce" if same else "shipped weights differ from a fresh training run")
        return 0 if same else 1
    model_cv, rule_cv = leave_one_scenario_out(rows, labels, groups)
    result["leave_one_scenario_out"] = {"model_agreement": round(model_cv, 4), "rule_agreement": round(rule_cv, 4)}
    judge_model.WEIGHTS_FILE.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} criterion labels from {len(DEV)} dev folders; leave-one-scenario-out agreement: "
          f"model {model_cv:.1%}, rubric rule {rule_cv:.1%}; wrote {judge_model.WEIGHTS_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
