"""Every vectorized path hands out a non-empty action mask at every step, whatever its autoreset mode, and
follows that mode: Gymnasium's ``SyncVectorEnv`` / ``AsyncVectorEnv`` over the single-agent env
(``make_vec(..., vectorization_mode="sync" | "async")`` or built by hand) and our compiled ``make_vec``
(:class:`boardgames.envs.vector.BatchedVectorEnv`) in ``SAME_STEP`` and ``NEXT_STEP``; Gymnasium's vector
wrappers run on the ``NEXT_STEP`` one and count its episodes right.

Random masked play draws every action from ``infos["action_mask"]`` (an empty mask fails at once) and checks
each mask and observation against the engine's state of that game. The hand-checked cases use the turn
limit: with ``max_turns=4`` a game of two seats taking turns ends at its 4th decision, the learner's 2nd
(whichever seat it holds), truncated with reward 0; in Barc both seats act at every turn, so its learner
acts 4 times. So every episode lasts exactly ``L`` learner steps, and the ends fall on known steps."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers import vector as vector_wrappers

import boardgames.envs  # noqa: F401  (registers the games)
from boardgames.envs.adapters.illegal import IllegalActionWarning
from boardgames.envs.adapters.single_agent import SingleAgentEnv
from boardgames.envs.registration import env_id
from boardgames.envs.registry import SIMULTANEOUS_GAMES, game_names
from boardgames.envs.vector import BatchedVectorEnv
from boardgames.envs.vector.gym_vector import check_autoreset_mode
from boardgames.envs.vector.packed import unpack_masks

NEXT, SAME = AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP
RANDOM_PLAY_TURNS = {"dorix": 60, "olix": 60, "adix": 40, "barc": 30}  # short games: several ends per row
SHORT = 4  # max_turns of the hand-checked cases


def episode_steps(name: str) -> int:
    """Learner steps of a game cut by the turn limit ``SHORT``: the learner's share of its decisions."""
    return SHORT if name in SIMULTANEOUS_GAMES else SHORT // 2


def draw(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row drawn from the row's mask, as a masked sampler does; an empty mask fails here."""
    masks = np.asarray(masks, dtype=bool)
    assert masks.any(axis=1).all(), f"empty action masks in rows {np.flatnonzero(~masks.any(axis=1)).tolist()}"
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def batch_row_state(env: BatchedVectorEnv, i: int):
    """The engine's State of game ``i`` of the compiled batch (a copy of its row)."""
    game = env.batch.game
    return type(game.new_initial_state())(game, env.batch.states[i].copy())


def expected_done(step: int, length: int, mode: AutoresetMode) -> bool:
    """Whether the 1-based ``step`` ends an episode when every episode lasts ``length`` learner steps:
    SAME_STEP, every ``length`` steps; NEXT_STEP, one step later each time (the restart takes a step)."""
    return step % length == 0 if mode is SAME else step % (length + 1) == length


# ----- Gymnasium's vectorization of the single-agent env ----------------------------------------------
def sync_env(name: str, how: str, num_envs: int = 3, **options) -> SyncVectorEnv:
    if how == "make_vec sync":
        return gymnasium.make_vec(env_id(name), num_envs=num_envs, vectorization_mode="sync", **options)
    if how == "make_vec sync, SAME_STEP":
        return gymnasium.make_vec(
            env_id(name),
            num_envs=num_envs,
            vectorization_mode="sync",
            vector_kwargs={"autoreset_mode": SAME},
            **options,
        )
    assert how == "SyncVectorEnv by hand"
    return SyncVectorEnv([lambda: SingleAgentEnv(name, **options) for _ in range(num_envs)])


SYNC_PATHS = ["make_vec sync", "SyncVectorEnv by hand", "make_vec sync, SAME_STEP"]


@pytest.mark.parametrize("how", SYNC_PATHS)
@pytest.mark.parametrize("name", game_names())
def test_sync_vectorization_masks_and_autoreset_with_random_masked_play(name, how):
    envs = sync_env(name, how, max_turns=RANDOM_PLAY_TURNS[name])
    mode = envs.metadata["autoreset_mode"]
    assert mode is (SAME if "SAME_STEP" in how else NEXT)
    rng = np.random.default_rng(1)
    obs, infos = envs.reset(seed=1)
    resetting = np.zeros(envs.num_envs, dtype=bool)
    ends = 0
    for _ in range(150):
        obs, rewards, terminated, truncated, infos = envs.step(draw(infos["action_mask"], rng))
        done = terminated | truncated
        for i, sub in enumerate(envs.envs):
            u = sub.unwrapped
            state, seat, mask = u.state, u.learner_seat, infos["action_mask"][i]
            if mode is NEXT and done[i]:  # the ended game, its last observation; no action will be played
                assert state.is_terminal() and mask.all()
                assert rewards[i] == state.returns()[seat] and truncated[i] == state.is_truncated()
            else:  # a game waiting for the learner (just restarted, in SAME_STEP after an end)
                assert not state.is_terminal() and np.array_equal(mask, state.legal_mask(seat))
            if mode is NEXT and resetting[i]:  # the step after an end: the new game, nothing played
                assert rewards[i] == 0.0 and not done[i]
            np.testing.assert_array_equal(obs[i], state.observation(seat))
            if mode is SAME and done[i]:  # Gymnasium's SAME_STEP: the ended game's obs and info kept aside
                assert infos["_final_obs"][i] and infos["_final_info"][i]
                assert infos["final_info"]["action_mask"][i].all()  # the ended game's mask: every action
                assert rewards[i] in (-1.0, 0.0, 1.0) and infos["final_obs"][i].shape == obs[i].shape
        if mode is NEXT:
            resetting = done
        ends += int(done.sum())
    assert ends >= 2 * envs.num_envs, f"only {ends} games ended"


@pytest.mark.parametrize("how", SYNC_PATHS)
@pytest.mark.parametrize("name", game_names())
def test_sync_vectorization_ends_where_the_turn_limit_says(name, how):
    envs = sync_env(name, how, num_envs=2, max_turns=SHORT)
    mode, length = envs.metadata["autoreset_mode"], episode_steps(name)
    rng = np.random.default_rng(2)
    _, infos = envs.reset(seed=2)
    for step in range(1, 13):
        _, rewards, terminated, truncated, infos = envs.step(draw(infos["action_mask"], rng))
        done = expected_done(step, length, mode)
        assert truncated.tolist() == [done, done] and not terminated.any() and not rewards.any(), step


@pytest.mark.parametrize("how", SYNC_PATHS)
def test_the_next_step_after_an_end_ignores_its_action(how):
    """Gymnasium's NEXT_STEP resets the ended env whatever the action; SAME_STEP has no such step."""
    envs = sync_env("dorix", how, num_envs=2, max_turns=SHORT)
    _, infos = envs.reset(seed=0)
    _, _, _, _, infos = envs.step(infos["action_mask"].argmax(axis=1))
    _, _, _, truncated, infos = envs.step(infos["action_mask"].argmax(axis=1))  # the learner's second: the end
    assert truncated.all()
    if envs.metadata["autoreset_mode"] is NEXT:
        assert infos["action_mask"].all()
        _, rewards, terminated, truncated, infos = envs.step(np.array([5, 17]))  # any action: a reset
        assert not rewards.any() and not (terminated | truncated).any()
        assert infos["action_mask"].any(axis=1).all() and not infos["action_mask"].all(axis=1).any()


def test_async_vectorization_masks_and_autoreset():
    """A small, quick async run: two processes of Dorix, short games; the subprocesses' states are
    read back with ``get_attr`` to check the masks."""
    envs = gymnasium.make_vec(env_id("dorix"), num_envs=2, vectorization_mode="async", max_turns=12)
    try:
        assert envs.metadata["autoreset_mode"] is NEXT
        rng = np.random.default_rng(3)
        _, infos = envs.reset(seed=3)
        resetting = np.zeros(2, dtype=bool)
        ends = 0
        for _ in range(30):
            _, rewards, terminated, truncated, infos = envs.step(draw(infos["action_mask"], rng))
            done = terminated | truncated
            states, seats = envs.get_attr("state"), envs.get_attr("learner_seat")
            for i in range(2):
                if done[i]:
                    assert states[i].is_terminal() and infos["action_mask"][i].all()
                else:
                    assert np.array_equal(infos["action_mask"][i], states[i].legal_mask(seats[i]))
                if resetting[i]:
                    assert rewards[i] == 0.0 and not done[i]
            resetting = done
            ends += int(done.sum())
        assert ends >= 4
    finally:
        envs.close()


# ----- our compiled make_vec -------------------------------------------------------------------------
def compiled(name: str, mode, num_envs: int = 4, **options) -> BatchedVectorEnv:
    return gymnasium.make_vec(env_id(name), num_envs=num_envs, autoreset_mode=mode, **options)


def _first_legal(obs, masks):
    """A batch opponent callback: every seat it plays takes its first legal action."""
    return masks.argmax(axis=1)


def _trace(env, steps: int, seed: int, row_rngs: list, junk: np.random.Generator) -> list:
    """Play ``env`` for ``steps`` steps; row ``i`` draws its actions with ``row_rngs[i]``, except on the
    step that restarts it in NEXT_STEP mode, where it plays a junk action (any integer). Returns one list
    of records per row: (obs, mask, learner seat, reward, terminated, truncated, final obs or None,
    whether it was a restart step), after a first record of the reset's learner seat."""
    n = env.num_envs
    obs, infos = env.reset(seed=seed)
    rows = [[(None, None, int(infos["learner_seat"][i]))] for i in range(n)]  # the reset: the first seat
    restarting = np.zeros(n, dtype=bool)
    for _ in range(steps):
        masks = infos["action_mask"]
        assert masks.any(axis=1).all()
        actions = np.array(
            [
                junk.integers(-5, 10**6) if restarting[i] else row_rngs[i].choice(np.flatnonzero(masks[i]))
                for i in range(n)
            ]
        )
        obs, rewards, terminated, truncated, infos = env.step(actions)
        done = terminated | truncated
        for i in range(n):
            final = infos["final_obs"][i].copy() if infos.get("_final_obs", np.zeros(n, bool))[i] else None
            record = (obs[i].copy(), infos["action_mask"][i].copy(), int(infos["learner_seat"][i]))
            rows[i].append(record + (rewards[i], terminated[i], truncated[i], final, bool(restarting[i])))
        if env.metadata["autoreset_mode"] is NEXT:
            restarting = done
    return rows


@pytest.mark.parametrize("opponent", ["random", "callback"])
@pytest.mark.parametrize("name", game_names())
def test_next_step_plays_the_same_games_as_same_step_one_step_later_at_each_end(name, opponent):
    """The two modes side by side, same seed, same actions per game: NEXT_STEP's step that ends a game
    gives SAME_STEP's final observation, reward and flags with every action marked; its next step, whatever
    the action, gives the new game's first observation and mask (SAME_STEP's of the ending step), reward 0."""
    options = dict(max_turns=RANDOM_PLAY_TURNS[name], illegal_action="raise", threads=False)
    if opponent == "callback":
        options["opponent"] = _first_legal
    steps = 80
    same = _trace(compiled(name, "same_step", **options), steps, 5, _rngs(4), np.random.default_rng(0))
    next_ = _trace(compiled(name, "next_step", **options), steps, 5, _rngs(4), np.random.default_rng(0))
    ends = 0
    for same_row, next_row in zip(same, next_):
        assert same_row[0] == next_row[0]  # the same first learner seat
        seat = same_row[0][2]
        played = [r for r in next_row[1:] if not r[7]]  # NEXT_STEP's steps that played an action
        restarts = iter([r for r in next_row[1:] if r[7]])
        for s, n in zip(same_row[1:], played):
            obs, mask, learner, reward, terminated, truncated, final, _ = s
            assert (n[3], n[4], n[5]) == (reward, terminated, truncated) and n[6] is None
            if final is None:
                assert np.array_equal(n[0], obs) and np.array_equal(n[1], mask) and n[2] == learner
            else:  # the end: its last observation, every action, the ended game's seat; then the restart
                ends += 1
                assert np.array_equal(n[0], final) and n[1].all() and n[2] == seat
                restart = next(restarts, None)
                if restart is None:  # the trace stopped before it
                    break
                assert np.array_equal(restart[0], obs) and np.array_equal(restart[1], mask) and restart[2] == learner
                assert (restart[3], restart[4], restart[5]) == (0.0, False, False)
            seat = learner
    assert ends >= 4, f"only {ends} games ended"


def _rngs(n: int) -> list:
    return [np.random.default_rng(100 + i) for i in range(n)]


@pytest.mark.parametrize("mode", [SAME, NEXT])
@pytest.mark.parametrize("name", game_names())
def test_compiled_masks_are_the_engines_in_every_game_waiting_for_its_learner(name, mode):
    env = compiled(name, mode, max_turns=RANDOM_PLAY_TURNS[name])
    assert env.metadata["autoreset_mode"] is mode and env.unwrapped.metadata["autoreset_mode"] is mode
    rng = np.random.default_rng(7)
    obs, infos = env.reset(seed=7)
    just_ended = np.zeros(env.num_envs, dtype=bool)
    ends = 0
    for _ in range(120):
        for i in range(env.num_envs):
            if just_ended[i]:
                assert infos["action_mask"][i].all()
                continue
            state, seat = batch_row_state(env, i), int(infos["learner_seat"][i])
            assert seat in state.current_seats() and np.array_equal(infos["action_mask"][i], state.legal_mask(seat))
            np.testing.assert_array_equal(obs[i], state.observation(seat))
        assert np.array_equal(env.action_masks(), infos["action_mask"])
        obs, rewards, terminated, truncated, infos = env.step(draw(infos["action_mask"], rng))
        done = terminated | truncated
        if mode is SAME:
            assert ("_final_obs" in infos) == done.any()
            if done.any():
                assert np.array_equal(infos["_final_obs"], done)
        else:
            assert "final_obs" not in infos
            just_ended = done
        ends += int(done.sum())
    assert ends >= 2 * env.num_envs


@pytest.mark.parametrize("mode", [SAME, NEXT])
@pytest.mark.parametrize("name", game_names())
def test_compiled_ends_where_the_turn_limit_says(name, mode):
    env = compiled(name, mode, num_envs=3, max_turns=SHORT)
    length = episode_steps(name)
    rng = np.random.default_rng(4)
    _, infos = env.reset(seed=4)
    for step in range(1, 13):
        _, rewards, terminated, truncated, infos = env.step(draw(infos["action_mask"], rng))
        done = expected_done(step, length, mode)
        assert truncated.tolist() == [done] * 3 and not terminated.any() and not rewards.any(), step
        for i in range(3):  # an ended game (NEXT_STEP): every action; else the new or running game's mask
            mask, seat = infos["action_mask"][i], infos["learner_seat"][i]
            assert (
                mask.all() if done and mode is NEXT else np.array_equal(mask, batch_row_state(env, i).legal_mask(seat))
            )


def test_next_step_forfeit_by_an_illegal_action():
    """``illegal_action="lose"``: the offending game ends at once (-1, terminated, its last observation,
    every action marked), and restarts at the next step with reward 0."""
    env = compiled("dorix", NEXT, num_envs=2, max_turns=40, seed=0)
    obs, infos = env.reset(seed=0)
    masks = infos["action_mask"]
    actions = masks.argmax(axis=1)
    actions[0] = int(np.flatnonzero(~masks[0])[0])
    with pytest.warns(IllegalActionWarning):
        after, rewards, terminated, truncated, infos = env.step(actions)
    assert rewards[0] == -1.0 and terminated[0] and not truncated[0] and infos["illegal_action"][0]
    np.testing.assert_array_equal(after[0], obs[0])  # the game as it was
    assert infos["action_mask"][0].all() and not infos["action_mask"][1].all()
    _, rewards, terminated, truncated, infos = env.step(
        np.array([-1, draw(infos["action_mask"][1:], np.random.default_rng(0))[0]])
    )
    assert rewards[0] == 0.0 and not terminated[0] and not truncated[0]
    assert np.array_equal(
        infos["action_mask"][0], batch_row_state(env.unwrapped, 0).legal_mask(infos["learner_seat"][0])
    )


def test_next_step_with_packed_masks_marks_exactly_every_action():
    env = compiled("olix", NEXT, num_envs=2, max_turns=SHORT, packed_masks=True)
    _, infos = env.reset(seed=0)
    for _ in range(2):
        unpacked = unpack_masks(infos["action_mask"], 121)
        _, _, _, truncated, infos = env.step(unpacked.argmax(axis=1))
    assert truncated.all()
    every = np.packbits(np.ones(121, dtype=bool), bitorder="little")
    assert np.array_equal(infos["action_mask"], np.stack([every, every])) and every[-1] == 0b1
    assert unpack_masks(env.action_masks(), 121).all()


@pytest.mark.parametrize(
    "spelling", [NEXT, "NextStep", "next_step", "NEXT_STEP", SAME, "SameStep", "same_step", "SAME_STEP"]
)
def test_autoreset_mode_spellings(spelling):
    mode = check_autoreset_mode(spelling)
    assert mode is (NEXT if "next" in str(spelling).lower() else SAME)
    env = BatchedVectorEnv("dorix", num_envs=2, autoreset_mode=spelling)
    assert env.metadata["autoreset_mode"] is mode and env.autoreset_mode is mode
    assert BatchedVectorEnv.metadata["autoreset_mode"] is NEXT  # per instance: the class keeps the default


def test_next_step_is_the_default_as_in_gymnasium():
    """Gymnasium's own vector envs default to NEXT_STEP, and so do ours: the compiled batch, built by
    make_vec or by hand, and Gymnasium's sync/async vectorization of the single-agent env."""
    assert gymnasium.make_vec(env_id("dorix"), num_envs=2).metadata["autoreset_mode"] is NEXT
    assert BatchedVectorEnv("dorix", num_envs=2).metadata["autoreset_mode"] is NEXT
    assert gymnasium.make_vec(env_id("dorix"), num_envs=2, vectorization_mode="sync").metadata["autoreset_mode"] is NEXT


def test_same_step_on_request_on_every_path():
    """SAME_STEP stays one keyword away (SB3-style loops): the compiled batch takes it as a make_vec keyword,
    Gymnasium's sync/async vectorization in vector_kwargs."""
    for mode in (SAME, "same_step"):
        assert gymnasium.make_vec(env_id("olix"), num_envs=2, autoreset_mode=mode).metadata["autoreset_mode"] is SAME
    synced = gymnasium.make_vec(
        env_id("olix"), num_envs=2, vectorization_mode="sync", vector_kwargs={"autoreset_mode": SAME}
    )
    assert synced.metadata["autoreset_mode"] is SAME


def test_gymnasium_refuses_vector_kwargs_for_the_compiled_batch():
    """Gymnasium's make_vec refuses vector_kwargs for every vector entry point, before calling it: the mode
    of the compiled batch is a keyword (docs/training.md, docs/ecosystem.md). If Gymnasium ever passes them on,
    this fails and those pages get updated."""
    with pytest.raises(gymnasium.error.Error, match="vector_kwargs"):
        gymnasium.make_vec(env_id("dorix"), num_envs=2, vector_kwargs={"autoreset_mode": SAME})


@pytest.mark.parametrize("bad", [AutoresetMode.DISABLED, "disabled", "next", 1, None])
def test_other_autoreset_modes_are_refused_naming_the_allowed_ones(bad):
    with pytest.raises(ValueError, match="autoreset_mode is AutoresetMode.NEXT_STEP .* or AutoresetMode.SAME_STEP"):
        gymnasium.make_vec(env_id("dorix"), num_envs=2, autoreset_mode=bad)


# ----- Gymnasium's vector wrappers ------------------------------------------------------------------
@pytest.mark.parametrize("name", ["dorix", "barc"])
def test_gymnasium_wrappers_on_next_step_count_the_episodes(name):
    env = compiled(name, NEXT, num_envs=3, max_turns=SHORT)
    flat = vector_wrappers.FlattenObservation(env)
    stats = vector_wrappers.RecordEpisodeStatistics(flat)
    length = episode_steps(name)
    rng = np.random.default_rng(0)
    obs, infos = stats.reset(seed=0)
    assert obs.shape == (3, int(np.prod(env.single_observation_space.shape)))
    episodes = 0
    for step in range(1, 16):
        obs, rewards, terminated, truncated, infos = stats.step(draw(infos["action_mask"], rng))
        shown = env.unwrapped.batch.final_obs if truncated.any() else env.unwrapped.batch.obs  # all end at once
        np.testing.assert_array_equal(obs, shown.reshape(3, -1))
        if expected_done(step, length, NEXT):
            episodes += 3
            assert infos["episode"]["l"].tolist() == [length] * 3 and not infos["episode"]["r"].any()
        else:
            assert "episode" not in infos
    assert stats.episode_count == episodes == 3 * 15 // (length + 1)


@pytest.mark.parametrize("mode", [SAME, NEXT])
def test_record_episode_statistics_with_random_play(mode):
    """Episode returns and lengths as counted by hand (the reward comes on the last step of a game)."""
    env = vector_wrappers.RecordEpisodeStatistics(compiled("dorix", mode, max_turns=40))
    rng = np.random.default_rng(9)
    _, infos = env.reset(seed=9)
    lengths, restarting, counted = np.zeros(4, dtype=int), np.zeros(4, dtype=bool), 0
    for _ in range(150):
        _, rewards, terminated, truncated, infos = env.step(draw(infos["action_mask"], rng))
        lengths[~restarting] += 1
        done = terminated | truncated
        if done.any():
            assert infos["episode"]["l"][done].tolist() == lengths[done].tolist()
            assert infos["episode"]["r"][done].tolist() == rewards[done].tolist()
            counted += int(done.sum())
        lengths[done] = 0
        restarting = done if mode is NEXT else restarting
    assert env.episode_count == counted >= 8


def test_more_gymnasium_wrappers_run_on_next_step():
    env = compiled("olix", NEXT, num_envs=3, max_turns=SHORT)
    wrapped = vector_wrappers.NormalizeReward(vector_wrappers.NormalizeObservation(env))
    listed = vector_wrappers.DictInfoToList(wrapped)
    rng = np.random.default_rng(1)
    obs, infos = listed.reset(seed=1)
    assert isinstance(infos, list) and len(infos) == 3
    for _ in range(9):
        obs, rewards, terminated, truncated, infos = listed.step(draw([i["action_mask"] for i in infos], rng))
        assert obs.shape == (3, *env.single_observation_space.shape) and np.isfinite(obs).all()
    assert all(i["action_mask"].any() for i in infos)


@pytest.mark.parametrize(
    "wrapper",
    [
        vector_wrappers.FlattenObservation,
        vector_wrappers.NormalizeObservation,
        lambda env: vector_wrappers.TransformObservation(env, lambda obs: obs),
    ],
)
def test_gymnasium_observation_wrappers_refuse_same_step(wrapper):
    with pytest.raises(
        ValueError, match="Expected autoreset_mode to be NEXT_STEP or DISABLED, got AutoresetMode.SAME_STEP"
    ):
        wrapper(gymnasium.make_vec(env_id("dorix"), num_envs=2, autoreset_mode=SAME))


@pytest.mark.parametrize("name", game_names())
def test_stock_vector_wrappers_take_make_vec_as_it_is(name):
    """No keyword: ``FlattenObservation(gymnasium.make_vec(id, num_envs=N))`` and Gymnasium's other vector
    wrappers (NormalizeObservation, RecordEpisodeStatistics) play whole episodes, counted right, with the
    default options (games cut at their turn limit or ended by their rules)."""
    envs = gymnasium.make_vec(env_id(name), num_envs=3, illegal_action="raise")
    flat = vector_wrappers.FlattenObservation(envs)
    stats = vector_wrappers.RecordEpisodeStatistics(vector_wrappers.NormalizeObservation(flat))
    size = int(np.prod(envs.single_observation_space.shape))
    rng = np.random.default_rng(3)
    obs, infos = stats.reset(seed=3)
    assert obs.shape == (3, size)
    ended = 0
    for _ in range(2000):
        obs, rewards, terminated, truncated, infos = stats.step(draw(infos["action_mask"], rng))
        assert obs.shape == (3, size) and np.isfinite(obs).all()
        done = terminated | truncated
        if done.any():
            assert infos["episode"]["r"][done].tolist() == rewards[done].tolist()
            assert (infos["episode"]["l"][done] <= envs.spec.max_episode_steps).all()
            ended += int(done.sum())
        if ended >= 6:
            break
    assert stats.episode_count == ended >= 6


def test_autoreset_mode_given_to_the_single_envs_says_where_it_belongs():
    from boardgames.envs.core.errors import GameOptionError

    with pytest.raises(GameOptionError, match=r"autoreset_mode belongs to the vector env: vector_kwargs="):
        gymnasium.make_vec("boardgames/dorix-v0", num_envs=2, vectorization_mode="sync", autoreset_mode="next_step")
