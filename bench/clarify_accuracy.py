"""How well the interviewer recognises what a candidate's clarifying question asks about.

Each item of ``bench/data/clarify/clarify_<set>.yaml`` is a candidate turn, labelled with whether it
asks the interviewer anything (``addressed``), the scenario facts whose answer it should get
(``facts``) and the asks no fact answers (``uncovered``). ``clarify_sealed.yaml`` was written blind
(from the candidate's view of each scenario, then labelled from the list of facts alone) and is only
measured; ``clarify_dev.yaml`` is tuned on freely.

Reported: fact precision and recall over (turn, fact) pairs, turns whose facts are exactly right,
turns that ask something and get no reply, and replies to turns that ask nothing.

    .venv/bin/python bench/clarify_accuracy.py --set sealed [--show]   # --show prints failures (dev data only)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interviewer.engine.clarify import clarification  # noqa: E402
from rubrics.loader import load_scenarios  # noqa: E402

DATA = ROOT / "bench" / "data" / "clarify"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="dev", help="dev or sealed (bench/data/clarify/clarify_<set>.yaml)")
    parser.add_argument("--show", action="store_true", help="print each failure (turns the set into dev data)")
    args = parser.parse_args()
    items = yaml.safe_load((DATA / f"clarify_{args.set}.yaml").read_text())["items"]
    scenarios = {s.id: s for s in load_scenarios()}
    true_pos = given = expected = exact = silent = asked_turns = spurious = quiet_turns = 0
    for item in items:
        scenario = scenarios[item["scenario"]]
        found = clarification(scenario, item["turn"])
        got = [f.id for f in found.facts]
        want = list(item.get("facts") or [])
        true_pos += len(set(got) & set(want))
        given += len(got)
        expected += len(want)
        exact += set(got) == set(want)
        replied = bool(found)
        if item["addressed"]:
            asked_turns += 1
            silent += not replied
        else:
            quiet_turns += 1
            spurious += replied
        if args.show and (set(got) != set(want) or replied != item["addressed"]):
            print(f"{item['id']}: want {want} (addressed {item['addressed']}), got {got} (replied {replied})\n    {' '.join(item['turn'].split())[:300]}")
    precision = true_pos / given if given else 1.0
    recall = true_pos / expected if expected else 1.0
    print(f"clarify_{args.set}: {len(items)} turns, {expected} expected facts")
    print(f"  fact precision {precision:.1%} ({true_pos}/{given}), recall {recall:.1%} ({true_pos}/{expected})")
    print(f"  turns with exactly the right facts: {exact}/{len(items)} ({exact / len(items):.1%})")
    print(f"  turns that ask and get no reply: {silent}/{asked_turns}")
    print(f"  replies to turns that ask nothing: {spurious}/{quiet_turns}")


if __name__ == "__main__":
    main()
