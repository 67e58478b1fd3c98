#!/usr/bin/env python
"""Cost of the sweep store (envs/core/store.py) against the simulation it records.

Measured in this run:
  (1) the store's cost per point: run_rows over N points (default 1000) with an engine that
      returns precomputed crawler rows at once, so everything but simulation is timed:
      identities, one SQLite transaction per point (rollback journal, synchronous=FULL),
      the final results.csv export, opening and checking the database;
  (2) the cost of one export of N rows (results.csv is also rewritten every
      envs.sweep.EXPORT_EVERY_S seconds while a sweep runs);
  (3) the simulation wall time per point of a crawler sweep (a sample of points of the
      Fig. 6 psi-omega map, run.cycles, stop when steady, all threads), without the store.
Then the estimated slowdown of an N-point sweep: (N x (1) + exports) / (N x (3)).
Also the single-thread steps/s of each robot (what sizes run.max_steps).
The last line is machine-readable:
  store_ms_per_point=<ms> sim_s_per_point=<s> store_overhead_1000=<percent>%

  python scripts/bench_store.py [--points 1000] [--sample 16] [--cycles 10] [--quick]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

import _cli  # noqa: F401  (repo on sys.path, GL backend chosen)
import numpy as np

import envs
from envs.core import batch
from envs.core import sweep as sw
from envs.crawler.robot import Crawler


def sample_points(n: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [dict(omega=float(w), psi_deg=float(p))
            for w, p in zip(rng.uniform(0.3, 16.0, n), rng.uniform(0.0, 120.0, n))]


def simulation_per_point(points, cycles: int, nthread: int) -> float:
    robots = [Crawler(**p) for p in points]
    for r in robots:
        r.model()
    t0 = time.perf_counter()
    batch.run_points(robots, Crawler, cycles=cycles, min_cycles=3, stop_when_steady=True, nthread=nthread)
    return (time.perf_counter() - t0) / len(robots)


def store_per_point(n: int, template: dict) -> tuple[float, float]:
    """(seconds per point of run_rows with a zero-cost engine, seconds per export of n rows)."""
    robots = [Crawler(omega=float(w)) for w in np.linspace(0.5, 16.0, n)]
    values = {k: v for k, v in template.items() if k in Crawler.metrics or k in Crawler.health_columns()}

    def simulate(rs, add):
        for j in range(len(rs)):
            add(j, dict(values), None)
        return 0

    engine = sw.Engine("bench", simulate, dict(cycles=10))
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        t0 = time.perf_counter()
        _, st = sw.run_rows(robots, out, key=list(Crawler.columns), engine=engine, progress=False)
        total = time.perf_counter() - t0
        assert st["computed"] == n
        from envs.core.store import Store
        with Store(out) as db:
            keys = list(db.rows("results.csv"))
            t0 = time.perf_counter()
            for _ in range(3):
                db.export("results.csv", keys)
            export = (time.perf_counter() - t0) / 3
    return total / n, export


def robot_speeds() -> dict:
    out = {}
    for name in sorted(envs.ROBOTS):
        cls = envs.robot_class(name)
        r = cls()
        r.model()
        cyc = max(1, int(round(1.0 / r.period)))
        t0 = time.perf_counter()
        batch.run_point(r, cls, cycles=cyc, nthread=1)
        out[name] = r.steps_per_cycle * cyc / (time.perf_counter() - t0)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", type=int, default=1000, help="points of the store measurement (default 1000)")
    ap.add_argument("--sample", type=int, default=16, help="crawler points simulated for (3) (default 16)")
    ap.add_argument("--cycles", type=int, default=10, help="run.cycles of the simulated points (default 10)")
    ap.add_argument("--threads", type=int, default=None, help="threads of (3) (default: the cores available)")
    ap.add_argument("--quick", action="store_true", help="short measurements (smoke test)")
    args = ap.parse_args(argv)
    n = 50 if args.quick else args.points
    nthread = args.threads or batch.available_cores()

    run = batch.run_point(Crawler(omega=4.0), Crawler, cycles=3)
    template = dict(Crawler(omega=4.0).summarize(run), max_penetration=run.max_penetration)
    store_s, export_s = store_per_point(n, template)
    print(f"(1) store cost per point ({n} points, one transaction each): {store_s * 1e3:8.3f} ms")
    print(f"(2) one export of {n} rows to results.csv:                  {export_s * 1e3:8.3f} ms")
    sample = sample_points(4 if args.quick else args.sample)
    sim_s = simulation_per_point(sample, 2 if args.quick else args.cycles, nthread)
    print(f"(3) simulation per point (crawler, {len(sample)} sampled points of the Fig. 6 map, "
          f"{2 if args.quick else args.cycles} cycles, stop when steady, {nthread} threads): {sim_s:8.3f} s")
    sweep_s = 1000 * sim_s
    exports = sweep_s / sw.EXPORT_EVERY_S
    overhead = (1000 * store_s + exports * export_s * 1000 / n) / sweep_s
    print(f"1000-point sweep: simulation {sweep_s:.0f} s, store {1000 * store_s:.2f} s + "
          f"{exports:.0f} periodic exports -> overhead {overhead * 100:.3f} % (limit 2 %)")
    for name, sps in robot_speeds().items():
        print(f"    {name:8s} single-thread {sps:12,.0f} steps/s: run.max_steps={batch.DEFAULT_MAX_STEPS:.0e} "
              f"is {batch.DEFAULT_MAX_STEPS / sps / 60:.0f} min of one core")
    print(f"store_ms_per_point={store_s * 1e3:.3f} sim_s_per_point={sim_s:.3f} "
          f"store_overhead_1000={overhead * 100:.3f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
