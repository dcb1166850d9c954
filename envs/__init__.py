"""RL environments for Dorix, Olix, ADIX and Sylvie Barc's 6x6 duel.

``from boardgames.envs import dorix_v0; env = dorix_v0.env()`` (PettingZoo AEC). The game list lives in
:mod:`boardgames.envs.registry`; the shared Game/State interface in :mod:`boardgames.envs.core`.
"""

if __name__ != "boardgames.envs":  # the folder imported by its own name, from the repository root
    raise ImportError(f"envs/ is the package boardgames.envs: import boardgames.envs, not {__name__}")

from boardgames import __version__  # noqa: F401  (the version of the package, also boardgames.__version__)
from boardgames.envs.registration import register_all

register_all()
