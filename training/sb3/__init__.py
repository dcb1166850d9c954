"""The Stable-Baselines3 family: MaskablePPO training with self-play opponents, its networks, behaviour
cloning from the greedy agent and the model card."""
