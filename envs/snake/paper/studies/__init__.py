"""The snake's measured studies, each `python -m gaittwin.snake.paper.studies.<name> --help`.

| study | what it measures | written up in |
|---|---|---|
| `snake_large_alpha` | why the snake (n = 5) loses more at the largest alpha | docs/notes/2026-11-28-snake-large-alpha.md |
"""
