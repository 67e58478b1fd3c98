"""The `Robot` contract: what every robot provides to the shared machinery.

A robot is a package `envs/<name>/` whose `Robot` subclass holds only what is specific to
it: its declared parameters, its model variations (MjSpec edits), the map from gait
parameters to actuator controls, the initial pose, and how a cycle's progress and the
summary metrics are read from recorded sensor data.  Everything a metric needs is a MuJoCo
sensor, so metrics work identically on the single-run, batch and dm_control paths.

Required of a subclass (checked when the class is defined):
  name          str: the robot's name (folder names: envs/<name>/, models/<name>/, configs/robot/<name>.yaml)
  Params        dataclass: every parameter, declared with `gaittwin.core.model.schema.param` (defaults, units,
                bounds, model keys derive from it)
  physics       a dm_control `mujoco.Physics` subclass with the robot's named accessors
  period        property: the gait period T (s)
  spec()        the MjSpec with this point's model parameters applied
  controls(t)   actuator controls at times t (vectorised), shape (len(t), nu)
  initial_pose(model, data)   the t = 0 state
  progress(sensordata, model) the scalar whose per-cycle change is the cycle's step
  summarize(run)              the metrics of a finished `batch.Run`, a flat dict of scalars
  metrics       every key summarize() may return: the declared results columns (a results row
                with another key is an error; tests check summarize() against it).  Declaring
                gaittwin.core.model.energy.METRICS (work_per_cycle, mean_power, cost_of_transport) is all a
                robot does for energy: they are computed from the actuator sensors every model
                carries and added to what its summarize() returns (a run that has them keeps its own)
May define:
  validate()    cross-parameter checks beyond the declared ranges (raise ConfigError)
  finish_spec(spec)   the last edits before the model compiles, after spec() and whatever a subclass, a study
                or a twin mutation did to it: what derives from the final spec (BOLT: its contacts as explicit
                pairs, gaittwin.bolt.model.floor_pairs)
  columns       parameters always written to results files
  engines       simulators an experiment may choose (default: ("mujoco",)); `warp` (MuJoCo Warp, the
                batch runner's points as worlds, envs/core/engines/warp_engine.py) is offered to every robot
                and refused for a closed_loop robot or a model feature MuJoCo Warp lacks
  loops         (site, site) pairs of framepos sensors a loop closure joins: their distance is the
                loop gap the batch runner checks at every step; `loop_gaps(run)` reads them
  model_dir     the folder of the robot's model files (default models/<name>/): their hash is part
                of every stored point's identity
  viewer_timestep, gait_parameter   the interactive viewer's step and the parameter its keys step
  samples_per_cycle, camera_body, random_inputs, max_penetration, max_loop_gap (below: the health
                limits of every results row and of tests/test_reliability.py)
  closed_loop, n_aux, feedback(model, data)   a per-step hook (e.g. state-dependent actuator limits)
  run_error(summary)          a reason beyond the health limits to flag a finished run in the
                              results' error column
Defining a subclass registers nothing: a robot is listed in the manifest (envs/registry.py, which its
package's `ROBOT` export feeds), and `gaittwin.robot_class(name)` and `gaittwin.load(name)` find the robots
installed from it (gaittwin.core.registry.install).
"""
from __future__ import annotations

import dataclasses

import functools
import math
import pathlib
from typing import ClassVar

import mujoco
import numpy as np

from . import energy, schema
from .errors import StepBudgetError

from .paths import MODELS, files_hash  # noqa: E402  (models/<robot>/: MJCF and provenance)

WARNING_NAMES = [mujoco.mjtWarning(i).name for i in range(int(mujoco.mjtWarning.mjNWARNING))]
REGISTRY: dict = {}         # name -> Robot subclass, in the manifest's order: filled by gaittwin.core.registry.install
REQUIRED = ("period", "spec", "controls", "initial_pose", "progress", "summarize")
# Every compiled model gets this sensor: the signed distance of its deepest contact (MuJoCo's
# contact sensor, all contacts, reduced to the minimum distance), so the batch runner reads
# each run's penetration at every step.  Sensors do not change the physics.
PENETRATION_SENSOR = "gaittwin_contact_dist"
# Steps per point allowed by default (run.max_steps): 0.5-2 h of one core at the measured
# single-thread speeds (16k-52k steps/s, per robot in README.md; scripts/bench_store.py prints them).
DEFAULT_MAX_STEPS = 100_000_000


def robot_class(name: str):
    """The installed Robot subclass called `name` (one-line ConfigError otherwise).  The package `gaittwin`
    installs the manifest's robots (envs/registry.py) when it is imported, which Python does before any
    `gaittwin.core` module runs: core never imports the robot packages."""
    if name not in REGISTRY:
        from .errors import ConfigError
        raise ConfigError("robot", name, f"one of {sorted(REGISTRY)}")
    return REGISTRY[name]


def to_si(params: dict) -> dict:
    """Config names -> SI: `psi_deg` becomes `psi` in radians; other keys unchanged.

    An optional angle left unset (None) stays None; a list of angles is converted elementwise.
    """
    return {schema.si_name(k): (_radians(v) if k.endswith("_deg") else v) for k, v in params.items()}


def _radians(v):
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [_radians(x) for x in v]
    return math.radians(v)


class Robot:
    """One simulation point of one robot: validated parameters, model, inputs."""

    name: ClassVar[str] = ""
    Params: ClassVar[type]
    physics: ClassVar[type]
    columns: ClassVar[tuple] = ()          # parameters always written to results files
    engines: ClassVar[tuple] = ("mujoco",)
    samples_per_cycle: ClassVar[int] = 200
    camera_body: ClassVar[int] = 1         # the body the video and viewer cameras follow
    random_inputs: ClassVar[dict] = {}     # name -> (lo, hi): bounded ranges for randomised reliability runs
    max_penetration: ClassVar[float] = 2e-3  # m: deepest contact penetration a healthy run may show
    max_loop_gap: ClassVar[float] = 1e-3   # m: largest equality-constraint (loop-closure) violation allowed
    # ^ the health limits: tests/test_reliability.py and every results row (gaittwin.core.engines.batch) use these
    loops: ClassVar[tuple] = ()            # (site sensor, site sensor) pairs a loop closure joins (framepos)
    metrics: ClassVar[tuple] = ()          # every key summarize() may return: the declared results columns
    # True: `feedback` runs before every physics step (state-dependent actuator limits, ...); the
    # batch runner then steps the point in a per-step loop instead of the open-loop native rollout
    closed_loop: ClassVar[bool] = False
    n_aux: ClassVar[int] = 0               # values `feedback` returns per step, recorded with each sample (Run.aux)
    model_dir: ClassVar[pathlib.Path | None] = None   # default: models/<name>/
    # the interactive viewer (envs/core/view/viewer.py): a larger step validated against the reference
    # (gait speed within 5 %, scripts/studies/viewer_timestep_study.py, the model's README), and the gait
    # parameter its page up / down keys step: (name, step)
    viewer_timestep: ClassVar[float | None] = None
    gait_parameter: ClassVar[tuple | None] = None
    # derived from Params when the subclass is defined:
    defaults: ClassVar[dict] = {}          # config names (angles in *_deg), SI otherwise
    model_keys: ClassVar[tuple] = ()       # parameters that change the compiled MjModel
    SI: ClassVar[type]                     # frozen dataclass of a point's SI values: the type of `self.p`

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        missing = [a for a in ("name", "Params", "physics", "metrics") if not getattr(cls, a, None)]
        missing += [m for m in REQUIRED if getattr(cls, m) is getattr(Robot, m)]
        if missing:
            raise TypeError(f"robot class {cls.__name__} lacks {missing} (see the Robot contract)")
        cls.defaults = schema.defaults(cls.Params)
        cls.model_keys = schema.model_keys(cls.Params)
        if "Params" in cls.__dict__ or not hasattr(cls, "SI"):   # one per declared Params (a variant keeps its parent's)
            cls.SI = schema.si_class(cls.Params, cls)
        if "summarize" in cls.__dict__ and set(energy.METRICS) <= set(cls.metrics):
            cls.summarize = _with_energy(cls.__dict__["summarize"])

    def __init__(self, **params):
        cfg = {**self.defaults, **schema.check(self.Params, params, what=f"{self.name} parameter")}
        self.cfg = cfg                     # config units (angles *_deg): identity, model keys, messages
        self.p = self.SI(**to_si(cfg))     # SI, typed: p.mu, p.psi (rad)
        self.validate()

    @classmethod
    def allowed(cls, name: str) -> str:
        """The allowed range of parameter `name`, as error messages state it."""
        return schema.fields(cls.Params)[name].allowed

    # ---- robot-specific hooks -------------------------------------------------
    def validate(self) -> None:
        """Geometric / physical checks beyond plain ranges; raise ConfigError."""

    @property
    def period(self) -> float:
        raise NotImplementedError

    def spec(self) -> mujoco.MjSpec:
        """The MjSpec with this point's model parameters applied."""
        raise NotImplementedError

    def finish_spec(self, spec: mujoco.MjSpec) -> None:
        """The last edits before `model()` compiles `spec` (after spec() and any edit of it); default none."""

    def controls(self, t: np.ndarray) -> np.ndarray:
        """Actuator controls at times t, shape (len(t), nu)."""
        raise NotImplementedError

    def device_law(self):
        """`controls` as an `inputs.DeviceLaw` that MuJoCo Warp evaluates on the device, or None
        (the default: engine=warp computes this robot's controls on the host, a chunk at a time)."""
        return None

    def device_feedback(self):
        """`feedback` as an gaittwin.core.engines.warp_hook.DeviceFeedback that MuJoCo Warp launches before every
        step (closed_loop robots), or None (the default: engine=warp cannot run a closed_loop robot)."""
        return None

    @classmethod
    def warp_refusal(cls, params: dict) -> str:
        """Why a point with parameters `params` (a Params dict) cannot run on MuJoCo Warp although its class can
        ("" if it can), e.g. an option whose per-step Python hook has no device version: engine=warp refuses
        it (exit 2), engine=auto runs it on the C engine (envs/core/runs/config.py)."""
        return ""

    def initial_pose(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        """Set data.qpos/qvel to the t=0 state (at rest, in contact where the robot starts so)."""
        raise NotImplementedError

    def feedback(self, model: mujoco.MjModel, data: mujoco.MjData):
        """Closed-loop hook (robots with `closed_loop`): called before every mj_step, after the
        open-loop controls are written, with `data` at the state about to be stepped and its
        sensordata from the previous step.  It may rewrite data.ctrl or the fields of `model` (a
        private copy per run).  Returns `n_aux` numbers recorded with each sample (or None)."""
        return None

    def native_loop(self, model: mujoco.MjModel, data: mujoco.MjData):
        """The closed loop of a `closed_loop` robot in compiled code, or None (the default: the Python loop, controls
        then `feedback` then mj_step every step).  A callable steps(ctrl, rec=None, step0=0, stride=1, acc=None):
        len(ctrl) steps of that loop on (model, data); rec (C-contiguous float64, width nsensordata + n_aux): row k
        the sensors after step k, a sampled step ((step0 + k) % stride == 0) followed by the maxima of `feedback`'s
        values since the previous sample (acc: those running maxima, carried between calls).  It must give the
        Python loop's run to the bit (the runner and Stepper use it whenever it is offered)."""
        return None

    def run_error(self, summary: dict) -> str | None:
        """A reason to flag a finished run whose metrics are still reported (e.g. a loop gap over
        `max_loop_gap`); None if healthy.  Results files put it in their `error` column."""
        return None

    def progress(self, sensordata: np.ndarray, model: mujoco.MjModel) -> np.ndarray:
        """The scalar whose per-cycle change is the cycle's step (e.g. foot 1 x, signed)."""
        raise NotImplementedError

    def summarize(self, run) -> dict:
        """Metrics of one finished run (a `batch.Run`) as a flat dict of scalars."""
        raise NotImplementedError

    # ---- shared --------------------------------------------------------------
    @property
    def timestep_max(self) -> float:
        return float(getattr(self.p, "timestep", 2e-4))

    @property
    def steps_per_cycle(self) -> int:
        """Steps in one period: a multiple of samples_per_cycle with dt <= timestep_max.

        The integration step is T / steps_per_cycle, so cycle boundaries fall
        exactly on steps and on recorded samples.
        """
        spc = self.samples_per_cycle
        return spc * max(1, math.ceil(self.period / (self.timestep_max * spc)))

    @property
    def timestep(self) -> float:
        return self.period / self.steps_per_cycle

    # ---- health ---------------------------------------------------------------
    @classmethod
    def health_columns(cls) -> tuple:
        """The health columns of every results row: penetration, and the loop gap where there are loops."""
        return ("max_penetration",) + (("max_loop_gap",) if cls.loops else ())

    def health_error(self, max_penetration: float, max_loop_gap: float | None = None) -> str | None:
        """Why a finished run is not healthy (over the declared limits), or None."""
        bad = []
        if not max_penetration <= self.max_penetration:        # NaN counts as over
            bad.append(f"max penetration {max_penetration * 1e3:.3g} mm > {self.max_penetration * 1e3:g} mm "
                       f"({type(self).__name__}.max_penetration)")
        if self.loops and max_loop_gap is not None and not max_loop_gap <= self.max_loop_gap:
            bad.append(f"max loop gap {max_loop_gap * 1e3:.3g} mm > {self.max_loop_gap * 1e3:g} mm "
                       f"({type(self).__name__}.max_loop_gap)")
        return "unhealthy: " + "; ".join(bad) if bad else None

    def loop_gaps(self, run) -> np.ndarray:
        """(samples, len(loops)) distances of the declared loop-closure point pairs (m) over a run:
        anything with `sensor(name)` (batch.Run, the MinIAQ paper engine's run, `self.readout(...)`)."""
        return np.stack([np.linalg.norm(run.sensor(a) - run.sensor(b), axis=-1) for a, b in self.loops], axis=-1)

    # ---- bounded runs -------------------------------------------------------------
    def check_steps(self, cycles: int, max_steps: int | None = None, runs: int = 1) -> int:
        """Steps of a point of `runs` simulations of `cycles` periods each (an experiment that
        simulates a point several times, e.g. BOLT's treadmill search, bounds all of them);
        StepBudgetError over `max_steps`."""
        max_steps = DEFAULT_MAX_STEPS if max_steps is None else max_steps
        spc = self.steps_per_cycle
        steps = int(runs) * int(cycles) * spc
        if steps > max_steps:
            many = f"up to {int(runs)} runs x " if runs > 1 else ""
            raise StepBudgetError(steps, max_steps, f"{self.name}: {many}{int(cycles)} cycles x {spc:.3g} steps: "
                                                    f"period {self.period:.4g} s at timestep {self.timestep:.3g} s")
        return steps

    # ---- identity ---------------------------------------------------------------
    @classmethod
    def model_files(cls) -> list:
        """The files this robot's models are built from: models/<name>/ (all but documentation)."""
        d = cls.model_dir or MODELS / cls.name
        return sorted(f for f in d.rglob("*") if f.is_file() and f.suffix.lower() not in (".md", ".txt"))

    @classmethod
    def models_hash(cls) -> str:
        """sha256 of the model files (relative names and contents)."""
        root = cls.model_dir or MODELS / cls.name
        return files_hash(tuple((f, f.stat().st_mtime_ns, f.stat().st_size) for f in cls.model_files()), root)

    def model_key(self) -> tuple:
        return (type(self).__name__, self.timestep) + tuple(
            (k, _hashable(self.cfg[k])) for k in self.model_keys)

    def model(self) -> mujoco.MjModel:
        return _compiled(self.model_key(), self)

    def initial_state(self, model: mujoco.MjModel) -> np.ndarray:
        data = mujoco.MjData(model)
        self.initial_pose(model, data)
        data.ctrl[:] = self.controls(np.zeros(1))[0]
        mujoco.mj_forward(model, data)
        spec = mujoco.mjtState.mjSTATE_INTEGRATION
        state = np.empty(mujoco.mj_stateSize(model, spec))
        mujoco.mj_getState(model, data, state, spec)
        return state

    def sensor(self, sensordata: np.ndarray, model: mujoco.MjModel, name: str) -> np.ndarray:
        s = model.sensor(name)
        return sensordata[..., s.adr[0]: s.adr[0] + s.dim[0]]

    def readout(self, sensordata: np.ndarray, model: mujoco.MjModel) -> "Readout":
        """Raw sensordata (samples, nsensordata) read by sensor name, like a run: `.sensor(name)`."""
        return Readout(self, sensordata, model)


@dataclasses.dataclass
class Readout:
    """Sensor values of some samples, by name (the one reader of raw sensordata)."""
    robot: Robot
    sensordata: np.ndarray
    model: mujoco.MjModel

    def sensor(self, name: str) -> np.ndarray:
        return self.robot.sensor(self.sensordata, self.model, name)


def _with_energy(summarize):
    """summarize() plus the shared energy metrics (envs/core/model/energy.py) for runs that recorded them."""
    @functools.wraps(summarize)
    def wrapped(self, run):
        out = summarize(self, run)
        if hasattr(run, "sensordata") and hasattr(run, "model") and getattr(run, "cycle_values", None) is not None:
            try:
                run.model.sensor(energy.FRC + "0")
            except KeyError:              # a model without the actuator sensors (not compiled here)
                return out
            out.update({k: v for k, v in energy.metrics(self, run).items() if k not in out})
        return out
    return wrapped


def _hashable(v):
    return tuple(v) if isinstance(v, (list, tuple)) else v


_MODEL_CACHE: dict = {}


def _compiled(key, robot: Robot) -> mujoco.MjModel:
    """Compile each distinct (robot, timestep, model parameters) once per process."""
    m = _MODEL_CACHE.get(key)
    if m is None:
        if len(_MODEL_CACHE) > 512:
            _MODEL_CACHE.clear()
        spec = robot.spec()
        robot.finish_spec(spec)
        # data = dist, reduce = mindist, num = 1 (no contact: 0)
        spec.add_sensor(name=PENETRATION_SENSOR, type=mujoco.mjtSensor.mjSENS_CONTACT,
                        intprm=[1 << int(mujoco.mjtConDataField.mjCONDATA_DIST), 1, 1])
        energy.add_sensors(spec)    # actuator force and velocity: the energy metrics' power
        m = spec.compile()
        m.opt.timestep = robot.timestep
        _MODEL_CACHE[key] = m
    return m
