"""crawler: robot, experiments and fidelity claims."""

from .robot import Crawler

ROBOT = Crawler      # the Robot subclass this package provides (envs/registry.py lists it)

__all__ = ["ROBOT", "Crawler"]
