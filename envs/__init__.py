"""gaittwin: MuJoCo digital twins of minimally actuated robots, driven by periodic inputs.

`load(robot, **overrides)` returns a dm_control Environment that runs the
robot's gait open loop.  Heavy imports (mujoco, dm_control) happen lazily so
`envs.core.gl` can choose the rendering backend before MuJoCo is imported.
"""
from __future__ import annotations

import importlib

from envs.core import gl
from envs.core.errors import ConfigError

if "mujoco" not in __import__("sys").modules:
    gl.configure()   # before MuJoCo is imported: it reads MUJOCO_GL at import

# robot name -> "module:RobotClass"
ROBOTS = {
    "crawler": "envs.crawler.robot:Crawler",
    "miniaq": "envs.miniaq.robot:MiniAQ",
    "snake": "envs.snake.robot:Snake",
    "bolt": "envs.bolt.robot:Bolt",
}


def robot_class(name: str):
    if name not in ROBOTS:
        raise ConfigError("robot", name, f"one of {sorted(ROBOTS)}")
    module, cls = ROBOTS[name].split(":")
    return getattr(importlib.import_module(module), cls)


def load(robot: str, *, cycles: float = 10.0, controller=None, **overrides):
    """A dm_control Environment of `robot` with config parameters `overrides`.

    The control step equals the physics step (the inputs are evaluated every
    step, exactly as the batch runner does); the episode lasts `cycles` periods.
    """
    import copy

    from dm_control.mujoco import wrapper
    from dm_control.rl import control

    from envs.core.env import GaitTask

    cls = robot_class(robot)
    r = cls(**overrides)
    module = importlib.import_module(ROBOTS[robot].split(":")[0])
    physics_cls = getattr(module, "Physics")
    physics = physics_cls.from_model(wrapper.MjModel(copy.copy(r.model())))
    task = GaitTask(r, controller=controller)
    return control.Environment(physics, task, time_limit=cycles * r.period,
                               n_sub_steps=1, flat_observation=False)


__all__ = ["ConfigError", "ROBOTS", "load", "robot_class"]
