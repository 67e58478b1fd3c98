"""Plot helpers shared by every experiment: a figure holds only what is specific to it."""
from __future__ import annotations


def pyplot():
    """matplotlib.pyplot on the non-interactive Agg backend (experiments only write PNGs)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def figure(nrows: int = 1, ncols: int = 1, size=(6, 4), **kw):
    """(fig, axes) of a new figure."""
    return pyplot().subplots(nrows, ncols, figsize=size, **kw)


def style(ax, xlabel: str | None = None, ylabel: str | None = None, title: str | None = None,
          zero: bool = False, legend: bool = False, grid: bool = True, legend_size=None, title_size=None) -> None:
    """The axes conventions of every plot: labels, a light grid, an optional y = 0 line and legend."""
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=title_size)
    if zero:
        ax.axhline(0, color="k", lw=0.5)
    if grid:
        ax.grid(alpha=0.3)
    if legend:
        ax.legend(fontsize=legend_size)


def save_figure(fig, path, dpi: int = 120) -> None:
    """Lay out, write (PNG) and close a figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    pyplot().close(fig)
