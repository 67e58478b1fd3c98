"""Progress: bars labelled by engine, one ETA over all the run's stages (envs/core/runs/progress.py).
The ETA arithmetic is checked with a fake clock, never by timing."""
import pytest

from gaittwin.core.runs import progress as pg


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def test_labels_name_the_engine():
    assert pg.label("mujoco") == "twin"
    assert pg.label("hybrid") == "exact model"
    assert pg.label("paper") == "paper model"
    assert pg.label("other") == "other"


def test_eta_covers_the_stages_not_yet_started():
    clock = Clock()
    p = pg.Plan(clock)
    p.expect("mujoco", 10)
    p.expect("hybrid", 10)                      # cost 1.9 a point relative to the twin's
    cost = pg.ENGINE_COST["hybrid"]
    p.start("mujoco", 10)
    assert p.eta() is None                       # nothing finished: unknown, never a guess
    clock.t += 4.0
    p.update(2)                                  # 2 s a twin point
    # twin: 8 points x 2 s; exact model: 10 points x cost x 2 s
    assert p.eta() == pytest.approx(8 * 2.0 + 10 * cost * 2.0)
    clock.t += 16.0
    p.update(8)
    p.finish()
    assert p.eta() == pytest.approx(10 * cost * 2.0)
    st = p.start("hybrid", 10)
    assert st.name == "exact model" and st.cost == cost
    clock.t += 10.0
    p.update(2)                                  # the exact model measured: 5 s a point, not 3.8
    assert p.eta() == pytest.approx(8 * 5.0)
    clock.t += 40.0
    p.update(8)
    p.finish()
    assert p.eta() == 0.0


def test_reused_points_shrink_a_stage_and_skipped_stages_cost_nothing():
    clock = Clock()
    p = pg.Plan(clock)
    p.expect("mujoco", 10)
    p.expect("hybrid", 10)
    p.start("mujoco", 4)                         # 6 of 10 reused from the store
    clock.t += 3.0
    p.update(1)
    assert p.eta() == pytest.approx(3 * 3.0 + 10 * pg.ENGINE_COST["hybrid"] * 3.0)
    p.update(3)
    p.finish()
    p.skip("hybrid")                             # every exact-model point reused
    assert p.eta() == 0.0


def test_an_undeclared_bar_is_its_own_run():
    p = pg.plan(Clock())
    assert pg.active() is p
    p.start("mujoco", 3)
    p.update(3)
    p.finish()
    assert pg.active() is not p                  # every stage ran: a later bar is a new run


def test_bar_label_and_postfix(capsys):
    clock = Clock()
    p = pg.stages([("mujoco", 2), ("hybrid", 2)])
    p.clock = clock
    bar = pg.Bar(2, "mujoco", "results.csv", p)
    clock.t += 1.0
    bar.update(1)
    assert bar.tqdm.desc == "twin: results.csv"
    assert bar.tqdm.postfix == f"run ETA {pg.fmt(1.0 + 2 * pg.ENGINE_COST['hybrid'])}"
    bar.update(1)
    bar.close()
    assert pg.Bar(2, "hybrid", "results_hybrid.csv", p).tqdm.desc == "exact model: results_hybrid.csv"


@pytest.mark.parametrize("s, text", [(None, "?"), (4.4, "4 s"), (59.6, "1:00"), (125, "2:05")])
def test_fmt(s, text):
    assert pg.fmt(s) == text
