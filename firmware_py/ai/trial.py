"""Try evaluation weights in matches: the way the weights in force were chosen (see TUNING).

    nice -n 19 python -m firmware_py.ai.trial near1=80 near2=30 reach1=30 --games 60 --seed 7
    nice -n 19 python -m firmware_py.ai.trial setup.contact=60 --placements own --games 100

Plays the default level with the changed `evaluation.Weights` (and `setup.NAME`: the placement
search's `placement_search.SetupWeights`) against `ai:classic` (or with
`--against default`, against the weights in force) at equal time (each engine with its node
budget for the level, times --budget-scale), colours alternating: once from each side's own
placements, once from shared placement phases played by ai:classic (games 2k-1 and 2k from the
same one, colours swapped). Node budgets make it repeatable: the same arguments give the same
games. `ai.tune` fits weights to outcomes; only matches like these show they play better.
`early.NAME=VALUE` changes a weight of the first half of the moving phase
(`evaluation.EARLY_WEIGHTS`, interpolated to the others by the stacks left; `early=none`: one set
of weights throughout), for the trial side only.
A change that makes a node dearer is tried at equal time with `--trial-scale F`: the trial
side's budget times F, its nodes a CPU second over those of the weights in force (measure them
with `python -m firmware_py.tools.bench_ai --only speed --before main`).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time

from . import DEFAULT_LEVEL, LEVEL_NODES
from .evaluation import DEFAULT_WEIGHTS, EARLY_WEIGHTS, Weights
from .placement_search import DEFAULT_SETUP, SetupWeights


def trial(weights: Weights, games: int, seed: int, scale: float, against: str,
          shared: bool, setup: SetupWeights = DEFAULT_SETUP, on_game=None,
          trial_scale: float = 1.0, early: Weights | None = EARLY_WEIGHTS) -> dict:
    """Results of `weights` (as the --white player of a match) against the opponent.
    on_game(result): called after each game."""
    from ..match import play_match, play_openings
    from ..players import AIPlayer
    from . import classic

    nodes = max(1, round(LEVEL_NODES[DEFAULT_LEVEL] * scale))
    if against == "classic":
        other = f"ai:classic,nodes={max(1, round(classic.LEVEL_NODES[DEFAULT_LEVEL] * scale))}"
    else:
        other = f"ai:{DEFAULT_LEVEL},nodes={nodes}"
    mine = max(1, round(nodes * trial_scale))  # equal time when the trial costs more a node
    name = f"ai:{DEFAULT_LEVEL},nodes={mine},trial"

    def make(spec: str, seed_: int):
        if spec != name:
            return None
        return AIPlayer(DEFAULT_LEVEL, seed_, nodes=mine, name=name, weights=weights,
                        setup=setup, early=early)

    openings = play_openings("ai:classic,nodes=2000", (games + 1) // 2, seed) if shared else None
    _, summary = play_match(name, other, games, seed, openings=openings, make=make,
                            on_game=on_game)
    return summary.to_json()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.ai.trial", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("changes", nargs="*", metavar="NAME=VALUE",
                   help="evaluation weights to change (the others stay as they are); "
                        "setup.NAME=VALUE: a weight of the placement search; "
                        "early.NAME=VALUE: a weight of the first half of the moving phase "
                        "(evaluation.EARLY_WEIGHTS, from the weights in force if None); "
                        "early=none: one set of weights throughout")
    p.add_argument("--games", type=int, default=60, help="games per match (default 60)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--budget-scale", type=float, default=0.15, metavar="F",
                   help="multiply both node budgets by F (default 0.15)")
    p.add_argument("--trial-scale", type=float, default=1.0, metavar="F",
                   help="multiply the trial side's node budget by F (its nodes a second "
                        "against the weights in force: equal time; default 1)")
    p.add_argument("--against", choices=("classic", "default"), default="classic")
    p.add_argument("--placements", choices=("own", "same", "both"), default="both",
                   help="from each side's own placements, from shared ones, or both (default)")
    p.add_argument("--progress", action="store_true",
                   help="a line per game on stderr (the changed weights' running score)")
    args = p.parse_args(argv)
    names = [f.name for f in dataclasses.fields(Weights)]
    setup_names = [f"setup.{f.name}" for f in dataclasses.fields(SetupWeights)]
    early_names = [f"early.{f.name}" for f in dataclasses.fields(Weights)]
    changes, setup_changes, early_changes = {}, {}, {}
    no_early = False
    for item in args.changes:
        key, _, number = item.partition("=")
        if item == "early=none":
            no_early = True
            continue
        if key in early_names:
            try:
                early_changes[key[len("early."):]] = int(number)
            except ValueError:
                p.error(f"{item!r}: the value must be a whole number (hundredths of a piece)")
            continue
        if key not in names + setup_names:
            p.error(f"{item!r}: no weight {key!r} (weights: {', '.join(names + setup_names)})")
        try:
            value = int(number)
        except ValueError:
            p.error(f"{item!r}: the value must be a whole number (hundredths of a piece)")
        if key in names:
            changes[key] = value
        else:
            setup_changes[key[len("setup."):]] = value
    if args.games < 1 or not args.budget_scale > 0:
        p.error("--games must be at least 1 and --budget-scale more than 0")
    weights = dataclasses.replace(DEFAULT_WEIGHTS, **changes)
    setup = dataclasses.replace(DEFAULT_SETUP, **setup_changes)
    early = None if no_early else EARLY_WEIGHTS
    if early_changes:
        early = dataclasses.replace(early or weights, **early_changes)
    print(f"# {weights} early {early} {setup} against {args.against}, seed {args.seed}",
          flush=True)
    kinds = {"own": (False,), "same": (True,), "both": (False, True)}[args.placements]
    tally = [0.0, 0]

    def progress(r) -> None:
        first = "black" if r.swapped else "white"  # the trial weights' colour
        tally[0] += 1.0 if r.winner == first else 0.5 if r.winner == "draw" else 0.0
        tally[1] += 1
        print(f"  game {r.game}: {r.white} vs {r.black}: {r.winner} {r.score[0]}-{r.score[1]}"
              f" (score {tally[0]:g}/{tally[1]})", file=sys.stderr, flush=True)
    for shared in kinds:
        t0 = time.perf_counter()
        tally[:] = [0.0, 0]
        s = trial(weights, args.games, args.seed, args.budget_scale, args.against, shared,
                  setup, progress if args.progress else None, args.trial_scale, early)
        r, w, b = s["first_result"], s["first_as"]["white"], s["first_as"]["black"]
        print(f"{'same placements' if shared else 'own placements':16} {args.games} games: "
              f"{r['wins']}-{r['draws']}-{r['losses']} ({100 * s['first_score_rate']:.1f} %; as "
              f"White {w['wins']}-{w['draws']}-{w['losses']}, as Black {b['wins']}-{b['draws']}-"
              f"{b['losses']}), mean margin {s['mean_margin']:+.1f}, "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
