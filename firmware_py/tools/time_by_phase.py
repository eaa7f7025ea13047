"""Where a level's time a move goes: its seconds, depth and exact searches by stacks left.

    nice -n 19 python -m firmware_py.tools.time_by_phase --against prog:/tmp/prima/player \\
        --games 4 --seed 1

Plays `--games` games of `ai:LEVEL` at `--seconds` a move against `--against` (colours
alternating, seeds as `dvonn-board match` gives them) and prints, for the placements and for
bands of stacks left on the board, the plies chosen, the mean and longest wall-clock seconds a
ply, the mean completed depth and the searches that were exact (docs/engine-strength.md,
round 15: the plies that leave the move's time unused).
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from ..match import game_seeds, play_game
from ..players import AIPlayer, parse_spec
from ..rules import N_PLACEMENTS

BANDS = ((40, "40+"), (32, "32-39"), (24, "24-31"), (16, "16-23"), (0, "<16"))


def band(placing: bool, stacks: int) -> str:
    """The row a ply is counted in.

    >>> band(True, 47), band(False, 49), band(False, 24), band(False, 3)
    ('place', '40+', '24-31', '<16')
    """
    if placing:
        return "place"
    return next(name for low, name in BANDS if stacks >= low)


def measure(against: str, games: int, seed: int, level: int = 3, seconds: float = 0.5):
    """{band: [(seconds, depth, exact), ...]} of our plies, and our margins (pieces)."""
    rows, margins = defaultdict(list), []
    for g in range(1, games + 1):
        s1, s2 = game_seeds(seed, g)
        me = AIPlayer(level, s1, seconds=seconds)

        def mine(board, me=me):
            ply = me(board)
            r = me.last
            rows[band(board.ply_count < N_PLACEMENTS, board._occ.bit_count())].append(
                (r.seconds, r.depth, r.exact))
            return ply

        other = parse_spec(against, s2)
        ours_white = g % 2 == 1
        try:
            board, *_ = play_game(*((mine, other) if ours_white else (other, mine)))
        finally:
            getattr(other, "close", lambda: None)()
        white, black = board.score()
        margins.append(white - black if ours_white else black - white)
    return rows, margins


def report(rows, margins) -> str:
    lines = [f"margins {margins}", "band    plies  mean s   max s  depth  exact"]
    for name in ["place"] + [name for _, name in BANDS]:
        v = rows.get(name)
        if v:
            lines.append(f"{name:6} {len(v):6} {sum(x[0] for x in v) / len(v):7.3f} "
                         f"{max(x[0] for x in v):7.3f} {sum(x[1] for x in v) / len(v):6.2f} "
                         f"{sum(x[2] for x in v):6}")
    every = [x for v in rows.values() for x in v]
    lines.append(f"all    {len(every):6} {sum(x[0] for x in every) / max(1, len(every)):7.3f}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.tools.time_by_phase",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--against", default="ai:3", help="the opponent's SPEC (default ai:3)")
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--level", type=int, default=3)
    p.add_argument("--seconds", type=float, default=0.5, help="our time a move (default 0.5)")
    args = p.parse_args(argv)
    try:
        print(report(*measure(args.against, args.games, args.seed, args.level, args.seconds)))
    except (ValueError, OSError) as e:
        p.error(str(e))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
