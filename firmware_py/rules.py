"""The DVONN rules engine (API CONTRACT; implemented with bitboards, see issue 2).

Every other part of the project codes against exactly this API. Implementers may add, but not
change, what is below without updating every caller.

Pieces are one-letter codes: 'W' white, 'B' black, 'D' DVONN. A stack is a tuple of codes from
the bottom up: ('B', 'D', 'W') is owned by White. Players are WHITE = 0 and BLACK = 1.
Spaces are indices 0..48 (see `spaces`).

This module is the position (`Board`); a ply and its notation are in `ply`, the bitboards'
geometry, precomputed tables and move generation in `bitboards`. The players, pieces and `Ply`,
and the tables the engine reads (S2P, P2S, DEST, ...), are importable from here too.
"""

from __future__ import annotations

from .bitboards import (ARC_SAFE, BOARD, DEST, INTERIOR, MAX_MOBILE_HEIGHT, MOVE_PLY,
                        N_PLACEMENTS, NB, P2S, PLACE_PLY, RING_MASK, S2P, W, Z_PHASE2, Z_TURN,
                        ZOBRIST, any_move, bits, linked, move_codes, safe_to_vacate)
from .bitboards import surrounded  # noqa: F401 (re-exported for the engine, firmware_py.ai)
from .errors import IllegalPly
from .ply import BLACK, PASS, PIECES, PLAYER_NAMES, WHITE, Ply  # noqa: F401 (re-exported)
from .spaces import INDEX, N_SPACES, SPACES, parse_space  # noqa: F401 (INDEX: the doctests)


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
        # One entry per push: (ps, pd, the stacks on them before, removed {p: stack} or None,
        # _gen, the bitboards and key before); ps = -1 for a placement or a pass, pd = -1 for a pass
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

    def _move_codes(self, player: int) -> list[int]:
        """Sorted codes (ps << 6 | pd) of `player`'s moves in the current position."""
        return move_codes(self._occ, self._w if player == WHITE else self._b, self._one, self._st)

    def has_moves(self, player: int) -> bool:
        """Whether `player` could move in this position (phase 2), whoever is to move."""
        if self.ply_count < N_PLACEMENTS:
            return False
        if player == self.turn and self._gen is not None:
            return bool(self._gen)
        return any_move(self._occ, self._w if player == WHITE else self._b, self._one, self._st)

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
        removed = self._undo[-1][3]
        return {P2S[p]: s for p, s in removed.items()} if removed else {}

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
        if src >= 0:
            self._move(S2P[src] << 6 | S2P[dst], ply)
            return
        key = self._key
        self._undo.append((-1, -1 if dst < 0 else S2P[dst], (), None, (), self._gen, self._occ,
                           self._w, self._b, self._dv, self._one, key))
        if dst >= 0:  # a placement
            pd = S2P[dst]
            c = self.piece_to_place()
            bit = 1 << pd
            self._st[pd] = (c,)
            self._occ |= bit
            self._one |= bit
            if c == "W":
                self._w |= bit
            elif c == "B":
                self._b |= bit
            else:
                self._dv |= bit
            key ^= ZOBRIST[c][pd * N_SPACES]
        self.move_stack.append(ply)
        self.ply_count += 1
        if self.ply_count == N_PLACEMENTS:
            key ^= Z_PHASE2  # White placed the last piece and moves at once
        else:
            self.turn ^= 1
            key ^= Z_TURN
        self._key = key
        self._gen = None

    def _move(self, code: int, ply: Ply | None = None) -> None:
        """_push of the move coded ps << 6 | pd (as the move generator gives it), unchecked;
        ply: the same move as a Ply, if the caller has it. The search's make-move: it runs at
        every node, so the common single piece's key change is written out."""
        ps = code >> 6
        pd = code & 63
        st = self._st
        moved = st[ps]
        old_dst = st[pd]
        key = self._key
        occ = self._occ
        w = self._w
        b = self._b
        dv = self._dv
        one = self._one
        removed = None
        if len(moved) == 1:
            zc = ZOBRIST[moved[0]]
            key ^= zc[ps * N_SPACES] ^ zc[pd * N_SPACES + len(old_dst)]
        else:
            z_src, z_dst = ps * N_SPACES, pd * N_SPACES + len(old_dst)
            for i, c in enumerate(moved):
                zc = ZOBRIST[c]
                key ^= zc[z_src + i] ^ zc[z_dst + i]
        st[ps] = ()
        st[pd] = old_dst + moved
        srcbit, dstbit = 1 << ps, 1 << pd
        both = srcbit | dstbit
        new_occ = occ ^ srcbit
        new_w, new_b = w & ~both, b & ~both
        if moved[-1] == "W":
            new_w |= dstbit
        else:
            new_b |= dstbit
        new_one = one & ~both
        if dv & srcbit:
            new_dv = dv ^ srcbit | dstbit
            check = True
        else:
            new_dv = dv
            check = self._loose or not ARC_SAFE[new_occ << 13 >> ps & RING_MASK]  # safe_to_vacate
        if check:
            cut = new_occ & ~linked(new_occ, new_dv)
            if cut:
                new_occ &= ~cut
                new_w &= ~cut
                new_b &= ~cut
                new_one &= ~cut
                removed = {}
                for p in bits(cut):
                    s = st[p]
                    removed[p] = s
                    zb = p * N_SPACES
                    for i, c in enumerate(s):
                        key ^= ZOBRIST[c][zb + i]
                    st[p] = ()
        self._undo.append((ps, pd, moved, removed, old_dst, self._gen, occ, w, b, dv, one,
                           self._key))
        self._occ, self._w, self._b, self._dv, self._one = new_occ, new_w, new_b, new_dv, new_one
        self.move_stack.append(MOVE_PLY[code] if ply is None else ply)
        self.ply_count += 1  # never reaches N_PLACEMENTS with a move: the turn always passes
        self.turn ^= 1
        self._key = key ^ Z_TURN
        self._gen = None

    def pop(self) -> Ply:
        """Undo the last push exactly; returns the ply undone. IndexError when nothing to undo."""
        if not self._undo:
            raise IndexError("pop from a board with no plies")
        (ps, pd, old_src, removed, old_dst, self._gen, self._occ, self._w, self._b, self._dv,
         self._one, self._key) = self._undo.pop()
        if ps >= 0:
            st = self._st
            if removed:
                for p, s in removed.items():
                    st[p] = s
            st[ps] = old_src  # after the removals: the moved stack itself may be among them
            st[pd] = old_dst
        elif pd >= 0:
            self._st[pd] = ()
        if self.ply_count != N_PLACEMENTS:
            self.turn ^= 1
        self.ply_count -= 1
        return self.move_stack.pop()

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
