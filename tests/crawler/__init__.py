"""Tests of the crawler twin and its paper reproduction."""
