"""The DVONN rules engine (API CONTRACT; implemented with bitboards, see issue 2).

Every other part of the project codes against exactly this API. Implementers may add, but not
change, what is below without updating every caller.

Pieces are one-letter codes: 'W' white, 'B' black, 'D' DVONN. A stack is a tuple of codes from
the bottom up: ('B', 'D', 'W') is owned by White. Players are WHITE = 0 and BLACK = 1.
Spaces are indices 0..48 (see `spaces`).
"""

from __future__ import annotations

from typing import NamedTuple

from .errors import IllegalPly
from .spaces import (COORDS, DIRECTIONS, INDEX, N_SPACES, NEIGHBOUR_RING, NEIGHBOURS, SPACES,
                     parse_space, step)

WHITE, BLACK = 0, 1
PLAYER_NAMES = ("white", "black")
PIECES = ("W", "B", "D")


class Ply(NamedTuple):
    """A placement (src == -1, dst = space), a move (src, dst) or a pass (-1, -1).

    >>> str(Ply.parse("E3-f3")), str(Ply.parse("e3")), str(Ply.parse("pass"))
    ('e3f3', 'e3', 'pass')
    """

    src: int
    dst: int

    @property
    def is_pass(self) -> bool:
        return self.dst < 0

    @property
    def is_placement(self) -> bool:
        return self.src < 0 <= self.dst

    @property
    def is_move(self) -> bool:
        return self.src >= 0

    def __str__(self) -> str:
        if self.dst < 0:
            return "pass"
        if self.src < 0:
            return SPACES[self.dst]
        return SPACES[self.src] + SPACES[self.dst]

    @classmethod
    def parse(cls, token: str) -> "Ply":
        """'e3', 'e3f3', 'e3-f3', 'e3:f3' in any case, or 'pass'. ValueError otherwise."""
        t = token.strip().lower()
        if t == "pass":
            return PASS
        for sep in "-:":
            t = t.replace(sep, "")
        if t in INDEX:
            return cls(-1, INDEX[t])
        a, b = t[:2], t[2:]  # every space name is two characters
        if a in INDEX and b in INDEX:
            return cls(INDEX[a], INDEX[b])
        parse_space(t)  # raises a clear ValueError naming the token
        raise ValueError(f"not a ply: {token!r}")


PASS = Ply(-1, -1)


# ---------------------------------------------------------------------------------------------
# Internal representation (shared with firmware_py.tools.bench_rules' fast playout).
#
# Bitboards are ints over a padded grid: bit p = 12 * row + col (cols 0..10 plus one guard
# column), so a step in direction (dcol, drow) is a shift by dcol + 12 * drow and anything that
# wraps lands on a guard or off-board bit, which masking with BOARD (or an occupancy) removes.
# Public spaces (0..48, see `spaces`) map to padded bits through S2P / P2S.
# ---------------------------------------------------------------------------------------------

W = 12
S2P: tuple[int, ...] = tuple(W * r + c for c, r in COORDS)
P2S: tuple[int, ...] = tuple(S2P.index(p) if p in S2P else -1 for p in range(W * 5))
BOARD = sum(1 << p for p in S2P)
DELTAS = tuple(dc + W * dr for dc, dr in DIRECTIONS)  # circular order, like DIRECTIONS
# NB[p]: bits of the on-board neighbours of p; NB_RING[p]: six neighbour bits (0 off board).
NB_RING: tuple[tuple[int, ...], ...] = tuple(
    tuple(0 if n is None else 1 << S2P[n] for n in NEIGHBOUR_RING[P2S[p]]) if P2S[p] >= 0 else ()
    for p in range(W * 5))
NB: tuple[int, ...] = tuple(sum(ring) for ring in NB_RING)
INTERIOR = sum(1 << S2P[s] for s in range(N_SPACES) if len(NEIGHBOURS[s]) == 6)
MAX_MOBILE_HEIGHT = 10  # the longest line has 11 spaces


def _dest_masks(p: int) -> tuple[int, ...]:
    """DEST[p][h]: bits of the spaces exactly h steps from p in a straight line (h = 0..48)."""
    out = [0] * N_SPACES
    if P2S[p] < 0:
        return tuple(out)
    for h in range(1, MAX_MOBILE_HEIGHT + 1):
        for d in range(6):
            n = step(P2S[p], d, h)
            if n is not None:
                out[h] |= 1 << S2P[n]
    return tuple(out)


DEST: tuple[tuple[int, ...], ...] = tuple(_dest_masks(p) for p in range(W * 5))


def one_arc(ring_bits: tuple[int, ...], occ: int) -> bool:
    """True when the occupied bits of a six-entry neighbour ring form at most one unbroken arc.

    Consecutive ring entries are neighbours of each other, so occupied neighbours that form one
    arc stay linked to each other when the centre empties: removing the centre cuts nothing off.
    """
    flags = [bool(b & occ) for b in ring_bits]
    starts = sum(1 for i in range(6) if flags[i] and not flags[i - 1])
    return starts <= 1


# SAFE_VACATE[(p, occupied neighbour bits)] -> bool, filled lazily (at most 49 * 64 entries).
SAFE_VACATE: dict[tuple[int, int], bool] = {}


def safe_to_vacate(p: int, occ: int) -> bool:
    """Emptying p (holding no DVONN piece) cannot cut anything off, given occupancy occ."""
    n = NB[p] & occ
    key = (p, n)
    r = SAFE_VACATE.get(key)
    if r is None:
        r = SAFE_VACATE[key] = one_arc(NB_RING[p], n)
    return r


def surrounded(occ: int) -> int:
    """Bits of the occupied spaces with all six neighbours on board and occupied."""
    return (occ & (occ >> 1) & (occ << 1) & (occ >> 12) & (occ << 12) & (occ >> 13)
            & (occ << 13))


def linked(occ: int, dv: int) -> int:
    """Bits of the occupied spaces linked (through occupied neighbours) to a DVONN piece."""
    reach = dv
    while True:  # one step in every direction: offsets {0, 1} + {0, 12} + {0, -13}
        grow = reach | (reach << 1)
        grow |= grow << 12
        grow = (grow | (grow >> 13)) & occ
        if grow == reach or grow == occ:
            return grow
        reach = grow


def bits(b: int):
    """The bit positions set in b, lowest first."""
    while b:
        low = b & -b
        yield low.bit_length() - 1
        b ^= low


# Ready-made Ply objects, so that generating moves creates none. A move is coded internally as
# ps << 6 | pd (padded bits); padded order is space order, so sorted codes are sorted plies.
PLACE_PLY: tuple[Ply | None, ...] = tuple(Ply(-1, P2S[p]) if P2S[p] >= 0 else None
                                          for p in range(W * 5))
MOVE_PLY: list[Ply | None] = [None] * (64 * 64)
for _ps in S2P:  # the destinations at every height at once: a cheap import
    _any = 0
    for _mask in DEST[_ps][1:MAX_MOBILE_HEIGHT + 1]:
        _any |= _mask
    for _pd in bits(_any):
        MOVE_PLY[_ps << 6 | _pd] = Ply(P2S[_ps], P2S[_pd])
del _ps, _pd, _any, _mask


def _zobrist_table(seed: int) -> dict[str, list[int]]:
    import random
    rnd = random.Random(seed)
    return {c: [rnd.getrandbits(64) for _ in range(W * 5 * N_SPACES)] for c in PIECES}


ZOBRIST = _zobrist_table(0xD7011)  # ZOBRIST[piece][p * 49 + depth]
Z_TURN = 0x9E3779B97F4A7C15
Z_PHASE2 = 0xC2B2AE3D27D4EB4F
N_PLACEMENTS = N_SPACES


class Board:
    """A DVONN game from the empty board: position, side to move, history (push/pop).

    Construction: Board() is the empty board at the start of the placement phase.

    State (read-only for callers):
      turn            WHITE or BLACK: the player to move (or to pass)
      phase           1 (placing) or 2 (moving); `is_over()` once neither player can move
      ply_count       plies pushed so far (passes included)
      move_stack      list of the Ply pushed so far
    Queries:
      stack(space) -> tuple[str, ...]      () when empty
      stacks() -> list[tuple[str, ...]]    all 49
      height(space) -> int
      owner(space) -> WHITE | BLACK | None (None: empty or a lone DVONN piece)
      piece_to_place() -> 'D' | 'W' | 'B' | None   (None in phase 2)
      legal_plies() -> list[Ply]   placements in phase 1; moves in phase 2; [PASS] when the player
                                   to move has no move but the game goes on; [] when over
      is_legal(ply) -> bool
      mobile_stacks() -> list[int] the spaces the player to move may move from
      destinations(src) -> list[int] legal destinations of the stack on src for the player to move
      isolated_by(ply) -> list[int] spaces whose stacks the move would cut off (removed after it),
                                   computed without making the move
      last_removed -> dict[int, tuple[str, ...]] what the last push removed (space -> stack)
      score() -> tuple[int, int]   (white, black): total height of the stacks each player tops
      is_over() -> bool            neither player can move (phase 2)
      winner() -> WHITE | BLACK | 'draw' | None (None while not over)
      key() -> int                 position hash (Zobrist-like; equal positions, equal keys,
                                   includes side to move and phase)
    Changes:
      push(ply)          raises IllegalPly and changes nothing when illegal
      pop() -> Ply       undoes the last push exactly (removals restored)
      copy() -> Board    independent copy (history included)

    Additions beyond the contract:
      has_moves(player) -> bool      whether `player` has a move here (ignoring whose turn it is)
      moves_of(player) -> list[Ply]  the moves `player` would have here (phase 2)
      Board.from_plies(plies)        a board with the plies (Ply or str tokens) pushed
      Board.from_stacks(stacks, turn) a phase-2 position set up directly
      fen() -> str                   the position in one line; == compares positions

    >>> b = Board()
    >>> b.push(Ply.parse("e3")); b.piece_to_place(), b.turn
    ('D', 1)
    >>> b.stack(INDEX["e3"])
    ('D',)
    """

    __slots__ = ("_st", "_occ", "_w", "_b", "_dv", "_one", "_key", "turn", "ply_count",
                 "move_stack", "_undo", "_gen", "_loose")

    def __init__(self) -> None:
        self._st: list[tuple[str, ...]] = [()] * (W * 5)  # stacks by padded bit
        self._occ = self._w = self._b = self._dv = self._one = 0
        self._key = 0
        self.turn = WHITE
        self.ply_count = 0
        self.move_stack: list[Ply] = []
        # One entry per push: (bitboards and key before, src stack, dst stack, removed {p: stack})
        self._undo: list[tuple] = []
        self._gen = None  # cached sorted move codes (ps << 6 | pd) of the player to move
        # A set-up position may hold stacks not linked to any DVONN piece; then the cheap "can
        # this move cut anything off?" test does not hold and every move floods the board.
        self._loose = False

    @classmethod
    def from_plies(cls, plies) -> "Board":
        board = cls()
        for ply in plies:
            board.push(ply if isinstance(ply, Ply) else Ply.parse(ply))
        return board

    @classmethod
    def from_stacks(cls, stacks, turn: int = WHITE) -> "Board":
        """A phase-2 position set up directly (for tests, puzzles, a board read off sensors).

        stacks: 49 stacks in space order, or a mapping from space (index or name) to stack;
        a stack is a tuple or string of piece codes, bottom first ('BDW' is White's).
        The board counts as having made its 49 placements (ply_count 49, empty move_stack);
        pop() cannot go back past the set-up. Nothing is removed at set-up; stacks not linked to
        a DVONN piece there are removed after the first move, as the rules say.

        >>> b = Board.from_stacks({"d3": "D", "f3": "BW", "g3": "B"}, turn=WHITE)
        >>> [str(p) for p in b.legal_plies()], b.score()
        (['f3d3'], (2, 1))
        """
        if isinstance(stacks, dict):
            items = [(parse_space(k) if isinstance(k, str) else k, v) for k, v in stacks.items()]
        else:
            if len(stacks) != N_SPACES:
                raise ValueError(f"expected {N_SPACES} stacks, got {len(stacks)}")
            items = list(enumerate(stacks))
        board = cls()
        for space, stack in items:
            stack = tuple(stack)
            if any(c not in PIECES for c in stack):
                raise ValueError(f"{SPACES[space]}: bad piece code in {stack!r} (use W, B, D)")
            if not stack:
                continue
            p = S2P[space]
            board._st[p] = stack
            bit = 1 << p
            board._occ |= bit
            if len(stack) == 1:
                board._one |= bit
            if "D" in stack:
                board._dv |= bit
            if stack[-1] == "W":
                board._w |= bit
            elif stack[-1] == "B":
                board._b |= bit
            for i, c in enumerate(stack):
                board._key ^= ZOBRIST[c][p * N_SPACES + i]
        board.ply_count = N_PLACEMENTS
        board._loose = linked(board._occ, board._dv) != board._occ
        board.turn = turn
        board._key ^= Z_PHASE2 ^ (Z_TURN if turn == BLACK else 0)
        return board

    # -- queries ----------------------------------------------------------------------------
    @property
    def phase(self) -> int:
        return 1 if self.ply_count < N_PLACEMENTS else 2

    def stack(self, space: int) -> tuple[str, ...]:
        return self._st[S2P[space]]

    def stacks(self) -> list[tuple[str, ...]]:
        st = self._st
        return [st[p] for p in S2P]

    def height(self, space: int) -> int:
        return len(self._st[S2P[space]])

    def owner(self, space: int):
        bit = 1 << S2P[space]
        if self._w & bit:
            return WHITE
        if self._b & bit:
            return BLACK
        return None

    def piece_to_place(self):
        n = self.ply_count
        if n >= N_PLACEMENTS:
            return None
        if n < 3:
            return "D"
        return "W" if n % 2 == 0 else "B"

    def _moves(self, player: int) -> list[tuple[int, int]]:
        """`player`'s moves as sorted (padded src, padded dst) pairs (kept for callers of 0.1)."""
        return [(c >> 6, c & 63) for c in self._move_codes(player)]

    def _move_codes(self, player: int) -> list[int]:
        """Sorted codes (ps << 6 | pd) of `player`'s moves in the current position."""
        occ = self._occ
        own = self._w if player == WHITE else self._b
        mob = own & ~(occ & (occ >> 1) & (occ << 1) & (occ >> 12) & (occ << 12)
                      & (occ >> 13) & (occ << 13))
        single = mob & self._one
        out = []
        append = out.append
        if single:
            for d in DELTAS:
                t = (single << d if d > 0 else single >> -d) & occ
                while t:
                    low = t & -t
                    pd = low.bit_length() - 1
                    append((pd - d) << 6 | pd)
                    t ^= low
        tall = mob & ~self._one
        st = self._st
        while tall:
            low = tall & -tall
            ps = low.bit_length() - 1
            tall ^= low
            h = len(st[ps])
            if h <= MAX_MOBILE_HEIGHT:
                t = DEST[ps][h] & occ
                base = ps << 6
                while t:
                    lt = t & -t
                    append(base | (lt.bit_length() - 1))
                    t ^= lt
        out.sort()
        return out

    def has_moves(self, player: int) -> bool:
        """Whether `player` could move in this position (phase 2), whoever is to move."""
        if self.ply_count < N_PLACEMENTS:
            return False
        if player == self.turn and self._gen is not None:
            return bool(self._gen)
        occ = self._occ
        own = self._w if player == WHITE else self._b
        mob = own & ~(occ & (occ >> 1) & (occ << 1) & (occ >> 12) & (occ << 12)
                      & (occ >> 13) & (occ << 13))
        single = mob & self._one
        if single:
            if (((single << 1) | (single >> 1) | (single << 12) | (single >> 12)
                 | (single << 13) | (single >> 13)) & occ):
                return True
        tall = mob & ~self._one
        st = self._st
        while tall:
            low = tall & -tall
            ps = low.bit_length() - 1
            tall ^= low
            h = len(st[ps])
            if h <= MAX_MOBILE_HEIGHT and DEST[ps][h] & occ:
                return True
        return False

    def _current_moves(self) -> list[int]:
        gen = self._gen
        if gen is None:
            gen = self._gen = self._move_codes(self.turn)
        return gen

    def moves_of(self, player: int) -> list[Ply]:
        if self.ply_count < N_PLACEMENTS:
            return []
        return [MOVE_PLY[c] for c in self._move_codes(player)]

    def legal_plies(self) -> list[Ply]:
        if self.ply_count < N_PLACEMENTS:
            out = []
            free = BOARD & ~self._occ
            while free:
                low = free & -free
                out.append(PLACE_PLY[low.bit_length() - 1])
                free ^= low
            return out
        gen = self._gen
        if gen is None:
            gen = self._gen = self._move_codes(self.turn)
        if gen:
            return [MOVE_PLY[c] for c in gen]
        return [PASS] if self.has_moves(1 - self.turn) else []

    def is_legal(self, ply: Ply) -> bool:
        return self._check(ply) is None

    def _check(self, ply: Ply) -> str | None:
        """None when ply is legal here, else the reason it is not."""
        src, dst = ply
        if not (-1 <= src < N_SPACES and -1 <= dst < N_SPACES) or (dst < 0 <= src):
            return f"not a ply: {ply!r}"
        if self.ply_count < N_PLACEMENTS:
            if dst < 0:
                return "no passing while placing pieces"
            if src >= 0:
                return f"{ply} is a move, but pieces are still being placed"
            if self._occ >> S2P[dst] & 1:
                return f"{SPACES[dst]} is already occupied"
            return None
        if dst < 0:
            if self._current_moves():
                return f"{PLAYER_NAMES[self.turn]} has a legal move, so may not pass"
            if not self.has_moves(1 - self.turn):
                return "the game is over"
            return None
        if src < 0:
            return f"{ply} is a placement, but all pieces are placed"
        why = self._check_move(S2P[src], S2P[dst])
        if why is not None and self.is_over():
            return "the game is over"  # the clearest reason, whatever else is wrong
        return why

    def _check_move(self, ps: int, pd: int) -> str | None:
        src, dst = P2S[ps], P2S[pd]
        own = self._w if self.turn == WHITE else self._b
        if not own >> ps & 1:
            if not self._occ >> ps & 1:
                return f"{SPACES[src]} is empty"
            return f"{PLAYER_NAMES[self.turn]} does not control the stack on {SPACES[src]}"
        if INTERIOR >> ps & 1 and self._occ & NB[ps] == NB[ps]:
            return f"the stack on {SPACES[src]} is surrounded on all 6 sides"
        h = len(self._st[ps])
        if not (h <= MAX_MOBILE_HEIGHT and DEST[ps][h] >> pd & 1):
            return (f"a stack of {h} on {SPACES[src]} must move exactly {h} spaces in a "
                    f"straight line, which does not reach {SPACES[dst]}")
        if not self._occ >> pd & 1:
            return f"{SPACES[dst]} is empty: a move must end on a piece"
        return None

    def mobile_stacks(self) -> list[int]:
        if self.ply_count < N_PLACEMENTS:
            return []
        return sorted({P2S[c >> 6] for c in self._current_moves()})

    def destinations(self, src: int) -> list[int]:
        if self.ply_count < N_PLACEMENTS:
            return []
        ps = S2P[src]
        return [P2S[c & 63] for c in self._current_moves() if c >> 6 == ps]

    def isolated_by(self, ply: Ply) -> list[int]:
        """Spaces whose stacks `ply` (a legal move) would cut off, without making it."""
        if not ply.is_move:
            return []
        ps, pd = S2P[ply.src], S2P[ply.dst]
        srcbit, dstbit = 1 << ps, 1 << pd
        occ = self._occ & ~srcbit
        dv = self._dv
        if dv & srcbit:
            dv = (dv & ~srcbit) | dstbit
        elif not self._loose and safe_to_vacate(ps, occ):
            return []
        cut = occ & ~linked(occ, dv)
        return sorted(P2S[p] for p in bits(cut))

    @property
    def last_removed(self) -> dict[int, tuple[str, ...]]:
        if not self._undo:
            return {}
        return {P2S[p]: s for p, s in self._undo[-1][3].items()}

    def score(self) -> tuple[int, int]:
        st = self._st
        return (sum(len(st[p]) for p in bits(self._w)), sum(len(st[p]) for p in bits(self._b)))

    def is_over(self) -> bool:
        return (self.ply_count >= N_PLACEMENTS and not self._current_moves()
                and not self.has_moves(1 - self.turn))

    def winner(self):
        if not self.is_over():
            return None
        w, b = self.score()
        return WHITE if w > b else BLACK if b > w else "draw"

    def key(self) -> int:
        return self._key

    # -- changes ----------------------------------------------------------------------------
    def push(self, ply: Ply) -> None:
        """Play `ply` (placement, move or pass); IllegalPly, with nothing changed, if illegal."""
        why = self._check(ply)
        if why is not None:
            raise IllegalPly(f"{ply}: {why}")
        self._push(ply)

    def _push(self, ply: Ply) -> None:
        """push() without the legality check: for callers that took ply from legal_plies()."""
        src, dst = ply
        saved = (self._occ, self._w, self._b, self._dv, self._one, self._key)
        key = self._key
        st = self._st
        removed: dict[int, tuple[str, ...]] = {}
        old_src = old_dst = ()
        if src >= 0:  # a move
            ps, pd = S2P[src], S2P[dst]
            old_src, old_dst = st[ps], st[pd]
            moved = old_src
            hd = len(old_dst)
            z_src, z_dst = ps * N_SPACES, pd * N_SPACES + hd
            for i, c in enumerate(moved):
                zc = ZOBRIST[c]
                key ^= zc[z_src + i] ^ zc[z_dst + i]
            new = old_dst + moved
            st[ps] = ()
            st[pd] = new
            srcbit, dstbit = 1 << ps, 1 << pd
            occ = self._occ & ~srcbit
            w, b = self._w & ~srcbit & ~dstbit, self._b & ~srcbit & ~dstbit
            if moved[-1] == "W":
                w |= dstbit
            else:
                b |= dstbit
            one = self._one & ~srcbit & ~dstbit
            dv = self._dv
            if dv & srcbit:
                dv = (dv & ~srcbit) | dstbit
                check = True
            else:
                check = self._loose or not safe_to_vacate(ps, occ)
            if check:
                cut = occ & ~linked(occ, dv)
                if cut:
                    occ &= ~cut
                    w &= ~cut
                    b &= ~cut
                    one &= ~cut
                    for p in bits(cut):
                        s = st[p]
                        removed[p] = s
                        zb = p * N_SPACES
                        for i, c in enumerate(s):
                            key ^= ZOBRIST[c][zb + i]
                        st[p] = ()
            self._occ, self._w, self._b, self._dv, self._one = occ, w, b, dv, one
        elif dst >= 0:  # a placement
            pd = S2P[dst]
            c = self.piece_to_place()
            bit = 1 << pd
            st[pd] = (c,)
            self._occ |= bit
            self._one |= bit
            if c == "W":
                self._w |= bit
            elif c == "B":
                self._b |= bit
            else:
                self._dv |= bit
            key ^= ZOBRIST[c][pd * N_SPACES]
        self._undo.append((saved, old_src, old_dst, removed, self._gen))
        self.move_stack.append(ply)
        self.ply_count += 1
        if self.ply_count == N_PLACEMENTS:
            key ^= Z_PHASE2  # White placed the last piece and moves at once
        else:
            self.turn ^= 1
            key ^= Z_TURN
        self._key = key
        self._gen = None

    def pop(self) -> Ply:
        """Undo the last push exactly; returns the ply undone. IndexError when nothing to undo."""
        if not self._undo:
            raise IndexError("pop from a board with no plies")
        saved, old_src, old_dst, removed, gen = self._undo.pop()
        ply = self.move_stack.pop()
        if self.ply_count != N_PLACEMENTS:
            self.turn ^= 1
        self.ply_count -= 1
        self._occ, self._w, self._b, self._dv, self._one, self._key = saved
        st = self._st
        src, dst = ply
        if src >= 0:
            for p, s in removed.items():
                st[p] = s
            st[S2P[src]] = old_src  # after the removals: the moved stack itself may be among them
            st[S2P[dst]] = old_dst
        elif dst >= 0:
            st[S2P[dst]] = ()
        self._gen = gen
        return ply

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other._st = list(self._st)
        other._occ, other._w, other._b = self._occ, self._w, self._b
        other._dv, other._one, other._key = self._dv, self._one, self._key
        other.turn, other.ply_count = self.turn, self.ply_count
        other.move_stack = list(self.move_stack)
        other._undo = list(self._undo)
        other._gen = self._gen
        other._loose = self._loose
        return other

    def __eq__(self, other) -> bool:
        """Same position (stacks, side to move, phase); history is not compared."""
        if not isinstance(other, Board):
            return NotImplemented
        return (self._st == other._st and self.turn == other.turn
                and self.phase == other.phase)

    __hash__ = None

    def __repr__(self) -> str:
        return f"<Board ply {self.ply_count}, {PLAYER_NAMES[self.turn]} to play: {self.fen()}>"

    def fen(self) -> str:
        """A one-line text of the position: the 49 stacks (bottom up, '-' empty), turn, ply count."""
        return ("/".join("".join(s) or "-" for s in self.stacks())
                + f" {'wb'[self.turn]} {self.ply_count}")
