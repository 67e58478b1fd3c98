"""The one error users see for bad input: it names the parameter and its allowed range."""


class ConfigError(ValueError):
    """A parameter is outside its allowed range; raised before anything is simulated."""

    def __init__(self, param: str, value, allowed: str, why: str = ""):
        self.param, self.value, self.allowed = param, value, allowed
        msg = f"{param}={value!r} is not allowed: allowed range is {allowed}"
        super().__init__(msg + (f" ({why})" if why else ""))


class StepBudgetError(ConfigError):
    """A point would take more integration steps than `run.max_steps` allows: rejected before
    anything is simulated, whatever parameter (period, timestep, cycles) made it long."""

    def __init__(self, steps: int, max_steps: int, detail: str):
        ValueError.__init__(self, f"run.max_steps={max_steps:.3g} is exceeded: a point needs {steps:.3g} steps "
                                  f"({detail}); allowed are at most run.max_steps steps per point (the default "
                                  f"is 0.5-2 h of one core): shorten the period or run.cycles, use a larger "
                                  f"timestep, or raise run.max_steps")
        self.param, self.value, self.allowed = "run.max_steps", max_steps, f"<= {max_steps} steps per point"
        self.steps = steps


class StoreError(RuntimeError):
    """The sweep store (results.sqlite) cannot be used: damaged, or of another schema.  Nothing
    is computed or written; the message says which file and what to do."""
