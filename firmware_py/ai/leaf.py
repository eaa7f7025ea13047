"""The search's leaf evaluation: `evaluation.value` in one pass, for one set of weights.

`evaluation.both_sides` and `evaluation.value` say what a phase-2 position is worth and are
what `tune` and the tests read; a leaf of the search needs only the number. `Leaf(weights)`
computes it in one function with the weights and the space-worth planes (`worth.planes`) at
hand: no tuples per side, no lookups by the weights' id, and the side to move's mobility
checked before the rest (a mover who must pass, or a finished game, is None at once). It
returns exactly what `value(board, weights, *both_sides(board))` does (tests/test_ai_leaf.py).
`Leaf(weights, early)` values each position by `evaluation.phase_weights(early, weights, n)` for
its n stacks instead (the search's default: `evaluation.EARLY_WEIGHTS`).

>>> from firmware_py.rules import Board
>>> from .evaluation import evaluate
>>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB"})
>>> Leaf()(b) == evaluate(b)
True
"""

from __future__ import annotations

from ..rules import DEST, MAX_MOBILE_HEIGHT, WHITE, Board
from .evaluation import DEFAULT_WEIGHTS, EARLY_FULL, EARLY_PLAIN, Weights, phase_weights
from .worth import CACHE, build, kept

# A single piece's six moves counted at once: six copies of the singles, each shifted by 13
# plus one direction's step (so every shift is to the left), side by side in lanes of _LANE
# bits, against six copies of the occupancy shifted by 13: one product, one AND, one bit count
# instead of six of each, and the landing spaces are the lanes ORed together.
_LANE = 96
_STEPS = (1, -1, 12, -12, 13, -13)
_SPREAD = sum(1 << (_LANE * k + 13 + d) for k, d in enumerate(_STEPS))
_REPEAT = sum(1 << (_LANE * k) for k in range(6))
_HALF, _TWO = 3 * _LANE, 2 * _LANE
_FIRST = (1 << _LANE) - 1


class Leaf:
    """A callable: board -> the value for the player to move, None if that player cannot move."""

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS, early: Weights | None = None,
                 full: int = EARLY_FULL, plain: int = EARLY_PLAIN):
        self.weights = weights
        self._planes = kept(weights)  # worth.planes' own, shared: memory as before
        # early: the weights by stacks on the board (evaluation.phase_weights), one set per
        # count (the same object where they are equal, so the planes are shared).
        self._by_n = None
        if early is not None and early != weights:
            by_n = []
            for n in range(50):
                w = phase_weights(early, weights, n, full, plain)
                by_n.append(by_n[-1] if by_n and by_n[-1] == w else w)
            self._by_n = tuple(by_n)
            self._planes_by_n = tuple(kept(w) for w in by_n)

    def __call__(self, board: Board) -> int | None:
        occ = board._occ
        one = board._one
        st = board._st
        w_own = board._w
        b_own = board._b
        free = ~(occ & (occ >> 1) & (occ << 1) & (occ >> 12) & (occ << 12) & (occ >> 13)
                 & (occ << 13))
        beside = (occ >> 1) | (occ << 1) | (occ >> 12) | (occ << 12) | (occ >> 13) | (occ << 13)
        dest = DEST
        occ6 = (occ << 13) * _REPEAT
        # White's moves, mobile stacks, landing spaces, material and latent moves. Black's
        # below are the same lines written out again on purpose: this runs at every leaf, and
        # a call returning a tuple per side is the cost this function exists to save.
        mob = w_own & free
        single = mob & one
        if single:
            x = single * _SPREAD & occ6
            mw = x.bit_count()
            x |= x >> _HALF
            x |= (x >> _LANE) | (x >> _TWO)
            tw = (x & _FIRST) >> 13
            kw = (single & beside).bit_count()
        else:
            mw = kw = tw = 0
        matw = (w_own & one).bit_count()
        lw = 6 * (w_own & one & ~free).bit_count()
        tall = w_own & ~one
        while tall:
            low = tall & -tall
            tall ^= low
            ps = low.bit_length() - 1
            h = len(st[ps])
            matw += h
            if mob & low and h <= MAX_MOBILE_HEIGHT:
                t = dest[ps][h] & occ
                if t:
                    mw += t.bit_count()
                    kw += 1
                    tw |= t
            elif h <= MAX_MOBILE_HEIGHT:  # hemmed in: its latent moves
                lw += (dest[ps][h] & occ).bit_count()
        if not mw and board.turn == WHITE:
            return None
        # Black's.
        mob = b_own & free
        single = mob & one
        if single:
            x = single * _SPREAD & occ6
            mb = x.bit_count()
            x |= x >> _HALF
            x |= (x >> _LANE) | (x >> _TWO)
            tb = (x & _FIRST) >> 13
            kb = (single & beside).bit_count()
        else:
            mb = kb = tb = 0
        matb = (b_own & one).bit_count()
        lb = 6 * (b_own & one & ~free).bit_count()
        tall = b_own & ~one
        while tall:
            low = tall & -tall
            tall ^= low
            ps = low.bit_length() - 1
            h = len(st[ps])
            matb += h
            if mob & low and h <= MAX_MOBILE_HEIGHT:
                t = dest[ps][h] & occ
                if t:
                    mb += t.bit_count()
                    kb += 1
                    tb |= t
            elif h <= MAX_MOBILE_HEIGHT:  # hemmed in: its latent moves
                lb += (dest[ps][h] & occ).bit_count()
        if not mb and board.turn != WHITE:
            return None
        # The tallest enemy stack each side can land on (1 if only single pieces).
        prey = tw & b_own
        cw = 1 if prey else 0
        prey &= ~one
        while prey:
            low = prey & -prey
            prey ^= low
            h = len(st[low.bit_length() - 1])
            if h > cw:
                cw = h
        prey = tb & w_own
        cb = 1 if prey else 0
        prey &= ~one
        while prey:
            low = prey & -prey
            prey ^= low
            h = len(st[low.bit_length() - 1])
            if h > cb:
                cb = h
        if self._by_n is None:
            wt = self.weights
            planes = self._planes
        else:
            n = occ.bit_count()
            wt = self._by_n[n]
            planes = self._planes_by_n[n]
        dv = board._dv
        pl = planes.get(dv)
        if pl is None:
            if len(planes) >= CACHE:
                planes.clear()
            pl = planes[dv] = build(wt, dv)
        v = (wt.stacks * (w_own.bit_count() - b_own.bit_count()) + wt.material * (matw - matb)
             + wt.moves * (mw - mb) + wt.mobile * (kw - kb) + wt.latent * (lw - lb)
             + wt.prey * ((tw & b_own).bit_count() - (tb & w_own).bit_count()))
        for worth, m in pl[0]:
            v += worth * ((w_own & m).bit_count() - (b_own & m).bit_count())
        for worth, m in pl[1]:
            v += worth * ((tw & m).bit_count() - (tb & m).bit_count())
        if board.turn == WHITE:
            return v + wt.threat * cw - wt.counter * cb + wt.tempo
        return -v + wt.threat * cb - wt.counter * cw + wt.tempo
