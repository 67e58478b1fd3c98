"""What every experiment runner shares: `runner(job, out) -> Result` (or a bare summary dict), where
`job` is the config checked once (`gaittwin.core.runs.config.Job`: frozen, typed), listed in its robot's
paper package (envs/<robot>/paper/__init__.py EXPERIMENTS, marked `@runner("<name>")`) for the experiment
declared in envs/<robot>/config.py, and the one shell that runs it (`compute`): the
config is checked first, the runner computes, and the shell writes what it returns -- its tables
(CSV), its plots (PNG, drawn by the robot's plot functions) and `summary.json`.  Sweeps keep
`results.csv` in the resumable store (envs/core/runs/store.py), which writes it as points finish; a single
run (no results.csv of its own) gets a one-row results.csv of its summary's scalars (`one_row`).

Runners read the job's values directly (`job.run.cycles`, `job.robot`, `job.sweep`) or through
these helpers (plain copies); a runner never sees an unchecked value.
"""
from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import pathlib
import sys
from typing import Callable

import numpy as np

from . import config
from .config import RUNNERS, runner_of  # noqa: F401  (the registry: envs/core/runs/config.py)
from ..engines.engines import runner_kw  # noqa: F401  (the batch runner's keywords: envs/core/engines/engines.py)


@dataclasses.dataclass
class Result:
    """What a runner computed.  summary: the scalars (summary.json); tables: file name -> columns
    (name -> sequence, all of one length) or (column names, row dicts) for a .csv, any JSON value
    for a .json, text for a .md; plots: file name -> a function drawing the figure into the path
    it is given (the robot's plots module); rows: file name -> the row dicts of a file the sweep
    store wrote itself (a sweep's results.csv), returned to callers, not written again.

    Callers that read results (the fidelity claims, envs/<robot>/claims.py) use `table(name)`: the
    typed rows as computed, never a CSV read back."""
    summary: dict
    tables: dict = dataclasses.field(default_factory=dict)
    plots: dict[str, Callable] = dataclasses.field(default_factory=dict)
    rows: dict[str, list] = dataclasses.field(default_factory=dict)

    def table(self, name: str) -> list[dict]:
        """The rows of the CSV `name` (one of `tables` or `rows`), each a dict of typed values."""
        if name in self.rows:
            return [dict(r) for r in self.rows[name]]
        if name not in self.tables or name.endswith((".json", ".md")):
            raise KeyError(f"{name}: not a table of this result (tables: {sorted(self.tables)}, "
                           f"rows: {sorted(self.rows)})")
        t = self.tables[name]
        if isinstance(t, dict):
            cols = list(t)
            return [dict(zip(cols, vals)) for vals in zip(*(t[c] for c in cols))]
        cols, rows = t
        return [{c: r.get(c) for c in cols} for r in rows]

    def columns(self, name: str) -> list[str]:
        t = self.tables[name]
        return list(t) if isinstance(t, dict) else list(t[0])

    def write(self, out) -> None:
        from .csvio import replace_atomically, write_csv, write_json
        for name, table in self.tables.items():       # each file replaced whole (tmp, fsync, rename)
            if name.endswith(".json"):
                write_json(out / name, table)
            elif isinstance(table, str):
                replace_atomically(out / name, lambda f, text=table: f.write(text))
            else:
                write_csv(out / name, self.columns(name), self.table(name))
        for name, draw in self.plots.items():         # drawn beside, then renamed: never a half-written figure
            tmp = out / f".{name}.{os.getpid()}.tmp{pathlib.Path(name).suffix}"
            try:
                draw(tmp)
                if tmp.exists():
                    os.replace(tmp, out / name)
            finally:
                tmp.unlink(missing_ok=True)
        write_json(out / "summary.json", self.summary)
        from .rundir import in_store
        if "results.csv" not in self.tables and "results.csv" not in self.rows \
                and not in_store(out, "results.csv"):      # a single run: a one-row results.csv
            write_csv(out / "results.csv", *one_row(self.summary))


def one_row(summary: dict) -> tuple[list[str], list[dict]]:
    """A single run's results.csv (every experiment writes the contract files): one row of the
    summary's scalars under their summary names (which follow the `_deg` rule); nested values
    (dicts, lists) stay in summary.json only."""
    row = {k: v for k, v in summary.items() if v is None or isinstance(v, (bool, int, float, str, np.generic))}
    return list(row), [row]


def robot_params(job) -> dict:
    """The robot's base parameters (checked; without its name): a runner's own copy."""
    return _plain(config.validate(job).robot)


def _plain(m) -> dict:
    """A Job's read-only mapping as a plain dict of lists (a runner's own copy)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in m.items()}


def sweep_lists(cfg) -> dict:
    """sweep.<name>: [values], each value checked against the robot parameter's declaration."""
    return _plain(config.validate(cfg).sweep)


def run_kw(cfg) -> dict:
    """The batch runner's keywords from `run.*` (checked)."""
    v = config.validate(cfg)
    r = v["run"]
    kw = dict(cycles=r["cycles"], min_cycles=r["min_cycles"], stop_when_steady=r["stop_when_steady"],
              nthread=r["nthread"], chunk=r["chunk"], max_steps=r["max_steps"], retry_failed=r["retry_failed"])
    if v["engine"] in ("warp", "auto"):   # the batch runner on MuJoCo Warp (envs/core/engines/warp_engine.py), or split
        kw.update(engine=v["engine"], device=r["device"], nworld=r["nworld"])
    return kw


def launch_kw(cfg) -> dict:
    """Where a sweep's points run (`run.launcher`, `run.ray_*`, checked): keywords of engines.batch_engine."""
    r = config.validate(cfg)["run"]
    return dict(launcher=r["launcher"], address=r["ray_address"], points_per_task=r["ray_points"])


def robot_cls(cfg):
    return config.validate(cfg)["robot_cls"]


def options(cfg) -> dict:
    """The experiment's options (checked against its declared dataclass)."""
    return _plain(config.validate(cfg).experiment)


def compute(cfg, out) -> Result:
    """Run the configured experiment into `out`, write what it returns (tables, plots, strict-JSON
    summary.json) and return its Result (a runner's bare summary dict becomes Result(summary))."""
    from .rundir import finish_run, new_run

    v = config.validate(cfg)
    out = pathlib.Path(out)
    new_run(out)                    # the run's results files: the points this run asks for
    if v["engine_fallback"]:        # engine=warp/auto asked for what MuJoCo Warp cannot run: said, then the C engine
        note = (f"engine={v['engine_requested']}: {v['engine_fallback']}; running on the C engine (engine=mujoco) "
                "instead")
        logging.getLogger("gaittwin").warning(note)
        print(f"note: {note}", file=sys.stderr)
    from . import progress
    from .sweep import SimulationFailed
    progress.plan()                  # this run's bars share one ETA (a runner may declare its stages)
    try:
        result = runner_of(v.options_cls)(v, out)
    except SimulationFailed as e:    # a point the runner needs whole failed: the run's row with `error`
        result = Result(dict(e.point, error=str(e), all_healthy=False, failed_points=1,
                             failed=[dict(e.point, file=e.file, error=e.error)]))
        print(f"note: {e}; results.csv has its row with `error`", file=sys.stderr)
    except BaseException:
        with contextlib.suppress(Exception):     # the runner's error is the one to see
            finish_run(out)
        raise
    finish_run(out)                  # the results files sweep.run_rows left to the run's end
    if not isinstance(result, Result):
        result = Result(result)
    result.summary = checked_summary(result, out, v)
    if v["engine_fallback"]:
        result.summary = dict(result.summary, engine="mujoco", engine_requested=v["engine_requested"],
                              engine_fallback=v["engine_fallback"])
    elif v["engine"] in ("warp", "auto"):
        from .rundir import engine_split
        result.summary = engine_label(result.summary, v["engine"], engine_split(out))
    result.write(out)
    return result


def checked_summary(result: Result, out, job) -> dict:
    """The summary with what makes the run not a valid result said in `error` (and all_healthy false): a
    point it ran outside the store that failed or is over the robot's health limits (rundir.problems), and,
    for a single run of the twin (its results.csv is the summary's row), a metric of the robot's that is NaN
    (the run could not measure it), as sweep.run_rows flags a sweep's row."""
    from .rundir import in_store, problems
    from .sweep import BATCH_ENGINES, no_value
    s = dict(result.summary)
    said = str(s.get("error") or "")
    why = [f"{p['file']} ({', '.join(f'{k}={v}' for k, v in p.items() if k not in ('file', 'error'))}): {p['error']}"
           for p in problems(out) if p["error"] not in said]
    if "results.csv" not in result.tables and "results.csv" not in result.rows and not in_store(out, "results.csv"):
        row = one_row(s)[1][0]
        if job.engine in BATCH_ENGINES:
            why.append(no_value(row, [c for c in row if c in job.robot_cls.metrics]))
    why = [w for w in why if w]
    if why:
        s["error"] = "; ".join(([said] if said else []) + why)
        s["all_healthy"] = False
    return s


def engine_label(summary, engine, split):
    """summary.json's engine label under engine=warp/auto, set after the runner's summary: engine_split
    (which engine ran, or had stored, each point of each results file; under warp only when another engine
    ran some output, e.g. a C time series) and engine.  The one precedence rule: under warp a runner that
    names its engine itself keeps its label (bolt twin_vs_paper's "mujoco+paper", a comparison's main
    engine); under auto the label is "auto" over a runner's own (the engine that ran is in engine_split)."""
    out = dict(summary, **({"engine_split": split} if split or engine == "auto" else {}))
    out["engine"] = summary.get("engine", engine) if engine == "warp" else engine
    return out


def runner(of):
    """Mark `fn(job, out) -> Result` as the runner of experiment `of`: its declared name
    (`@runner("crawler_frequency_sweep")`), or an options class, for every experiment declared with it
    or a subclass of it (`@runner(Robustness)`: each <robot>_robustness).  A mark, not a registration:
    the runner is listed in its paper package's EXPERIMENTS (core's families: in the manifest,
    envs/registry.py), and gaittwin.core.registry.install refuses a table that gives a marked runner
    another experiment; `config.runner_of` finds it in what was installed."""
    def mark(fn):
        fn.experiments = (*getattr(fn, "experiments", ()), of)
        return fn
    return mark


def run(cfg, out) -> dict:
    """Run the configured experiment into `out` (compute) and return its summary."""
    return compute(cfg, out).summary
