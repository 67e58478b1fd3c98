"""`engine=warp`: the batch runner's points on MuJoCo Warp (optional extra `.[gpu]`), as worlds.

Points whose compiled models share one layout (every model field MuJoCo Warp cannot batch per
world is equal) run as the worlds of one batch; the fields that differ between them (friction,
masses, gains, opt.timestep, ...) are set per world.  Like the C runner (envs/core/engines/batch.py) it
keeps a pool of `nworld` worlds and refills a world with the next point as one finishes.  Open-loop
inputs a robot states as a `DeviceLaw` (`Robot.device_law`) are evaluated on the device before each
step (envs/core/engines/warp_law.py); others on the host one chunk at a time (`robot.controls`, as every
path does) and copied in; on the device one kernel per step records only what the metrics and the health checks
need: the sensors at the sampled steps (samples_per_cycle a cycle) and, for every step, the
deepest penetration, the largest loop gap, non-finite sensors and constraint/contact overflow
(folded into the next sample, so a run's health covers exactly the steps the C runner checks).
Each finished point is a `runs.Run`, summarised by the robot's own `summarize`.

A configured run (scripts/run.py) of a robot with a per-step `feedback` hook (closed_loop: BOLT's
contact-switched actuator limit runs in Python between steps), or of an experiment that declares
it cannot run there (Experiment.warp, e.g. the crawler's feedback law), falls back to the C engine
with a note (envs/core/runs/config.py validate, envs/core/runs/experiment.py compute).  Refused (a
ConfigError naming the feature, before anything is written): models using a feature MuJoCo Warp
lacks (its own `put_model` check names it), and such robots handed to the batch runner directly.
MuJoCo Warp computes in float32 (and raises opt.tolerance to 1e-6): results agree with the C
engine within tolerances derived from the C engine's own sensitivity (scripts/warp_agreement.py),
not bit for bit.
"""
from __future__ import annotations

import collections
import dataclasses
import importlib.util

import mujoco
import numpy as np

from ..model.errors import ConfigError

INSTALL = 'pip install -e ".[gpu]" -c constraints.txt'
HEALTH = 4            # per-sample columns after the sensors: penetration, loop gap, non-finite, overflow
NWORLD = dict(cpu=8, cuda=4096)   # default worlds per batch


def available() -> bool:
    return importlib.util.find_spec("mujoco_warp") is not None and importlib.util.find_spec("warp") is not None


def unsupported(cls) -> str:
    """Why robot class `cls` cannot run on MuJoCo Warp ("" if it can): a per-step Python hook
    without a device version (Robot.device_feedback, envs/core/engines/warp_hook.py)."""
    from ..model.robot import Robot
    if cls.closed_loop and cls.device_feedback is Robot.device_feedback:
        return f"{cls.name} steps a per-step Python feedback hook (closed_loop) that MuJoCo Warp cannot run"
    return ""


def point_refusal(cls, robot: dict, sweep: dict, engine: str) -> str:
    """Why a configured run's points (the base parameters `robot` and every swept value) cannot run on MuJoCo Warp
    although class `cls` can (Robot.warp_refusal; "" if they can): engine=warp is refused (ConfigError),
    engine=auto gets the reason and falls back to the C engine."""
    points = [robot] + [dict(robot, **{k: v}) for k, vs in sweep.items() for v in vs]
    why = next(filter(None, map(cls.warp_refusal, points)), "")
    if why and engine == "warp":
        raise ConfigError("engine", "warp", "mujoco or auto for this point", why)
    return why


def check_installed() -> None:
    if not available():
        raise ConfigError("engine", "warp", f"mujoco (or install the extra: {INSTALL})", "mujoco_warp is not installed")


def check_class(cls) -> None:
    """engine=warp for robot class `cls` in the batch runner: ConfigError if it cannot run there
    (a configured run falls back to the C engine before this: envs/core/runs/config.py validate)."""
    check_installed()
    why = unsupported(cls)
    if why:
        raise ConfigError("engine", "warp", f"mujoco for {cls.name}", why)


def check(robots) -> None:
    """Every point can run on MuJoCo Warp: its class and its compiled model's features."""
    for r in robots:                   # a point's own refusal first (it holds whether or not warp is installed)
        point_refusal(type(r), r.cfg, {}, "warp")
    for cls in {type(r) for r in robots}:
        check_class(cls)
    for m in {id(m): m for m in (r.model() for r in robots)}.values():
        _put(m)


def device(name: str | None = None) -> str:
    """The Warp device: `name`, or cuda where a GPU is usable, else cpu."""
    import warp as wp
    from .warp_law import quiet
    quiet()
    wp.init()
    if name:
        try:
            return str(wp.get_device(name))
        except (ValueError, RuntimeError) as e:      # unknown name; cuda without a usable GPU
            raise ConfigError("run.device", name, f"one of {[str(d) for d in wp.get_devices()]} on this machine "
                              f"(null: cuda if usable, else cpu)", str(e).strip('"')) from None
    return "cuda:0" if wp.is_cuda_available() else "cpu"


def versions() -> dict:
    import mujoco_warp
    import warp as wp
    from importlib.metadata import version
    return {"mujoco": mujoco.__version__, "mujoco_warp": version("mujoco-warp"), "warp": wp.config.version,
            "mujoco_warp_module": getattr(mujoco_warp, "__version__", "")}


_PUT: dict = {}      # id(MjModel) -> (MjModel, warp Model): MjModels are cached per process (robot._compiled)


def _put(m: mujoco.MjModel):
    hit = _PUT.get(id(m))
    if hit is None or hit[0] is not m:
        import mujoco_warp as mjw
        if len(_PUT) > 256:
            _PUT.clear()
        try:
            hit = _PUT[id(m)] = (m, mjw.put_model(m))
        except NotImplementedError as e:
            raise ConfigError("engine", "warp", "mujoco for this model",
                              f"MuJoCo Warp does not support a feature it uses: {e}") from None
    return hit[1]


def _fields(M, prefix=""):
    """(path, value) of every field of a warp Model, nested dataclasses (opt, stat) flattened."""
    for f in dataclasses.fields(M):
        v = getattr(M, f.name)
        if dataclasses.is_dataclass(v):
            yield from _fields(v, prefix + f.name + ".")
        else:
            yield prefix + f.name, f.type, v


def _batchable(spec) -> bool:
    return bool(getattr(spec, "shape", ())) and spec.shape[0] == "*"


def layout_key(M) -> tuple:
    """What must be equal for warp models to share one batch: every field that cannot be set per world."""
    import warp as wp
    key = []
    for p, spec, v in _fields(M):
        if isinstance(v, wp.array):
            if not _batchable(spec):
                a = v.numpy()
                key.append((p, a.shape, hash(a.tobytes())))
        elif v is not None and not callable(v):
            key.append((p, repr(v)))
    return tuple(key)


def varying(Ms) -> list:
    """The per-world fields (paths) whose values differ between the warp models `Ms`."""
    out = []
    for p, spec, v in _fields(Ms[0]):
        if _batchable(spec) and v is not None:
            ref = v.numpy()
            if any(not np.array_equal(getattr_path(M, p).numpy(), ref, equal_nan=True) for M in Ms[1:]):
                out.append(p)
    return out


def getattr_path(obj, path):
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def groups(models) -> list[list[int]]:
    """Point indices grouped by warp layout (points of one group share one batch)."""
    from .runs import by_layout
    out = []
    for idx in by_layout(models):
        keys = {k: layout_key(_put(m)) for k, m in {id(models[i]): models[i] for i in idx}.items()}
        sub: dict = collections.defaultdict(list)
        for i in idx:
            sub[keys[id(models[i])]].append(i)
        out.extend(sub.values())
    return out
