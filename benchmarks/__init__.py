"""Speed measurements (``python -m benchmarks.run``)."""
