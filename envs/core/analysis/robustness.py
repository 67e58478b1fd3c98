"""Robustness maps: how a gait's figure of merit spreads over the quantities a user
does not know about the robot, for every robot, with one mechanism.

An experiment `<robot>_robustness` declares (its options dataclass derives from `Robustness`):
  n       randomised worlds (world 0, the nominal point itself, is run in addition: n + 1 rows)
  seed    the draws' seed: same seed, spread and n -> the same worlds
  spread  robot parameter -> its distribution, each a declared, validated entry:
            {dist: uniform, rel: 0.1}   uniform on nominal * [1 - 0.1, 1 + 0.1]
            {dist: uniform, abs: 20}    uniform on nominal + [-20, 20] (the parameter's config unit)
            {dist: normal, rel: 0.1}    normal, sd = 0.1 nominal, truncated at +-3 sd
            {dist: uniform, abs: 1e-4, side: up}   one-sided: uniform on nominal + [0, 1e-4] (`down`:
                                        nominal - [0, 1e-4]); for a quantity whose nominal sits at
                                        the end of its range (a passive joint's damping of 0)
          optional keys: `size: 4` draws a list-valued parameter element by element (a null
          nominal counts as zeros; `size: N`: as long as the robot's integer parameter N, the snake's
          sections; a length the robot refuses: one ConfigError naming `experiment.spread.<name>.size`),
          `of: mu` takes the nominal of a null parameter from another (the crawler's per-foot mu1/mu2
          default to mu; with `size`, every element's nominal is it: MinIAQ's mu_d_feet of mu_d).  The
          whole support (nominal +- half-width, +-3 sd for normal) must lie in the parameter's declared
          range and pass the robot's own checks at both ends: else one ConfigError naming
          `experiment.spread.<name>`, before anything is written (a parameter the robot takes at no value
          but its nominal, e.g. BOLT's contact_timeconst with the plastic foot and no bumper: drop it,
          `~experiment.spread.<name>`).
  merit   figure-of-merit metric -> its sense: `max` (larger is better: the worst case is the
          smallest), `min` (smaller is better) or `abs` (nearer zero is better: the worst case is
          the largest |value|, e.g. an unwanted yaw rate).  The first is the primary one.

Each parameter's draws come from their own stream (numpy SeedSequence of the seed and the
parameter's name), so world k's values do not depend on n or on the other parameters.  The
worlds go through the batch path (gaittwin.core.runs.sweep.run_rows with the configured engine: the
resumable store, key columns seed, world and the drawn parameters), so a rerun reuses its rows
and a changed seed or spread can never give stale ones: results.csv lists this run's worlds first
(one row per world: seed, world, drawn parameters, metrics, health, error); worlds of earlier runs
into the same directory with another seed or spread follow, each row with its own parameters, and
are never used in this run's statistics.  summary.json: per merit the nominal value (world 0), the
median, 5th and 95th percentiles over the n randomised worlds (for `abs` also the median and 95th
percentile of |value|), the worst case and its world, and the sensitivity ranking; sensitivity.csv;
robustness.png (envs/core/view/robustness_plot.py).  engine=hybrid / engine=paper (reference models
outside the batch path) are refused with a ConfigError.

Sensitivity method: envs/core/analysis/sensitivity.py (Spearman rho with its noise level, eta^2, regression).
"""
from __future__ import annotations

import dataclasses
import math
import zlib
from typing import Any, Dict

import numpy as np

from ..runs import config
from ..model import schema
from ..runs import sweep as sw
from ..model.errors import ConfigError
from ..model.schema import param
from .sensitivity import METHOD, add_derived, analyse
from ..runs.experiment import runner

DISTS = ("uniform", "normal")
SIDES = ("both", "up", "down")
KEYS = ("dist", "rel", "abs", "size", "of", "side")
SENSES = ("max", "min", "abs")
TRUNCATE_SD = 3.0            # normal draws are truncated at +-3 sd


@dataclasses.dataclass
class Robustness(config.Experiment):
    """What every <robot>_robustness declares; a robot's subclass sets name, spread and merit."""

    n: int = param(32, "worlds", ge=1, le=10_000_000, note="randomised worlds; world 0 (nominal) runs in addition")
    seed: int = param(0, ge=0, le=2**31 - 1)
    spread: Dict[str, Any] = dataclasses.field(default_factory=dict)
    merit: Dict[str, Any] = dataclasses.field(default_factory=dict)
    derived: Dict[str, Any] = dataclasses.field(default_factory=dict)


def uniform(rel: float, *names: str, **kw) -> dict:
    """Spread entries: each of `names` uniform on nominal * [1 - rel, 1 + rel] (kw: `of`, ...)."""
    return {n: dict(dist="uniform", rel=rel, **kw) for n in names}


@dataclasses.dataclass(frozen=True)
class Dist:
    """One declared distribution of a robot parameter."""

    name: str
    dist: str
    rel: float | None = None
    abs: float | None = None
    size: int | None = None
    of: str | None = None
    side: str = "both"             # uniform only: "up" draws nominal + [0, w], "down" nominal - [0, w]

    @property
    def variables(self) -> list[str]:
        """The sensitivity variables it draws: the parameter, or each element of a list."""
        return [self.name] if self.size is None else [f"{self.name}[{e}]" for e in range(self.size)]

    def half_width(self, x0: float) -> float:
        """Uniform: the half-width; normal: the standard deviation (config units)."""
        return self.abs if self.abs is not None else self.rel * abs(x0)

    def support(self, x0: float) -> tuple[float, float]:
        h = self.half_width(x0) * (TRUNCATE_SD if self.dist == "normal" else 1.0)
        return x0 - (h if self.side != "up" else 0.0), x0 + (h if self.side != "down" else 0.0)

    def sample(self, x0: float, u: np.ndarray) -> np.ndarray:
        """Values for uniforms u in [0, 1): inverse-CDF sampling (one uniform per world)."""
        h = self.half_width(x0)
        if self.dist == "uniform":
            return x0 + h * {"both": 2.0 * u - 1.0, "up": u, "down": -u}[self.side]
        from scipy.special import ndtr, ndtri
        lo, hi = ndtr(-TRUNCATE_SD), ndtr(TRUNCATE_SD)
        return x0 + h * ndtri(lo + u * (hi - lo))


def parse_spread(cls, spread: dict, params: dict | None = None) -> list[Dist]:
    """The declared distributions, checked against the robot's schema (ConfigError naming the entry);
    `size: <parameter>` resolved with the robot's `params` (config names; defaults where absent)."""
    fields = schema.fields(cls.Params)
    out = []
    for name, entry in (spread or {}).items():
        key = f"experiment.spread.{name}"
        f = fields.get(name)
        if f is None or name == "name":
            raise ConfigError(key, entry, f"a parameter of {cls.name}: {sorted(cls.defaults)}")
        if not isinstance(entry, dict):
            raise ConfigError(key, entry, "{dist: uniform|normal, rel: x | abs: x[, size: k][, of: param]"
                                          "[, side: up|down]}")
        unknown = sorted(set(entry) - set(KEYS))
        if unknown:
            raise ConfigError(f"{key}.{unknown[0]}", entry[unknown[0]], f"one of {list(KEYS)}")
        side = entry.get("side", "both")
        if side not in SIDES or (side != "both" and entry.get("dist") != "uniform"):
            raise ConfigError(f"{key}.side", side, f"one of {list(SIDES)} (up/down: dist uniform only)")
        if entry.get("dist") not in DISTS:
            raise ConfigError(f"{key}.dist", entry.get("dist"), f"one of {list(DISTS)}")
        if ("rel" in entry) == ("abs" in entry):
            raise ConfigError(key, entry, "exactly one of rel (relative) or abs (absolute) half-width / sd")
        w = entry.get("rel", entry.get("abs"))
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w <= 0:
            raise ConfigError(f"{key}.{'rel' if 'rel' in entry else 'abs'}", w, "a finite number > 0")
        size = entry.get("size")
        if isinstance(size, str) and size in fields and fields[size].kind is int and not fields[size].optional:
            size = (params or {}).get(size, fields[size].default)
        if (f.kind is list) != (size is not None):
            raise ConfigError(f"{key}.size", size, "an integer >= 1 for a list-valued parameter, else absent")
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 1):
            raise ConfigError(f"{key}.size", entry["size"], f"an integer >= 1 or an integer parameter of {cls.name}")
        if f.kind not in (float, list):
            raise ConfigError(key, entry, "a real-valued parameter (integers, strings and flags are not drawn)")
        of = entry.get("of")
        if of is not None and (of not in fields or fields[of].kind is not float):
            raise ConfigError(f"{key}.of", of, f"a real-valued parameter of {cls.name}")
        out.append(Dist(name, entry["dist"], float(w) if "rel" in entry else None,
                        float(w) if "abs" in entry else None, size, of, side))
    return out


def parse_merit(cls, merit: dict) -> dict:
    if not merit:
        raise ConfigError("experiment.merit", merit, f"a non-empty {{metric: sense}} with metrics of {cls.name}")
    for m, sense in merit.items():
        if m not in cls.metrics:
            raise ConfigError(f"experiment.merit.{m}", sense, f"a metric of {cls.name}: {list(cls.metrics)}")
        if sense not in SENSES:
            raise ConfigError(f"experiment.merit.{m}", sense, f"one of {list(SENSES)}")
    return dict(merit)


def nominal(robot, d: Dist):
    """The nominal value of a drawn parameter in config units (a list for list-valued ones)."""
    v = robot.cfg[d.name]
    if v is None and d.of is not None:
        v = robot.cfg[d.of]
        v = [v] * d.size if d.size is not None and v is not None else v   # a per-element list of it
    if v is None and d.size is None:          # resolved by the robot (e.g. BOLT's mass set), SI in p
        v = getattr(robot.p, schema.si_name(d.name))
        v = math.degrees(v) if v is not None and d.name.endswith("_deg") else v
    if d.size is not None:
        v = [0.0] * d.size if v is None else list(v)
        if len(v) != d.size:
            raise ConfigError(f"robot.{d.name}", v, f"a list of {d.size} values (experiment.spread.{d.name}.size)")
        return [float(x) for x in v]
    if v is None:
        raise ConfigError(f"experiment.spread.{d.name}", None, "a parameter with a value, or `of: <parameter>`",
                          "its nominal value is null")
    return float(v)


def _refusal(cls, base: dict, name: str, value) -> str | None:
    """The robot's ConfigError (its text) at base with name = value; None where it validates."""
    try:
        cls(**{**base, name: value})
    except ConfigError as e:
        return str(e)
    return None


def _robot_accepts(cls, base: dict, name: str, value, key: str, entry, allowed: str) -> None:
    why = _refusal(cls, base, name, value)    # the robot at base with name = value validates, else one
    if why is not None:                       # ConfigError naming key
        raise ConfigError(key, entry, allowed, f"the robot refuses it: {why}")


def _only_nominal(cls, base: dict, d: Dist, x0: float, width) -> None:
    """A parameter the robot takes at no value but its nominal with these settings (BOLT's contact_timeconst with the
    plastic foot and no bumper: it would have no effect) cannot be drawn at any width: one ConfigError saying to drop
    its entry (rather than to narrow it).  Called after the drawn range is checked against the parameter's own."""
    lo, hi = d.support(x0)
    step = 1e-6 * (abs(x0) or 1.0)
    probes = [x for x, side in ((x0 - step, lo < x0), (x0 + step, hi > x0)) if side]
    why = []
    for x in probes:
        why.append(_refusal(cls, base, d.name, x))
        if why[-1] is None:
            return
    if why:
        raise ConfigError(f"experiment.spread.{d.name}", width, f"no spread of {d.name} with these robot settings: "
                          f"drop it (~experiment.spread.{d.name})", f"the robot takes no value of {d.name} but its "
                          f"nominal {x0:g}: {why[0]}")


def draw(cls, base: dict, dists: list[Dist], n: int, seed: int) -> tuple[list[dict], list[str], np.ndarray]:
    """(points, variable names, X): world 0 is `base` itself; worlds 1..n carry the draws.
    X[i, j] is world i's value of variable j (world 0: the nominal values)."""
    nom = cls(**base)
    fields = schema.fields(cls.Params)
    points = [dict(base)] + [dict(base) for _ in range(n)]
    names, cols = [], []
    for d in dists:
        x0s, width = nominal(nom, d), d.rel if d.abs is None else d.abs
        if d.size is not None:                # a length the robot refuses (e.g. its N changed)
            _robot_accepts(cls, base, d.name, x0s, f"experiment.spread.{d.name}.size", d.size,
                           f"the length robot.{d.name} takes")
        elems = x0s if d.size is not None else [x0s]
        vals, ends = [], []
        for e, x0 in enumerate(elems):
            var = d.variables[e]
            lo, hi = d.support(x0)
            ends.append((lo, hi))
            for end in (lo, hi):
                if not fields[d.name].spec.contains(end):
                    raise ConfigError(f"experiment.spread.{d.name}", width,
                                      f"a width keeping {d.name} within {fields[d.name].allowed}",
                                      f"{var}: nominal {x0:g}, drawn range [{lo:g}, {hi:g}]")
            rng = np.random.default_rng(np.random.SeedSequence([seed, zlib.crc32(var.encode())]))
            x = d.sample(x0, rng.random(n))
            names.append(var)
            cols.append(np.concatenate([[x0], x]))
            vals.append(x)
        if d.size is None:                    # within its range (above): does the robot take any value but x0?
            _only_nominal(cls, base, d, x0s, width)
        for j in (0, 1):                      # the robot's own checks (e.g. the snake's |com_offset| < l/2)
            end = [float(w[j]) for w in ends] if d.size is not None else float(ends[0][j])
            _robot_accepts(cls, base, d.name, end, f"experiment.spread.{d.name}", width,
                           f"a width keeping every drawn {d.name} valid")
        for i in range(n):
            points[i + 1][d.name] = [float(v[i]) for v in vals] if d.size is not None else float(vals[0][i])
    X = np.column_stack(cols) if cols else np.zeros((n + 1, 0))
    return points, names, X


# ---- the experiment ---------------------------------------------------------------------------
def batch_path_engine(job) -> sw.Engine:
    """The engine the worlds run on: the configured engine's batch path (gaittwin.core.engines.engines.engine_for:
    the native batch runner, locally or through Ray, or MuJoCo Warp).  A reference engine (the
    crawler's hybrid model, MinIAQ's paper model) is refused, never silently replaced."""
    from ..runs.experiment import launch_kw, run_kw
    name = config.validate(job)["engine"]
    if name not in sw.BATCH_ENGINES:
        raise ConfigError("engine", name, f"an engine of the batch path {list(sw.BATCH_ENGINES)}",
                          "robustness worlds run through gaittwin.core.runs.sweep.run_rows' batch engine")
    return sw.engine_for(name, run_kw(job), **launch_kw(job))


def worlds(job):
    """(robots, meta, key, variable names, X, dists, merit, options) of the configured experiment,
    everything validated before anything is simulated."""
    from ..runs.experiment import options, robot_cls, robot_params
    opts = options(job)
    cls = robot_cls(job)
    base = robot_params(job)
    dists = parse_spread(cls, opts["spread"], cls(**base).cfg)     # the robot's own values checked first
    merit = parse_merit(cls, opts["merit"])
    points, names, X = draw(cls, base, dists, int(opts["n"]), int(opts["seed"]))
    X, names = add_derived(X, names, opts.get("derived"))
    robots = [cls(**p) for p in points]
    meta = [dict(seed=int(opts["seed"]), world=i) for i in range(len(points))]
    key = ["seed", "world"] + [d.name for d in dists]
    return robots, meta, key, names, X, dists, merit, opts


@runner(Robustness)
def robustness(job, out):
    """The runner of every <robot>_robustness experiment (module docstring): the worlds go to the
    store (results.csv) as they finish; the Result holds sensitivity.csv, robustness.png, the summary."""
    from functools import partial

    from ..runs.experiment import Result
    from ..view.robustness_plot import plot_robustness
    robots, meta, key, names, X, dists, merit, opts = worlds(job)
    engine = batch_path_engine(job)
    kw = config.validate(job)["run"]
    rows, stats = sw.run_rows(robots, out, key=key, engine=engine, meta=meta, extra_columns=tuple(merit),
                              progress=kw["progress"], retry_failed=kw["retry_failed"])
    res = analyse(rows, X, names, merit, drawn=sum(len(d.variables) for d in dists))
    sens = [dict(merit=m, rank=i + 1, **s) for m, r in res.items() for i, s in enumerate(r.get("sensitivity", []))]
    failed = [dict(world=r["world"], error=r["error"]) for r in rows if r.get("error")]
    name = type(robots[0]).name
    summary = dict(stats, robot=name, engine=engine.name, n=int(opts["n"]), seed=int(opts["seed"]),
                   cycles=kw["cycles"], worlds=len(rows), failed_worlds=failed, method=METHOD,
                   distributions={d.name: {k: v for k, v in dataclasses.asdict(d).items()
                                           if v is not None and k != "name"} for d in dists},
                   derived=dict(opts.get("derived") or {}),
                   nominal_values={v: float(X[0, j]) for j, v in enumerate(names)}, merit=res)
    return Result(summary, tables={"sensitivity.csv": (["merit", "rank", "parameter", "spearman_rho", "src", "eta2"],
                                                       sens)},
                  plots={"robustness.png": partial(plot_robustness, rows, res,
                                                   title=f"{name}: {opts['n']} randomised worlds + the nominal "
                                                         f"({opts['n'] + 1} run)")},
                  rows={"results.csv": rows})
