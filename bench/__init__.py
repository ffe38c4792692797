"""Benchmarks of transformsvc: `make bench` runs `bench/run.py` (see its docstring)."""
