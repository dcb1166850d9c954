"""The batched paths of the fuzz campaign: :class:`boardgames.envs.vector.BatchedGames` (self-play, every game a
row) and the Gymnasium vector env ``gymnasium.make_vec("boardgames/<game>-v0")``
(:class:`boardgames.envs.vector.BatchedVectorEnv` over a LearnerBatch, random opponents in compiled code).

One fuzzed "game" of these paths is a run of ``STEPS`` steps of a batch of ``NUM_GAMES`` games from
``reset(seed=...)``; its turns are the decisions played (``NUM_GAMES`` per step). Before every step
each row is read back as an engine state and checked: its invariants, the batch's mask and
observation of the seat(s) to act against the engine's. ``BatchedGames`` is also checked against the
engine after the step: a row that goes on must be the engine's state after the same actions, a row
that ended must have ended in the engine with the same returns and flags, and restarted. With
probability ``rate`` per step a malformed action array (one row's action out of range, negative or
illegal; floats, bools or strings; a wrong shape) must raise (IllegalActionError; ValueError for the
shape) with every row unchanged, and the step then goes on with legal actions.
"""

from __future__ import annotations

import numpy as np

from boardgames.benchmarks.fuzz.apis import raising
from boardgames.benchmarks.fuzz.report import Probe
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.core.kernel_state import KernelState

NUM_GAMES = 8
STEPS = 200


def _row_state(game, row: np.ndarray) -> KernelState:
    return type(game.new_initial_state())(game, row.copy())


def _bad_batch(probe: Probe, step, actions: np.ndarray, masks: np.ndarray, snapshot, rng) -> None:
    """One malformed action array for ``step`` (``masks``: bool, one row per action, last axis the
    actions); it must be refused and leave ``snapshot()`` as it was."""
    flat_masks = masks.reshape(-1, masks.shape[-1])
    n = flat_masks.shape[1]
    bad = actions.copy()
    k = int(rng.integers(7))
    expected: type[Exception] = IllegalActionError
    if k <= 2:
        i = int(rng.integers(bad.size))
        illegal = np.flatnonzero(~flat_masks[i])
        choices = [n + int(rng.integers(n)), -1 - int(rng.integers(n))] + (
            [int(rng.choice(illegal))] if len(illegal) else []
        )
        bad.reshape(-1)[i] = choices[min(k, len(choices) - 1)]
        kind = ["out of range", "negative", "illegal"][min(k, len(choices) - 1)]
    elif k == 3:
        kind, bad = "float array", actions + rng.choice([0.0, 0.5])
    elif k == 4:
        kind, bad = "bool array", actions % 2 == 1
    elif k == 5:
        kind, bad = "string array", actions.astype(str)
    else:
        kind, expected = "wrong shape", ValueError
        flat = actions.reshape(-1)
        bad = [flat[:-1], np.concatenate([flat, flat[:1]]), flat[:0]][int(rng.integers(3))]
    probe.refused(lambda: step(bad), expected, f"batched step ({kind})", f"{bad!r}", snapshot)


def batched_path(config):
    """:class:`boardgames.envs.vector.BatchedGames` of ``NUM_GAMES`` games, checked row by row against the engine."""
    from boardgames.envs.vector import BatchedGames

    game = config.make_game()
    info = game.info
    batch = BatchedGames(game, num_games=NUM_GAMES, **raising(BatchedGames))

    def check_rows(probe: Probe) -> list:
        states = []
        for i in range(NUM_GAMES):
            st = _row_state(game, batch.states[i])
            probe.position = st.to_text()
            try:
                st.check_invariants()
            except AssertionError as e:
                probe.need(False, "invariants", f"row {i}: {e}")
            seats = st.current_seats()
            probe.need(
                len(seats) == info.acting_seats, "current seats", lambda: f"row {i}: seats {seats} in a live batch"
            )
            if info.acting_seats == 1:
                probe.need(
                    seats[0] == batch.to_move[i], "current seats", lambda: f"row {i}: to_move {batch.to_move[i]}"
                )
                pairs = [(seats[0], batch.masks[i], batch.obs[i])]
            else:
                pairs = [(s, batch.masks[i, s], batch.obs[i, s]) for s in seats]
            for seat, mask, obs in pairs:
                probe.need(
                    np.array_equal(mask, st.legal_mask(seat)), "mask", lambda: f"row {i}, seat {seat}: batch != engine"
                )
                probe.need(
                    np.array_equal(obs, st.observation(seat)),
                    "observation",
                    lambda: f"row {i}, seat {seat}: batch != engine",
                )
            states.append(st)
        return states

    def play(probe: Probe, rng, rate: float) -> None:
        batch.reset(probe.seed)
        for _ in range(STEPS):
            states = check_rows(probe)
            actions = batch.random_actions().copy()
            if rng.random() < rate:
                _bad_batch(probe, batch.step, actions, batch.masks, batch.states.copy, rng)
            for i, st in enumerate(states):
                row = actions[i] if info.acting_seats == 1 else actions[i].tolist()
                st.apply_actions({s: int(np.ravel(row)[k]) for k, s in enumerate(st.current_seats())})
            batch.step(actions)
            probe.tally.turns += NUM_GAMES
            for i, st in enumerate(states):
                probe.position = st.to_text()
                ended = bool(batch.terminated[i] or batch.truncated[i])
                probe.need(
                    ended == st.is_terminal(), "end", lambda: f"row {i}: batch ended={ended}, engine {st.is_terminal()}"
                )
                if ended:
                    probe.need(
                        np.array_equal(batch.rewards[i], st.returns()),
                        "reward",
                        lambda: f"row {i}: rewards {batch.rewards[i]}, engine returns {st.returns()}",
                    )
                    probe.need(bool(batch.truncated[i]) == st.is_truncated(), "end", lambda: f"row {i}: truncated flag")
                    probe.need(
                        np.array_equal(batch.states[i], batch.template), "restart", lambda: f"row {i} not restarted"
                    )
                else:
                    probe.need(
                        not batch.rewards[i].any(), "reward", lambda: f"row {i}: rewards {batch.rewards[i]} mid-game"
                    )
                    probe.need(
                        np.array_equal(batch.states[i], st.data),
                        "batch/engine equality",
                        lambda i=i, st=st: f"row {i}: batch {_row_state(game, batch.states[i]).to_text()!r}",
                    )

    return play


def vector_path(config):
    """Gymnasium's ``make_vec("boardgames/<game>-v0")``: the compiled LearnerBatch, random opponents."""
    import gymnasium

    import boardgames.envs  # noqa: F401 - registers the games
    from boardgames.envs.registration import env_id
    from boardgames.envs.vector import LearnerBatch

    venv = gymnasium.make_vec(  # SAME_STEP: the checks read the ended games in infos["final_obs"]
        env_id(config.name),
        num_envs=NUM_GAMES,
        game_options=config.kwargs,
        autoreset_mode="same_step",
        **raising(LearnerBatch),
    )
    batch = venv.unwrapped.batch
    game = batch.game

    def check_rows(probe: Probe, obs, infos) -> None:
        probe.need(venv.observation_space.contains(obs), "observation space", "batch of observations not in the space")
        masks = venv.action_masks()
        probe.need(np.array_equal(masks, infos["action_mask"]), "mask", "action_masks() != infos['action_mask']")
        for i in range(NUM_GAMES):
            st = _row_state(game, batch.states[i])
            probe.position = st.to_text()
            seat = int(batch.learner[i])
            try:
                st.check_invariants()
            except AssertionError as e:
                probe.need(False, "invariants", f"row {i}: {e}")
            probe.need(seat in st.current_seats(), "learner", lambda: f"row {i}: learner seat {seat} does not act")
            probe.need(np.array_equal(masks[i], st.legal_mask(seat)), "mask", lambda: f"row {i}: batch != engine")
            probe.need(np.array_equal(obs[i], st.observation(seat)), "observation", lambda: f"row {i}: batch != engine")

    def play(probe: Probe, rng, rate: float) -> None:
        obs, infos = venv.reset(seed=probe.seed)
        for _ in range(STEPS):
            check_rows(probe, obs, infos)
            masks = venv.action_masks()
            actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
            if rng.random() < rate:
                _bad_batch(probe, venv.step, actions, masks, batch.states.copy, rng)
            obs, rewards, terminated, truncated, infos = venv.step(actions)
            probe.tally.turns += NUM_GAMES
            done = terminated | truncated
            probe.need(set(rewards.tolist()) <= {-1.0, 0.0, 1.0}, "reward", lambda: f"rewards {rewards}")
            probe.need(
                not rewards[~done].any() and not rewards[truncated].any(),
                "reward",
                lambda: f"rewards {rewards} where terminated={terminated}, truncated={truncated}",
            )
            probe.need(not (terminated & truncated).any(), "end", "terminated and truncated at once")
            if done.any():
                probe.need(np.array_equal(infos.get("_final_obs"), done), "final observation", "_final_obs != done")
                final = infos["final_obs"][done]
                probe.need(final.min() >= 0.0 and final.max() <= 1.0, "final observation", "not in [0, 1]")

    return play
