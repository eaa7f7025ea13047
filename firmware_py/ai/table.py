"""The search's transposition table, sized to the machine it runs on.

Each entry is (key, depth, lower, upper, move, generation, progress): two bounds on the value
of a position, the depth they were searched to (EXACT_DEPTH: resting only on finished games,
true at any depth), the best move found, the search that stored it and how far into the game
the position is (`progress`). Entries go in buckets of two: the first keeps the deeper
search, the second takes whatever the first refuses.

A DVONN game only goes forward (placements fill spaces, moves empty them), so a position less
far into the game than the position being searched can never come back: its entry is dead and
gives way to anything. An entry from an earlier search gives way too, unless it is exact: a
solved ending stays solved from move to move. Live entries of the current search are replaced
only by deeper ones.

Size: 160-185 bytes an entry (measured over whole games, `python -m firmware_py.tools.ai_memory`
and tracemalloc), so the table gets the most entries, up to 2^19, that fill at most 1/32 of
the machine's memory: 2^16 (about 12 MB when full) on a Raspberry Pi Zero 2 W with 512 MB,
2^19 (about 95 MB) from 4 GB up.

>>> t = Table(bits=4)
>>> t.store(12345, 3, -50, 20, None, 60); t.probe(12345)[1:4]
(3, -50, 20)
"""

from __future__ import annotations

import os

from ..rules import N_PLACEMENTS, Board, Ply

EXACT_DEPTH = 1000     # table depth of a value that rests only on finished games
MAX_BITS = 19          # 2^19 entries: more than a whole game at level 5 fills here
MIN_BITS = 12
ENTRY_BYTES = 190      # one entry with its numbers, measured (see above)
MEMORY_SHARE = 32      # the table may fill 1/MEMORY_SHARE of the machine's memory


def progress(board: Board) -> int:
    """How far into the game `board` is: never smaller after any ply (placements fill
    spaces, moves empty them; passes change nothing)."""
    if board.ply_count < N_PLACEMENTS:
        return board.ply_count
    return 2 * N_PLACEMENTS - board._occ.bit_count()


def machine_memory() -> int | None:
    """Bytes of memory of this machine, or None if the system does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def table_bits(memory: int | None = None) -> int:
    """log2 of the entries for a machine with `memory` bytes (default: this one's).

    >>> table_bits(512 * 2**20), table_bits(2 * 2**30), table_bits(64 * 2**30)
    (16, 18, 19)
    """
    memory = memory if memory is not None else machine_memory()
    if memory is None:
        return MIN_BITS + 4  # unknown: what a 512 MB Pi gets
    entries = memory // MEMORY_SHARE // ENTRY_BYTES
    return max(MIN_BITS, min(MAX_BITS, entries.bit_length() - 1))


class Table:
    """A transposition table with two entries a bucket (see the module docstring).

    bits: log2 of the entries (default: `table_bits()` for this machine).
    """

    def __init__(self, bits: int | None = None):
        bits = table_bits() if bits is None else bits
        if not 1 <= bits <= 30:
            raise ValueError(f"table bits must be 1..30, not {bits}")
        self.slots: list[tuple | None] = [None] * (1 << bits)
        self.mask = (1 << bits) - 2
        self.generation = 0
        self.floor = 0  # progress of the position being searched: entries below it are dead

    def new_search(self, root: Board) -> None:
        """Start a search from `root`: earlier searches' entries and dead ones give way."""
        self.generation += 1
        self.floor = progress(root)

    def probe(self, key: int) -> tuple | None:
        i = key & self.mask
        e = self.slots[i]
        if e is not None and e[0] == key:
            return e
        e = self.slots[i + 1]
        if e is not None and e[0] == key:
            return e
        return None

    def store(self, key: int, depth: int, lower: int, upper: int, move: Ply | None,
              stage: int) -> None:
        """Store bounds found for the position `key`, `stage` = its progress()."""
        slots = self.slots
        i = key & self.mask
        e = slots[i]
        if e is not None and e[0] == key and e[1] == depth and e[2] <= upper and lower <= e[3]:
            lower, upper = max(lower, e[2]), min(upper, e[3])  # two searches, tighter bounds
            move = move or e[4]
        entry = (key, depth, lower, upper, move, self.generation, stage)
        if (e is None or e[0] == key or depth >= e[1] or e[6] < self.floor
                or (e[5] != self.generation and e[1] < EXACT_DEPTH)):
            slots[i] = entry
        else:
            slots[i + 1] = entry

    def filled(self) -> int:
        """Entries in use (for measurements)."""
        return sum(e is not None for e in self.slots)
