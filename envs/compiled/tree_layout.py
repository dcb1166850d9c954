"""The columns of the search tree's arrays (:mod:`boardgames.envs.search.tree` describes the tree), and the
selection rules' codes, here where the generated engines (:mod:`boardgames.envs.compiled.engines`) can read
them."""

# node columns (int32), then PER_SEAT columns per acting seat k from SEAT_COLUMNS + PER_SEAT * k
PARENT, SEAT, TERMINAL, EVALUATED, VISITS, FIRST_CHILD, NEXT_SIBLING = range(7)
SEAT_COLUMNS = 7
EDGE_START, EDGE_COUNT, TRIED, IN_EDGE = range(4)
PER_SEAT = 4
# edge columns: int32 ...
ACTION, CHILD, EDGE_VISITS = range(3)
# ... and float64: summed value, prior, regret (Exp3: summed importance-weighted reward), summed strategy
VALUE, PRIOR, REGRET, STRATEGY_SUM = range(4)
EDGE_FLOATS = 4

# selection rules (the search's ``rule`` argument): UCB1, PUCT, regret matching, Exp3
RULE_UCT, RULE_PUCT, RULE_REGRET, RULE_EXP3 = range(4)

__all__ = [  # every name above, written out so that static tools see what ``import *`` brings
    "PARENT", "SEAT", "TERMINAL", "EVALUATED", "VISITS", "FIRST_CHILD", "NEXT_SIBLING", "SEAT_COLUMNS",
    "EDGE_START", "EDGE_COUNT", "TRIED", "IN_EDGE", "PER_SEAT", "ACTION", "CHILD", "EDGE_VISITS",
    "VALUE", "PRIOR", "REGRET", "STRATEGY_SUM", "EDGE_FLOATS", "RULE_UCT", "RULE_PUCT", "RULE_REGRET", "RULE_EXP3",
]  # fmt: skip
