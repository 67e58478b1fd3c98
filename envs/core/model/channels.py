"""Observable channels: what each robot declares a camera or a logger can measure on the real robot.

A robot declares them once (`declare(robot, channels_of, cycle)`, in envs/<robot>/channels.py): each
`Channel` is read from a finished `batch.Run` (the pose of a named site or body, joint or crank angles,
per-foot contact flags); its `CycleChannel`s are the per-cycle scalars a per-cycle table may carry.
The trajectory format (envs/core/analysis/trajectory.py), the fits and the per-sample time series
(envs/core/runs/timeseries.py) read them through `channels(robot)` and `cycle_channels(robot)`.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from .errors import ConfigError

KINDS = ("value", "flag")       # flag: 0/1 (contact); not fitted by default (not differentiable)


@dataclasses.dataclass(frozen=True)
class Channel:
    """One observable: name (the CSV column), SI unit, how it is read from a batch.Run."""

    name: str
    unit: str
    read: Callable            # run -> (samples,) array in `unit`
    what: str = ""
    kind: str = "value"
    relative: bool = False    # position in the world frame: its origin is unknown (a fit removes its mean)


def sensor_channel(name: str, unit: str, sensor: str, what: str, col: int = 0, **kw) -> Channel:
    """A channel read straight from column `col` of a named MuJoCo sensor."""
    return Channel(name, unit, lambda r: r.sensor(sensor)[:, col], what, **kw)


def contact_channel(name: str, touch_sensor: str, what: str) -> Channel:
    """A contact flag (1 while the named touch sensor reads a force, else 0)."""
    return Channel(name, "1", lambda r: (r.sensor(touch_sensor)[:, 0] > 0).astype(float), what, kind="flag")


@dataclasses.dataclass(frozen=True)
class CycleChannel:
    """A per-cycle scalar a per-cycle table may carry (envs/core/analysis/cycle_table.py): `name` is one of the
    robot's results metrics (Robot.summarize), in SI `unit`."""

    name: str
    unit: str
    what: str = ""


_DECLARED: dict = {}          # robot name -> robot -> [Channel]
_CYCLE: dict = {}             # robot name -> [CycleChannel]


def declare(robot_name: str, channels_of: Callable, cycle: tuple = ()) -> None:
    """Register a robot's channels: channels_of(robot point) -> [Channel] (may depend on e.g. N), and
    its per-cycle scalars `cycle` ([CycleChannel])."""
    _DECLARED[robot_name] = channels_of
    _CYCLE[robot_name] = {c.name: c for c in cycle}


def cycle_channels(robot) -> dict:
    """The declared per-cycle scalars of a robot, by name."""
    channels(robot)                     # the same refusal for a robot without declarations
    return dict(_CYCLE[robot.name])


def channels(robot) -> dict[str, Channel]:
    """The declared channels of a robot point, by name."""
    if robot.name not in _DECLARED:
        raise ConfigError("robot", robot.name, f"one of {sorted(_DECLARED)}", "no trajectory channels declared")
    return {c.name: c for c in _DECLARED[robot.name](robot)}
