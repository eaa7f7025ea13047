"""Fit the moving-phase evaluation to who won games between strong players (Texel tuning).

    nice -n 19 dvonn-board match --white prog:/tmp/prima/player --black prog:/tmp/prima/player \\
        --games 240 --json --record > games.jsonl          # or any match, with any players
    python -m firmware_py.ai.texel games.jsonl [more.jsonl ...] [--fix threat=200]

Reads the games `dvonn-board match --json --record` prints, replays each, and keeps every
moving-phase position where the player to move has a move, labelled 1 if that player went on
to win, 0.5 for a draw, 0 for a loss. It then fits a logistic model of the label on
`evaluation.terms()` (maximum likelihood, Newton's method, a small ridge pull towards the
weights in force so that terms the games rarely show keep their value), and prints the weights
as Python, in hundredths of a piece: log-odds divided by the scale that best turns the weights
in force into win chances (so the search's pruning margins keep their meaning). `--fix NAME=VALUE` holds a weight (the capture terms: a quiet position's outcome
shows little of what a capture at a leaf is worth to the search).

Unlike `ai.tune` (least squares on the final margin of our own self-play), this predicts
winning, which is what the search should maximise, from games stronger than ours. Only matches
show whether the fit plays better (`ai.trial`, then the PrimaDvonna match in the README); what
was tried is in `evaluation.TUNING`.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields

from ..rules import N_PLACEMENTS, WHITE, Board, IllegalPly, Ply
from .evaluation import DEFAULT_WEIGHTS, Weights, terms

RIDGE = 1.0  # pull towards the weights in force, per position-count unit (see fit)


def positions(lines) -> list[tuple[tuple[int, ...], float]]:
    """(terms for the mover, the mover's result 1 / 0.5 / 0) of every moving-phase position
    with a move, in the game records of `match --json --record` lines. ValueError naming the
    line for a record that is not a legal game."""
    rows = []
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line.startswith("{"):
            continue
        game = json.loads(line)
        if "record" not in game or game.get("winner") is None:
            continue
        board = Board()
        seen = []
        try:
            for token in game["record"].split():
                if board.ply_count >= N_PLACEMENTS and board.legal_plies()[0].is_move:
                    seen.append((board.turn, terms(board)))
                board.push(Ply.parse(token))
        except (IllegalPly, ValueError) as e:
            raise ValueError(f"line {n}: not a legal game record ({e})") from None
        winner = {"white": WHITE, "black": 1 - WHITE}.get(game["winner"])
        for turn, row in seen:
            rows.append((row, 0.5 if winner is None else 1.0 if turn == winner else 0.0))
    return rows


def fit(rows, start: Weights = DEFAULT_WEIGHTS, fixed: dict[str, float] | None = None,
        ridge: float = RIDGE) -> tuple[dict[str, int], float, float]:
    """(weights by name, log loss of the fit, log loss of `start`), both per position, with
    `start` at its own best logistic scale k (win chance sigmoid(k * value)). The fitted
    weights are in `start`'s units: log-odds divided by that k, so a hundredth of a piece is
    worth the same change of win chance to both (and held weights keep their values)."""
    import numpy as np

    names = [f.name for f in fields(Weights)]
    fixed = fixed or {}
    x = np.array([r for r, _ in rows], dtype=float)
    y = np.array([t for _, t in rows], dtype=float)
    w0 = np.array([getattr(start, n) for n in names], dtype=float)
    e0 = x @ w0
    scale0 = _best_scale(e0, y)  # log-odds per hundredth of a piece, for start
    free = np.array([n not in fixed for n in names])
    held = np.array([fixed.get(n, 0.0) for n in names]) * scale0
    offset = x[:, ~free] @ held[~free]
    xf = x[:, free]
    prior = w0[free] * scale0
    beta = prior.copy()
    lam = ridge * len(y) / 1000 * np.eye(xf.shape[1])  # weak: data decide where they can
    for _ in range(50):  # Newton's method on the ridge-penalised log likelihood
        p = 1 / (1 + np.exp(-(xf @ beta + offset)))
        grad = xf.T @ (p - y) + lam @ (beta - prior)
        hess = xf.T @ (xf * (p * (1 - p))[:, None]) + lam
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-9:
            break
    full = held.copy()
    full[free] = beta
    loss = _log_loss(x @ full, y)
    weights = {n: int(round(c / scale0)) for n, c in zip(names, full)}
    return weights, loss, _log_loss(e0 * scale0, y)


def _log_loss(z, y) -> float:
    import numpy as np

    p = np.clip(1 / (1 + np.exp(-z)), 1e-12, 1 - 1e-12)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def _best_scale(e, y) -> float:
    """The k minimising the log loss of sigmoid(k * e) (a one-dimensional Newton fit)."""
    import numpy as np

    k = 1.0 / max(float(e.std()), 1.0)
    for _ in range(50):
        p = 1 / (1 + np.exp(-k * e))
        g = float(((p - y) * e).sum())
        h = float((p * (1 - p) * e * e).sum())
        if h <= 0:
            break
        k -= g / h
        if abs(g / h) < 1e-12:
            break
    return k


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m firmware_py.ai.texel", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="output of dvonn-board match --json --record")
    p.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                   help="hold this weight (may be repeated)")
    p.add_argument("--ridge", type=float, default=RIDGE,
                   help=f"pull towards the weights in force (default {RIDGE}; 0: none)")
    args = p.parse_args(argv)
    names = [f.name for f in fields(Weights)]
    fixed = {}
    for item in args.fix:
        name, _, number = item.partition("=")
        if name not in names:
            p.error(f"--fix {item!r}: no weight {name!r} (weights: {', '.join(names)})")
        try:
            fixed[name] = float(number)
        except ValueError:
            p.error(f"--fix {item!r}: expected NAME=NUMBER")
    if args.ridge < 0:
        p.error(f"--ridge {args.ridge}: must be 0 or more")
    rows = []
    for path in args.files:
        try:
            with open(path) as f:
                rows += positions(f)
        except OSError as e:
            p.error(f"{path}: {e.strerror}")
        except ValueError as e:
            p.error(f"{path}: {e}")
    if len(rows) < 2 * len(names):
        p.error(f"only {len(rows)} moving-phase positions in {', '.join(args.files)}: too few "
                f"to fit {len(names)} weights (were the games recorded with --record?)")
    weights, loss, before = fit(rows, fixed=fixed, ridge=args.ridge)
    print(f"# {len(rows)} positions of {', '.join(args.files)}: log loss {loss:.4f} "
          f"(the weights in force: {before:.4f})" + (f", held: {args.fix}" if fixed else ""))
    print("Weights(" + ", ".join(f"{k}={v}" for k, v in weights.items()) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
