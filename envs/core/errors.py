"""The one error users see for bad input: it names the parameter and its allowed range."""


class ConfigError(ValueError):
    """A parameter is outside its allowed range; raised before anything is simulated."""

    def __init__(self, param: str, value, allowed: str, why: str = ""):
        self.param, self.value, self.allowed = param, value, allowed
        msg = f"{param}={value!r} is not allowed: allowed range is {allowed}"
        super().__init__(msg + (f" ({why})" if why else ""))

