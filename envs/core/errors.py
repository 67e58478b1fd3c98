"""The one error users see for bad input: it names the parameter and its allowed range."""


class ConfigError(ValueError):
    """A parameter is outside its allowed range; raised before anything is simulated."""

    def __init__(self, param: str, value, allowed: str, why: str = ""):
        self.param, self.value, self.allowed = param, value, allowed
        msg = f"{param}={value!r} is not allowed: allowed range is {allowed}"
        super().__init__(msg + (f" ({why})" if why else ""))


def check_range(params: dict, ranges: dict) -> None:
    """Check every key of `ranges` present in `params`.

    ranges: {name: (lo, hi, allowed_text)}; lo/hi None means unbounded, and both
    ends are inclusive unless the text says otherwise (the text is what users read).
    """
    for name, (lo, hi, text) in ranges.items():
        if name not in params:
            continue
        v = params[name]
        if v is None:   # optional parameter left unset
            continue
        try:
            x = float(v)
        except (TypeError, ValueError):
            raise ConfigError(name, v, text, "not a number") from None
        if x != x or (lo is not None and x < lo) or (hi is not None and x > hi):
            raise ConfigError(name, v, text)
        if text.startswith("(") and lo is not None and x == lo:
            raise ConfigError(name, v, text)
        if text.endswith(")") and hi is not None and x == hi:
            raise ConfigError(name, v, text)
