"""The manifest: every robot of gaittwin and what its packages provide, in the robots' order.

One line a robot: its package (envs/<robot>/__init__.py exports ROBOT, the Robot subclass) and its paper
package (envs/<robot>/paper/__init__.py exports EXPERIMENTS, the runner of each experiment by name, and
where it has them CLAIMS, MUTATIONS and REFERENCE_VIDEO).  The order of ROBOTS is the robots' order
everywhere: the fidelity report, its tables, every listing of the robots.  CORE_EXPERIMENTS are the
runners core provides itself: the families every robot declares (<robot>_robustness, <robot>_trajectory,
<robot>_identify, each by its options class) and the fidelity report.

Only the top layer reads this module (gaittwin/__init__.py hands it to core with
gaittwin.core.registry.install; the commands in envs/app/ and envs/cli.py read it): core never imports a
robot package.  Adding a robot: docs/adding_a_robot.md.
"""
from __future__ import annotations

from . import bolt, crawler, miniaq, snake
from .bolt import paper as bolt_paper
from .core.analysis.identify import Identify, identify
from .core.analysis.robustness import Robustness, robustness
from .core.analysis.trajectory import TrajectoryOptions, trajectory_experiment
from .core.registry import Entry, entry
from .core.report.report import fidelity_report
from .crawler import paper as crawler_paper
from .miniaq import paper as miniaq_paper
from .snake import paper as snake_paper

ROBOTS: dict[str, Entry] = {e.name: e for e in (
    entry(crawler, crawler_paper),
    entry(snake, snake_paper),
    entry(bolt, bolt_paper),
    entry(miniaq, miniaq_paper),
)}

CORE_EXPERIMENTS = {
    Robustness: robustness,                 # every <robot>_robustness
    TrajectoryOptions: trajectory_experiment,   # every <robot>_trajectory
    Identify: identify,                     # every <robot>_identify
    "fidelity_report": fidelity_report,
}

__all__ = ["CORE_EXPERIMENTS", "ROBOTS"]
