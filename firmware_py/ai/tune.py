"""Fit the evaluation weights to the outcomes of self-play games.

    nice -n 10 python -m firmware_py.ai.tune --games 300 --nodes 1000 --seed 1

Plays `--games` games of the engine against itself (`--nodes` a move; a fraction `--explore`
of the plies is played at random, so the positions vary), keeps every position with its
game's final margin, and fits by least squares the margin (from the mover's side, in
hundredths of a piece) on

  - `evaluation.terms()` for the moving-phase positions, giving `evaluation.Weights`;
  - `placement.place_terms()` for the placement positions from the 10th ply on, giving
    `placement.PlacementWeights` (jitter is noise, not fitted).

It prints both as Python to paste over the defaults, with each fit's R^2 and sample count;
record the run in `evaluation.TUNING`. `--save FILE` keeps the positions' terms and margins
(JSON lines), `--load FILE` refits them without playing; `--max-stacks N` fits only moving-phase
positions with at most N stacks (later positions, whose outcome the terms decide more), and
`--fix NAME=VALUE` holds a weight (e.g. the capture terms, which the search needs more than the
outcome shows) and fits the others to what it leaves. Fitting to outcomes rather than by matches is cheap,
but only a match shows whether new weights play better: check with

    dvonn-board match --white ai:3,nodes=3000 --black ai:classic,nodes=3000 --games 40

Repeat a few times (the games are played with the weights in force, so each round sees the
positions the last round's weights lead to).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import fields

from ..rules import N_PLACEMENTS, WHITE, Board
from .evaluation import Weights, terms
from .placement import PlacementWeights, place_terms
from .search import Searcher


def self_play(games: int, nodes: int, seed: int, explore: float, progress=None):
    """Positions of self-play games: (phase-1 rows, phase-2 rows), each (terms, margin,
    stacks on the board)."""
    rng = random.Random(seed)
    place_rows, move_rows = [], []
    from . import choose

    for g in range(games):
        board = Board()
        searchers = (Searcher(random.Random(rng.random())), Searcher(random.Random(rng.random())))
        seen = []
        while not board.is_over():
            legal = board.legal_plies()
            if legal[0].is_move or 10 <= board.ply_count < N_PLACEMENTS:
                seen.append(_row(board))
            if len(legal) > 1 and board.ply_count >= 3 and rng.random() < explore:
                ply = rng.choice(legal)
            else:
                ply = choose(board, 3, rng, nodes=nodes, searcher=searchers[board.turn]).ply
            board.push(ply)
        w, b = board.score()
        for phase, turn, row, stacks in seen:
            margin = 100 * ((w - b) if turn == WHITE else (b - w))
            (place_rows if phase == 1 else move_rows).append((row, margin, stacks))
        if progress:
            progress(g + 1, w, b)
    return place_rows, move_rows


def _row(board: Board):
    stacks = board._occ.bit_count()
    if board.ply_count < N_PLACEMENTS:
        return 1, board.turn, place_terms(board), stacks
    return 2, board.turn, terms(board), stacks


def _load(path: str):
    place_rows, move_rows = [], []
    with open(path) as f:
        for line in f:
            phase, row, margin, stacks = json.loads(line)
            (place_rows if phase == 1 else move_rows).append((tuple(row), margin, stacks))
    return place_rows, move_rows


def fit(rows, names: list[str], intercept: bool, fixed: dict[str, float] | None = None):
    """Least squares of the margins on the terms: (weights by name, R^2). `fixed` weights are
    held: their part is taken off the margins and the others are fitted to the rest."""
    import numpy as np

    fixed = fixed or {}
    x = np.array([r for r, _ in rows], dtype=float)
    y = np.array([m for _, m in rows], dtype=float)
    if intercept:
        x = np.hstack([x, np.ones((len(x), 1))])
    held = [i for i, n in enumerate(names) if n in fixed]
    free = [i for i in range(len(names)) if i not in held]
    target = y - sum(fixed[names[i]] * x[:, i] for i in held) if held else y
    coef, *_ = np.linalg.lstsq(x[:, free], target, rcond=None)
    full = np.zeros(len(names))
    full[free] = coef
    for i in held:
        full[i] = fixed[names[i]]
    resid = y - x @ full
    r2 = 1 - resid.var() / y.var()
    return dict(zip(names, (int(round(c)) for c in full))), r2


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.ai.tune", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--nodes", type=int, default=1000, help="nodes a move in the self-play")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--explore", type=float, default=0.1,
                   help="fraction of plies played at random (default 0.1)")
    p.add_argument("--save", metavar="FILE", help="keep the positions (JSON lines)")
    p.add_argument("--load", metavar="FILE", help="fit positions saved before; play no games")
    p.add_argument("--max-stacks", type=int, default=49, metavar="N",
                   help="fit moving-phase positions with at most N stacks only")
    p.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                   help="hold this moving-phase weight (may be repeated)")
    args = p.parse_args(argv)
    move_names = [f.name for f in fields(Weights)]  # tempo is the terms' constant 1
    fixed = {}
    for item in args.fix:
        name, _, number = item.partition("=")
        try:
            fixed[name] = float(number)
        except ValueError:
            p.error(f"--fix {item!r}: expected NAME=NUMBER")
        if name not in move_names:
            p.error(f"--fix {item!r}: no weight {name!r} (weights: {', '.join(move_names)})")
    if args.games < 1 or args.nodes < 1 or not 0 <= args.explore < 1:
        p.error("--games and --nodes must be at least 1, --explore in [0, 1)")
    t0 = time.perf_counter()

    def progress(g, w, b):
        print(f"game {g}: {w}-{b} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr,
              flush=True)

    if args.load:
        place_rows, move_rows = _load(args.load)
    else:
        place_rows, move_rows = self_play(args.games, args.nodes, args.seed, args.explore,
                                          progress)
    if args.save:
        with open(args.save, "w") as f:
            for phase, rows in ((1, place_rows), (2, move_rows)):
                for row, margin, stacks in rows:
                    f.write(json.dumps([phase, list(row), margin, stacks]) + "\n")
    chosen = [(r, m) for r, m, stacks in move_rows if stacks <= args.max_stacks]
    weights, r2 = fit(chosen, move_names, intercept=False, fixed=fixed)
    print(f"# moving phase: {len(chosen)} positions (at most {args.max_stacks} stacks), "
          f"R^2 {r2:.3f}" + (f", held: {args.fix}" if fixed else ""))
    print("Weights(" + ", ".join(f"{k}={v}" for k, v in weights.items()) + ")")
    place_names = [f.name for f in fields(PlacementWeights) if f.name != "jitter"]
    pweights, r2 = fit([(r, m) for r, m, _ in place_rows], place_names + ["mover"],
                       intercept=True)
    mover = pweights.pop("mover")
    print(f"# placement phase: {len(place_rows)} positions, R^2 {r2:.3f} (mover's edge "
          f"{mover / 100:+.2f} pieces)")
    print("PlacementWeights(" + ", ".join(f"{k}={v}" for k, v in pweights.items()) + ")")
    source = args.load or (f"{args.games} games, {args.nodes} nodes a move, explore "
                           f"{args.explore}, seed {args.seed}")
    print(f"# {source}: {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
