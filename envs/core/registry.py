"""What core knows of the robots: the manifest (envs/registry.py) handed in once, from the top.

Core never imports a robot package.  The package `gaittwin` (envs/__init__.py) calls `install` with
the manifest's entries when it is imported; from then on core reads the robot classes
(gaittwin.core.model.robot.REGISTRY: robot_class), the experiment runners
(gaittwin.core.runs.config.RUNNERS: runner_of), the fidelity claims (gaittwin.core.report.report) and
the twin mutations (gaittwin.core.report.mutation) from what was installed, in the manifest's order
(the robots' order everywhere: the report, its tables).  Nothing registers itself on import: defining
a Robot subclass or marking a function `@runner(...)` adds it nowhere.
"""
from __future__ import annotations

import dataclasses
from types import ModuleType
from typing import Callable, Mapping


@dataclasses.dataclass(frozen=True)
class Entry:
    """One robot of the manifest: what its package exports (envs/<robot>/__init__.py: ROBOT) and what its
    paper package exports (envs/<robot>/paper/__init__.py: EXPERIMENTS, CLAIMS, MUTATIONS, REFERENCE_VIDEO)."""
    robot: type                                      # the Robot subclass
    experiments: Mapping = dataclasses.field(default_factory=dict)   # experiment name -> runner(job, out)
    claims: ModuleType | None = None                 # fidelity claims: CLAIMS [(title, fn)], PAPER, OMITTED
    mutations: tuple = ()                            # gaittwin.core.report.mutation.Mutation of the twin
    reference_video: Callable | None = None          # render --compare: (robot, duration) -> (set_state, label)

    @property
    def name(self) -> str:
        return self.robot.name


def entry(robot_package: ModuleType, paper: ModuleType | None = None) -> Entry:
    """The Entry of a robot package (its ROBOT) and of its paper package (its EXPERIMENTS; CLAIMS,
    MUTATIONS and REFERENCE_VIDEO where it has them)."""
    if paper is None:
        return Entry(robot_package.ROBOT)
    return Entry(robot_package.ROBOT, experiments=dict(paper.EXPERIMENTS), claims=getattr(paper, "CLAIMS", None),
                 mutations=tuple(getattr(paper, "MUTATIONS", ())),
                 reference_video=getattr(paper, "REFERENCE_VIDEO", None))


ENTRIES: dict[str, Entry] = {}      # robot name -> Entry, in the manifest's order: filled by install


def runners(*tables: Mapping) -> dict:
    """One table experiment (a declared name, or an options class for a family) -> runner from several;
    TypeError for an experiment given two runners, or a runner marked (`@runner(...)`) for another one."""
    out: dict = {}
    for table in tables:
        for of, fn in table.items():
            marked = getattr(fn, "experiments", None)
            if marked is not None and of not in marked:
                raise TypeError(f"experiment {of}: its runner {fn.__module__}.{fn.__qualname__} is marked "
                                f"@runner for {list(marked)}")
            old = out.get(of)
            if old is not None and (old.__module__, old.__qualname__) != (fn.__module__, fn.__qualname__):
                raise TypeError(f"experiment {of}: two runners, {old.__module__}.{old.__qualname__} and "
                                f"{fn.__module__}.{fn.__qualname__}")
            out[of] = fn
    return out


def install(robots: Mapping[str, Entry], experiments: Mapping = ()) -> None:
    """Hand the manifest to core: `robots` (name -> Entry, in the robots' order) and core's own experiment
    runners (`experiments`: options class -> runner, the families every robot declares, e.g.
    <robot>_robustness; or name -> runner).  Replaces whatever was installed before."""
    from .model import robot as core_robot, schema
    from .runs import config

    for name, e in robots.items():
        if name != e.robot.name:
            raise ValueError(f"manifest: robot {name!r} is the class {e.robot.__name__} named {e.robot.name!r}")
    table = runners(dict(experiments), *(e.experiments for e in robots.values()))
    ENTRIES.clear()
    ENTRIES.update(robots)
    core_robot.REGISTRY.clear()
    for name, e in robots.items():
        core_robot.REGISTRY[name] = e.robot
        schema.store("robot", f"{name}_schema", e.robot.Params)
    config.RUNNERS.clear()
    config.RUNNERS.update(table)


def entries(robots: Mapping[str, Entry] | None = None) -> Mapping[str, Entry]:
    """`robots` if given (a caller's own registry), else the installed manifest's entries."""
    return ENTRIES if robots is None else robots
