"""Speed measurements (``boardgames bench``)."""

if __name__ != "boardgames.benchmarks":  # the folder imported by its own name, from the repository root
    raise ImportError(f"benchmarks/ is the package boardgames.benchmarks: import boardgames.benchmarks, not {__name__}")
