"""The main job (placeholder until the training code lands): a full Dorix game between two baseline
agents, shown move by move."""

import numpy as np
from tqdm import tqdm

from envs.registry import make_game


def main() -> None:
    game = make_game("dorix", num_players=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    moves = []
    with tqdm(total=game.info.max_turns, desc="Dorix, random vs random", unit="turn") as bar:
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            moves.append(f"player_{state.current_seat}: {state.action_to_text(action)}")
            turn = state.turn
            state.apply(action)
            bar.update(state.turn - turn)
    print("\n".join(moves))
    print(state.render_text())
    print("returns:", state.returns().tolist())


if __name__ == "__main__":
    main()
