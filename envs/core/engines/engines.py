"""Engines: how `sweep.run_rows` computes points.

An `Engine` names a way to compute a sweep's points (its `simulate`) with the run settings and
versions that make up a stored row's identity.  The batch path's engines (`BATCH_ENGINES`) are
built here from the run settings (`experiment.run_kw`): the native MuJoCo batch runner (in this
process or in Ray tasks), its points on MuJoCo Warp, or both (engine=auto).  A robot's own
reference model (the crawler's exact hybrid model, a paper's model) is an `Engine` of its own,
made in the robot's package.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..model.errors import ConfigError


@dataclasses.dataclass
class Engine:
    """How run_rows computes points.

    simulate(robots, add) -> steps: runs the points and calls add(j, values, error) as each
    point j of `robots` finishes (any order); values: its metrics and health values.
    settings: the run settings that change a point's result (part of its identity).
    versions(robot_cls): versions of what computes a point (simulator, model files).
    check(robots): raises ConfigError before anything is written (e.g. the step budget).
    metrics: declared columns this engine adds (e.g. a reference model's solver statistics).
    parts: engines one point may run on (engine=auto: mujoco and warp); simulate then names the
    one that ran each point, add(j, values, error, by), and its row is stored under that engine.
    """

    name: str
    simulate: Callable
    settings: dict
    versions: Callable = lambda cls: {}
    check: Callable | None = None
    metrics: tuple = ()        # results columns this engine adds to the robot's declared metrics
    parts: tuple = ()          # engine=auto: the Engines whose rows it files (run_rows)


BATCH_ENGINES = ("mujoco", "warp", "auto")
WARP_KW = ("engine", "device", "nworld")


def runner_kw(kw: dict) -> dict:
    """run_kw's keywords (gaittwin.core.runs.experiment.run_kw) for the batch runner itself (batch.run_point /
    run_points): without retry_failed, which only decides whether sweep.run_rows reuses a stored failure."""
    return {k: v for k, v in kw.items() if k != "retry_failed"}


def batch_kw(run_kw: dict, engine: str) -> dict:
    """run_kw (gaittwin.core.runs.experiment.run_kw) for batch engine `engine` (mujoco, warp or auto)."""
    kw = {k: v for k, v in run_kw.items() if k not in WARP_KW}
    if engine in ("warp", "auto"):
        kw.update(engine=engine, device=run_kw.get("device"), nworld=run_kw.get("nworld"))
    return kw


def engine_for(name: str, run_kw: dict, **launch) -> Engine:
    """The batch path's engine `name` (one of BATCH_ENGINES) with run_kw and launch keywords."""
    if name not in BATCH_ENGINES:
        raise ConfigError("engine", name, f"one of {list(BATCH_ENGINES)} (the batch path)")
    return batch_engine(batch_kw(run_kw, name), **launch)


def batch_engine(run_kw: dict, launcher: str = "local", address=None, points_per_task=None) -> Engine:
    """The MuJoCo engine: the native batch runner (gaittwin.core.engines.batch.run_points), in this process
    (launcher=local) or in Ray tasks (launcher=ray, envs/core/engines/ray_runner.py): same rows, same
    identities.  run_kw engine=warp: the same runner's points on MuJoCo Warp (envs/core/engines/warp_engine.py),
    stored under engine name `warp` (its rows never stand in for the C engine's, nor a cpu run's
    for a cuda run's).  engine=auto (envs/core/engines/auto_split.py) splits the points between the two
    (its `parts`): each row is stored under the engine that ran it, and a stored row of either
    engine is reused."""
    import mujoco

    from . import batch

    kw = runner_kw(run_kw)
    name = kw.get("engine", "mujoco")
    settings = dict(cycles=int(kw.get("cycles", 10)), stop_when_steady=bool(kw.get("stop_when_steady", False)),
                    steady_kw=kw.get("steady_kw") or {})
    if settings["stop_when_steady"]:      # min_cycles matters only when points may stop early
        settings["min_cycles"] = int(kw.get("min_cycles", 3))

    def simulate(robots, add) -> int:
        steps = 0

        def on_result(j, run):
            nonlocal steps
            steps += run.cycles * robots[j].steps_per_cycle
            add(j, *batch.batch_values(robots[j], run), **({"by": run.engine} if name == "auto" else {}))
        batch.run_points(robots, type(robots[0]), on_result=on_result, **kw)
        return steps

    parts = ()
    if name == "auto":
        if launcher != "local":
            raise ConfigError("run.launcher", launcher, "local with engine=auto (it splits the points in this process)")
        parts = tuple(batch_engine(batch_kw(kw, n)) for n in ("mujoco", "warp"))
    if launcher == "ray":
        from . import ray_runner
        simulate = ray_runner.engine(kw, address=address, points_per_task=points_per_task)
    elif launcher != "local":
        raise ConfigError("run.launcher", launcher, "one of ['local', 'ray']")

    def check(robots):
        batch.check_run(robots, cycles=kw.get("cycles", 10), min_cycles=kw.get("min_cycles", 3),
                        chunk=kw.get("chunk", 2000), max_steps=kw.get("max_steps", batch.DEFAULT_MAX_STEPS))
        if name in ("warp", "auto"):
            from . import warp_engine
            warp_engine.device(kw.get("device"))        # a bad run.device: one line, before any model is put
            warp_engine.check(robots)

    def versions(cls):
        v = {"mujoco": mujoco.__version__, "models": cls.models_hash()}
        if name == "warp":
            from . import warp_engine
            v.update(warp_engine.versions(), device=warp_engine.device(kw.get("device")).split(":")[0])
        return v

    return Engine(name, simulate, settings, versions=versions, check=check, parts=parts)
