"""Tests of the miniaq twin and its paper reproduction."""
