"""How much memory the computer opponent takes over a whole game (its table above all).

    python -m firmware_py.tools.ai_memory                        # level 3's nodes, this machine's table
    python -m firmware_py.tools.ai_memory --memory-mb 512        # the table a Pi Zero 2 W gets
    python -m firmware_py.tools.ai_memory --nodes 200000 --bits 19

Plays one game of the engine against itself (one searcher a side, as in a match, each with a
table sized for a machine with --memory-mb, default this one) and prints the entries its
tables hold, the bytes they take (the slot lists, entry tuples and the numbers in them), the
bytes an entry takes, the tables' size if full, and the process's peak resident size (what
the system sees, Python and the rules included).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time


def table_bytes(table) -> int:
    """Bytes the table takes: its slot list, entry tuples and the numbers in them (small
    numbers and the moves are shared objects, so they are not counted)."""
    total = sys.getsizeof(table.slots)
    for e in table.slots:
        if e is not None:
            total += sys.getsizeof(e) + sum(sys.getsizeof(x) for x in e
                                            if isinstance(x, int) and not -5 <= x <= 256)
    return total


def measure(nodes: int, bits: int, seed: int = 1) -> dict:
    """Play one game at `nodes` a move with tables of 2^bits entries; the figures."""
    from .. import ai
    from ..rules import Board

    rng = random.Random(seed)
    searchers = (ai.Searcher(random.Random(rng.random()), table_bits=bits),
                 ai.Searcher(random.Random(rng.random()), table_bits=bits))
    empty = sum(table_bytes(s.table) for s in searchers)
    board = Board()
    t0 = time.perf_counter()
    while not board.is_over():
        board.push(ai.choose(board, ai.DEFAULT_LEVEL, rng, nodes=nodes,
                             searcher=searchers[board.turn]).ply)
    seconds = time.perf_counter() - t0
    entries = sum(s.table.filled() for s in searchers)
    kept = sum(table_bytes(s.table) for s in searchers)
    return {"nodes_per_move": nodes, "table_bits": bits, "plies": board.ply_count,
            "entries": entries, "entries_max": 2 << bits, "slots_mb": round(empty / 1e6, 1),
            "tables_mb": round(kept / 1e6, 1),
            "bytes_per_entry": round((kept - empty) / max(1, entries)),
            "full_mb": round((empty + (kept - empty) / max(1, entries) * (2 << bits)) / 1e6, 1),
            "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "seconds": round(seconds, 1)}


def main(argv: list[str] | None = None) -> int:
    from .. import ai
    from ..ai.table import table_bits

    p = argparse.ArgumentParser(prog="python -m firmware_py.tools.ai_memory", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--nodes", type=int, default=ai.LEVEL_NODES[ai.DEFAULT_LEVEL],
                   help="nodes a move (default: the default level's here)")
    p.add_argument("--memory-mb", type=int, default=None,
                   help="size the tables for a machine with this much memory (default: this one)")
    p.add_argument("--bits", type=int, default=None, help="log2 of the table's entries instead")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.nodes < 1:
        p.error(f"--nodes {args.nodes}: must be at least 1")
    if args.memory_mb is not None and args.memory_mb < 1:
        p.error(f"--memory-mb {args.memory_mb}: must be at least 1")
    if args.bits is not None and not 1 <= args.bits <= 30:
        p.error(f"--bits {args.bits}: must be 1..30")
    bits = args.bits if args.bits is not None else table_bits(
        None if args.memory_mb is None else args.memory_mb * 2**20)
    r = measure(args.nodes, bits, args.seed)
    print(f"{r['plies']} plies at {r['nodes_per_move']} nodes a move, two tables of 2^{bits}: "
          f"{r['entries']} of {r['entries_max']} entries used, {r['tables_mb']} MB "
          f"({r['slots_mb']} MB empty, {r['bytes_per_entry']} bytes an entry, {r['full_mb']} MB "
          f"if full); process peak RSS {r['max_rss_mb']} MB; {r['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
