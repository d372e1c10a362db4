#!/usr/bin/env python3
"""Independent check of a results.json: recomputes every benchmark's statistics from its raw samples
with Python's own arithmetic (no code shared with dbx-bench) and compares them with the reported ones.

Checked: mean, median, standard deviation (n-1), MAD (x1.4826) of the per-iteration times, the slope
sum(iters*time)/sum(iters^2) in linear mode, Tukey outlier counts, that every point estimate lies
inside its confidence interval, and the throughput point. Bootstrap interval bounds depend on the
resampling stream, so they are checked for order, not recomputed.

Usage: scripts/check-results.py results.json   (exit 0: all match; 1: a mismatch; 2: unreadable input)
"""
import json
import math
import statistics
import sys

REL_TOL = 1e-9


def quantile(sorted_values, q):
    """Linear interpolation between closest ranks (Hyndman-Fan type 7)."""
    h = q * (len(sorted_values) - 1)
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (h - lo)


def close(a, b):
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-12)


def check(bench, problems):
    name = f"{bench['suite']}/{bench['workload']}/{bench['engine']}"
    if bench.get("error_occurred"):
        return
    samples = bench["samples"]
    times = [s["total_ns"] / s["iterations"] for s in samples]
    est = bench["estimates"]
    expected = {
        "mean": statistics.fmean(times),
        "median": quantile(sorted(times), 0.5),
        "std_dev": statistics.stdev(times),
    }
    med = expected["median"]
    deviations = sorted(abs(t - med) for t in times)
    expected["median_abs_dev"] = quantile(deviations, 0.5) * 1.4826
    if bench["sampling_mode"] == "linear":
        xs = [s["iterations"] for s in samples]
        ys = [s["total_ns"] for s in samples]
        expected["slope"] = sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs)
    for key, value in expected.items():
        got = est.get(key)
        if got is None:
            problems.append(f"{name}: estimates.{key} missing")
            continue
        if not close(got["point"], value):
            problems.append(f"{name}: {key} reported {got['point']!r}, recomputed {value!r}")
        if not (got["lower"] <= got["point"] <= got["upper"]):
            problems.append(f"{name}: {key} point {got['point']} outside [{got['lower']}, {got['upper']}]")

    s = sorted(times)
    q1, q3 = quantile(s, 0.25), quantile(s, 0.75)
    iqr = q3 - q1
    fences = (q1 - 3 * iqr, q1 - 1.5 * iqr, q3 + 1.5 * iqr, q3 + 3 * iqr)
    counts = {"low_severe": 0, "low_mild": 0, "high_mild": 0, "high_severe": 0}
    for t in times:
        if t < fences[0]:
            counts["low_severe"] += 1
        elif t < fences[1]:
            counts["low_mild"] += 1
        elif t > fences[3]:
            counts["high_severe"] += 1
        elif t > fences[2]:
            counts["high_mild"] += 1
    for key, value in counts.items():
        if bench["outliers"][key] != value:
            problems.append(f"{name}: outliers.{key} reported {bench['outliers'][key]}, recomputed {value}")

    typical = expected.get("slope", expected["mean"])
    elements = bench["elements_per_iteration"]
    if elements > 0 and not close(bench["throughput"]["point"], elements * 1e9 / typical):
        problems.append(f"{name}: throughput reported {bench['throughput']['point']}, "
                        f"recomputed {elements * 1e9 / typical}")


def main(argv):
    if len(argv) != 2:
        print("usage: check-results.py results.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = json.load(f)
        benchmarks = doc["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"check-results: {argv[1]}: {e}", file=sys.stderr)
        return 2
    problems = []
    checked = 0
    for bench in benchmarks:
        check(bench, problems)
        checked += 0 if bench.get("error_occurred") else 1
    for p in problems:
        print(p)
    print(f"check-results: {checked} benchmarks recomputed, {len(problems)} mismatches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
