"""What each space is worth in the moving phase, by its distance to the DVONN pieces.

A stack is worth more the closer it stands to each DVONN piece (stacks near them are hard to
cut off and take part in the fight), and so is a space a player's stacks can land on. For the
DVONN pieces' spaces `dv`, `planes(weights, dv)` gives two lists of (worth, mask): the spaces
grouped by what a stack standing there is worth, and by what being able to land there is worth,
each the sum over the DVONN stacks of the weight for its distance (`dvonn`, `near1`..`near4` for
stacks: distance 0 is standing on a DVONN stack; `reach0`..`reach3` for landings). Summing a
worth over the stacks of a mask is then a few popcounts, whatever the number of DVONN pieces.
The DVONN pieces rarely move, so the planes are built once per position of them and kept
(PrimaDvonna's author weighted spaces this way; the code and weights are ours).

>>> from firmware_py.ai.evaluation import Weights
>>> from firmware_py.rules import S2P
>>> from firmware_py.spaces import parse_space
>>> dv = 1 << S2P[parse_space("c3")]
>>> stack_planes, _ = planes(Weights(near1=30, near2=10, near3=0, near4=0, dvonn=50), dv)
>>> sorted(worth for worth, mask in stack_planes)
[10, 30, 50]
"""

from __future__ import annotations

from ..rules import P2S, S2P, W
from ..spaces import N_SPACES, distance

# RING[p][k]: padded bits of the spaces exactly k steps from the space on padded bit p.
RING: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << S2P[s] for s in range(N_SPACES) if distance(s, P2S[p]) == k)
          for k in range(11)) if P2S[p] >= 0 else () for p in range(W * 5))

CACHE = 4096  # positions of the DVONN pieces kept per weights (a game sees a few dozen)

# id(weights) -> (weights, {dv: planes}): the weights are kept so their id is not reused.
_TABLES: dict[int, tuple[object, dict[int, tuple[tuple, tuple]]]] = {}


def _group(worth: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """{padded bit: worth} -> ((worth, mask of the bits worth that), ...), zero worth left out."""
    masks: dict[int, int] = {}
    for p, w in worth.items():
        if w:
            masks[w] = masks.get(w, 0) | (1 << p)
    return tuple(sorted(masks.items(), reverse=True))


def build(weights, dv: int) -> tuple[tuple, tuple]:
    """(stack planes, landing planes) of `weights` for the DVONN stacks on the bits of dv."""
    near = (weights.dvonn, weights.near1, weights.near2, weights.near3, weights.near4)
    reach = (weights.reach0, weights.reach1, weights.reach2, weights.reach3)
    stack: dict[int, int] = {}
    land: dict[int, int] = {}
    d = dv
    while d:
        low = d & -d
        d ^= low
        rings = RING[low.bit_length() - 1]
        for k, ring in enumerate(rings[:5]):
            sk = near[k]
            rk = reach[k] if k < len(reach) else 0
            if not (sk or rk):
                continue
            r = ring
            while r:
                b = r & -r
                r ^= b
                p = b.bit_length() - 1
                stack[p] = stack.get(p, 0) + sk
                land[p] = land.get(p, 0) + rk
    return _group(stack), _group(land)


def kept(weights) -> dict[int, tuple[tuple, tuple]]:
    """The planes of `weights` kept so far, by DVONN spaces (shared by every user of them)."""
    entry = _TABLES.get(id(weights))
    if entry is None or entry[0] is not weights:
        entry = _TABLES[id(weights)] = (weights, {})
    return entry[1]


def planes(weights, dv: int) -> tuple[tuple, tuple]:
    """build(weights, dv), kept for the next call with the same weights and DVONN spaces."""
    by_dv = kept(weights)
    out = by_dv.get(dv)
    if out is None:
        if len(by_dv) >= CACHE:
            by_dv.clear()
        out = by_dv[dv] = build(weights, dv)
    return out
