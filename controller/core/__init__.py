"""The rules core: pure, deterministic tracking of a live hand (no I/O, no clock, no randomness)."""
