"""Tests of the bolt twin and its paper reproduction."""
