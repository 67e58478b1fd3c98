"""The snake's observable channels (envs/core/trajectory.py): the whole robot's centre of mass in its
plane of motion (x forward, z up; what a camera tracking the links gives) and the N - 1 servo angles."""
from envs.core.trajectory import Channel, declare


def channels_of(robot) -> list:
    return [Channel("com_x", "m", lambda r: r.sensor("com")[:, 0], "centre of mass x", relative=True),
            Channel("com_z", "m", lambda r: r.sensor("com")[:, 2], "centre of mass height", relative=True),
            *[Channel(f"phi{k}", "rad", (lambda k: lambda r: r.sensor(f"phi{k}")[:, 0])(k), f"joint angle phi{k}")
              for k in range(1, robot.p["N"])]]


declare("snake", channels_of)
