"""What every robot provides to the shared machinery (inputs -> simulation -> metrics).

A robot module subclasses `Robot` with only what is specific to it: its model
variations (MjSpec edits), the map from gait parameters to actuator controls, the
initial pose, and how a cycle's progress and the summary metrics are read from
recorded sensor data.  Everything a metric needs is a MuJoCo sensor, so metrics
work identically on the single-run, batch and dm_control paths.
"""
from __future__ import annotations

import math
import pathlib

import mujoco
import numpy as np

from envs.core.errors import ConfigError, check_range

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"    # models/<robot>/: MJCF and provenance, one folder a robot

WARNING_NAMES = [mujoco.mjtWarning(i).name for i in range(int(mujoco.mjtWarning.mjNWARNING))]


def to_si(params: dict) -> dict:
    """Config names -> SI: `psi_deg` becomes `psi` in radians; other keys unchanged.

    An optional angle left unset (None) stays None; a list of angles is converted elementwise.
    """
    return {(k[:-4] if k.endswith("_deg") else k): (_radians(v) if k.endswith("_deg") else v)
            for k, v in params.items()}


def _radians(v):
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [_radians(x) for x in v]
    return math.radians(v)


class Robot:
    """One simulation point of one robot: validated parameters, model, inputs."""

    name: str = ""
    defaults: dict = {}          # config names (angles in *_deg), SI otherwise
    ranges: dict = {}            # name -> (lo, hi, "allowed text")
    model_keys: tuple = ()       # parameters that change the compiled MjModel
    columns: tuple = ()          # parameters always written to results files
    samples_per_cycle: int = 200
    random_inputs: dict = {}     # name -> (lo, hi): bounded ranges for randomised reliability runs
    max_penetration: float = 2e-3  # m: deepest contact penetration a healthy run may show
    max_loop_gap: float = 1e-3   # m: largest equality-constraint (loop-closure) violation allowed

    def __init__(self, **params):
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            raise ConfigError(unknown[0], params[unknown[0]],
                              f"one of {sorted(self.defaults)}", f"unknown {self.name} parameter")
        cfg = {**self.defaults, **params}
        check_range(cfg, self.ranges)
        self.cfg = cfg
        self.p = to_si(cfg)
        self.validate()

    # ---- robot-specific hooks -------------------------------------------------
    def validate(self) -> None:
        """Geometric / physical checks beyond plain ranges; raise ConfigError."""

    @property
    def period(self) -> float:
        raise NotImplementedError

    def spec(self) -> mujoco.MjSpec:
        """The MjSpec with this point's model parameters applied."""
        raise NotImplementedError

    def controls(self, t: np.ndarray) -> np.ndarray:
        """Actuator controls at times t, shape (len(t), nu)."""
        raise NotImplementedError

    def initial_pose(self, model: mujoco.MjModel, data: mujoco.MjData) -> None:
        """Set data.qpos/qvel to the t=0 state (at rest, in contact where the robot starts so)."""
        raise NotImplementedError

    def progress(self, sensordata: np.ndarray, model: mujoco.MjModel) -> np.ndarray:
        """The scalar whose per-cycle change is the cycle's step (e.g. foot 1 x, signed)."""
        raise NotImplementedError

    def summarize(self, run) -> dict:
        """Metrics of one finished run (a `batch.Run`) as a flat dict of scalars."""
        raise NotImplementedError

    # ---- shared --------------------------------------------------------------
    @property
    def timestep_max(self) -> float:
        return float(self.p.get("timestep", 2e-4))

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


def _hashable(v):
    return tuple(v) if isinstance(v, (list, tuple)) else v


_MODEL_CACHE: dict = {}


def _compiled(key, robot: Robot) -> mujoco.MjModel:
    """Compile each distinct (robot, timestep, model parameters) once per process."""
    m = _MODEL_CACHE.get(key)
    if m is None:
        if len(_MODEL_CACHE) > 512:
            _MODEL_CACHE.clear()
        m = robot.spec().compile()
        m.opt.timestep = robot.timestep
        _MODEL_CACHE[key] = m
    return m
