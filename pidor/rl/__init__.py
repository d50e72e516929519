"""Every game of the registry as a training environment (the optional extra ``pidor[rl]``):
a PettingZoo AEC environment with a fixed action encoding and masks of the possible and the
honest actions, cheats, calls and votes included; a Gymnasium single-agent wrapper; a
policy class through which a trained model plays in ``pidor match`` and over TCP.

    import pidor.rl
    env = pidor.rl.env("podkidnoy", players=2)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated else env.action_space(agent).sample(obs["honest_mask"])
        env.step(action)

``docs/RL.md`` says what every id and every entry of the vector means.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # one line, not a traceback into the extra's packages
    raise ImportError(f"pidor.rl needs the rl extra (missing {e.name}): pip install 'pidor[rl]'") from None

from .codec import TABLE_MOVES, ActionCodec
from .env import IllegalAction, PidorEnv, env, raw_env
from .features import Layout
from .policy import EncodedPolicy
from .single import SingleAgentEnv

__all__ = ["env", "raw_env", "PidorEnv", "IllegalAction", "SingleAgentEnv", "EncodedPolicy", "ActionCodec",
           "Layout", "TABLE_MOVES"]
