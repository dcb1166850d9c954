"""The exported RLlib policy file is read with plain torch (no ray): these tests run in the main venv
too. A file is written by hand with weights whose best legal action is known, then played through
``make_agent("rllib:...")``."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from boardgames.envs.registry import make_game  # noqa: E402
from boardgames.training.agent_kinds import make_agent  # noqa: E402
from boardgames.training.evaluation.evaluate import agent_name, play_match  # noqa: E402
from boardgames.training.rllib.policy_file import FORMAT, PolicyFileError, RLlibPolicyAgent, load_policy_file  # noqa: E402


def write_policy(path, obs_size: int, num_actions: int, preferred: list, game: str = "dorix") -> None:
    """A one-layer policy whose logits are 0 except ``preferred[k]``: ``len(preferred) - k`` (so the
    earlier in the list, the more preferred); the input weights are 0, so every position gives the
    same logits."""
    bias = torch.zeros(num_actions)
    for k, a in enumerate(preferred):
        bias[a] = float(len(preferred) - k)
    data = {
        "format": FORMAT,
        "game": game,
        "options": {"num_players": 2},
        "extra": {},
        "layers": [{"type": "linear", "in": obs_size, "out": num_actions}],
        "state_dict": {"0.weight": torch.zeros(num_actions, obs_size), "0.bias": bias},
    }
    torch.save(data, path)


@pytest.fixture
def game():
    return make_game("dorix", num_players=2)


def test_the_agent_plays_the_most_preferred_legal_action(tmp_path, game):
    info = game.info
    state = game.new_initial_state()
    seat = state.current_seats()[0]
    legal = np.flatnonzero(state.legal_mask(seat))
    illegal = int(np.flatnonzero(~state.legal_mask(seat))[0])
    # the favourite is illegal here: the agent must skip it for the second, a legal one
    write_policy(
        tmp_path / "policy.pt",
        int(np.prod(info.observation_shape)),
        info.num_actions,
        [illegal, int(legal[3]), int(legal[0])],
    )
    agent = make_agent(f"rllib:{tmp_path}", game, seed=0)
    assert isinstance(agent, RLlibPolicyAgent)
    assert agent(state, seat) == int(legal[3])


def test_a_file_for_another_game_is_refused_with_the_sizes(tmp_path, game):
    write_policy(tmp_path / "p.pt", 10, 7, [0])
    with pytest.raises(ValueError, match="takes 10 inputs and 7 actions"):
        make_agent(f"rllib:{tmp_path / 'p.pt'}", game)


def test_not_a_policy_file(tmp_path):
    (tmp_path / "policy.pt").write_bytes(b"not a torch file")
    with pytest.raises(PolicyFileError, match="not an RLlib policy file"):
        load_policy_file(tmp_path)
    torch.save({"format": "something else"}, tmp_path / "other.pt")
    with pytest.raises(PolicyFileError, match="format tag"):
        load_policy_file(tmp_path / "other.pt")
    with pytest.raises(FileNotFoundError, match="no RLlib policy file"):
        make_agent(f"rllib:{tmp_path / 'missing'}")


def test_it_plays_whole_games_in_the_evaluation_loop(tmp_path, game):
    info = game.info
    write_policy(tmp_path / "policy.pt", int(np.prod(info.observation_shape)), info.num_actions, [0])
    result = play_match(game, make_agent(f"rllib:{tmp_path}", game, seed=1), make_agent("random", game, seed=2), 4)
    assert result.games == 4
    assert agent_name(f"rllib:{tmp_path}") == f"rllib-{tmp_path.name}"
    assert agent_name(f"rllib:{tmp_path}/policy.pt") == f"rllib-{tmp_path.name}"


def test_training_play_plays_against_it(tmp_path, game, monkeypatch, capsys):
    import io

    from boardgames.play import cli as play

    info = game.info
    state = game.new_initial_state()
    choice = int(np.flatnonzero(state.legal_mask(0))[5])
    write_policy(tmp_path / "policy.pt", int(np.prod(info.observation_shape)), info.num_actions, [choice])
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    play.main(["--game", "dorix", "--players", "2", "--opponent", f"rllib:{tmp_path}", "--seat", "1"])
    # the policy, playing seat 0, opened with its preferred move
    assert f"last={state.action_to_text(choice)}" in capsys.readouterr().out


def test_the_shipped_rllib_model_beats_random(game):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "models" / "rllib_dorix_2p"
    agent = make_agent(f"rllib:{folder}", game, seed=0)
    assert agent.meta["game"] == "dorix" and agent.meta["options"] == {"num_players": 2}
    result = play_match(game, agent, make_agent("random", game, seed=1), 20, seed=3)
    assert result.wins >= 16, result  # its card: 97% over 200 games


@pytest.mark.parametrize("name,options,floor", [("rllib_dorix_4p", {"num_players": 4}, 15), ("rllib_barc", {}, 14)])
def test_the_other_shipped_rllib_models_beat_random(name, options, floor):
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "models" / name
    game = make_game(name.split("_")[1], **options)
    agent = make_agent(f"rllib:{folder}", game, seed=0)
    assert agent.meta["options"] == options or (not options and agent.meta["options"] in ({}, {"max_turns": 200}))
    result = play_match(game, agent, make_agent("random", game, seed=1), 20, seed=3)
    assert result.wins >= floor, result  # their cards: 92.5% over 200 games each
