#!/usr/bin/env python3
"""Turns stores_bench's JSON output into the Markdown ratio table of
docs/performance.md: one row per benchmark (operation, threads, size), one
column per variant, each cell the variant's throughput as a ratio to the
fastest variant of that row, with the fastest's absolute figure in the last
column.

Usage: stores_bench --benchmark_out=stores.json --benchmark_out_format=json
       bench/stores_table.py stores.json
"""
import json
import sys

VARIANTS = {
    "checkpoint": ["unsynchronized", "mutex", "escaping_index", "split_lock", "sharded",
                   "stale_cas", "lock_free"],
    "state": ["unlock_during_iteration", "snapshot", "hold_lock", "copy_on_write"],
}


def human(rate):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if rate >= scale:
            return f"{rate / scale:.3g}{unit}/s"
    return f"{rate:.3g}/s"


def parse(name):
    parts = name.split("/")
    family, variant, op = parts[0], parts[1], parts[2]
    rest = parts[3:]
    size, threads = "", 1
    for p in rest:
        if p.isdigit():
            size = p
        elif p.startswith("threads:"):
            threads = int(p.split(":")[1])
    return family, variant, op, size, threads


def main(path):
    data = json.load(open(path))
    rows = {}  # (family, op, size, threads) -> {variant: (rate, writer)}
    order = []
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        family, variant, op, size, threads = parse(b["name"])
        key = (family, op, size, threads)
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][variant] = (b["items_per_second"], b.get("writer_per_s"))
    for family in ("checkpoint", "state"):
        variants = VARIANTS[family]
        print(f"\n**{family}** (throughput as a ratio to the fastest variant of the row; "
              "`-`: not run, see the notes)\n")
        print("| benchmark | threads | " + " | ".join(variants) + " | fastest |")
        print("|---|---|" + "---|" * len(variants) + "---|")
        for key in order:
            if key[0] != family:
                continue
            _, op, size, threads = key
            cells = rows[key]
            best = max(rate for rate, _ in cells.values())
            label = op + (f" n={size}" if size else "")
            out = []
            for v in variants:
                if v not in cells:
                    out.append("-")
                    continue
                rate, writer = cells[v]
                cell = f"{rate / best:.2f}"
                if writer is not None:
                    cell += f" (w {human(writer)})"
                out.append(cell)
            print(f"| {label} | {threads} | " + " | ".join(out) + f" | {human(best)} |")


if __name__ == "__main__":
    main(sys.argv[1])
