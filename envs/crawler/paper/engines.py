"""The crawler's engines for every experiment: `engine=mujoco` (the MuJoCo twin, native batch
runner) or `engine=hybrid` (the paper's exact hybrid model, envs/crawler/paper/hybrid.py, points in a
process pool as a `gaittwin.core.engines.engines.Engine`), both through the one entry to physics
(`gaittwin.core.runs.sweep.simulate`): the same results.csv columns either way.  `simulate_rows` adds only
the crawler's row keys (every parameter that varies or differs from its default) and engine choice.
"""
from __future__ import annotations


import numpy as np

from ...core.runs import config, sweep as sw
from ...core.runs.experiment import options, robot_params, run_kw, sweep_lists
from ..robot import Crawler

EXTRA = ("S", "V", "steady")


# ---- engine dispatch ----------------------------------------------------------------
def engine_of(job) -> str:
    """The configured engine, checked against the robot's (Crawler.engines)."""
    return config.validate(job).engine


def hybrid_kw(job) -> dict:
    """Optional `hybrid.*` settings (rtol, atol, liftoff): `+hybrid.rtol=1e-8`."""
    return dict(config.validate(job).hybrid)     # checked against HybridOptions (envs/crawler/config.py)


def _nthread(job) -> int:
    from ...core.engines.batch import available_cores
    n = job.run.get("nthread", None)
    return available_cores() if n is None else max(1, int(n))


def _hybrid_task(i, params, cycles, min_cycles, stop, kw):
    return i, _hybrid_point(params, cycles, min_cycles, stop, kw)


def _hybrid_point(params, cycles, min_cycles, stop, kw):
    """One point of the exact hybrid model: (its results values, its error or None)."""
    import warnings
    warnings.filterwarnings("ignore")
    from . import hybrid as H
    run = H.simulate(params, cycles=cycles, min_cycles=min_cycles, stop_when_steady=stop, **kw)
    out = H.summarize(run)
    out["max_penetration"] = hybrid_penetration(run)
    return out, run.error or run.robot.health_error(out["max_penetration"])


def hybrid_penetration(run) -> float:
    """The exact model holds the feet on the floor by constraints: its penetration is their drift below it."""
    from ..robot import feet
    if not len(run.q):
        return 0.0
    _, y1, _, y2 = feet(*run.q.T, run.robot.p.l0, run.robot.p.l)
    return float(max(0.0, -min(np.min(y1), np.min(y2))))


def simulate_rows(job, points, out, *, engine=None, filename="results.csv", meta=None, progress=None):
    """Simulate `points` (config-parameter dicts) with the configured engine (or `engine`) through the
    one entry to physics (gaittwin.core.runs.sweep.simulate: the run directory's store, results.csv export).

    meta: per-point dicts of extra columns (e.g. mass ratios) written and used as keys.
    Returns (rows in point order, stats).  Rows of both engines have the same columns.
    """
    job = config.validate(job)
    engine = engine or job.engine
    meta = meta or [{} for _ in points]
    full = [{**m, **p} for p, m in zip(points, meta)]
    allk = list(dict.fromkeys([k for f in full for k in f]))
    metak = {k for m in meta for k in m}
    varied = [k for k in allk if k in metak or len({repr(f.get(k)) for f in full}) > 1
              or any(f.get(k) != Crawler.defaults.get(k) for f in full)]
    key = list(dict.fromkeys(varied + list(Crawler.columns)))
    # run.launcher=ray fans out MuJoCo points; the hybrid engine runs here
    eng = engine if engine in sw.BATCH_ENGINES else _hybrid_engine(job, run_kw(job))
    rows, stats = sw.simulate(job, out, points, engine=eng, key=key, meta=meta, extra_columns=EXTRA,
                              filename=filename, progress=progress)
    stats["engine"] = engine
    if engine not in sw.BATCH_ENGINES:
        stats.pop("steps"), stats.pop("steps_per_s")
    return rows, stats


def _hybrid_engine(job, kw) -> sw.Engine:
    """The exact hybrid model as a run_rows engine: points in a process pool, longest first."""
    import scipy

    args = (kw["cycles"], kw["min_cycles"], kw["stop_when_steady"], hybrid_kw(job))
    settings = dict(cycles=args[0], stop_when_steady=args[2], hybrid=args[3])
    if args[2]:
        settings["min_cycles"] = args[1]

    def simulate(robots, add):
        n = min(_nthread(job), len(robots))
        if n <= 1:
            for j, rb in enumerate(robots):
                add(j, *_hybrid_point(rb.cfg, *args))
            return 0
        from joblib import Parallel, delayed
        order = sorted(range(len(robots)), key=lambda j: -robots[j].period)     # longest first
        gen = Parallel(n_jobs=n, return_as="generator_unordered")(
            delayed(_hybrid_task)(j, robots[j].cfg, *args) for j in order)
        for j, (values, error) in gen:
            add(j, values, error)
        return 0
    return sw.Engine("hybrid", simulate, settings, versions=lambda cls: {"scipy": scipy.__version__})


def grid_points(job, sweep=None):
    base = robot_params(job)
    sweep = sweep_lists(job) if sweep is None else sweep
    return [{**base, **combo} for combo in sw.grid(sweep)]


def exp_cfg(job, name):
    """One declared option of the experiment (envs/crawler/config.py)."""
    return options(job)[name]


def column(rows, k) -> np.ndarray:
    """A results column as floats (empty cells: NaN)."""
    return np.array([float(r[k]) if r.get(k, "") not in ("", None) else np.nan for r in rows])


def valid_S(r) -> float:
    """A row's S, or NaN for a failed or unhealthy point (never used as a result)."""
    return np.nan if r.get("error") else sw.num(r.get("S"))
