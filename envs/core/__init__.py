"""Robot-agnostic machinery shared by every robot."""
