"""The source papers' experiments, as library code: each module computes one experiment's
results from explicit seeds and returns plain data (dicts and lists that serialise to JSON);
``skat research KIND`` (:mod:`skat.cli.research`) runs them with progress bars and writes the
JSON and plots.

This package sits with :mod:`skat.training` above the runtime: it may import the players,
the match loop, tournaments and the compiled core, and nothing at runtime imports it.
"""
