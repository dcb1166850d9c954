"""The RLlib PPO configuration of a self-play run (new API stack: RLModule, Learner, EnvRunner).

:func:`build_config` puts together, for one game and player count:

* the environment (:class:`~boardgames.training.rllib.env.BoardGameMultiAgentEnv`, given as its class: the env
  runners import it, so nothing depends on ``ray.tune``'s registry, whose entries belong to one Ray
  job; the registered names of :func:`~boardgames.training.rllib.env.register_envs` are for users' own configs);
* ``num_env_runners`` env runners of one CPU each, each stepping ``envs_per_runner`` games (a batch
  per forward pass); 0 env runners samples in the driver;
* the league (:mod:`boardgames.training.rllib.league`): modules ``main`` (trained), ``random`` and
  ``snapshot_<i>`` (frozen), all RLlib's ``ActionMaskingTorchRLModule`` (PPO's actor-critic MLP with the illegal
  actions' logits masked), the ``policy_mapping_fn`` drawing who plays whom;
* PPO's settings (:class:`RLlibSettings`), with the learner in the driver (``num_learners=0``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from boardgames.training.rllib.env import BoardGameMultiAgentEnv, env_config
from boardgames.training.rllib.league import LEARNER, RANDOM, LeagueMapping, snapshot_ids


@dataclass
class RLlibSettings:
    """What a run can change; saved in the run's ``run.json`` so that ``--resume`` rebuilds the same
    algorithm."""

    env_runners: int = 2
    envs_per_runner: int = 8
    train_batch: int = 4000  # env steps (all agents' steps) per training iteration
    minibatch: int = 500
    epochs: int = 6
    lr: float = 3e-4
    entropy: float = 0.01
    gamma: float = 0.99
    gae_lambda: float = 0.95  # as the SB3 trainer (RLlib's default, 1.0, learned more slowly here)
    hidden: list = field(default_factory=lambda: [256, 256])
    snapshots: int = 3  # frozen snapshot slots (0: pure self-play)
    snapshot_every: int = 5  # iterations between two snapshots of main
    self_play: float = 0.5  # probability that main plays main
    random_share: float = 0.2  # probability that main plays the uniform random player (else a snapshot)
    seed: int = 0

    def to_dict(self) -> dict:
        return asdict(self)


def build_config(game: str, options: dict, settings: RLlibSettings):
    """The ``PPOConfig`` of a self-play run of ``game`` with ``options`` (see the module docstring);
    an unknown game or option raises :class:`~boardgames.envs.core.errors.GameOptionError` naming it."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    cfg = env_config(game, options)
    probe = BoardGameMultiAgentEnv(cfg)
    agent = probe.possible_agents[0]
    obs_space, act_space = probe.observation_spaces[agent], probe.action_spaces[agent]
    model = DefaultModelConfig(fcnet_hiddens=list(settings.hidden))
    modules = [LEARNER, RANDOM] + snapshot_ids(settings.snapshots)
    specs = {
        m: RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            observation_space=obs_space,
            action_space=act_space,
            model_config=model,
        )
        for m in modules
    }
    mapping = LeagueMapping(probe.game.info.sides(), settings.snapshots, settings.self_play, settings.random_share)
    return (
        PPOConfig()
        # RLlib's pre-check passes on every game (tests/rllib); skipping it spares each runner's start
        .environment(env=BoardGameMultiAgentEnv, env_config=cfg, disable_env_checking=True)
        .env_runners(
            num_env_runners=settings.env_runners,
            num_envs_per_env_runner=settings.envs_per_runner,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .learners(num_learners=0)
        .multi_agent(policies=set(modules), policy_mapping_fn=mapping, policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            train_batch_size_per_learner=settings.train_batch,
            minibatch_size=settings.minibatch,
            num_epochs=settings.epochs,
            lr=settings.lr,
            entropy_coeff=settings.entropy,
            gamma=settings.gamma,
            lambda_=settings.gae_lambda,
        )
        .debugging(seed=settings.seed, log_level="ERROR")
    )
