"""The standing fuzz campaign (``python -m boardgames.benchmarks.fuzz --turns 1000000``).

Random games of every registered game and option set (the ``CONFORMANCE_OPTIONS`` of each ``_v0``
module) are played through the rules engine and through each public API, with checks after every
step and malformed inputs mixed in that must be refused with the state unchanged:

* :mod:`boardgames.benchmarks.fuzz.engine`: the Game/State interface (invariants, clone/apply equality, notation
  round trip, observations, masks, returns, every refusal);
* :mod:`boardgames.benchmarks.fuzz.apis`: PettingZoo AEC and Parallel, the Gymnasium single-agent env;
* :mod:`boardgames.benchmarks.fuzz.batched`: :class:`boardgames.envs.vector.BatchedGames` (checked row by row
  against the engine) and the Gymnasium vector env (``gymnasium.make_vec``);
* :mod:`boardgames.benchmarks.fuzz.inputs`: the malformed values, seats, moves and positions;
* :mod:`boardgames.benchmarks.fuzz.report`: counts, failures with their reproducer, the table;
* :mod:`boardgames.benchmarks.fuzz.run`: the command line (chunks, jobs, progress bar, ``--out``, ``--resume``,
  ``--replay``).

``python -m boardgames.benchmarks.fuzz --surfaces --seconds 300`` runs the other campaign, over what the project
reads and serves beyond the games (:mod:`boardgames.benchmarks.fuzz.surfaces`):

* :mod:`boardgames.benchmarks.fuzz.model_files`: shipped model files (SB3, AlphaZero, RLlib) mutated and loaded;
* :mod:`boardgames.benchmarks.fuzz.run_folders`: tiny training runs damaged or killed at a write point, resumed;
* :mod:`boardgames.benchmarks.fuzz.web_server`: malformed requests to the web server while games are played;
* :mod:`boardgames.benchmarks.fuzz.child`: each load and resume in a forked child bounded in time and memory.

docs/reliability.md lists every check and the figures of the last full campaign.
"""

from boardgames.benchmarks.fuzz.report import Config, Failure, Tally, configs
from boardgames.benchmarks.fuzz.run import PATHS, fuzz

__all__ = ["Config", "Failure", "Tally", "configs", "PATHS", "fuzz"]
