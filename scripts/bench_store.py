#!/usr/bin/env python
"""Cost of the sweep store (envs/core/runs/store.py) against the simulation it records.

Measured in this run:
  (1) the store's cost per point on the sweep's critical path: run_rows over N points
      (default 1000) with an engine that returns precomputed crawler rows at once, so
      everything but simulation is timed (identities, queueing each row for commit);
  (2) the durable commit per point, in the store's background thread: one SQLite
      transaction each (rollback journal, synchronous=FULL: fsyncs), overlapping with the
      simulation; plus opening/checking the database and the final results.csv export;
  (3) the simulation wall time per point of a crawler sweep (a sample of points of the
      Fig. 6 psi-omega map, run.cycles, stop when steady, all threads), summarized as any sweep
      does but without the store, and the same points through run_rows with the store (end to
      end, best of two alternated runs; noisy on a busy host).
The estimated slowdown of an N-point sweep is
  (N (1) + one-off costs + max(0, N (2) - N (3))) / (N (3)),
the last term counting commits only where they would outpace the simulation.
  (4) a run of many run_rows calls (an identification: one new point per call, the same fake
      engine as (1)): ms per call at its start and end (flat: a call reads only its own rows, and
      results.csv is written at most every 30 s and at the run's end), and the run's final export.
Also the single-thread steps/s of each robot (what sizes run.max_steps).
The last line is machine-readable:
  store_ms_per_point=<critical path ms> commit_ms_per_point=<ms> sim_s_per_point=<s> store_overhead_1000=<percent>%

  python scripts/bench_store.py [--points 1000] [--sample 16] [--cycles 10] [--quick]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tempfile
import time

import _cli  # noqa: F401  (GL backend chosen before MuJoCo)
import numpy as np

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.runs import sweep as sw
from gaittwin.crawler.robot import Crawler


def sample_points(n: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    return [dict(omega=float(w), psi_deg=float(p))
            for w, p in zip(rng.uniform(0.3, 16.0, n), rng.uniform(0.0, 120.0, n))]


def store_per_point(n: int, template: dict) -> dict:
    """Seconds per point: critical path, background commit, one-off (open, check, final export)."""
    robots = [Crawler(omega=float(w)) for w in np.linspace(0.5, 16.0, n)]
    values = {k: v for k, v in template.items() if k in Crawler.metrics or k in Crawler.health_columns()}
    timing = {}

    def simulate(rs, add):
        t0 = time.perf_counter()
        for j in range(len(rs)):
            add(j, dict(values), None)
        timing["add"] = time.perf_counter() - t0
        return 0

    engine = sw.Engine("bench", simulate, dict(cycles=10))
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        t0 = time.perf_counter()
        _, st = sw.run_rows(robots, out, key=list(Crawler.columns), engine=engine, progress=False)
        total = time.perf_counter() - t0
        assert st["computed"] == n
        from gaittwin.core.runs.store import Store
        with Store(out) as db:
            keys = list(db.rows("results.csv"))
            t0 = time.perf_counter()
            for _ in range(3):
                db.export("results.csv", keys)
            export = (time.perf_counter() - t0) / 3
    commit = st["store_commit_s"] / n
    return dict(critical=timing["add"] / n, commit=commit,
                oneoff=max(0.0, total - timing["add"] - st["store_commit_s"]), export=export)


def run_of_calls(m: int, template: dict) -> tuple[float, float, float]:
    """(ms per call over the first 10 calls, over the last 10, ms of the final export) of a run of m calls."""
    from gaittwin.core.runs import rundir
    values = {k: v for k, v in template.items() if k in Crawler.metrics or k in Crawler.health_columns()}
    engine = sw.Engine("bench", lambda rs, add: [add(j, dict(values), None) for j in range(len(rs))] and 0,
                       dict(cycles=10))
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp)
        rundir.new_run(out)
        for w in np.linspace(0.5, 16.0, m):
            t0 = time.perf_counter()
            sw.run_rows([Crawler(omega=float(w))], out, key=list(Crawler.columns), engine=engine, progress=False)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        rundir.finish_run(out)
        final = time.perf_counter() - t0
    return np.mean(times[:10]) * 1e3, np.mean(times[-10:]) * 1e3, final * 1e3


def end_to_end(points, cycles: int, nthread: int, repeats: int = 2) -> tuple[float, float]:
    """Best wall of (the batch runner with each point summarized, as any sweep does, no store;
    run_rows with the store) on the same points, alternated `repeats` times against load drift."""
    robots = [Crawler(**p) for p in points]
    for r in robots:
        r.model()
    kw = dict(cycles=cycles, min_cycles=3, stop_when_steady=True, nthread=nthread)
    plain, stored = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        batch.run_points(robots, Crawler, on_result=lambda j, run: batch.batch_values(robots[j], run), **kw)
        plain.append(time.perf_counter() - t0)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            sw.run_rows(robots, pathlib.Path(tmp), key=list(Crawler.columns), engine=sw.batch_engine(kw),
                        progress=False)
            stored.append(time.perf_counter() - t0)
    return min(plain), min(stored)


def robot_speeds() -> dict:
    out = {}
    for name in sorted(gaittwin.ROBOTS):
        cls = gaittwin.robot_class(name)
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
    c = store_per_point(n, template)
    print(f"(1) store cost per point on the critical path ({n} points): {c['critical'] * 1e3:8.3f} ms")
    print(f"(2) durable commit per point (background thread, one transaction each): {c['commit'] * 1e3:8.3f} ms; "
          f"setup (identities, open, check) and final export {c['oneoff'] * 1e3:.0f} ms; one export of {n} rows {c['export'] * 1e3:.0f} ms")
    sample = sample_points(4 if args.quick else args.sample)
    cycles = 2 if args.quick else args.cycles
    plain, stored = end_to_end(sample, cycles, nthread)
    sim_s = plain / len(sample)
    print(f"(3) simulation per point (crawler, {len(sample)} sampled points of the Fig. 6 map, {cycles} cycles, "
          f"stop when steady, {nthread} threads): {sim_s:8.3f} s; the same points through run_rows with the "
          f"store: {stored / len(sample):.3f} s per point ({(stored / plain - 1) * 100:+.1f} %, end to end)")
    sweep_s = 1000 * sim_s
    exports = sweep_s / sw.EXPORT_EVERY_S * c["export"] * 1000 / n      # periodic exports, in the thread
    cost = 1000 * c["critical"] + c["oneoff"] + max(0.0, 1000 * c["commit"] + exports - sweep_s)
    overhead = cost / sweep_s
    print(f"1000-point sweep: simulation {sweep_s:.0f} s; store on the critical path {1000 * c['critical']:.2f} s, "
          f"one-off {c['oneoff']:.2f} s, commits {1000 * c['commit']:.1f} s + exports {exports:.1f} s in the "
          f"background -> overhead {overhead * 100:.3f} % (limit 2 %)")
    print(f"    (were commits on the critical path: {(1000 * c['commit'] + c['oneoff']) / sweep_s * 100:.2f} %)")
    m = 40 if args.quick else 400
    first, last, final = run_of_calls(m, template)
    print(f"(4) a run of {m} run_rows calls, one new point each: {first:.1f} ms per call over the first 10, "
          f"{last:.1f} ms over the last 10; the run's final export of {m} rows {final:.0f} ms")
    for name, sps in robot_speeds().items():
        print(f"    {name:8s} single-thread {sps:12,.0f} steps/s: run.max_steps={batch.DEFAULT_MAX_STEPS:.0e} "
              f"is {batch.DEFAULT_MAX_STEPS / sps / 60:.0f} min of one core")
    print(f"store_ms_per_point={c['critical'] * 1e3:.3f} commit_ms_per_point={c['commit'] * 1e3:.3f} "
          f"sim_s_per_point={sim_s:.3f} store_overhead_1000={overhead * 100:.3f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
