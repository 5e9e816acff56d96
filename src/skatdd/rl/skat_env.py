"""The whole game of Skat as a PettingZoo AEC environment: :class:`raw_env` and :func:`env` (docs/game.md).

Three agents, ``player_0`` (forehand), ``player_1`` (middlehand) and
``player_2`` (rearhand), play one deal of :class:`~skatdd.play.full.game.FullGame`
per episode: the auction, the declarer's choices, the card play.  Each step
is one move of the game by :attr:`agent_selection`.

* **actions**: ``Discrete(624)``, every choice of the game (:mod:`skatdd.rl.actions`);
* **observations**: ``{"observation": float32[604], "action_mask": int8[624]}``, the
  agent's own :class:`~skatdd.play.full.state.SeatState` as :func:`skatdd.rl.observation.encode`
  lays it out, and its legal actions (all zeros when it is not to move);
* **rewards**: each seat's Seeger-Fabian points, given when the game ends
  (0 before; all 0 for a deal passed in); ``infos[agent]["result"]`` is then
  the :class:`~skatdd.play.full.state.GameResult`;
* **reset**: ``reset(seed=s)`` deals ``FullGame.from_seed`` from a seed drawn
  from ``s`` (later resets without a seed go on drawing from it);
  ``options={"hands": [...], "skat": ...}`` plays the given deal (without ``"skat"``: the two
  cards no hand holds); other keys are ignored;
* **illegal actions**: :class:`raw_env` raises
  :class:`~skatdd.core.errors.IllegalPlayError`; ``env(illegal_reward=r)`` ends
  the game instead, ``r`` to the offender and 0 to the others (PettingZoo's
  ``TerminateIllegalWrapper``).

>>> e = env()
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_1', (604,), 64)
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from skatdd.core.cards import ALL_CARDS, CardSet
from skatdd.core.seeds import generator
from skatdd.play.full.game import FullGame

from .actions import N_ACTIONS, action_of, index_of
from .observation import SIZE, encode

__all__ = ["env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def _given_deal(hands: Any, skat: Any) -> FullGame:
    """The game of *hands* (forehand first) and *skat*; without *skat*, the two cards none of the hands holds.

    Bad cards raise what :class:`~skatdd.play.full.game.FullGame` raises for them, naming the card.
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise ValueError(f"reset(options=...): 'hands' must be a list of the three hands, not {str(hands)[:60]!r}")
    if skat is None and len(hands) == 3:
        held = [h if isinstance(h, int) else CardSet(h).mask for h in hands]
        skat = ALL_CARDS & ~(held[0] | held[1] | held[2])
    return FullGame(hands, 0 if skat is None else skat)


class raw_env(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """The unwrapped environment (module docstring); PettingZoo names it ``raw_env`` by convention."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "skat_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render mode {render_mode!r}: expected None, 'human' or 'ansi'")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(3)]
        self.agents: list[str] = []
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=(SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(N_ACTIONS,), dtype=np.int8),
        })
        self._observation_spaces = {agent: self._observation_space for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(N_ACTIONS) for agent in self.possible_agents}
        self._seeds = random.Random()  # unseeded until reset(seed=...), as gymnasium's environments are
        self._game: FullGame | None = None

    # -- the spaces (the same object every call: PettingZoo seeds them)
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of *agent*: ``Dict(observation=Box(604), action_mask=Box(624, int8))``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of *agent*: ``Discrete(624)`` (:mod:`skatdd.rl.actions`)."""
        return self._action_spaces[agent]

    @property
    def game(self) -> FullGame:
        """The game being played (the referee's view: every card); :class:`RuntimeError` before :meth:`reset`."""
        if self._game is None:
            raise RuntimeError("the environment has no game before reset()")
        return self._game

    # -- the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (module docstring) and make the seat to move the selected agent."""
        if seed is not None:
            self._seeds = generator(seed)
        options = options or {}
        if "hands" in options:
            self._game = _given_deal(options["hands"], options.get("skat"))
        elif "skat" in options:
            raise ValueError("reset(options=...) names a 'skat' without the 'hands' it goes with")
        else:
            self._game = FullGame.from_seed(self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent(self.game.current_seat)

    def observe(self, agent: str) -> Observation:
        """*agent*'s state as a vector and its action mask (all zeros when it is not to move)."""
        state = self.game.state_for(self.possible_agents.index(agent))
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        for action in state.legal:
            mask[index_of(action)] = 1
        return {"observation": encode(state), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Make *action* (an index of the action space) for :attr:`agent_selection`; ``None`` for an agent that
        is done, as PettingZoo asks.

        Raises :class:`~skatdd.core.errors.IllegalPlayError` for an action that is not legal now.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: step() needs an action, not None")
        game = self.game
        game.apply(action_of(action))
        self._cumulative_rewards[agent] = 0.0
        if game.result is not None:
            result = game.result
            self.rewards = {a: float(result.seeger[seat]) for seat, a in enumerate(self.possible_agents)}
            self.terminations = {a: True for a in self.agents}
            self.infos = {a: {"result": result} for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self._agent(game.current_seat)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _agent(self, seat: int | None) -> str:
        return self.possible_agents[seat if seat is not None else 0]

    # -- the rest of the API
    def render(self) -> str | None:
        """The deal and the moves so far: printed (``'human'``), returned (``'ansi'``), or nothing."""
        if self.render_mode is None:
            return None
        text = str(self.game)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return str(self.metadata["name"])


def env(render_mode: str | None = None, illegal_reward: float | None = None) -> AECEnv:
    """The environment as PettingZoo hands out its classic games: :class:`raw_env` wrapped to check the order of
    calls and the bounds of actions, and, with *illegal_reward*, to end the game on an illegal action (module
    docstring)."""
    wrapped: Any = raw_env(render_mode=render_mode)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
