#!/usr/bin/env python3
# Writes a large, valid set of shard folders for `racelab merge`: the shards
# of an `explore --tests --shard K/N` run over a test binary of many tests,
# each case found racy with a failing schedule and a trace. Used to measure
# merge's time and memory (docs/performance.md, "racelab merge"):
#
#   bench/merge_shards.py --values 1000000 --shards 2 /tmp/shards
#   /usr/bin/time -v racelab merge /tmp/shards/shard* --out /tmp/merged
#
# --values is the JSON values of all shards together (about; each case holds
# --rows trace rows of 5 values and about 60 values more).
import argparse
import json
import os
import sys


def case(index, rows, program):
    name = f"Suite.Test{index}"
    trace_rows = [{
        "kind": "operation",
        "step": step + 1,
        "text": f"writes 'counter' [unit_tests_program.cc:{step % 90 + 10}]",
        "thread": step % 3,
    } for step in range(rows)]
    return {
        "budget": 20,
        "expected": "clean",
        "expected_kinds": [],
        "family": "program",
        "findings": [{
            "detail": "WARNING: ThreadSanitizer: data race (pid=1)\n" * 4,
            "kind": "data_race",
            "oracle": "tsan",
            "runs": 1,
            "summary": f"data race on 'counter' in {name}",
        }],
        "first_failing_schedule": 3,
        "histogram": {"data_race": 1},
        "index": index,
        "match": False,
        "mismatch": "expected clean, but the case reported data_race",
        "mode": "controlled",
        "observed": "data_race",
        "runs": 1,
        "runs_with_finding": 1,
        "scenario": name,
        "schedule": {
            "decisions": [step % 3 for step in range(rows)],
            "preemptions": 2,
            "program": [],
        },
        "schedules": 4,
        "seconds": 0.01,
        "strategy": "pct",
        "subject": program,
        "trace": {"rows": trace_rows, "threads": 3},
        "verified": False,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", help="folder to create; shards go in shardK")
    parser.add_argument("--values", type=int, default=100000)
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--rows", type=int, default=20,
                        help="trace rows (and decisions) per case")
    args = parser.parse_args()
    per_case = 60 + 6 * args.rows
    total = max(args.shards, args.values // per_case)
    program = "/opt/tests/unit_tests_program"
    os.makedirs(args.out, exist_ok=False)
    for k in range(1, args.shards + 1):
        cases = [case(i, args.rows, program) for i in range(total)
                 if i % args.shards == k - 1]
        doc = {
            "cases": cases,
            "cases_total": total,
            "interrupted": False,
            "mismatches": len(cases),
            "modes": ["controlled"],
            "not_run": [],
            "run_id": f"20250101T000000Z-{k:016x}",
            "runs": 20,
            "schema": 2,
            "seed": 1,
            "settings": {
                "budget": 20, "controlled_runs": 1, "depth": 3,
                "jitter": False, "memory_model": False,
                "oracles": "tsan,invariants,linearizability,gomap",
                "pause_us": 50, "preemptions": 2, "run_timeout_ms": 0,
                "scenario_filter": "", "shard_split": "cases",
                "shrink": True, "strategy": "pct", "subject_filter": "",
                "threads": "threads"},
            "shard": {"count": args.shards, "index": k},
            "tool": "racelab",
        }
        shard = os.path.join(args.out, f"shard{k}")
        os.makedirs(shard)
        with open(os.path.join(shard, "results.json"), "w") as f:
            json.dump(doc, f, indent=2, sort_keys=True)
            f.write("\n")
        with open(os.path.join(shard, ".racelab-reports"), "w") as f:
            pass
    print(f"{args.shards} shards of {total} cases in all ({per_case} values "
          f"a case) in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
