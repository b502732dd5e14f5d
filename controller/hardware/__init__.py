"""Adapters between devices and the rules core; every device sits behind a small interface with a fake."""
