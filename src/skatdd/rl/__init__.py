"""Reinforcement learning over the whole game: a PettingZoo AEC environment (``pip install 'skatdd[rl]'``).

``from skatdd.rl import env`` gives the environment as PettingZoo hands out
its classic games (``env()`` wrapped, :class:`raw_env` the class), over
:class:`~skatdd.play.full.game.FullGame`: one discrete action space for every
choice (:mod:`~skatdd.rl.actions`), the seat's own state as a vector
(:mod:`~skatdd.rl.observation`) with the mask of its legal actions, and
Seeger-Fabian points as the reward (:mod:`~skatdd.rl.skat_env`; docs/game.md).

The layer sits above play, which it adapts, and below present; nothing in
the package imports it, so skatdd runs without numpy, gymnasium and
pettingzoo, which only the ``rl`` extra installs.
"""
from __future__ import annotations

import importlib

for _name in ("numpy", "gymnasium", "pettingzoo"):
    try:
        importlib.import_module(_name)
    except ImportError as exc:
        raise ImportError(f"skatdd.rl needs {_name}: install the extra with pip install 'skatdd[rl]'") from exc

from .actions import ACTIONS, N_ACTIONS, action_of, index_of  # noqa: E402  # only once the extra is known present
from .observation import LAYOUT, SIZE, encode  # noqa: E402
from .skat_env import env, raw_env  # noqa: E402

__all__ = ["ACTIONS", "LAYOUT", "N_ACTIONS", "SIZE", "action_of", "encode", "env", "index_of", "raw_env"]
