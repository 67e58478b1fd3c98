"""Parameter sweeps: grid expansion, resumable results files, and the shared sweep loop.

A sweep is `sweep.<name>: [values]` in the config: the cartesian product of all
lists, each value overriding the robot parameter of the same config name.  Rows
are appended to `results.csv` as points finish (flushed), so a killed sweep
resumes where it stopped and a finished sweep recomputes nothing.
"""
from __future__ import annotations

import csv
import itertools
import json
import math
import pathlib
import time

import numpy as np

from envs.core.errors import ConfigError


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


def _key(row: dict, names) -> tuple:
    return tuple(_canon(row[n]) for n in names)


def _canon(v):
    if v is None or v == "":
        return ""
    try:
        return repr(round(float(v), 12))
    except (TypeError, ValueError):
        return str(v)


class ResultsFile:
    """Append-only CSV with one row per finished point, resumable by key columns."""

    def __init__(self, path, columns: list[str], key: list[str]):
        self.path, self.columns, self.key = pathlib.Path(path), list(columns), list(key)
        self.done: dict = {}
        if self.path.exists() and self.path.stat().st_size:
            with open(self.path, newline="") as f:
                reader = csv.DictReader(f)
                for row in reader:
                    self.done[_key(row, self.key)] = row
        self._f = None

    def has(self, point: dict) -> bool:
        return _key(point, self.key) in self.done

    def append(self, row: dict) -> None:
        if self._f is None:
            new = not (self.path.exists() and self.path.stat().st_size)
            self._f = open(self.path, "a", newline="")
            self._w = csv.DictWriter(self._f, fieldnames=self.columns, extrasaction="ignore")
            if new:
                self._w.writeheader()
        self._w.writerow({k: _fmt(row.get(k)) for k in self.columns})
        self._f.flush()
        self.done[_key(row, self.key)] = row

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def rewrite(self, rows: list[dict]) -> None:
        """Replace the file by `rows` (e.g. sorted), atomically."""
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=self.columns, extrasaction="ignore")
            w.writeheader()
            for row in rows:
                w.writerow({k: _fmt(row.get(k)) for k in self.columns})
        tmp.replace(self.path)

    def rows(self) -> list[dict]:
        """All rows as read back (strings converted to float where numeric)."""
        with open(self.path, newline="") as f:
            return [{k: _parse(v) for k, v in row.items()} for row in csv.DictReader(f)]


def _fmt(v):
    if v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    return v


def _parse(v):
    if v in ("True", "False"):
        return v == "True"
    try:
        return float(v)
    except (TypeError, ValueError):
        return v


def run_sweep(robot_cls, base: dict, sweep: dict, out: pathlib.Path, *, run_kw: dict, launch: dict | None = None,
              extra_columns=(), filename="results.csv", progress=True) -> tuple[list[dict], dict]:
    """Run every point of base x grid(sweep) with the batch runner, resumably (see run_rows).

    launch: where the points run (experiment.launch_kw): locally, or fanned out through Ray."""
    points = [{**base, **combo} for combo in grid(sweep)]
    robots = [robot_cls(**pt) for pt in points]            # validation: ConfigError, nothing written
    key = list(dict.fromkeys(list(sweep) + list(robot_cls.columns)))
    return run_rows(robots, out, key=key, simulate=batch_engine(run_kw, **(launch or {})), extra_columns=extra_columns,
                    filename=filename, progress=progress)


def batch_engine(run_kw: dict, launcher: str = "local", address=None, points_per_task=None):
    """The MuJoCo engine for run_rows: the native batch runner (envs.batch.run_points), in this
    process (launcher=local) or in Ray tasks (launcher=ray, envs/core/ray_runner.py): same rows."""
    from envs.core import batch

    if launcher == "ray":
        from envs.core import ray_runner
        return ray_runner.engine(run_kw, address=address, points_per_task=points_per_task)
    if launcher != "local":
        raise ConfigError("run.launcher", launcher, "one of ['local', 'ray']")

    def simulate(robots, add) -> int:
        steps = 0

        def on_result(j, run):
            nonlocal steps
            r = robots[j]
            steps += run.cycles * r.steps_per_cycle
            # a failed point (MuJoCo error or warning) keeps its row, with the reason and no metrics;
            # a run the robot flags (e.g. loop gap over its limit) keeps its metrics and the reason
            summary = {} if run.error else r.summarize(run)
            add(j, summary, run.error or r.run_error(summary))
        batch.run_points(robots, type(robots[0]), on_result=on_result, **run_kw)
        return steps
    return simulate


def run_rows(robots, out: pathlib.Path, *, key: list, simulate, meta=None, extra_columns=(),
             filename="results.csv", progress=True) -> tuple[list[dict], dict]:
    """The shared resumable loop: one row per robot point in out/filename.

    Points already in the file (matched on the `key` columns) are not recomputed;
    the others go to simulate(robots_todo, add) -> steps, an engine that calls
    add(j, summary, error) as each point j of robots_todo finishes (any order).
    Rows are appended and flushed as they come; when a run completes, the file is
    rewritten in point order.  meta: per-point dicts of extra key columns.
    Returns (rows in point order, stats).
    """
    meta = meta or [{} for _ in robots]
    keyrows = [{**r.cfg, **m} for r, m in zip(robots, meta)]
    out.mkdir(parents=True, exist_ok=True)
    res_path = out / filename
    header = _read_header(res_path)
    if header and not set(key) <= set(header):
        raise RuntimeError(f"{res_path} has columns {header}, which lack {sorted(set(key) - set(header))}: "
                           "it belongs to another sweep; use a new run directory")
    results = ResultsFile(res_path, header, key) if header else None
    todo = [i for i, kr in enumerate(keyrows) if results is None or not results.has(kr)]
    t0 = time.perf_counter()
    bar = _bar(len(todo)) if progress and todo else None

    def add(j, summary, error=None):
        nonlocal results
        i = todo[j]
        row = {**keyrows[i], **summary, "error": error or ""}
        if results is None:
            first = key + [c for c in extra_columns if c not in key]
            results = ResultsFile(res_path, first + [c for c in row if c not in first and c != "error"] + ["error"],
                                  key)
        results.append(row)
        if bar is not None:
            bar.update(1)

    steps = 0
    try:
        if todo:
            steps = simulate([robots[i] for i in todo], add) or 0
    finally:
        if bar is not None:
            bar.close()
        if results is not None:
            results.close()
    wall = time.perf_counter() - t0
    ordered = []
    if results is not None:
        rows = {_key(r, key): r for r in results.rows()}
        ordered = [rows[_key(kr, key)] for kr in keyrows if _key(kr, key) in rows]
        if todo:   # finished: the file in point order (rows of other grids kept after), atomically
            mine = {_key(kr, key) for kr in keyrows}
            results.rewrite(ordered + [r for k, r in rows.items() if k not in mine])
    stats = dict(points=len(robots), computed=len(todo), wall_s=wall, steps=steps,
                 steps_per_s=steps / wall if wall > 0 and steps else math.nan)
    return ordered, stats


def _read_header(path) -> list[str]:
    if not (path.exists() and path.stat().st_size):
        return []
    with open(path, newline="") as f:
        return next(csv.reader(f), [])


def _bar(n):
    from tqdm import tqdm
    return tqdm(total=n, desc="points", unit="pt", dynamic_ncols=True)


def write_json(path, obj) -> None:
    path = pathlib.Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2, default=_json_default) + "\n")
    tmp.replace(path)


def _json_default(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, np.bool_):
        return bool(o)
    raise TypeError(type(o))
