"""A deliberately simple, obviously-correct DVONN engine: the yardstick for firmware_py.rules.

Written straight from the rulebook and ../shared/rules/NOTES.md with lists, loops and a
breadth-first search; no bitboards, no caching, no cleverness. Speed does not matter here.
Spaces are the indices of `firmware_py.spaces`; stacks are lists of 'W'/'B'/'D', bottom first.
"""

from __future__ import annotations

from firmware_py.spaces import N_SPACES, NEIGHBOURS, step

WHITE, BLACK = 0, 1
COLOUR = ("W", "B")


class RefGame:
    def __init__(self):
        self.stacks: list[list[str]] = [[] for _ in range(N_SPACES)]
        self.placed = 0          # placements made so far
        self.turn = WHITE
        self.last_removed: dict[int, tuple[str, ...]] = {}

    # -- phase 1 ---------------------------------------------------------------------------
    def placing(self) -> bool:
        return self.placed < N_SPACES

    def piece_to_place(self) -> str:
        # White, Black, White place the three DVONN pieces; then Black places first.
        if self.placed < 3:
            return "D"
        return COLOUR[self.turn]

    def placements(self) -> list[int]:
        return [s for s in range(N_SPACES) if not self.stacks[s]]

    def place(self, space: int) -> None:
        assert self.placing() and not self.stacks[space]
        self.stacks[space] = [self.piece_to_place()]
        self.placed += 1
        if self.placed < N_SPACES:
            self.turn = 1 - self.turn
        # else: White made the 49th placement and starts phase 2: turn stays WHITE.
        self.last_removed = {}

    # -- phase 2 ---------------------------------------------------------------------------
    def is_surrounded(self, space: int) -> bool:
        ns = NEIGHBOURS[space]
        return len(ns) == 6 and all(self.stacks[n] for n in ns)

    def moves(self, player: int) -> list[tuple[int, int]]:
        """Every (src, dst) that `player` may play."""
        result = []
        for src in range(N_SPACES):
            stack = self.stacks[src]
            if not stack or stack[-1] != COLOUR[player]:
                continue  # empty, opponent's, or a lone DVONN piece
            if self.is_surrounded(src):
                continue
            for direction in range(6):
                dst = step(src, direction, len(stack))
                if dst is not None and self.stacks[dst]:
                    result.append((src, dst))
        return sorted(result)

    def move(self, src: int, dst: int) -> None:
        assert (src, dst) in self.moves(self.turn)
        self.stacks[dst] = self.stacks[dst] + self.stacks[src]
        self.stacks[src] = []
        self.remove_cut_off()
        self.turn = 1 - self.turn

    def pass_turn(self) -> None:
        assert not self.moves(self.turn) and self.moves(1 - self.turn)
        self.last_removed = {}
        self.turn = 1 - self.turn

    def remove_cut_off(self) -> None:
        seen = {s for s in range(N_SPACES) if "D" in self.stacks[s]}
        frontier = list(seen)
        while frontier:
            s = frontier.pop()
            for n in NEIGHBOURS[s]:
                if self.stacks[n] and n not in seen:
                    seen.add(n)
                    frontier.append(n)
        self.last_removed = {}
        for s in range(N_SPACES):
            if self.stacks[s] and s not in seen:
                self.last_removed[s] = tuple(self.stacks[s])
                self.stacks[s] = []

    def is_over(self) -> bool:
        return not self.placing() and not self.moves(WHITE) and not self.moves(BLACK)

    def score(self) -> tuple[int, int]:
        totals = [0, 0]
        for stack in self.stacks:
            if stack and stack[-1] in COLOUR:
                totals[COLOUR.index(stack[-1])] += len(stack)
        return totals[0], totals[1]
