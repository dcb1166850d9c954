"""boardgames.training.evaluation.plan: the plan a round robin prints before it starts, the time left estimated
pair by pair, and the games left unchanged by both."""

from __future__ import annotations

import pytest

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import make_agent
from boardgames.training.evaluation import plan as plan_module
from boardgames.training.evaluation.evaluate import main as evaluate_main
from boardgames.training.evaluation.evaluate import round_robin
from boardgames.training.evaluation.plan import Plan, Remaining, duration, format_plan, make_plan


def _rows(results) -> list:
    return [(r.a, r.b, r.wins, r.draws, r.losses) for r in results]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_plan_leaves_the_games_as_they_are(jobs, capsys):
    game = make_game("barc", max_turns=30)
    specs = ["random", "greedy", "mcts:20"]
    plain, _ = round_robin(game, specs, 4, seed=3, show_progress=False, jobs=jobs)
    planned, _ = round_robin(game, specs, 4, seed=3, show_progress=False, jobs=jobs, plan=True)
    assert _rows(planned) == _rows(plain)  # the agents' move timing drew from generators play_match reseeds
    out = capsys.readouterr().out
    assert "plan: 3 agents, 3 pairs x 4 games = 12 games" in out
    assert "slowest pairs:" in out


def test_the_slow_agent_makes_the_slow_pairs():
    game = make_game("dorix", num_players=2)
    names = ["random", "greedy", "mcts:300"]
    agents = [make_agent(spec, game, seed=i) for i, spec in enumerate(names)]
    made = make_plan(game, agents, names, [(0, 1), (0, 2), (1, 2)], games=10)
    fast, with_search = made.pair_seconds[0], min(made.pair_seconds[1:])
    assert with_search > 5 * fast, made.pair_seconds
    assert made.decisions > 1 and made.total_games == 30


class _Batched:
    """An agent that acts in batches, recording the size of each call."""

    def __init__(self):
        self.sizes = []

    def act_batch(self, states, seats):
        self.sizes.append(len(states))
        return [0] * len(states)


def test_an_agent_that_acts_in_batches_is_timed_on_a_match_sized_batch():
    game = make_game("olix")
    agent = _Batched()
    plan_module.decision_seconds(agent, plan_module.random_positions(game)[0], batch=64)
    assert agent.sizes == [1, 64]  # one untimed call, then the group of games a match plays side by side


def test_the_plan_says_games_time_and_the_slowest_pairs():
    made = Plan(["random", "greedy", "mcts:1600"], [(0, 1), (0, 2), (1, 2)], 200, [0.01, 9.0, 9.0], 60.0)
    text = format_plan(made)
    assert "3 pairs x 200 games = 600 games" in text
    assert "rough time about 1 h" in text  # 200 x 18.01 s
    assert text.index("mcts:1600") < text.index("random vs greedy")  # the slowest named first
    assert "--jobs N" in text  # a long plan says how to shorten it
    assert "--jobs" not in format_plan(Plan(["a", "b"], [(0, 1)], 10, [0.1], 20.0))


@pytest.mark.parametrize(
    "seconds, text",
    [(12, "under a minute"), (60 * 8 + 10, "about 8 min"), (3900, "about 1 h 5 min"), (7200, "about 2 h")],
)
def test_durations_read_as_people_say_them(seconds, text):
    assert duration(seconds) == text


def test_the_time_left_holds_when_the_slow_pairs_come_last(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(plan_module.time, "perf_counter", lambda: clock[0])
    made = Plan(["random", "greedy", "mcts:1600"], [(0, 1), (1, 2)], 100, [0.1, 10.0], 50.0)
    remaining = Remaining(made)
    assert remaining.seconds() == pytest.approx(100 * 10.1)
    for _ in range(100):  # the fast pair, played twice as slowly as its estimate
        clock[0] += 0.2
        remaining.played(0)
    # a rate over games would say 100 games at 0.2 s = 20 s; the slow pair's estimate, scaled by 2, is 2000 s
    assert remaining.seconds() == pytest.approx(2000.0)
    assert remaining.text() == "~33 min left"


def test_evaluate_prints_its_plan_before_the_table(tmp_path, capsys):
    argv = ["--game", "olix", "--agents", "random", "greedy", "--games", "2", "--no-progress"]
    evaluate_main([*argv, "--out", str(tmp_path / "eval")])
    out = capsys.readouterr().out
    assert out.index("plan: 2 agents, 1 pair x 2 games = 2 games") < out.index("agent A")
