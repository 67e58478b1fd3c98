"""Tests of the snake twin and its paper reproduction."""
