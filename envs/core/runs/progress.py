"""Progress of a whole run: one bar a stage, labelled by the engine, and one ETA over every stage.

A run may fill several results files one after the other (the crawler's main job: the twin's sweep,
then the exact model's overlay).  An experiment declares its stages up front (`expect`); every bar
(`bar`, opened by the resumable loop, envs/core/sweep.run_rows) is one stage, and its postfix is the
remaining time of the *whole run*:

    remaining = (current stage's points left) x (its measured seconds a point)
              + sum over the stages not started of points x cost / (cost units done a second)

where a stage's `cost` is the time of one of its points relative to one twin point (ENGINE_COST,
measured) and the rate in cost units a second is measured over every point finished so far.  The
ETA is unknown (None, shown as `?`) until a point of the run has finished.  The clock is injectable
(tests use a fake one).
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable, Optional

# What a bar says for each engine: the twin (MuJoCo), or a reference engine.
ENGINE_LABELS = {"mujoco": "twin", "warp": "twin (MuJoCo Warp)", "auto": "twin (C + MuJoCo Warp)", "hybrid": "exact model", "paper": "paper model"}

# Seconds a point relative to one twin point, for the ETA of stages not yet started.  Measured on the
# crawler's main job at its defaults (18 omegas, 20 cycles; 2 shared cores at load 8-10, 2026-11-26):
# the twin's bar 24 s, the exact model's 66 s.  Engines not listed: 1.
ENGINE_COST = {"mujoco": 1.0, "warp": 1.0, "hybrid": 2.7}


def label(engine: str) -> str:
    return ENGINE_LABELS.get(engine, engine)


@dataclasses.dataclass
class Stage:
    name: str
    points: int
    cost: float = 1.0
    done: int = 0
    started: Optional[float] = None   # clock time of its first bar
    elapsed: float = 0.0              # seconds spent in it (closed bars)


class Plan:
    """The stages of one run, in order, and the arithmetic of its overall ETA."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.stages: list[Stage] = []
        self.current: Optional[Stage] = None

    def expect(self, engine: str, points: int) -> Stage:
        """Declare a stage still to come on `engine` (its points may shrink when it starts: reused points)."""
        st = Stage(label(engine), int(points), ENGINE_COST.get(engine, 1.0))
        self.stages.append(st)
        return st

    def _next(self, engine: str) -> Optional[Stage]:
        return next((s for s in self.stages if s.name == label(engine) and s.started is None), None)

    def start(self, engine: str, points: int) -> Stage:
        """Start the first declared, not yet started stage on `engine` (or a new one) with the
        points it really computes."""
        st = self._next(engine) or self.expect(engine, points)
        st.points, st.started = int(points), self.clock()
        self.current = st
        return st

    def skip(self, engine: str) -> None:
        """A declared stage that has nothing to compute (every point reused): no time left in it."""
        st = self._next(engine)
        if st is not None:
            st.points, st.started = 0, self.clock()

    def update(self, n: int = 1) -> None:
        self.current.done += n

    def finish(self) -> None:
        st = self.current
        if st is not None:
            st.elapsed += self.clock() - st.started
            st.points = st.done          # what it really computed: its cost is measured now
            self.current = None

    def _spent(self, st: Stage) -> float:
        return st.elapsed + (self.clock() - st.started if st is self.current else 0.0)

    def eta(self) -> Optional[float]:
        """Seconds left for the whole run; None before any point has finished."""
        begun = [s for s in self.stages if s.started is not None]
        units = sum(s.done * s.cost for s in begun)
        spent = sum(self._spent(s) for s in begun)
        if units <= 0 or spent <= 0:
            return None
        rate = units / spent                                          # cost units a second
        left = 0.0
        for s in self.stages:
            if s.started is None:
                left += s.points * s.cost / rate
            elif s is self.current:
                per = self._spent(s) / s.done if s.done else s.cost / rate
                left += max(0, s.points - s.done) * per
        return left


_plan: Optional[Plan] = None


def plan(clock: Callable[[], float] = time.monotonic) -> Plan:
    """A new plan for the run now starting (an experiment calls this before its first stage)."""
    global _plan
    _plan = Plan(clock)
    return _plan


def stages(declared) -> Plan:
    """Declare the run's stages, [(engine, points), ...] in the order they will run, on a new plan."""
    p = plan()
    for engine, n in declared:
        p.expect(engine, n)
    return p


def active() -> Plan:
    """The run's plan (a fresh one if no experiment declared its stages)."""
    global _plan
    if _plan is None or (_plan.current is None and _plan.stages
                         and all(s.started is not None for s in _plan.stages)):
        _plan = Plan()            # every declared stage ran: a later bar belongs to a new run
    return _plan


def fmt(seconds: Optional[float]) -> str:
    if seconds is None:
        return "?"
    s = int(round(seconds))
    return f"{s // 60}:{s % 60:02d}" if s >= 60 else f"{s} s"


class Bar:
    """One stage's bar: tqdm labelled `<engine label>: <file>`, its postfix the run's ETA."""

    def __init__(self, n: int, engine: str, filename: str, plan_: Optional[Plan] = None):
        from tqdm import tqdm
        self.plan = plan_ or active()
        self.stage = self.plan.start(engine, n)
        self.tqdm = tqdm(total=n, desc=f"{label(engine)}: {filename}", unit="pt", dynamic_ncols=True,
                         postfix=self._postfix())

    def _postfix(self) -> str:
        return f"run ETA {fmt(self.plan.eta())}"

    def update(self, n: int = 1) -> None:
        self.plan.update(n)
        self.tqdm.set_postfix_str(self._postfix(), refresh=False)
        self.tqdm.update(n)

    def close(self) -> None:
        self.plan.finish()
        self.tqdm.close()
