"""RL environments for Dorix, Olix, ADIX and Sylvie Barc's 6x6 duel.

``from envs import dorix_v0; env = dorix_v0.env()`` (PettingZoo AEC). The game list lives in
:mod:`envs.registry`; the shared Game/State interface in :mod:`envs.core`.
"""

__version__ = "0.1.0"  # the package version: pyproject.toml reads it from here ([tool.setuptools.dynamic])

from envs.registration import register_all

register_all()
