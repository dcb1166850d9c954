"""The compiled helpers: numba kernels shared by the games' rules, the adapters, the batches and the search
(bit scans, borrowed rows, observation cells, random numbers, and the per-turn kernels generated from a game's
kernels). They import only the contract (:mod:`boardgames.envs.core`)."""
