"""How good a moving-phase (phase 2) position is, for the player to move.

DVONN is decided by what stays linked to the DVONN pieces, so most terms count things by their
distance to them: stacks standing next to a DVONN piece are hard to cut off and take part in
the fight, those three spaces away are the ones that get isolated. For each player:

  stacks      stacks it tops                material   pieces in them
  near1..4    its stacks 1 to 4 spaces from each DVONN piece (a stack near two DVONN pieces
              counts twice), dvonn: stacks holding a DVONN piece that it tops
  moves       legal moves                   mobile     stacks that can move
  latent      the moves its stacks hemmed in on all six sides will have once a neighbour
              leaves (the spaces they land on are emptied, never filled: those moves only
              go away as the board empties; PrimaDvonna counts them with the others)
  reach0..3   spaces its stacks can land on, on a DVONN stack or 1 to 3 spaces from one
              (all of these are worth per space, summed by ai.worth's tables)
  prey        enemy stacks its stacks can land on
  catch       the tallest enemy stack it can take (threat for the side to move, counter for
              the other: the side to move takes first)

The value is the weighted difference of the two players' terms, plus a tempo for the mover.
`ai.leaf.Leaf` computes the same value in one pass for the search (tests/test_ai_leaf.py).
`python -m firmware_py.ai.tune` fits the weights to the final margins of self-play games (see
TUNING for why the ones in force are not the fit); `terms()` is what it fits, `evaluate()` what
the search uses, and a test checks they agree.

>>> from firmware_py.rules import Board
>>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB"})
>>> evaluate(b) > 0   # Black tops more, but White is about to take Black's stack
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import DEST, MAX_MOBILE_HEIGHT, WHITE, Board, surrounded
from .worth import RING, planes

WIN = 100_000          # a won game scores WIN + final margin (from the mover's side)
INF = 10 * WIN

@dataclass(frozen=True)
class Weights:
    """Moving-phase evaluation weights, in hundredths of a piece (see the module docstring
    and TUNING)."""

    stacks: int = 120
    material: int = 20
    dvonn: int = 100
    near1: int = 120
    near2: int = 45
    near3: int = 0
    near4: int = 0
    moves: int = 40
    mobile: int = 40
    latent: int = 20
    reach0: int = 0
    reach1: int = 40
    reach2: int = 0
    reach3: int = 0
    prey: int = 20
    threat: int = 200
    counter: int = 160
    tempo: int = 10


# How the weights were chosen (matches at 2000-3000 nodes a move, colours alternating).
TUNING = """Set by hand, starting from the old engine's fitted weights (ai.classic) and adding the
distance terms. The least-squares fit by ai.tune over 7064 positions of 200 self-play games
(1000 nodes a move; R^2 0.28) valued captures and mobility far less, and scored 3-10 against
ai:classic where these scored 13-7: the fit predicts outcomes from quiet features, while the
search leans on the capture terms at its leaves. With the old engine's weights plus the
distance terms, from the same 15 placement phases: 16-2-12 against ai:classic; these, 17-0-13.
Head to head against these at 3300 nodes a move: the old engine's weights plus the distance
terms 15-1-24 (40 games); stronger distance terms (near1 80, near2 30, reach1 30) 42-4-32 (78
games), (120, 45, 40) 23-2-14 (39 games): promising, not yet clear enough to adopt.

Then by `python -m firmware_py.ai.trial NAME=VALUE ... --games 60 --seed 7` (the default level
against ai:classic at 0.15 of each level-3 node budget, 60 games from own placements + 60 from
shared ones; W-D-L, own / shared): the weights before (near1 40, near2 15, reach1 20, material
60) 34-2-24 / 35-1-24; near1 80, near2 30, reach1 30: 40-3-17 / 40-2-18; near1 120, near2 45,
reach1 40: 42-2-16 / 40-1-19; and with material 20 (little raw material, as PrimaDvonna's
author advises: the distance terms say which pieces count): 42-1-17 / 49-1-10, adopted;
material 0: 49-0-11 / 44-1-15 (run with a far penalty in the per-space placement scores that
placement_search has since replaced; it alone took the own-placement games of near1 80 from
40-3-17 to 49-2-9). The first two runs used the table before ai.table; the placements before
the far penalty unless said. With the placement search in force, a reach2 term (spaces 2 steps
from a DVONN piece within reach) at 20: 76-0-24 from the same placements (100 games, seed 1)
where the weights in force have 78-1-21; not adopted.

With the space-worth tables (ai.worth: every distance term a worth per space, so near4 and
landings at any distance cost nothing more at a leaf), by `python -m firmware_py.ai.trial
NAME=VALUE --placements own --games 100 --seed 1 --progress` (own placements, 3300 against 3000
nodes a move; the weights in force: 86-4-10, 88.0 %). Material 0 (PrimaDvonna's "no raw
material"): 85-2-13; landings weighted like the stacks (reach0 40, reach2 10): 85-1-14; a
smoother stack worth (near3 15, near4 5): 83-2-15; with late move reductions in the search
(ai.search, from depth 3: 88-2-10 with the weights in force), stronger distance terms (near1
160, near2 60, reach1 50): 88-0-12; material counting more as the board empties (a term, since
removed: material times the spaces emptied, at 3): stopped at 9 points of 14. None adopted:
every change stayed within what chance gives over 100 games (about +-7 points). Late move
reductions from depth 2 (ai.search) were adopted instead: 89-1-10 here, 89-2-9 on seed 7 where
the weights in force have 84-3-13.

Fitted to who won strong games (`python -m firmware_py.ai.texel`: logistic, on 6809 positions of
194 games of PrimaDvonna against itself, `dvonn-board match --white prog:/tmp/prima/player
--black prog:/tmp/prima/player --games 240 --seed 11 --json --record`, stopped at 194; tempo,
near3, near4, reach2, reach3 held at the values in force, --ridge 5). The fit predicts the games'
winners far better than the weights in force (log loss 0.570 against 0.608) and values stacks
and the spaces on and next to the DVONN pieces more, mobility less (moves -12, mobile 20). It
plays worse: against the weights in force by `python -m firmware_py.ai.trial NAME=VALUE ...
--against default --placements own --games 60 --seed 7`, with threat and counter held at 200 and
160 (stacks 289, material 5, dvonn 292, near1 239, near2 89, moves -11, mobile 20, reach0 274,
reach1 79, prey 68): 19-4-37 (35.0 %), and against PrimaDvonna (README) 3-1-56 where the
weights in force had 10-0-50; with moves and mobile held at 40 too (stacks 184,
material 10, dvonn 328, near1 276, near2 108, reach0 169, reach1 14, prey 27): 22-2-36 (38.3 %).
Not adopted: what predicts the end of a game played well is not what a shallow search needs at
its leaves (mobility and captures steer it through the next few plies). PrimaDvonna's own
weighting put in these terms (stacks 120, dvonn 60, moves 30, reach0 50, prey 24, every other
distance term, mobile and material 0; its published weights, scaled): 8-1-51 (14.2 %).

Latent moves (round 9 of issue 15): the moves of stacks hemmed in on all six sides, which
moves and mobile leave out and PrimaDvonna's evaluation counts (it counts every stack's moves,
free or not). At 20 (a hemmed-in single piece's six moves worth 1.2 pieces, as much as a
stack), against the weights in force then (latent 0), by `python -m firmware_py.ai.trial
latent=20 --against default --placements own --games 200 --seed 7 --trial-scale 0.99` and the
same with `--seed 8`: 116-5-79 (59.2 %) and 119-6-75 (61.0 %), 235-11-154 over 400 games
(60.1 %, about 4 standard errors above 50 %; the term costs no measurable time: 1.007x main's
nodes a CPU second). Adopted; `latent=0` now plays the other side of those games. latent=40
against 20 (the same command, seed 7): 96-6-98 (49.5 %).

Weights for the first half of the moving phase (round 14: EARLY_WEIGHTS, interpolated to these
from 42 stacks down to 30), against these throughout, by `python -m firmware_py.ai.trial
early.NAME=VALUE ... --against default --placements own --games 100 --seed 7` (equal nodes: one
set of weights per stack count costs nothing measurable): moves 25, mobile 25, near1 160, near2
70: 46-0-54 (46.0 %); moves 30, mobile 20, latent 30, near2 60: 55-3-42 (56.5 %) and, with
`early=none --seed 8` after it was adopted, 50-2-48 for it (51.0 %): adopted (against
PrimaDvonna 21.7 % of 120 games where main had 19.6 % the same hour); moves 20, mobile 10, latent
35, near1 140, near2 70, against that: 48-5-47 (50.5 %), and no better against PrimaDvonna."""
DEFAULT_WEIGHTS = Weights()

# The weights of the first half of the moving phase (round 14 of docs/engine-strength.md): with
# EARLY_FULL or more stacks on the board (DVONN stacks included: 49 at the first move) the
# search's leaves are valued by EARLY_WEIGHTS, with EARLY_PLAIN or fewer by the weights in
# force, each weight linearly in between (`phase_weights`; `leaf.Leaf(weights, early)`). A
# hemmed-in stack's moves are worth about as much as a free one there, free moves and mobile
# stacks less, stacks two spaces from a DVONN piece more: what PrimaDvonna's positions have and
# our weights undervalued (round 12). `evaluate()` values by one set of weights. None: one set
# throughout. How they were chosen: TUNING, last paragraph.
EARLY_WEIGHTS: Weights | None = Weights(moves=30, mobile=20, latent=30, near2=60)
EARLY_FULL = 42
EARLY_PLAIN = 30


def phase_weights(early: Weights, late: Weights, stacks: int, full: int = EARLY_FULL,
                  plain: int = EARLY_PLAIN) -> Weights:
    """The weights for a position with `stacks` stacks on the board: `early` from `full`
    stacks up, `late` from `plain` down, each weight interpolated (truncated) between.

    >>> phase_weights(Weights(moves=20), Weights(moves=40), 36, 42, 30).moves
    30
    """
    if stacks >= full:
        return early
    if stacks <= plain:
        return late
    f = (stacks - plain) / (full - plain)
    return Weights(**{k: int(getattr(late, k) + (getattr(early, k) - getattr(late, k)) * f)
                      for k in Weights.__dataclass_fields__})


def side_terms(board: Board, player: int) -> tuple[int, int, int, int, int, int]:
    """(moves, mobile stacks, catch, landing spaces, material, latent moves) of `player`.

    Moves and mobile stacks as the rules count them, counted without listing them; catch is
    the height of the tallest enemy-topped stack `player` could move onto (0: none); landing
    spaces is the bit mask (padded bits) of every space one of its moves ends on; material
    the pieces in the stacks it tops; latent moves those of its stacks that are surrounded
    (a single piece's six, a taller stack's onto occupied spaces). Checked against the
    reference engine in tests/test_rules_differential.py.

    >>> b = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BBB"})
    >>> side_terms(b, WHITE)[:3], len(b.moves_of(WHITE))
    ((2, 1, 3), 2)
    >>> hemmed = Board.from_stacks({"c3": "D", "d3": "W", "e3": "BB", "e4": "B", "d4": "B",
    ...                             "c2": "B", "d2": "B"})  # White's d3 has six neighbours
    >>> side_terms(hemmed, WHITE)[0], side_terms(hemmed, WHITE)[5]
    (0, 6)
    """
    sw, sb = both_sides(board)
    return sw if player == WHITE else sb


def both_sides(board: Board) -> tuple[tuple, tuple]:
    """side_terms() of White and of Black, in one pass over the stacks (the masks both sides
    need are made once: this runs at every leaf of the search)."""
    occ = board._occ
    one = board._one
    st = board._st
    free = ~surrounded(occ)
    beside = (occ >> 1) | (occ << 1) | (occ >> 12) | (occ << 12) | (occ >> 13) | (occ << 13)
    out = []
    for own, enemy in ((board._w, board._b), (board._b, board._w)):
        mob = own & free
        single = mob & one
        moves = stacks = targets = 0
        if single:
            n1, n2, n3 = (single << 1) & occ, (single >> 1) & occ, (single << 12) & occ
            n4, n5, n6 = (single >> 12) & occ, (single << 13) & occ, (single >> 13) & occ
            moves = (n1.bit_count() + n2.bit_count() + n3.bit_count() + n4.bit_count()
                     + n5.bit_count() + n6.bit_count())
            stacks = (single & beside).bit_count()
            targets = n1 | n2 | n3 | n4 | n5 | n6
        material = (own & one).bit_count()
        latent = 6 * (own & one & ~free).bit_count()
        tall = own & ~one
        while tall:
            low = tall & -tall
            ps = low.bit_length() - 1
            tall ^= low
            h = len(st[ps])
            material += h
            if mob & low and h <= MAX_MOBILE_HEIGHT:
                t = DEST[ps][h] & occ
                if t:
                    moves += t.bit_count()
                    stacks += 1
                    targets |= t
            elif h <= MAX_MOBILE_HEIGHT:
                latent += (DEST[ps][h] & occ).bit_count()
        prey = targets & enemy
        best = 1 if prey else 0
        prey &= ~one  # only taller stacks can beat 1
        while prey:
            low = prey & -prey
            h = len(st[low.bit_length() - 1])
            if h > best:
                best = h
            prey ^= low
        out.append((moves, stacks, best, targets, material, latent))
    return out[0], out[1]


def terms(board: Board, sw=None, sb=None) -> tuple[int, ...]:
    """The evaluation's terms for the player to move, in the order of `Weights`' fields:
    each the mover's count minus the opponent's, except threat (the mover's catch), counter
    (minus the opponent's catch) and tempo (1). sw, sb: side_terms of White and Black if at hand."""
    if sw is None or sb is None:
        sw, sb = both_sides(board)
    st = board._st
    w_own, b_own, dv = board._w, board._b, board._dv
    mat = 0
    for p in _bits(w_own):
        mat += len(st[p])
    for p in _bits(b_own):
        mat -= len(st[p])
    near = [0] * 5
    reach = [0] * 4
    for d in _bits(dv):
        ring = RING[d]
        for k in range(1, 5):
            near[k] += (w_own & ring[k]).bit_count() - (b_own & ring[k]).bit_count()
        for k in range(4):
            reach[k] += (sw[3] & ring[k]).bit_count() - (sb[3] & ring[k]).bit_count()
    near[0] = (dv & w_own).bit_count() - (dv & b_own).bit_count()  # a stack holds one DVONN
    prey = (sw[3] & b_own).bit_count() - (sb[3] & w_own).bit_count()
    diff = (w_own.bit_count() - b_own.bit_count(), mat, *near, sw[0] - sb[0], sw[1] - sb[1],
            sw[5] - sb[5], *reach, prey)
    if board.turn == WHITE:
        return tuple(diff) + (sw[2], -sb[2], 1)
    return tuple(-x for x in diff) + (sb[2], -sw[2], 1)


def _bits(b: int):
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low


def value(board: Board, weights: Weights, sw, sb) -> int:
    """evaluate() with both players' side_terms at hand (the search has them anyway).

    The same as the dot product of `terms()` and the weights, written out: this runs at every
    leaf of the search.
    """
    w_own, b_own = board._w, board._b
    wt, bt = sw[3], sb[3]
    stack_planes, land_planes = planes(weights, board._dv)
    v = (weights.stacks * (w_own.bit_count() - b_own.bit_count())
         + weights.material * (sw[4] - sb[4])
         + weights.moves * (sw[0] - sb[0]) + weights.mobile * (sw[1] - sb[1])
         + weights.latent * (sw[5] - sb[5])
         + weights.prey * ((wt & b_own).bit_count() - (bt & w_own).bit_count()))
    for worth, m in stack_planes:
        v += worth * ((w_own & m).bit_count() - (b_own & m).bit_count())
    for worth, m in land_planes:
        v += worth * ((wt & m).bit_count() - (bt & m).bit_count())
    if board.turn == WHITE:
        return v + weights.threat * sw[2] - weights.counter * sb[2] + weights.tempo
    return -v + weights.threat * sb[2] - weights.counter * sw[2] + weights.tempo


def evaluate(board: Board, weights: Weights = DEFAULT_WEIGHTS) -> int:
    """A phase-2 position's value for the player to move, in hundredths of a piece."""
    return value(board, weights, *both_sides(board))


def final_value(board: Board) -> int:
    """A finished game's value for the player to move: win or loss, plus the margin."""
    w, b = board.score()
    diff = w - b if board.turn == WHITE else b - w
    return WIN + diff if diff > 0 else -WIN + diff if diff < 0 else 0
