"""bolt: robot, experiments and fidelity claims."""

from .robot import Bolt

ROBOT = Bolt      # the Robot subclass this package provides (envs/registry.py lists it)

__all__ = ["ROBOT", "Bolt"]
