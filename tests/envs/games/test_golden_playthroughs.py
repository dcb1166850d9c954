"""Golden playthroughs: every registered game and option set replays its files in ``tests/golden/`` (written by
:mod:`boardgames.envs.tools.playthrough`) through every way the library plays a game, step by step:

* the engine (``Game``/``State``): position in notation and read back, acting seats, legal actions, every
  seat's observation (float32 and its uint8 planes), each move's notation read back, the outcome;
* the batched games (:class:`boardgames.envs.vector.BatchedGames`), with float32 observations and bool
  masks, with uint8 observations and the listed masks (the legal actions listed with the mask, for the
  games whose mask kernel lists them), and with uint8 observations and packed masks: each row's position,
  seat to move, mask, list and observation, and the rewards and end flags of the step that ends a game;
* the PettingZoo adapter (AEC for turn-based games, Parallel where every seat acts at once): each agent's
  observation and action mask, the agent to act, the final rewards and termination or truncation.

A mismatch names the file, the game index, the step and what differs.

The expected values are generated, not written by hand: they pin today's behaviour, which the per-rule
tests (``tests/<game>/``) check by hand, and were checked against the frozen copies of the kernels they
replaced when first written. A deliberate change of behaviour regenerates them (the diff shows what
moved), and a new game gets its files, with one command::

    python -m boardgames.envs.tools.playthrough --all
"""

from __future__ import annotations

import copy
from functools import cache

import numpy as np
import pytest

from boardgames.envs.barc import observe as barc_observe
from boardgames.envs.barc import rules as B
from boardgames.envs.registry import env_module, make_game
from boardgames.envs.tools import playthrough as P
from boardgames.envs.vector import BatchedGames

VARIANTS = P.variants()
DIRECTORY = P.default_directory()

BATCHES = {
    "float32 obs, bool masks": dict(obs_dtype="float32", packed_masks=False, listed=False),
    "uint8 obs, listed masks": dict(obs_dtype="uint8", packed_masks=False, listed=True),
    "uint8 obs, packed masks": dict(obs_dtype="uint8", packed_masks=True, listed=True),
}
"""The batch configurations replayed: observation type, packed masks, lists of legal actions written."""


def _id(variant: P.Variant) -> str:
    return variant.stem


@cache
def _content(stem: str) -> dict:
    variant = next(v for v in VARIANTS if v.stem == stem)
    path = P.path_of(variant, DIRECTORY)
    if not path.exists():
        pytest.fail(f"{path.name} is missing: run `{variant.command}`")
    return P.read(path)


def content_of(variant: P.Variant) -> dict:
    """The golden file of ``variant``, read once (a copy: the tests below alter some)."""
    return copy.deepcopy(_content(variant.stem))


def missing_files(variants, directory) -> list[str]:
    """A message for each variant without its golden file in ``directory``, naming the command to run."""
    return [
        f"{P.path_of(v, directory).name} is missing: run `{v.command}`"
        for v in variants
        if not P.path_of(v, directory).exists()
    ]


def _digests(obs: np.ndarray) -> tuple[str, str]:
    """The digest of one observation as the batch holds it, and the golden key it is compared with."""
    return P.digest(obs), "obs" if obs.dtype == np.float32 else "obs_uint8"


def _has_lists(game) -> bool:
    """Whether ``game``'s mask kernel lists the legal actions as it goes (``legal_mask_listed``)."""
    return hasattr(type(game.new_initial_state()).rules, "legal_mask_listed")


# ----- the files ---------------------------------------------------------------------------------------


def test_every_registered_game_and_option_set_has_its_file():
    problems = missing_files(VARIANTS, DIRECTORY)
    assert not problems, "golden playthroughs missing:\n" + "\n".join(problems)


def test_a_game_without_files_is_reported_with_the_command(tmp_path):
    newcomer = P.Variant("olix", {"max_turns": 30})
    (message,) = missing_files([newcomer], tmp_path)
    assert "olix-max_turns=30.json is missing" in message
    assert "python -m boardgames.envs.tools.playthrough --game olix" in message


def test_no_stray_files():
    """Every file in tests/golden is the playthrough of a registered game and option set."""
    known = {f"{v.stem}.json" for v in VARIANTS}
    stray = sorted(p.name for p in DIRECTORY.glob("*.json") if p.name not in known)
    assert not stray, f"golden files of no registered game and option set: {stray} (remove them)"


def test_runs_round_trip():
    for actions in ([], [0], [3, 4, 5, 9], [0, 2, 4], list(range(121)), [7, 8, 1440]):
        assert P.parse_runs(P.runs_text(actions)) == actions
    assert P.runs_text([0, 1, 2, 3, 7]) == "0-3,7"


# ----- the engine --------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=_id)
def test_engine_replays_the_golden_playthrough(variant):
    content = content_of(variant)
    info = variant.make().info
    assert (content["num_seats"], content["num_actions"], tuple(content["observation_shape"])) == (
        info.num_seats,
        info.num_actions,
        tuple(info.observation_shape),
    ), f"{variant.stem}.json: the game's sizes changed; regenerate with `{variant.command}`"
    problems = P.replay_engine(variant, content)
    assert not problems, "\n".join(problems[:20])


# ----- the batched games -------------------------------------------------------------------------------


def _check_batch_row(batch, i: int, step: dict, lists: bool) -> list[str]:
    """What differs between row ``i`` of ``batch`` and the recorded ``step``."""
    problems = []
    text = batch.state(i).to_text()
    if text != step["position"]:
        return [f"position: expected {step['position']!r}, got {text!r}"]
    masks = batch.bool_masks()
    if batch.acting == 1:
        (seat,) = step["seats"]
        if batch.to_move[i] != seat:
            problems.append(f"seat to move: expected {seat}, got {batch.to_move[i]}")
        rows = [(seat, masks[i], batch.obs[i], batch._lists[i] if lists else None)]
    else:
        rows = [
            (s, masks[i, s], batch.obs[i, s], batch._lists[i, s] if lists else None) for s in range(batch.num_seats)
        ]
    for seat, mask, obs, listed in rows:
        want = P.parse_runs(step["legal"][step["seats"].index(seat)]) if seat in step["seats"] else []
        got = np.flatnonzero(mask).tolist()
        if got != want:
            problems.append(f"mask of seat {seat}: expected {P.runs_text(want)!r}, got {P.runs_text(got)!r}")
        if listed is not None:
            count = int(listed[0])
            have = listed[1 : 1 + count].tolist()
            if have != want:
                problems.append(f"list of seat {seat}: expected {P.runs_text(want)!r}, got {P.runs_text(have)!r}")
        have, key = _digests(obs)
        if have != step[key][seat]:
            problems.append(f"{key} of seat {seat}: expected digest {step[key][seat]}, got {have}")
    return problems


def replay_batched(variant: P.Variant, content: dict, obs_dtype: str, packed_masks: bool, listed: bool) -> list[str]:
    """Every difference between ``content`` and one batch playing all its games at once, one game per row
    (a row whose game is over plays its first legal action from then on, unchecked); the first
    difference of each game ends its checks."""
    game = variant.make()
    records = content["games"]
    batch = BatchedGames(
        game,
        len(records),
        seed=0,
        threads=False,
        illegal_action="raise",
        obs_dtype=obs_dtype,
        packed_masks=packed_masks,
    )
    if listed:  # the batch writes the lists of legal actions from the first draw on: from the reset after it
        batch.random_actions()
        batch.reset(seed=0)
        if batch._lists_ok != _has_lists(game):
            return [f"{variant.stem}.json: the batch {'does not write' if _has_lists(game) else 'writes'} lists"]
    label = f"batch ({obs_dtype} obs, {'packed' if packed_masks else 'bool'} masks{', listed' if listed else ''})"
    problems = []
    live = [True] * len(records)
    for t in range(max(len(r["steps"]) for r in records)):
        actions = np.array(np.argmax(batch.bool_masks(), axis=-1))  # the rows whose game is over
        for i, record in enumerate(records):
            if not live[i]:
                continue
            here = f"{P.where(variant, record['index'], t)}: {label}"
            step = record["steps"][t]
            last = "actions" not in step
            if t > 0 and (batch.terminated[i] or batch.truncated[i]) != (last and record["terminal"]):
                problems.append(f"{here}: end flags: terminated {batch.terminated[i]}, truncated {batch.truncated[i]}")
                live[i] = False
                continue
            if last and record["terminal"]:  # the row already restarted: its step's outcome is what is left
                got = {"truncated": bool(batch.truncated[i]), "returns": batch.rewards[i].tolist()}
                problems += [
                    f"{here}: {k}: expected {record[k]!r}, got {v!r}" for k, v in got.items() if v != record[k]
                ]
                live[i] = False
                continue
            found = _check_batch_row(batch, i, step, listed and batch._lists_ok)
            if found or last:
                problems += [f"{here}: {p}" for p in found]
                live[i] = False
                continue
            if batch.acting == 1:
                actions[i] = step["actions"][0]
            else:
                actions[i] = [dict(zip(step["seats"], step["actions"])).get(s, 0) for s in range(batch.num_seats)]
        if not any(live):
            break
        batch.step(actions)
    return problems


@pytest.mark.parametrize("config", BATCHES, ids=lambda c: c.replace(", ", "-").replace(" ", "_"))
@pytest.mark.parametrize("variant", VARIANTS, ids=_id)
def test_batched_games_replay_the_golden_playthrough(variant, config):
    problems = replay_batched(variant, content_of(variant), **BATCHES[config])
    assert not problems, "\n".join(problems[:20])


# ----- the PettingZoo adapters -------------------------------------------------------------------------


def _check_agent(step: dict, seat: int, observation: dict, label: str) -> list[str]:
    """What differs between one agent's PettingZoo observation and the recorded ``step``."""
    problems = []
    want = P.parse_runs(step["legal"][step["seats"].index(seat)]) if seat in step["seats"] else []
    got = np.flatnonzero(observation["action_mask"]).tolist()
    if got != want:
        problems.append(
            f"{label}: action mask of seat {seat}: expected {P.runs_text(want)!r}, got {P.runs_text(got)!r}"
        )
    obs = observation["observation"]
    if obs.dtype != np.float32 or P.digest(obs) != step["obs"][seat]:
        problems.append(
            f"{label}: obs of seat {seat}: expected digest {step['obs'][seat]}, got {P.digest(obs)} ({obs.dtype})"
        )
    return problems


def replay_aec(variant: P.Variant, content: dict) -> list[str]:
    """Every difference between ``content`` (a turn-based game's file) and the AEC environment ``env()``
    replaying it: the agent to act, each agent's observation and mask (the mover's first: the one the
    step prepared), the final rewards and end flags."""
    env = env_module(variant.game).env(**variant.options)
    problems = []
    for record in content["games"]:
        env.reset()
        for t, step in enumerate(record["steps"]):
            here = f"{P.where(variant, record['index'], t)}: PettingZoo AEC"
            order = list(step["seats"]) + [s for s in range(len(env.possible_agents)) if s not in step["seats"]]
            found = []
            if step["seats"] and env.agent_selection != env.possible_agents[step["seats"][0]]:
                found.append(
                    f"agent to act: expected {env.possible_agents[step['seats'][0]]}, got {env.agent_selection}"
                )
            for seat in order:
                found += _check_agent(step, seat, env.observe(env.possible_agents[seat]), "observe")
            if "actions" not in step:
                if record["terminal"]:
                    done = env.truncations if record["truncated"] else env.terminations
                    rewards = [env.rewards[a] for a in env.possible_agents]
                    found += _end_problems(record, done, all(done.values()), rewards)
            if found:
                problems += [f"{here}: {p}" for p in found]
                break
            if "actions" in step:
                env.step(int(step["actions"][0]))
    return problems


def _end_problems(record: dict, done: dict, ended: bool, rewards: list) -> list[str]:
    """What differs at the end of a game ``record``: every agent's end flag (``done``, all set when
    ``ended``) and the final ``rewards`` against the file's."""
    found = []
    if not ended:
        found.append(f"every agent {'truncated' if record['truncated'] else 'terminated'}: {done}")
    if rewards != record["returns"]:
        found.append(f"rewards: expected {record['returns']}, got {rewards}")
    return found


def replay_parallel(variant: P.Variant, content: dict) -> list[str]:
    """Every difference between ``content`` (a file of a game whose seats act at once) and the Parallel
    environment ``parallel_env()`` replaying it: every agent's observation and mask after each step, the
    final rewards and end flags."""
    env = env_module(variant.game).parallel_env(**variant.options)
    agents = env.possible_agents
    problems = []
    for record in content["games"]:
        observations, _ = env.reset()
        rewards = terminations = truncations = None
        for t, step in enumerate(record["steps"]):
            here = f"{P.where(variant, record['index'], t)}: PettingZoo Parallel"
            found = []
            for seat, agent in enumerate(agents):
                found += _check_agent(step, seat, observations[agent], "observation")
            if "actions" not in step and record["terminal"]:
                done = truncations if record["truncated"] else terminations
                ended = all(done[a] for a in agents) and not env.agents
                found += _end_problems(record, done, ended, [rewards[a] for a in agents])
            if found:
                problems += [f"{here}: {p}" for p in found]
                break
            if "actions" in step:
                joint = dict(zip(step["seats"], step["actions"]))
                step_out = env.step({agent: int(joint.get(seat, 0)) for seat, agent in enumerate(agents)})
                observations, rewards, terminations, truncations, _ = step_out
    return problems


def replay_pettingzoo(variant: P.Variant, content: dict) -> list[str]:
    """The replay through the game's PettingZoo adapter: Parallel where every seat acts at once, else AEC."""
    if variant.make().info.acting_seats > 1:
        return replay_parallel(variant, content)
    return replay_aec(variant, content)


@pytest.mark.parametrize("variant", VARIANTS, ids=_id)
def test_pettingzoo_adapter_replays_the_golden_playthrough(variant):
    problems = replay_pettingzoo(variant, content_of(variant))
    assert not problems, "\n".join(problems[:20])


# ----- the tests can fail ------------------------------------------------------------------------------


@pytest.mark.parametrize("stem", ["barc", "dorix-num_players=3"])
def test_an_altered_digest_is_reported_by_every_replay(stem):
    """One observation digest changed in a file: the engine, every batch and the adapter report it, naming
    the file, game, step and seat."""
    variant = next(v for v in VARIANTS if v.stem == stem)
    content = content_of(variant)
    step = content["games"][1]["steps"][3]
    seat = step["seats"][-1]
    step["obs"][seat] = "0" * P.DIGEST_CHARS
    step["obs_uint8"][seat] = "0" * P.DIGEST_CHARS
    place = f"{stem}.json, game 1, step 3"
    reports = {
        "engine": P.replay_engine(variant, content),
        "pettingzoo": replay_pettingzoo(variant, content),
        **{config: replay_batched(variant, content, **kwargs) for config, kwargs in BATCHES.items()},
    }
    for path, problems in reports.items():
        assert problems, f"{path}: the altered digest went unnoticed"
        assert place in problems[0] and f"of seat {seat}: expected digest 0000" in problems[0], (path, problems)


def test_an_altered_outcome_is_reported():
    variant = next(v for v in VARIANTS if v.stem == "barc")
    content = content_of(variant)
    record = content["games"][0]
    record["returns"] = [-r for r in record["returns"]]
    last = f"barc.json, game 0, step {len(record['steps']) - 1}"
    for problems in (
        P.replay_engine(variant, content),
        replay_pettingzoo(variant, content),
        replay_batched(variant, content, **BATCHES["float32 obs, bool masks"]),
    ):
        assert problems and last in problems[0], problems
        assert "returns" in problems[0] or "rewards" in problems[0], problems


# ----- what random play does not reach -----------------------------------------------------------------


def test_barc_observe_ignores_colour_bits_above_the_height():
    """Positions random play never makes: colour words with garbage above each stack's height, random
    heights and last orders. The observation is that of the same position with the garbage cleared."""
    game = make_game("barc")
    info = game.info
    shape = tuple(info.observation_shape)
    gen = np.random.default_rng(5)
    garbage_obs = np.zeros(shape, dtype=np.float32)
    clean_obs = np.zeros(shape, dtype=np.float32)
    start = game.new_initial_state().data
    legal = np.zeros(info.num_actions, dtype=np.bool_)
    for _ in range(200):
        data = start.copy()
        heights = gen.integers(0, B.MAX_HEIGHT + 1, size=B.CELLS) * (gen.random(B.CELLS) < 0.4)
        data[B.HEIGHT : B.HEIGHT + B.CELLS] = heights
        data[B.COLOURS : B.COLOURS + B.CELLS] = gen.integers(0, 1 << 16, size=B.CELLS)
        data[B.TURN] = gen.integers(0, 300)
        data[B.LAST_CANCELLED] = gen.integers(0, 2)
        for s in range(2):
            B.legal_mask(start, s, legal)
            data[B.LAST_ORDER + s] = gen.choice([-1, B.STAY, int(gen.choice(np.flatnonzero(legal)))])
        clean = data.copy()
        clean[B.COLOURS : B.COLOURS + B.CELLS] &= (1 << heights) - 1
        for seat in range(2):
            garbage_obs[...] = 7.0
            clean_obs[...] = 3.0
            barc_observe.observe(data, seat, garbage_obs)
            barc_observe.observe(clean, seat, clean_obs)
            assert np.array_equal(garbage_obs, clean_obs)
