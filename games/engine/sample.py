"""Determinization: a complete state sampled to fit one seat's view (games/engine/search.py).

Search over hidden information (the ``expert`` bots) needs whole states to play forward, but a
bot may know only its seat's view. ``Rules.determinize(view, rng)`` builds a state from the
view alone: everything the view shows is copied, everything it hides (other hands, the order
and contents of piles, other seats' dice, the generator's seed) is drawn from ``rng``, the
bot's own random stream. Two properties are tested for every game
(``tests/engine/test_determinize.py``):

* the sampled state, seen from that seat, gives back exactly the view it was sampled from;
* the sampler reads nothing but the view, so two states a seat cannot tell apart give the
  same samples for the same ``rng`` seed (no hidden information leaks through sampling).

The public record a game keeps in its views (announcements, claims, plays in the pile,
reveals) is the public history the samplers may use; they never see the real state.
Hidden statistics are not part of any view; samplers fill them with counts that keep the
game's invariants (they never influence play).
"""

from __future__ import annotations

import random


def fresh_seed(rng: random.Random) -> str:
    """A seed for the sampled state's own chance outcomes (future draws are unknown too)."""
    return rng.randbytes(32).hex()
