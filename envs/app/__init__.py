"""The commands: `gaittwin run | view | render` (one module each) and the checks they share."""
