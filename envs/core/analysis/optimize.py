"""Design on the twin: `experiment=<robot>_optimize`, the inputs or parameters that make a robot fastest,
cheapest per metre or most robust, for every robot, with one mechanism.

An experiment `<robot>_optimize` declares (its options dataclass derives from `Optimize`, made by `register`
in the robot's config.py; its runner is the robot's envs/<robot>/paper/optimize.py, which hands `run` the
robot's `Hooks`):
  variables    decision variables: robot parameter -> null (its declared range) or [lo, hi] (config units,
               inside the declared range); an element of a list-valued parameter as `name[i]` (the list
               itself given in robot.*); an integer parameter is rounded.  robot.* is the starting point
               (clipped into the box).
  objective    `speed` (the robot's speed metric, Hooks.speed, maximised), `cost_of_transport` (minimised),
               `weighted` (sum of weights.<metric> x metric, maximised: a negative weight penalises), or any
               declared metric (`sense` max or min; default max).
  robust       {} : the objective at the candidate itself.  Otherwise a band of worlds per candidate and an
               aggregate over it: {set: scale, param: mu, eps: 0.1, levels: [-1, 0, 1]} runs param x (1 + eps k)
               for each level k (a robot may offer its own sets, Hooks.bands: the crawler's `ratio`, Sec. VI);
               aggregate `worst` (the band's worst value), `mid` ((min + max) / 2: the crawler paper's S_mu) or
               `mean`.
  constraints  quantity -> {max: x} and/or {min: x}: a declared metric (worst over the band) or a quantity of
               the inputs the robot derives without simulating (Hooks.derived, e.g. the snake's peak servo
               rate).  constraint_mode `penalty`: loss + penalty x (sum of violations relative to |bound|);
               `reject`: a violating candidate is infeasible.  Health (a row with an `error`: failed, over
               the penetration or loop-gap limits) and a candidate the robot refuses (ConfigError) are always
               rejected, never penalised; history.csv says why.
  method       `cmaes` (default; the `cmaes` package, seeded: population `batch`, step sigma0 x the box, in
               the box scaled to [0, 1]; the first generation also runs the starting point; whole generations
               while the budget lasts; one variable: a batched zoom, `batch` points evenly over an interval
               that shrinks around the best), `lhs` (the start and a seeded Latin hypercube), `grid` (`grid`
               points per variable); the strategies: envs/core/analysis/search.py.
  budget       candidates at most (each runs len(band) simulations); `dry_run=true` prints the plan (budget,
               simulations, steps, an estimated wall time) and simulates nothing.

Every candidate's simulations go through the one path into physics (gaittwin.core.runs.sweep.simulate: the
batch engine of `engine`, local C threads, Ray or MuJoCo Warp) into the run's store (`candidates.csv`, keyed by
the varied parameters), so a killed optimisation rerun into the same directory reuses every finished point and,
the search being seeded and the stored values exact, asks the same candidates and ends at the same optimum.

Outputs: summary.json (the optimum, its objective, per-band values, constraint and health margins, the
starting point's objective, the search's bookkeeping), history.csv (every candidate), convergence.png,
sensitivity.csv / sensitivity.png (the objective along each variable through the optimum, `sensitivity`
points over +-sensitivity_span of the box), where the robot has a reference engine (Hooks.reference) the
optimum re-simulated there with the difference, and with video=true optimum.mp4.
"""
from __future__ import annotations

import dataclasses
import math
import re
import sys
import time
from typing import Any, Callable, Dict, Optional

import numpy as np

from . import search as strategy
from ..model import schema
from ..model.errors import ConfigError
from ..model.schema import param
from ..runs import config, sweep as sw

OBJECTIVES = ("speed", "cost_of_transport", "weighted")
AGGREGATES = ("worst", "mid", "mean")
REJECTED = 1e9                 # the loss of an infeasible candidate (cmaes ranks it last)
STEPS_PER_S_THREAD = 3.0e4     # the wall-time estimate's C rate (envs/core/engines/auto_split.py RATES, measured)
ELEMENT = re.compile(r"^([A-Za-z_]\w*)\[(\d+)\]$")


@dataclasses.dataclass
class Optimize(config.Experiment):
    """What every <robot>_optimize declares (a robot's subclass, `register`, sets its defaults)."""

    variables: Dict[str, Any] = dataclasses.field(default_factory=dict)
    objective: str = param("speed", note="speed, cost_of_transport, weighted, or a declared metric")
    sense: str = param("auto", choices=("auto", "max", "min"), note="auto: speed, weighted and metrics max; "
                                                                    "cost_of_transport min")
    weights: Dict[str, Any] = dataclasses.field(default_factory=dict)       # objective=weighted: metric -> weight
    robust: Dict[str, Any] = dataclasses.field(default_factory=dict)        # {}: no band (module docstring)
    constraints: Dict[str, Any] = dataclasses.field(default_factory=dict)   # quantity -> {max: x, min: y}
    constraint_mode: str = param("penalty", choices=("penalty", "reject"))
    penalty: float = param(1.0, ge=0, le=1e9, note="objective units per unit of relative violation")
    method: str = param("cmaes", choices=("cmaes", "lhs", "grid"))
    budget: int = param(24, "candidates", ge=1, le=1_000_000)
    batch: int = param(6, "candidates", ge=4, le=100_000, note="cmaes population (>= 4: below, cmaes divides by zero); "
                                                                  "candidates per batch")
    grid: int = param(5, ge=2, le=10_000, note="method=grid: points per variable")
    sigma0: float = param(0.3, gt=0, le=1, note="cmaes: initial step, fraction of the box")
    seed: int = param(0, ge=0, le=2**31 - 1)
    sensitivity: int = param(5, ge=0, le=1000, note="points per variable through the optimum; 0: none")
    sensitivity_span: float = param(0.1, gt=0, le=1, note="half-width, fraction of the box")
    reference: bool = param(True, note="re-simulate the optimum on the robot's reference engine, if any")
    video: bool = param(False, note="render optimum.mp4 (slow: software rendering)")
    dry_run: bool = param(False, note="print the budget and the wall-time estimate, simulate nothing")


def register(robot: str, **defaults) -> type:
    """Declare `<robot>_optimize` with the robot's defaults (variables, objective, constraints, ...);
    called from the robot's config.py."""
    fields = [("name", str, dataclasses.field(default=f"{robot}_optimize"))]
    for k, v in defaults.items():
        if k not in schema.fields(Optimize):
            raise TypeError(f"{robot}_optimize: {k} is not an option of Optimize")
        fields.append((k, Any, dataclasses.field(default_factory=lambda v=v: v)) if isinstance(v, (dict, list))
                      else (k, type(v), dataclasses.field(default=v)))
    cls = dataclasses.make_dataclass(f"{robot.title()}Optimize", fields, bases=(Optimize,))
    return config.experiment(cls)


@dataclasses.dataclass
class Hooks:
    """What a robot hands the mechanism (envs/<robot>/paper/optimize.py).

    speed: the metric objective=speed maximises.  derived: quantity -> f(robot) of the inputs, known before
    simulating (a constraint on it rejects or penalises without a simulation).  bands: robust.set name ->
    f(cfg, eps, levels) -> [parameter overrides].  reference(job, out, points) -> (rows, engine label): the
    points (config dicts) on the robot's reference engine (through sweep.simulate), None when it has none."""

    speed: str
    derived: Dict[str, Callable] = dataclasses.field(default_factory=dict)
    bands: Dict[str, Callable] = dataclasses.field(default_factory=dict)
    reference: Optional[Callable] = None


# ---- the declared problem --------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Var:
    name: str                 # as declared: a parameter, or `param[i]`
    param: str
    index: Optional[int]
    lo: float
    hi: float
    integer: bool


def parse_variables(cls, variables: dict, base: dict) -> list[Var]:
    """The decision variables with their boxes (ConfigError naming experiment.variables.<name>)."""
    if not isinstance(variables, dict) or not variables:
        raise ConfigError("experiment.variables", variables, "a non-empty {parameter: null | [lo, hi]}")
    fields = schema.fields(cls.Params)
    out = []
    for name, b in variables.items():
        key = f"experiment.variables.{name}"
        m = ELEMENT.match(name)
        pname, idx = (m.group(1), int(m.group(2))) if m else (name, None)
        f = fields.get(pname)
        if f is None or pname == "name":
            raise ConfigError(key, b, f"a parameter of {cls.name} (or an element `name[i]` of a list-valued one): "
                                      f"{sorted(cls.defaults)}")
        if idx is None and f.kind not in (float, int) or idx is not None and f.kind is not list:
            raise ConfigError(key, b, "a real or integer parameter, or an element name[i] of a list-valued one")
        if idx is not None:
            lst = base.get(pname)
            if not isinstance(lst, list) or not idx < len(lst):
                raise ConfigError(f"robot.{pname}", lst, f"a list with an element {idx} (the starting point of "
                                                         f"experiment.variables.{name})")
        spec = f.spec
        if b is None:
            if spec.lo is None or spec.hi is None:
                raise ConfigError(key, b, f"[lo, hi]: {pname}'s declared range {f.allowed} is open-ended")
            lo = spec.lo * (1 + 1e-9) + (1e-12 if spec.lo == 0 else 0) if spec.lo_open else spec.lo
            hi = spec.hi * (1 - 1e-9) - (1e-12 if spec.hi == 0 else 0) if spec.hi_open else spec.hi
        else:
            if not (isinstance(b, list) and len(b) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                                for v in b)):
                raise ConfigError(key, b, "null (the declared range) or [lo, hi] in the parameter's config units")
            lo, hi = float(b[0]), float(b[1])
            if not (lo < hi and spec.contains(lo) and spec.contains(hi)):
                raise ConfigError(key, b, f"lo < hi, both in {f.allowed}")
        out.append(Var(name, pname, idx, float(lo), float(hi), f.kind is int))
    return out


def start_point(variables: list[Var], base: dict) -> np.ndarray:
    """robot.*'s values of the variables, clipped into their boxes (a null value: the box's middle)."""
    x = []
    for v in variables:
        val = base.get(v.param)
        val = val[v.index] if v.index is not None else val
        x.append((v.lo + v.hi) / 2 if val is None else min(max(float(val), v.lo), v.hi))
    return np.array(x, float)


def point_of(variables: list[Var], base: dict, x) -> dict:
    """The config point of candidate x (integers rounded; list elements set in a copy of the list)."""
    cfg = dict(base)
    for v, xi in zip(variables, x):
        val = int(round(float(xi))) if v.integer else float(xi)
        if v.index is None:
            cfg[v.param] = val
        else:
            lst = list(cfg[v.param])
            lst[v.index] = val
            cfg[v.param] = lst
    return cfg


@dataclasses.dataclass
class Objective:
    kind: str                  # speed, cost_of_transport, weighted, metric
    metric: str                # the metric read (weighted: "")
    sense: str                 # max or min
    weights: dict
    aggregate: str
    band_set: str
    band: dict                 # the robust options as given

    def describe(self) -> str:
        what = {"weighted": " + ".join(f"{w:g} {m}" for m, w in self.weights.items())}.get(self.kind, self.metric)
        s = f"{self.sense} {what}"
        if self.band:
            s += f", {self.aggregate} over the band {self.band}"
        return s

    def value(self, row) -> float:
        """This point's objective value (NaN: none, e.g. a cost of transport below the speed floor)."""
        if self.kind == "derived":
            return sw.num(row.get("objective"))
        if self.kind == "weighted":
            return float(sum(w * sw.num(row.get(m)) for m, w in self.weights.items()))
        return sw.num(row.get(self.metric))

    def combine(self, values) -> float:
        v = np.asarray(values, float)
        if self.aggregate == "mid":
            return float((v.min() + v.max()) / 2)
        if self.aggregate == "mean":
            return float(v.mean())
        return float(v.min() if self.sense == "max" else v.max())

    def loss(self, value: float) -> float:
        return -value if self.sense == "max" else value


def parse_objective(cls, opts, hooks: Hooks) -> Objective:
    name, sense = opts["objective"], opts["sense"]
    weights = dict(opts["weights"] or {})
    if name not in OBJECTIVES and name not in cls.metrics and name not in hooks.derived:
        raise ConfigError("experiment.objective", name, f"one of {list(OBJECTIVES)}, a metric of {cls.name} "
                                                        f"{list(cls.metrics)} or a derived quantity {sorted(hooks.derived)}")
    if name == "weighted":
        if not weights:
            raise ConfigError("experiment.weights", weights, "{metric: weight} for objective=weighted")
        for m, w in weights.items():
            if m not in cls.metrics or isinstance(w, bool) or not isinstance(w, (int, float)):
                raise ConfigError(f"experiment.weights.{m}", w, f"a number, for a metric of {cls.name}")
    elif weights:
        raise ConfigError("experiment.weights", weights, "{} unless objective=weighted")
    metric = {"speed": hooks.speed, "cost_of_transport": "cost_of_transport", "weighted": ""}.get(name, name)
    kind = name if name in OBJECTIVES else "metric" if name in cls.metrics else "derived"
    if sense == "auto" and kind == "derived":
        raise ConfigError("experiment.sense", sense, f"max or min for the derived objective {name}")
    if sense == "auto":
        sense = "min" if name == "cost_of_transport" else "max"
    rob = dict(opts["robust"] or {})
    if kind == "derived" and rob:
        raise ConfigError("experiment.robust", rob, "{} with a derived objective (it is known without simulating)")
    known = ("set", "param", "eps", "levels", "aggregate")
    bad = [k for k in rob if k not in known]
    if bad:
        raise ConfigError(f"experiment.robust.{bad[0]}", rob[bad[0]], f"one of {list(known)}")
    agg = rob.get("aggregate", "worst")
    if agg not in AGGREGATES:
        raise ConfigError("experiment.robust.aggregate", agg, f"one of {list(AGGREGATES)}")
    band_set = rob.get("set", "scale")
    if rob and band_set != "scale" and band_set not in hooks.bands:
        raise ConfigError("experiment.robust.set", band_set, f"one of {['scale'] + sorted(hooks.bands)}")
    return Objective(kind, metric, sense, {m: float(w) for m, w in weights.items()}, agg, band_set, rob)


def band_of(cls, obj: Objective, variables: list[Var], hooks: Hooks) -> Callable:
    """cfg -> [parameter overrides] of the candidate's band (one empty override without `robust`)."""
    rob = obj.band
    if not rob:
        return lambda cfg: [{}]
    eps = rob.get("eps", 0.1)
    levels = rob.get("levels", [-1.0, 0.0, 1.0])
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps < 1:
        raise ConfigError("experiment.robust.eps", eps, "a number in [0, 1)")
    if not isinstance(levels, list) or not levels or any(
            isinstance(k, bool) or not isinstance(k, (int, float)) or not -1 <= k <= 1 for k in levels):
        raise ConfigError("experiment.robust.levels", levels, "a non-empty list of numbers in [-1, 1]")
    if obj.band_set != "scale":
        fn = hooks.bands[obj.band_set]
        return lambda cfg: fn(cfg, float(eps), [float(k) for k in levels])
    p = rob.get("param")
    fields = schema.fields(cls.Params)
    if p not in fields or fields[p].kind is not float:
        raise ConfigError("experiment.robust.param", p, f"a real parameter of {cls.name} (the band's quantity)")
    if any(v.param == p for v in variables):
        raise ConfigError("experiment.robust.param", p, "a parameter that is not a decision variable")
    return lambda cfg: [{p: round(float(cfg[p]) * (1 + eps * k), 12)} for k in levels]


@dataclasses.dataclass(frozen=True)
class Constraint:
    name: str
    lo: Optional[float]
    hi: Optional[float]
    derived: bool

    def violation(self, value: float) -> float:
        """Relative violation (0: met; inf: no value)."""
        if not math.isfinite(value):
            return math.inf
        v = 0.0
        if self.hi is not None and value > self.hi:
            v += (value - self.hi) / max(abs(self.hi), 1e-12)
        if self.lo is not None and value < self.lo:
            v += (self.lo - value) / max(abs(self.lo), 1e-12)
        return v

    def margin(self, value: float) -> float:
        """Distance to the nearer bound, positive inside (config units of the quantity)."""
        m = [b - value for b in (self.hi,) if b is not None] + [value - b for b in (self.lo,) if b is not None]
        return float(min(m))


def parse_constraints(cls, constraints: dict, hooks: Hooks) -> list[Constraint]:
    out = []
    for name, c in (constraints or {}).items():
        key = f"experiment.constraints.{name}"
        if name not in cls.metrics and name not in hooks.derived:
            raise ConfigError(key, c, f"a metric of {cls.name} or a derived quantity {sorted(hooks.derived)}")
        if not isinstance(c, dict) or not c or set(c) - {"max", "min"} or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) for v in c.values()):
            raise ConfigError(key, c, "{max: x} and/or {min: y} (numbers, the quantity's units)")
        if "max" in c and "min" in c and c["min"] > c["max"]:
            raise ConfigError(key, c, "min <= max")
        out.append(Constraint(name, c.get("min"), c.get("max"), name not in cls.metrics))
    return out


# ---- evaluation through the store ------------------------------------------------------------------
class Problem:
    """Candidates -> records (objective, loss, feasibility, constraint values), each candidate's band points
    simulated through sweep.simulate into out/candidates.csv."""

    def __init__(self, job, out, hooks: Hooks):
        from ..runs.experiment import options, robot_params
        self.job, self.out, self.hooks = config.validate(job), out, hooks
        if self.job.engine not in sw.BATCH_ENGINES:
            raise ConfigError("engine", self.job.engine, f"an engine of the batch path {list(sw.BATCH_ENGINES)} "
                              "(the optimum is re-simulated on the robot's reference engine: experiment.reference)")
        self.opts = options(job)
        self.cls = self.job.robot_cls
        self.base = robot_params(job)
        self.vars = parse_variables(self.cls, self.opts["variables"], self.base)
        self.obj = parse_objective(self.cls, self.opts, hooks)
        self.band = band_of(self.cls, self.obj, self.vars, hooks)
        self.cons = parse_constraints(self.cls, self.opts["constraints"], hooks)
        self.simulates = self.obj.kind != "derived"
        if not self.simulates and not all(c.derived for c in self.cons):
            raise ConfigError("experiment.constraints", dict(self.opts["constraints"]), "derived quantities only, "
                              f"with the derived objective {self.obj.metric} (nothing is simulated)")
        self.lo = np.array([v.lo for v in self.vars])
        self.hi = np.array([v.hi for v in self.vars])
        self.x0 = start_point(self.vars, self.base)
        start = self.cls(**point_of(self.vars, self.base, self.x0))      # the starting point is a valid robot
        self.band_size = len(self.band(start.cfg))
        self.band_keys = list(dict.fromkeys(k for o in self.band(start.cfg) for k in o))
        self.key = list(dict.fromkeys([v.param for v in self.vars] + self.band_keys + list(self.cls.columns)))
        self.records: list[dict] = []
        self.simulated = self.reused = 0
        self.recomputed: dict = {}           # why each simulated point was not taken from the store
        self.bar = None

    # one batch of candidates
    def evaluate(self, X, stage: str) -> list[dict]:
        recs, points, owner = [], [], []
        for x in X:
            x = np.array([int(round(float(xi))) if v.integer else float(xi) for v, xi in zip(self.vars, x)])
            rec = dict(stage=stage, x=x, objective=math.nan, loss=REJECTED, feasible=False, status="", band=[],
                       constraints={}, health={})
            recs.append(rec)
            try:
                robot = self.cls(**point_of(self.vars, self.base, x))
                band = [self.cls(**{**robot.cfg, **o}) for o in self.band(robot.cfg)]
            except ConfigError as e:
                rec["status"] = f"rejected: the robot refuses it: {e}"
                continue
            pre = {c.name: float(self.hooks.derived[c.name](robot)) for c in self.cons if c.derived}
            rec["constraints"].update(pre)
            if self.opts["constraint_mode"] == "reject" and any(
                    c.violation(pre[c.name]) > 0 for c in self.cons if c.derived):
                rec["status"] = "rejected: " + ", ".join(_outside(c, pre[c.name]) for c in self.cons
                                                         if c.derived and c.violation(pre[c.name]))
                continue
            rec["cfg"] = robot.cfg
            if not self.simulates:
                rec["band"] = [dict(objective=float(self.hooks.derived[self.obj.metric](robot)))]
                continue
            for b in band:
                points.append(b.cfg)
                owner.append(len(recs) - 1)
        if points:
            rows, stats = sw.simulate(self.job, self.out, points=points, key=self.key, filename="candidates.csv",
                                      progress=False)
            self.simulated += stats["computed"]
            self.reused += stats["reused"]
            for why, k in stats.get("recomputed", {}).items():
                self.recomputed[why] = self.recomputed.get(why, 0) + k
            if self.bar is not None:
                self.bar.update(len(points))
            for i, row in zip(owner, rows):
                recs[i]["band"].append(row)
        for rec in recs:
            if rec["band"]:
                self._score(rec)
            self.records.append(rec)
        return recs

    def _score(self, rec) -> None:
        rows = rec["band"]
        bad = [r["error"] for r in rows if r.get("error")]
        health = {c: sw.nanmax(r.get(c) for r in rows) for c in self.cls.health_columns()}
        rec["health"] = health
        for c in self.cons:
            if not c.derived:
                vals = [sw.num(r.get(c.name)) for r in rows]
                rec["constraints"][c.name] = max(vals, key=lambda v: c.violation(v)) if vals else math.nan
        if bad:
            rec["status"] = f"rejected: health or failure: {bad[0]}"
            return
        vals = [self.obj.value(r) for r in rows]
        rec["band_values"] = vals
        if not all(math.isfinite(v) for v in vals):
            note = next((r.get("cost_of_transport_note") for r in rows if r.get("cost_of_transport_note")), "")
            rec["status"] = f"rejected: no objective value{f' ({note})' if note else ''}"
            return
        rec["objective"] = value = self.obj.combine(vals)
        viol = {c.name: c.violation(rec["constraints"][c.name]) for c in self.cons}
        if self.opts["constraint_mode"] == "reject" and any(v > 0 for v in viol.values()):
            rec["status"] = "rejected: " + ", ".join(_outside(c, rec["constraints"][c.name]) for c in self.cons
                                                     if viol[c.name] > 0)
            return
        total = sum(viol.values())
        rec["loss"] = self.obj.loss(value) + float(self.opts["penalty"]) * total if math.isfinite(total) else REJECTED
        rec["feasible"] = total == 0
        rec["status"] = "ok" if total == 0 else f"penalised: {', '.join(n for n, v in viol.items() if v > 0)}"


def _outside(c: Constraint, value: float) -> str:
    return f"constraint {c.name} ({value:.4g} outside {_bounds(c)})"


def _bounds(c: Constraint) -> str:
    return f"[{'-inf' if c.lo is None else f'{c.lo:g}'}, {'inf' if c.hi is None else f'{c.hi:g}'}]"


# ---- the searches ---------------------------------------------------------------------------------
def plan_candidates(opts, d: int) -> int:
    """Candidates the search will run (the budget, cut to whole generations / the grid)."""
    n, b = int(opts["budget"]), int(opts["batch"])
    if opts["method"] == "grid":
        return int(opts["grid"]) ** d
    if opts["method"] == "cmaes" and d >= 2:
        return 1 + max(1, (n - 1) // b) * b
    if opts["method"] == "cmaes":
        return max(b, (n // b) * b)
    return n


def search(p: Problem) -> str:
    """Run the configured search on p; returns the method that ran (cmaes with one variable: zoom)."""
    opts, d = p.opts, len(p.vars)
    n, b, seed = plan_candidates(opts, d), int(opts["batch"]), int(opts["seed"])
    if opts["method"] == "grid":
        axes = [np.linspace(v.lo, v.hi, int(opts["grid"])) for v in p.vars]
        strategy.batches(p.evaluate, strategy.grid(axes), b, "grid")
        return "grid"
    if opts["method"] == "lhs":
        strategy.batches(p.evaluate, strategy.lhs(p.x0, p.lo, p.hi, n - 1, seed), b, "lhs")
        return "lhs"
    if d == 1:
        strategy.zoom(p.evaluate, p.lo, p.hi, n, b, "loss")
        return "zoom"
    strategy.cmaes(p.evaluate, p.x0, p.lo, p.hi, n, b, float(opts["sigma0"]), seed, "loss")
    return "cmaes"


# ---- outputs ----------------------------------------------------------------------------------------
def history_rows(p: Problem) -> list[dict]:
    rows, best = [], math.inf
    for i, r in enumerate(p.records):
        best = min(best, r["loss"]) if r["feasible"] else best
        rows.append(dict(evaluation=i, stage=r["stage"], **{v.name: float(x) for v, x in zip(p.vars, r["x"])},
                         objective=r["objective"], loss=r["loss"], best_loss=best if math.isfinite(best) else math.nan,
                         feasible=r["feasible"], **{f"constraint_{k}": v for k, v in r["constraints"].items()},
                         **{k: v for k, v in r["health"].items()}, status=r["status"]))
    return rows


def sensitivity_points(p: Problem, x_opt) -> list[tuple[int, np.ndarray]]:
    k, span = int(p.opts["sensitivity"]), float(p.opts["sensitivity_span"])
    out = []
    if k < 2:
        return out
    for j, v in enumerate(p.vars):
        a = max(v.lo, x_opt[j] - span * (v.hi - v.lo))
        z = min(v.hi, x_opt[j] + span * (v.hi - v.lo))
        vals = sorted(set(np.linspace(a, z, k).tolist()) | {float(x_opt[j])})
        for val in vals:
            x = np.array(x_opt, float)
            x[j] = val
            out.append((j, x))
    return out


def estimate(p: Problem, candidates: int, sens: int) -> dict:
    """The plan: simulations and an estimated wall time (upper bound: run.cycles of every point)."""
    from ..engines.batch import available_cores
    robot = p.cls(**point_of(p.vars, p.base, p.x0))
    steps = robot.steps_per_cycle * int(p.job.run.cycles)
    threads = p.job.run.nthread or available_cores()
    sims = (candidates + sens) * p.band_size if p.simulates else 0
    wall = sims * steps / (STEPS_PER_S_THREAD * threads)
    return dict(candidates=candidates, band_points=p.band_size, sensitivity_candidates=sens, simulations=sims,
                steps_per_simulation=steps, threads=threads, rate_steps_per_s_thread=STEPS_PER_S_THREAD,
                estimated_wall_s=wall)


def run(job, out, hooks: Hooks):
    """The runner of every <robot>_optimize (module docstring); a robot's runner calls it with its Hooks."""
    from functools import partial

    from ..runs import progress
    from ..runs.experiment import Result
    from ..view import optimize_plot

    t0 = time.perf_counter()
    p = Problem(job, out, hooks)
    d = len(p.vars)
    n = plan_candidates(p.opts, d)
    n_sens = (int(p.opts["sensitivity"]) + 1) * d if int(p.opts["sensitivity"]) >= 2 else 0    # at most
    plan = estimate(p, n, n_sens)
    head = dict(robot=p.cls.name, engine=p.job.engine, objective=p.obj.describe(), sense=p.obj.sense,
                method=p.opts["method"], seed=int(p.opts["seed"]), budget=int(p.opts["budget"]), plan=plan,
                variables={v.name: [v.lo, v.hi] for v in p.vars},
                constraints={c.name: {k: b for k, b in (("min", c.lo), ("max", c.hi)) if b is not None}
                             for c in p.cons}, constraint_mode=p.opts["constraint_mode"],
                band=[o for o in p.band(p.cls(**point_of(p.vars, p.base, p.x0)).cfg)] if p.obj.band else [])
    print(f"{p.cls.name}_optimize: {p.obj.describe()}; {n} candidates x {p.band_size} band point(s) + "
          f"{n_sens} sensitivity = {plan['simulations']} simulations of <= {plan['steps_per_simulation']} steps; "
          f"estimated wall <= {plan['estimated_wall_s']:.0f} s on {plan['threads']} thread(s) "
          f"(at {STEPS_PER_S_THREAD:.0f} steps/s a thread)", file=sys.stderr, flush=True)
    if p.opts["dry_run"]:
        return Result(dict(head, dry_run=True))
    progress.stages([(p.job.engine, plan["simulations"])])
    p.bar = progress.Bar(plan["simulations"], p.job.engine, "candidates.csv") \
        if p.job.run.progress and p.simulates else None
    try:
        method = search(p)
        feas = [r for r in p.records if r["feasible"]]
        usable = feas or [r for r in p.records if r["loss"] < REJECTED]
        best = min(usable, key=lambda r: r["loss"]) if usable else None
        sens_rows = []
        if best is not None:
            pts = sensitivity_points(p, best["x"])
            recs = p.evaluate([x for _, x in pts], "sensitivity") if pts else []
            sens_rows = [dict(variable=p.vars[j].name, value=float(x[j]), at_optimum=bool(np.array_equal(x, best["x"])),
                              objective=r["objective"], loss=r["loss"], feasible=r["feasible"], status=r["status"])
                         for (j, x), r in zip(pts, recs)]
    finally:
        if p.bar is not None:
            p.bar.close()
    start = p.records[0] if p.records and np.array_equal(p.records[0]["x"], p.x0) else None
    hist = history_rows(p)
    summary = dict(head, method_run=method, evaluations=len(hist), simulated_points=p.simulated,
                   reused_points=p.reused, recomputed=p.recomputed,
                   feasible_candidates=sum(r["feasible"] for r in p.records if r["stage"] != "sensitivity"),
                   rejected=_reasons(p.records), optimum=None, wall_s=None)
    cols = [c for c in dict.fromkeys(k for h in hist for k in h) if c != "status"] + ["status"]
    tables = {"history.csv": (cols, hist)}
    plots = {"convergence.png": partial(optimize_plot.convergence, hist, title=f"{p.cls.name}: {p.obj.describe()}")}
    if best is not None:
        summary.update(optimum={v.name: float(x) for v, x in zip(p.vars, best["x"])},
                       optimum_feasible=best["feasible"], objective=best["objective"], loss=best["loss"],
                       band_values=best.get("band_values", []),
                       constraint_margins={c.name: dict(value=best["constraints"].get(c.name), bound=_bounds(c),
                                                        margin=c.margin(best["constraints"].get(c.name, math.nan)))
                                           for c in p.cons},
                       health_margins=_health(p.cls, best["health"]),
                       at_bound=[v.name for v, x in zip(p.vars, best["x"])
                                 if min(x - v.lo, v.hi - x) <= 1e-6 * (v.hi - v.lo)],
                       start={v.name: float(x) for v, x in zip(p.vars, p.x0)},
                       start_objective=start["objective"] if start else None)
        if sens_rows:
            better = [r for r in sens_rows if r["feasible"] and r["loss"] < best["loss"]]
            summary["sensitivity_found_better"] = bool(better)
            if better:
                top = min(better, key=lambda r: r["loss"])
                summary["warning"] = (f"not converged: a sensitivity point ({top['variable']} = {top['value']:.6g}) has "
                                      f"objective {top['objective']:.6g}, better than the optimum's "
                                      f"{best['objective']:.6g}: raise experiment.budget")
            tables["sensitivity.csv"] = (list(sens_rows[0]), sens_rows)
            plots["sensitivity.png"] = partial(optimize_plot.sensitivity, sens_rows, summary["optimum"],
                                               title=f"{p.cls.name}: objective around the optimum")
        if hooks.reference is not None and p.opts["reference"]:
            summary["reference"] = _reference(p, best, start)
        if p.opts["video"]:
            summary["video"] = _video(p, best, out)
    else:
        summary["warning"] = "no candidate was feasible: see history.csv's status column"
    summary["wall_s"] = time.perf_counter() - t0
    if best is not None:
        print(f"optimum: {summary['optimum']}  objective {best['objective']:.6g}"
              + (f" (start {start['objective']:.6g})" if start else ""), file=sys.stderr, flush=True)
    if summary.get("warning"):
        print(f"WARNING: {summary['warning']}", file=sys.stderr, flush=True)
    return Result(summary, tables=tables, plots=plots)


def _reasons(records) -> dict:
    out: dict = {}
    for r in records:
        if r["status"].startswith("rejected"):
            why = r["status"].split(":")[1].split("(")[0].strip()
            out[why] = out.get(why, 0) + 1
    return out


def _health(cls, health: dict) -> dict:
    lim = {"max_penetration": cls.max_penetration, "max_loop_gap": cls.max_loop_gap}
    return {k: dict(value=v, limit=lim[k], margin=lim[k] - v if v == v else None) for k, v in health.items()}


def _reference(p: Problem, best, start) -> dict:
    """The optimum's band (and the start's) on the robot's reference engine: the objective there and the differences."""
    pairs = [("optimum", best)] + ([("start", start)] if start is not None and start is not best and start.get("cfg")
                                   else [])
    cfgs, owner = [], []
    for name, rec in pairs:
        for o in p.band(rec["cfg"]):
            cfgs.append({**rec["cfg"], **o})
            owner.append(name)
    rows, label = p.hooks.reference(p.job, p.out, cfgs)
    out = dict(engine=label)
    for name, rec in pairs:
        mine = [r for r, o in zip(rows, owner) if o == name]
        bad = [r["error"] for r in mine if r.get("error")]
        vals = [p.obj.value(r) for r in mine]
        key = "" if name == "optimum" else "start_"
        if bad or not all(math.isfinite(v) for v in vals):
            out[f"{key}error"] = bad[0] if bad else "no objective value on the reference engine"
            continue
        ref = p.obj.combine(vals)
        out.update({f"{key}objective": ref, f"{key}twin_objective": rec["objective"],
                    f"{key}difference": rec["objective"] - ref,
                    f"{key}relative_difference": (rec["objective"] - ref) / abs(ref) if ref else math.nan,
                    f"{key}band_values": vals})
    if start is best:
        out.update({f"start_{k}": v for k, v in list(out.items()) if k != "engine"})
    return out


def _video(p: Problem, best, out) -> str:
    from ..view.render import render_video
    try:
        render_video(p.cls(**best["cfg"]), out / "optimum.mp4")
        return "optimum.mp4"
    except Exception as e:      # a machine without GL or ffmpeg: the optimisation's results stand
        return f"not rendered: {e}"
