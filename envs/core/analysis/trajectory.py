"""Measured trajectories: one format for what a twin writes and what a fit reads.

Each robot declares its observable channels (envs/core/model/channels.py, in envs/<robot>/channels.py):
what a camera or a logger can measure on the real robot, read from a finished `batch.Run` — the pose
of a named site or body (x, y, yaw), joint or crank angles, per-foot contact flags.  A trajectory is

    trajectory.csv   `t` (s) first, then one column per channel, SI units (m, rad, 1 for flags);
                     one row per sample, time strictly increasing
    trajectory.json  the sidecar: {"robot", "units": {column: unit}, "period" (s), "params" (the
                     robot's config point when the twin wrote it), "synthetic" (noise and time offset
                     when it is synthetic data), "channels": {name: {unit, kind, relative, what}}}

`read(path, robot)` is the one reader, and it refuses bad data with one ConfigError naming
`experiment.data` (exit code 2, nothing written): a missing file or sidecar, a missing `t` or an
unknown column, a unit that differs from the channel's declared unit, an empty, non-numeric or
non-finite cell, a value beyond MAX_ABS (no measurement of a legged robot), time that repeats or
goes back, sampling sparser than MIN_SAMPLES_PER_CYCLE samples per gait period, a record shorter
than one period, and a sidecar whose own fields are wrong: another robot's name, another `format`,
a `period` that is not a positive number, or a twin's run flagged `unhealthy` (not data).
"""
from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import math
import pathlib
from typing import Any, Optional

import numpy as np

from ..runs import config
from ..model.errors import ConfigError
from ..model.schema import param
from ..runs.experiment import runner
from ..model.channels import channels, cycle_channels  # noqa: F401  (declared in envs/core/model/channels.py)

MIN_SAMPLES_PER_CYCLE = 20      # sparser data cannot resolve the gait's harmonics (refused)
MAX_ABS = 1e6                   # |value| beyond this (m, rad, s, flags) is not a measurement (refused)
FORMAT = "gaittwin trajectory 1"
KEY = "experiment.data"


def record(robot, run, names=None) -> dict[str, np.ndarray]:
    """{'t': run.t, channel: values} of a finished run (all declared channels, or `names`)."""
    chans = channels(robot)
    return {"t": np.asarray(run.t, float), **{n: np.asarray(chans[n].read(run), float).reshape(-1)
                                              for n in (names or chans)}}


def sidecar(robot, names, **extra) -> dict:
    """The JSON sidecar of a trajectory of `robot` with columns `names` (units SI)."""
    chans = channels(robot)
    return dict(robot=robot.name, format=FORMAT, period=robot.period,
                units={"t": "s", **{n: chans[n].unit for n in names}},
                channels={n: dict(unit=chans[n].unit, kind=chans[n].kind, relative=chans[n].relative,
                                  what=chans[n].what) for n in names}, params=dict(robot.cfg), **extra)


def sidecar_path(path) -> pathlib.Path:
    return pathlib.Path(path).with_suffix(".json")


@dataclasses.dataclass
class Data:
    """A trajectory read and checked: t (s), values per channel, units, sidecar, file hash."""

    path: pathlib.Path
    t: np.ndarray
    values: dict
    meta: dict
    sha256: str

    @property
    def names(self) -> list[str]:
        return list(self.values)


def _refuse(path, why: str, allowed: str = "a trajectory.csv with its trajectory.json sidecar (envs/core/analysis/trajectory.py)"):
    raise ConfigError(KEY, str(path), allowed, why)


def numbers(path, header, body, refuse) -> np.ndarray:
    """The CSV body as a (rows, columns) array; refuse(path, why) on a short row, a non-number or a non-finite cell."""
    a = np.empty((len(body), len(header)))
    for i, r in enumerate(body):
        if len(r) != len(header):
            refuse(path, f"row {i + 2} has {len(r)} cells, the header {len(header)}")
        for j, v in enumerate(r):
            try:
                a[i, j] = float(v)
            except ValueError:
                refuse(path, f"row {i + 2}, column {header[j]!r}: {v!r} is not a number")
            if not math.isfinite(a[i, j]):
                refuse(path, f"row {i + 2}, column {header[j]!r}: {v!r} (NaN or infinite values are not data)")
    return a


def read_csv(path, refuse, expect, same_unit=lambda a, b: a == b) -> tuple[list, np.ndarray, dict, str]:
    """The one reader of a CSV with its JSON sidecar (a trajectory here, a per-cycle table in envs/core/analysis/cycle_table.py):
    (header, cells as a (rows, columns) array, sidecar, sha256 of both files).  refuse(path, why) on a missing file
    or sidecar, a sidecar without a 'units' object, an empty file, a duplicated column, a column unit that is not
    the one `expect(header)` declares ({column: unit}; it refuses unknown columns itself), a short row, a
    non-number or a non-finite cell.  Blank lines are skipped."""
    path = pathlib.Path(path)
    side = sidecar_path(path)
    if not path.is_file():
        refuse(path, "no such file")
    if not side.is_file():
        refuse(path, f"its sidecar {side.name} (units) is missing")
    try:
        meta = json.loads(side.read_text())
        units = dict(meta["units"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        refuse(path, f"sidecar {side.name} is not valid ({type(e).__name__}: {e}); it needs a 'units' object")
    raw = path.read_bytes()
    rows = [r for r in csv.reader(raw.decode("utf-8", errors="replace").splitlines()) if r]
    if not rows:
        refuse(path, "empty file")
    header, body = [h.strip() for h in rows[0]], rows[1:]
    if len(set(header)) != len(header):
        refuse(path, f"duplicated column {next(h for h in header if header.count(h) > 1)!r}")
    for h, want in expect(header).items():
        if h not in units:
            refuse(path, f"sidecar gives no unit for column {h!r} (expected {want!r})")
        if not same_unit(str(units[h]), want):
            refuse(path, f"unit mismatch: column {h!r} is {units[h]!r} in the sidecar; declared {want!r}")
    return header, numbers(path, header, body, refuse), meta, hashlib.sha256(raw + side.read_bytes()).hexdigest()


def read(path, robot) -> Data:
    """Read and check a trajectory against `robot`'s declared channels and period (module docstring)."""
    path, chans = pathlib.Path(path), channels(robot)

    def expect(header) -> dict:
        if header[0] != "t":
            _refuse(path, f"first column is {header[0]!r}, not 't' (time in s)")
        unknown = [h for h in header[1:] if h not in chans]
        if unknown:
            _refuse(path, f"unknown column {unknown[0]!r}: {robot.name}'s channels are {list(chans)}")
        if len(header) < 2:
            _refuse(path, "no channel columns")
        return {h: "s" if h == "t" else chans[h].unit for h in header}

    header, a, meta, sha = read_csv(path, _refuse, expect)
    check_sidecar(path, meta, robot)
    if (np.abs(a) > MAX_ABS).any():
        i, j = (int(x[0]) for x in np.nonzero(np.abs(a) > MAX_ABS))
        _refuse(path, f"row {i + 2}, column {header[j]!r}: {float(a[i, j])!r} is beyond +-{MAX_ABS:g} (SI units): "
                      f"not a measurement")
    t = a[:, 0]
    if len(t) < 2:
        _refuse(path, f"{len(t)} samples: too short for one cycle")
    dt = np.diff(t)
    if (dt == 0).any():
        _refuse(path, f"duplicated time t={t[1:][dt == 0][0]!r} s (row {int(np.flatnonzero(dt == 0)[0]) + 3})")
    if (dt < 0).any():
        k = int(np.flatnonzero(dt < 0)[0])
        _refuse(path, f"time goes back at row {k + 3} (t={t[k + 1]!r} s after {t[k]!r} s): not monotonic")
    T = robot.period
    if dt.max() > T / MIN_SAMPLES_PER_CYCLE * (1 + 1e-9):
        _refuse(path, f"sampling below the gait's: a gap of {dt.max():.4g} s; the gait period {T:.4g} s needs "
                      f"at least {MIN_SAMPLES_PER_CYCLE} samples per cycle (intervals <= {T / MIN_SAMPLES_PER_CYCLE:.4g} s)")
    if t[-1] - t[0] < T * (1 - 1e-9):
        _refuse(path, f"too short for one cycle: it spans {t[-1] - t[0]:.4g} s, the gait period is {T:.4g} s")
    values = {h: a[:, j] for j, h in enumerate(header) if j}
    return Data(path, t, values, meta, sha)


def check_sidecar(path, meta: dict, robot) -> None:
    """The sidecar's own fields, where given: `robot` this robot's name, `format` this format, `period` a
    positive number of seconds; a twin's trajectory flagged `unhealthy` (or failed) is refused as data."""
    if "robot" in meta and meta["robot"] != robot.name:
        _refuse(path, f"sidecar robot {meta['robot']!r}: the data of another robot (this fit is {robot.name}'s)")
    if "format" in meta and meta["format"] != FORMAT:
        _refuse(path, f"sidecar format {meta['format']!r} is unknown (this reader reads {FORMAT!r})")
    if "period" in meta:
        T = meta["period"]
        if isinstance(T, bool) or not isinstance(T, (int, float)) or not 0 < T < math.inf:
            _refuse(path, f"sidecar period {T!r} is not a positive number of seconds")
    for flag in ("unhealthy", "error"):
        if meta.get(flag):
            _refuse(path, f"sidecar says the run that wrote it is not a valid result ({flag}: {meta[flag]})",
                    "data of a healthy run (a twin's trajectory over the robot's health limits is not data)")


# ---- experiment <robot>_trajectory ------------------------------------------------------------
@dataclasses.dataclass
class TrajectoryOptions(config.Experiment):
    """What every <robot>_trajectory declares (a robot's subclass sets its name)."""

    cycles: int = param(3, "periods", ge=1, le=100000, note="periods of data written")
    channels: Any = dataclasses.field(default_factory=list)     # [] : every declared channel
    noise_rel: float = param(0.0, ge=0, le=1, note="synthetic noise: sd = noise_rel x each value channel's std")
    time_offset: Optional[float] = param(0.0, "s", ge=0, le=1e5,
                                         note="synthetic: the twin's time at the data's t = 0; null: uniform in [0, T)")
    seed: int = param(0, ge=0, le=2**31 - 1)


def noisy(values: dict, chans: dict, noise_rel: float, rng) -> dict:
    """Synthetic measurement noise: each value channel + N(0, (noise_rel x its std over the record))^2."""
    return {n: (v + rng.normal(0.0, noise_rel * float(np.std(v)), len(v)) if noise_rel and chans[n].kind == "value"
                else v) for n, v in values.items()}


@runner(TrajectoryOptions)
def trajectory_experiment(cfg, out):
    """The runner of every <robot>_trajectory: the twin's trajectory at robot.* as trajectory.csv +
    trajectory.json (optionally synthetic data: noise and a time offset, said in the sidecar)."""
    from ..runs import sweep
    from ..runs.experiment import Result, options, run_kw, runner_kw

    opts = options(cfg)
    robot = config.robot_point(cfg)
    chans = channels(robot)
    names = list(opts["channels"] or chans)
    bad = [n for n in names if n not in chans]
    if bad or not isinstance(opts["channels"] or [], list):
        raise ConfigError("experiment.channels", opts["channels"], f"a list of {robot.name}'s channels {list(chans)}")
    T = robot.period
    rng = np.random.default_rng(opts["seed"])
    offset = float(rng.uniform(0.0, T)) if opts["time_offset"] is None else float(opts["time_offset"])
    cycles = int(opts["cycles"]) + math.ceil(offset / T - 1e-12) + 1
    kw = runner_kw(run_kw(cfg))
    run = sweep.run_point(robot, out, "trajectory.csv", lambda r: {"robot": r.name},
                          kw=dict(kw, cycles=cycles, stop_when_steady=False))     # failed: SimulationFailed
    rec = record(robot, run, names)
    t = rec.pop("t")
    first = int(np.argmax(t >= offset - 1e-12))           # cycles x samples_per_cycle intervals: a span of cycles T
    keep = np.zeros(len(t), bool)
    keep[first:first + int(opts["cycles"]) * robot.samples_per_cycle + 1] = True
    values = noisy({n: v[keep] for n, v in rec.items()}, chans, float(opts["noise_rel"]), rng)
    synthetic = dict(noise_rel=float(opts["noise_rel"]), time_offset=offset, seed=int(opts["seed"]),
                     note="the twin's time at the data's t = 0; noise sd = noise_rel x the channel's std")
    meta = sidecar(robot, names, synthetic=synthetic, engine=run.engine, unhealthy=run.unhealthy)
    summary = dict(robot=robot.name, samples=int(keep.sum()), span=float(t[keep][-1] - t[keep][0]), period=T,
                   cycles=int(opts["cycles"]), channels=names, **{f"synthetic_{k}": v for k, v in synthetic.items()
                                                                  if k != "note"},
                   max_penetration=run.max_penetration, **({"max_loop_gap": run.max_loop_gap} if robot.loops else {}),
                   error=run.unhealthy, all_healthy=run.unhealthy is None)
    return Result(summary, tables={"trajectory.csv": {"t": t[keep] - offset, **values}, "trajectory.json": meta})
