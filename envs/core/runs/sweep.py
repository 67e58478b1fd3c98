"""Parameter sweeps: grid expansion and the one resumable loop every engine (envs/core/engines/engines.py) runs through.

A sweep is `sweep.<name>: [values]` in the config: the cartesian product of all lists,
each value overriding the robot parameter of the same config name.  `run_rows` is the
shared loop: every finished point is committed to the run directory's store
(`results.sqlite`, envs/core/runs/store.py) in its own transaction, and `results.csv` is exported
from it: the points this run asked for, in grid order (`rundir.new_run`; the store keeps the others),
after each call -- within a run (experiment.compute) at most every EXPORT_EVERY_S and at its end.
A rerun reuses a stored row only when the point's identity (all robot parameters, the run
settings that change results, the model files and the MuJoCo version) matches, and
recomputes anything else; its stats say how many rows were reused and why the others were not.

Every row of an experiment has the same, declared columns: the key columns, the robot's
declared `metrics`, its health columns (`max_penetration`, `max_loop_gap` for robots with
loops) and `error`.  A failed point keeps every column (metrics empty, `error` filled); an
unhealthy one (over the robot's declared limits), or a twin's row with a metric it could not measure
(NaN, e.g. a stride time from fewer than two touch-downs), keeps its metrics and fills `error`.
A point that a runner needs whole (`run_point`: a single run, a time series, a trajectory) and that
fails raises SimulationFailed: experiment.compute writes its row with `error` instead of the run's
outputs, so a single run and a sweep fail the same way.
"""
from __future__ import annotations

import itertools
import json
import math
import pathlib
import time

import numpy as np

from ..model import energy
from . import rundir, store as st
from .csvio import finite, read_csv, write_csv, write_json  # noqa: F401  (sw.write_json, ...)
from ..engines.engines import BATCH_ENGINES, WARP_KW, Engine, batch_engine, batch_kw, engine_for  # noqa: F401
from ..model.errors import ConfigError

EXPORT_EVERY_S = 30.0      # results.csv is also rewritten this often while a sweep runs


def grid(sweep: dict) -> list[dict]:
    """Cartesian product of {name: list}; a scalar counts as a one-value list."""
    if not sweep:
        return [{}]
    names, lists = [], []
    for k, v in sweep.items():
        vals = list(v) if isinstance(v, (list, tuple)) or hasattr(v, "__iter__") and not isinstance(v, str) else [v]
        if not vals:
            raise ConfigError(f"sweep.{k}", vals, "a non-empty list")
        names.append(k)
        lists.append(vals)
    return [dict(zip(names, combo)) for combo in itertools.product(*lists)]


# ---- the resumable loop -----------------------------------------------------------------
def run_sweep(robot_cls, base: dict, sweep: dict, out: pathlib.Path, *, run_kw: dict, launch: dict | None = None,
              extra_columns=(), filename="results.csv", progress=True, retry_failed=None) -> tuple[list, dict]:
    """Run every point of base x grid(sweep) with the batch runner, resumably (see run_rows).
    run_kw: batch runner settings (gaittwin.core.runs.experiment.run_kw), optionally with retry_failed;
    launch: where the points run (experiment.launch_kw): locally, or fanned out through Ray."""
    if retry_failed is None:
        retry_failed = bool(run_kw.get("retry_failed", False))
    robots, key = _points(robot_cls, base, sweep)
    return run_rows(robots, out, key=key, engine=batch_engine(run_kw, **(launch or {})), extra_columns=extra_columns,
                    filename=filename, progress=progress, retry_failed=retry_failed)


def _points(robot_cls, base: dict, sweep: dict, points=None, key=None) -> tuple[list, list]:
    """(robots, key): the points (default base x grid(sweep)) as robots, each validated (ConfigError,
    nothing written), and the key columns (default the sweep's names and the robot's `columns`)."""
    if points is None:
        points = [{**base, **combo} for combo in grid(sweep)]
    robots = [robot_cls(**pt) for pt in points]
    if key is None:
        key = list(dict.fromkeys(list(sweep) + list(robot_cls.columns)))
    return robots, key


def simulate(job, out: pathlib.Path, points=None, *, engine=None, key=None, meta=None, extra_columns=(),
             filename="results.csv", progress=None) -> tuple[list, dict]:
    """The one way from a checked config (`gaittwin.core.runs.config.Job`) to physics: `points` (config-parameter
    dicts; default the job's grid: base robot parameters x every sweep list) on `engine` (default the
    job's; a batch engine's name, mujoco or warp, runs with the job's run settings and launcher; an
    `Engine` is a robot's own reference model, e.g. the crawler's exact hybrid model), through the run
    directory's resumable store; every row carries the health columns and `error`.  key: the columns
    that address a row (default: the sweep's keys and the robot's `columns`); meta: per-point extra
    key columns.  Returns (rows in point order, stats)."""
    from .experiment import launch_kw, run_kw

    kw = run_kw(job)
    robots, key = _points(job.robot_cls, job.robot, {k: list(v) for k, v in job.sweep.items()}, points, key)
    engine = job.engine if engine is None else engine
    if isinstance(engine, str):
        engine = engine_for(engine, kw, **launch_kw(job))
    return run_rows(robots, out, key=key, engine=engine, meta=meta, extra_columns=extra_columns, filename=filename,
                    progress=job.run.progress if progress is None else progress, retry_failed=kw["retry_failed"])


class SimulationFailed(RuntimeError):
    """A point a runner needs whole (a single run, a time series, a trajectory) failed to simulate: its
    run directory gets the point's row with `error` (experiment.compute), as a sweep's failed point does."""

    def __init__(self, error: str, point: dict, file: str | None = None):
        self.error, self.point, self.file = error, dict(point), file
        where = ", ".join(f"{k}={v}" for k, v in self.point.items())
        super().__init__(f"simulation failed{f' ({where})' if where else ''}: {error}")


def run_points(robots, out, file: str | None, key, *, kw: dict) -> list:
    """The one way from a runner to physics outside the resumable store (a single run, a time series, a
    trajectory, a comparison's twin runs, a search's evaluations): the Robot points on the batch runner
    (gaittwin.core.engines.batch.run_points) with its keywords `kw` (experiment.runner_kw(run_kw(job)) with
    the runner's own changes), and the engine that ran each point recorded as a point of out/file
    (rundir.ran: summary.json's engine_split under engine=warp/auto names it).  key: the point's key
    columns, names read from each robot's cfg, or a function robot -> {column: value}.  out None: no run
    directory (a claim's check, a library call): nothing is recorded.  Each run's health is checked here,
    the one path: a point that failed or is over the robot's health limits (`Run.problem`) is recorded as
    a problem of the run (rundir.problems: summary.json's `error` and `all_healthy`, experiment.compute).
    Returns the runs in point order."""
    from ..engines import batch

    robots = list(robots)
    runs = batch.run_points(robots, **kw)
    if out is not None:
        for r, run in zip(robots, runs):
            rundir.ran(out, file, run.engine, _point_key(r, key), problem=run.problem)
    return runs


def _point_key(robot, key) -> dict:
    return key(robot) if callable(key) else {k: robot.cfg.get(k) for k in key}


def run_point(robot, out, file: str | None, key, *, kw: dict, failed: str = "raise"):
    """One point through `run_points` (its run).  A failed simulation (`Run.error`: no metrics) raises
    SimulationFailed (the run's row with `error`, experiment.compute); failed="keep": returned, for a
    caller that reports the failure itself."""
    run = run_points([robot], out, file, key, kw=kw)[0]
    if run.error and failed == "raise":
        raise SimulationFailed(run.error, _point_key(robot, key), file)
    return run


def columns_of(robot_cls, key, extra_columns=(), engine_metrics=(), metrics=None) -> list:
    """The declared header of a results file: key columns, metrics (extra_columns first, then the
    robot's declared ones, or `metrics`, then the engine's), health, error."""
    declared = robot_cls.metrics if metrics is None else metrics
    rest = [c for c in list(extra_columns) + list(declared) + list(engine_metrics)
            + list(robot_cls.health_columns()) if c not in key]
    return list(key) + list(dict.fromkeys(rest)) + ["error"]


def _engine_of(ident: str, docs: dict, default: str) -> str:
    """The engine (a key of docs) an intact stored row's identity names; `default` if none of them."""
    name = (json.loads(ident).get("engine") or {}).get("name")
    return name if name in docs else default


def run_rows(robots, out: pathlib.Path, *, key: list, engine: Engine, meta=None, extra_columns=(),
             filename="results.csv", progress=True, retry_failed=False, metrics=None) -> tuple[list, dict]:
    """The shared resumable loop: one row per robot point in out/filename (exported from
    out/results.sqlite).

    key: the columns that address a row (robot parameters or meta columns); meta: per-point
    dicts of extra columns (stored, part of the identity).  metrics: the results columns when an
    experiment keeps its own selection (default: the robot's declared metrics and the engine's).
    A stored row is reused when the point's identity matches
    (and, with retry_failed, only if it did not fail); the other points go to engine.simulate,
    each committed as it finishes.  Returns (rows in point order, stats); stats count the
    reused points and, in `recomputed`, why each other point was computed.
    """
    robots = list(robots)
    meta = meta or [{} for _ in robots]
    if not robots:
        return [], dict(points=0, computed=0, reused=0, recomputed={}, failed_points=0, all_healthy=True,
                        failed=[], wall_s=0.0, steps=0, steps_per_s=math.nan)
    cls = type(robots[0])
    if any(type(r) is not cls for r in robots):
        raise TypeError("run_rows: all points of one results file must be of one robot class")
    if engine.check is not None:
        engine.check(robots)                                   # ConfigError before anything is written
    header = columns_of(cls, key, extra_columns, engine.metrics, metrics)
    metric_cols = [c for c in header if c not in key and c != "error"]
    result_cols = [c for c in metric_cols if c not in cls.health_columns() + BOOKKEEPING + energy.METRICS]
    keyrows = [{**r.cfg, **m} for r, m in zip(robots, meta)]
    schema = sorted(set(cls.metrics if metrics is None else metrics) | set(engine.metrics)
                    | set(cls.health_columns()))
    docs, idents = {}, {}       # per engine a row may be filed under (engine.parts, else engine itself)
    for e in engine.parts or (engine,):
        versions = {**e.versions(cls), "code": st.code_hash(cls)}   # code: the package's whole source (+ an outside robot's module)
        docs[e.name] = [dict(store=st.IDENTITY_VERSION, robot=cls.__name__, params=r.cfg, meta=m,
                             engine=dict(e.settings, name=e.name), versions=versions, schema=schema)
                        for r, m in zip(robots, meta)]
        idents[e.name] = [st.identity_of(d) for d in docs[e.name]]
    first = next(iter(docs))

    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with st.Store(out) as db:
        moved = None
        res_path = out / filename
        if not db.has_file(filename) and res_path.exists():
            moved = rundir.aside(res_path)     # not from this store: unverifiable (.bak, never a user's file)
            res_path.replace(moved)
        K, _ = db.open_file(filename, key, header)
        keys = [st.key_of(kr, K) for kr in keyrows]
        asked = rundir.asked(out, filename)
        asked.extend(keyrows)            # results.csv: this run's points (every call's), in the order asked
        stored = db.rows(filename, keys)         # this call's points only
        todo, reasons, seen = [], {}, {}
        ran_on = rundir.ran_on(out, filename) if engine.parts else None

        def ran(by, i):            # engine=auto: the engine whose row point i has (summary.json's engine_split)
            if ran_on is not None:
                ran_on.setdefault(by, []).append({c: keyrows[i].get(c) for c in K})
        for i, k in enumerate(keys):
            h = idents[first][i][0]
            if k in seen:
                if seen[k] != h:
                    raise RuntimeError(f"two points of one call share the key {k} but differ in identity: "
                                       f"add the differing parameter to the key columns")
                continue
            seen[k] = h
            s = stored.get(k)
            if s is None:
                why = "new point"
            elif not s.intact:
                why = "damaged row"
            elif s.identity not in {v[i][0] for v in idents.values()}:
                why = st.stale_reason(s.ident, docs[_engine_of(s.ident, docs, first)][i])   # against its own engine
            elif retry_failed and s.error:
                why = "previous error"
            elif not s.error and not _has_result(s.values(), result_cols):
                why = "empty result"               # stored before empty results were flagged
            else:
                ran(next(n for n, v in idents.items() if v[i][0] == s.identity), i)
                continue
            todo.append(i)
            reasons[why] = reasons.get(why, 0) + 1

        t0 = time.perf_counter()
        bar = progress_bar(len(todo), engine.name, filename) if progress else None
        committer = st.Committer(out, filename, asked.keys(K), lambda: asked.due(EXPORT_EVERY_S, mid_call=True),
                                 key_columns=K) if todo else None       # one clock: the call's end's (below)

        def add(j, values, error=None, by=None):
            i, by = todo[j], by or first
            extra = set(values) - set(header)
            if extra:
                raise RuntimeError(f"{cls.__name__}: results values {sorted(extra)} are not declared in "
                                   f"{cls.__name__}.metrics")
            if not error and not _has_result(values, result_cols):
                error = EMPTY                  # an allowed point with no result is never a silent empty row
            if engine.name in BATCH_ENGINES:   # a metric the twin could not measure is not a number (a reference
                error = error or no_value(values, metric_cols)      # model's NaN marks one it does not compute)
            row = {**{c: None for c in metric_cols}, **keyrows[i],
                   **{c: v for c, v in values.items() if c not in K}, "error": error or ""}
            committer.put(keys[i], idents[by][i][0], idents[by][i][1], row, row["error"])   # its own transaction
            ran(by, i)
            if bar is not None:
                bar.update(1)

        steps = 0
        try:
            if todo:
                steps = engine.simulate([robots[i] for i in todo], add) or 0
        finally:        # a failed call leaves the results file as it was: the store keeps what was committed
            if bar is not None:
                bar.close()
            if committer is not None:
                committer.close()            # every finished point committed
        K_now = db.key_columns(filename)
        if K_now != K:       # another writer widened the key columns meanwhile: re-address
            keys = [st.key_of(kr, K_now) for kr in keyrows]
        if asked.due(EXPORT_EVERY_S):    # in a run: at most this often, and at its end (rundir.finish_run)
            _, exported = db.export(filename, asked.keys(K_now))
        else:
            _, exported = db.export(filename, keys, write=False)     # this call's rows, not written
        wall = time.perf_counter() - t0
    by_key = dict(exported)
    ordered = [dict(by_key[k]) for k in keys if k in by_key]          # one row per point, in point order
    failed = [by_key[k] for k in dict.fromkeys(keys) if k in by_key and by_key[k].get("error")]
    stats = dict(points=len(seen), computed=len(todo), reused=len(seen) - len(todo),
                 recomputed=reasons, failed_points=len(failed), all_healthy=not failed,
                 failed=[{**{c: r.get(c) for c in key}, "error": r["error"]} for r in failed],
                 wall_s=wall, steps=steps, steps_per_s=steps / wall if wall > 0 and steps else math.nan,
                 store_commit_s=committer.busy_s if committer is not None else 0.0)
    if moved is not None:
        stats["moved_aside"] = moved.name
    return ordered, stats


BOOKKEEPING = ("cycles",)        # columns every finished run fills: not a result by themselves (nor is
#                                  the motor work alone: energy.METRICS, measured even without progress)
EMPTY = "no result: the run finished without any metric (too few cycles for them?)"


def no_value(values: dict, cols) -> str:
    """The error of a row whose metrics include NaN (a metric the run could not measure), or ""."""
    nan = [c for c in cols if isinstance(values.get(c), (float, np.floating)) and math.isnan(values[c])]
    return (f"no value for {', '.join(nan)} (NaN): the run could not measure {'them' if len(nan) > 1 else 'it'} "
            f"(too few cycles or samples?)") if nan else ""


def _has_result(values: dict, cols) -> bool:
    """Whether a row holds at least one metric (a value that is not empty or NaN)."""
    for c in cols:
        v = values.get(c)
        if v is None or v == "" or (isinstance(v, float) and math.isnan(v)):
            continue
        return True
    return not cols


def point_label(row: dict, keys) -> str:
    """`k=v,...` of a row's values of `keys` (a summary key or a curve's label)."""
    return ",".join(f"{k}={row[k]:g}" if isinstance(row[k], (int, float)) and not isinstance(row[k], bool)
                    else f"{k}={row[k]}" for k in keys)


def by_extra_keys(rows, keys) -> dict:
    """Rows split by their values of the sweep's extra `keys` (one curve each): label -> rows, in
    row order; with no extra keys, {"": rows}."""
    out: dict = {}
    for r in rows:
        out.setdefault(point_label(r, keys), []).append(r)
    return out or {"": []}


def healthy(rows) -> list:
    """The rows that are valid results (no `error`): what plots and summaries use."""
    return [r for r in rows if not r.get("error")]


def num(v) -> float:
    """A metric as a float; missing (a failed point) is NaN."""
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def nanmax(values) -> float:
    """Largest finite value (missing and NaN skipped); NaN if there is none."""
    vals = [x for x in map(num, values) if x == x]
    return max(vals) if vals else math.nan


def nanmin(values) -> float:
    vals = [x for x in map(num, values) if x == x]
    return min(vals) if vals else math.nan


def progress_bar(n, engine: str, filename: str):
    """A bar of n points labelled by the engine and the results file it fills, its postfix the whole
    run's ETA (envs/core/runs/progress.py); None when there is nothing to compute (the run's stage skipped)."""
    from . import progress as pg
    if not n:
        pg.active().skip(engine)
        return None
    return pg.Bar(n, engine, filename)
