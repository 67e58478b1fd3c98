"""view."""
