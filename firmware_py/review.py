"""Review after the game: the engine's evaluation after every ply, the biggest swings marked as
mistakes with the better move, and an evaluation graph (SVG) for the terminal's `--svg` and
the web view.

The engine (`ai.Searcher`, one searcher for the whole game so its table carries over) searches
every position of the moving phase with the same node budget, so a review is the same on any
machine. A position's value `v` is for the player to move (hundredths of a piece); the value of
a ply for its mover is minus the value of the position after it, and the ply's *loss* is how
much less that is than the best the search found. Placements are chosen by heuristics, not
searched (`ai`), so they get no evaluation until the last few (the graph starts there).

>>> r = review(["e3", "c3", "g3"], nodes=200)
>>> [e.white for e in r.entries], r.mistakes
([None, None, None], [])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from html import escape

from . import ai
from .i18n import _
from .rules import N_PLACEMENTS, WHITE, Board, Ply

CAP = 15.0          # pieces: the graph's range (a decided game is drawn at the edge)
MISTAKE = 1.5       # pieces: a ply that loses at least this much is a mistake ...
MOST = 5            # ... and the biggest `MOST` of them are marked
REVIEW_NODES = 4_000  # per position by default (about 6 s a game here), deterministic


@dataclass
class Entry:
    """One ply of the game as reviewed.

    n: 1-based ply number; ply: what was played; mover: WHITE or BLACK; white: the evaluation
    after the ply from White's side in pieces (None: not evaluated, a placement); best: the
    engine's choice in the position before the ply (None where not searched); loss: pieces the
    ply gave away against `best` for its mover (0 when it was as good); decided: the game is
    won or lost (a forced result, or over).
    """

    n: int
    ply: Ply
    mover: int
    white: float | None = None
    best: Ply | None = None
    loss: float = 0.0
    decided: bool = False


@dataclass
class Review:
    entries: list[Entry] = field(default_factory=list)
    mistakes: list[Entry] = field(default_factory=list)  # the biggest swings, in game order
    nodes: int = REVIEW_NODES

    def text(self) -> str:
        """The review for the terminal: a graph line, one line per evaluated ply, mistakes."""
        lines = [_("evaluation (White's side, in pieces; + is good for White):"),
                 "  " + sparkline(self.entries), ""]
        marked = {e.n for e in self.mistakes}
        for e in self.entries:
            if e.white is None:
                continue
            mark = "  ?" if e.n in marked else ""
            value = _("decided") if e.decided else f"{e.white:+.1f}"
            mover = _("white") if e.mover == WHITE else _("black")
            lines.append(f"{e.n:>3}. {mover:<5} {str(e.ply):<6} {value:>7}{mark}")
        if not any(e.white is not None for e in self.entries):
            lines.append(_("(no evaluation: the game did not reach the moving phase)"))
        lines.append("")
        if self.mistakes:
            lines.append(_("mistakes (the biggest swings):"))
            for e in self.mistakes:
                lines.append(f"  {mistake_text(e)}")
        else:
            lines.append(_("no mistakes: no ply lost {pieces} pieces or more").format(
                pieces=f"{MISTAKE:g}"))
        return "\n".join(lines)


def mistake_text(e: Entry) -> str:
    """'ply 31: Black played d3e3 and gave away 2.4 pieces; better was d3d4.'"""
    text = (_("ply {n}: White played {ply} and gave away {loss} pieces; better was {best}.")
            if e.mover == WHITE else
            _("ply {n}: Black played {ply} and gave away {loss} pieces; better was {best}."))
    return text.format(n=e.n, ply=e.ply, loss=f"{e.loss:.1f}", best=e.best)


def _value(board: Board, searcher: ai.Searcher, nodes: int) -> tuple[int | None, Ply | None]:
    """(value for the player to move, best ply) of one position; (None, None) for a placement
    the engine does not search; (value, None) for a finished game."""
    if board.is_over():
        return ai.final_value(board), None
    empties = N_PLACEMENTS - board.ply_count
    if board.ply_count < N_PLACEMENTS and empties > ai.PLACEMENT_SEARCH_EMPTIES:
        return None, None
    legal = board.legal_plies()
    if len(legal) == 1:
        return None, legal[0]  # forced: worth what the position after it is worth (below)
    result = searcher.search(board, nodes=nodes)
    return result.value, result.ply


def review(plies, nodes: int = REVIEW_NODES, seed: int = 0) -> Review:
    """Review a game given as plies (Ply or tokens): see the module docstring."""
    plies = [p if isinstance(p, Ply) else Ply.parse(p) for p in plies]
    searcher = ai.Searcher(random.Random(seed))
    board = Board()
    values: list[int | None] = []
    bests: list[Ply | None] = []
    movers: list[int] = []
    for ply in plies:
        v, best = _value(board, searcher, nodes)
        values.append(v)
        bests.append(best)
        movers.append(board.turn)
        board.push(ply)
    final, _best = _value(board, searcher, nodes)
    values.append(final)
    # A forced ply (a pass, the last placement) is worth what follows it: fill from the end.
    for k in range(len(plies) - 1, -1, -1):
        if values[k] is None and bests[k] is not None and values[k + 1] is not None:
            values[k] = -values[k + 1]
    out = Review(nodes=nodes)
    for k, ply in enumerate(plies):
        after = values[k + 1]
        e = Entry(n=k + 1, ply=ply, mover=movers[k])
        if after is not None:
            # values[k+1] is for the player to move after the ply: the other player.
            mover_after = -after
            white = mover_after if movers[k] == WHITE else -mover_after
            e.decided = abs(after) > ai.WIN // 2
            e.white = max(-CAP, min(CAP, white / 100))
            if values[k] is not None and bests[k] is not None and bests[k] != ply:
                e.best = bests[k]
                e.loss = max(0.0, (values[k] - mover_after) / 100)
                if e.decided or abs(values[k]) > ai.WIN // 2:
                    e.loss = min(e.loss, 2 * CAP)
        out.entries.append(e)
    worst = sorted((e for e in out.entries if e.loss >= MISTAKE), key=lambda e: -e.loss)
    out.mistakes = sorted(worst[:MOST], key=lambda e: e.n)
    return out


BARS = "▁▂▃▄▅▆▇█"


def sparkline(entries: list[Entry]) -> str:
    """The evaluations as one line of bars (low: good for Black, high: good for White)."""
    chars = []
    for e in entries:
        if e.white is None:
            continue
        level = int((e.white + CAP) / (2 * CAP) * (len(BARS) - 1) + 0.5)
        chars.append(BARS[max(0, min(len(BARS) - 1, level))])
    return "".join(chars) or _("(nothing evaluated)")


def review_svg(r: Review, width: int = 720, height: int = 260) -> str:
    """The evaluation graph: White's advantage above the middle line, Black's below; the
    mistakes marked with a red dot and their ply number (the title says the better move)."""
    font = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"
    left, right, top, bottom = 44, 16, 24, 34
    w, h = width - left - right, height - top - bottom
    n = max(1, len(r.entries))
    # From the last placements (the first plies the engine evaluates) to the end.
    first = min((e.n for e in r.entries if e.white is not None), default=1) - 1
    mid = top + h / 2

    def x(k: int) -> float:
        return left + w * ((k - first) / max(1, n - first))

    def y(value: float) -> float:
        return mid - (value / CAP) * (h / 2)

    points = [(x(e.n), y(e.white)) for e in r.entries if e.white is not None]
    body = [f"<rect width='100%' height='100%' fill='white'/>",
            f"<rect x='{left}' y='{top}' width='{w}' height='{h / 2:.1f}' fill='#f4f4f4'/>",
            f"<rect x='{left}' y='{mid:.1f}' width='{w}' height='{h / 2:.1f}' fill='#d9d9d9'/>",
            f"<text x='{left + 6}' y='{top + 14}' {font} font-size='11' fill='#555'>"
            f"{escape(_('White better'), quote=False)}</text>",
            f"<text x='{left + 6}' y='{top + h - 6}' {font} font-size='11' fill='#555'>"
            f"{escape(_('Black better'), quote=False)}</text>"]
    for value in (-CAP, -CAP / 3, 0, CAP / 3, CAP):
        body.append(f"<text x='{left - 6}' y='{y(value) + 4:.1f}' {font} font-size='10' "
                    f"text-anchor='end'>{value:+g}</text>")
    placing_end = x(min(n, N_PLACEMENTS))
    body.append(f"<line x1='{placing_end:.1f}' y1='{top}' x2='{placing_end:.1f}' "
                f"y2='{top + h}' stroke='#999' stroke-dasharray='3,3'/>")
    body.append(f"<text x='{placing_end + 4:.1f}' y='{top + h + 14}' {font} font-size='10' "
                f"fill='#555'>{escape(_('moving'), quote=False)}</text>")
    for k in range(first + (-first) % 5, n + 1, 5):
        body.append(f"<text x='{x(k):.1f}' y='{top + h + 26}' {font} font-size='10' "
                    f"text-anchor='middle'>{k}</text>")
    body.append(f"<line x1='{left}' y1='{mid:.1f}' x2='{left + w}' y2='{mid:.1f}' "
                f"stroke='#666'/>")
    if points:
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        body.append(f"<polyline points='{path}' fill='none' stroke='#1f5fbf' "
                    f"stroke-width='2'/>")
    for e in r.mistakes:
        cx, cy = x(e.n), y(e.white)
        body.append(f"<g class='mistake'><title>{escape(mistake_text(e))}</title>"
                    f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='5' fill='#d01c1c'/>"
                    f"<text x='{cx:.1f}' y='{cy - 8 if cy > top + 14 else cy + 16:.1f}' "
                    f"{font} font-size='10' "
                    f"text-anchor='middle' fill='#d01c1c'>{e.n}</text></g>")
    title = escape(_("Evaluation after every ply (pieces, White's side)"), quote=False)
    body.append(f"<text x='{left}' y='16' {font} font-size='12' font-weight='bold'>{title}</text>")
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'>" + "".join(body) + "</svg>\n")
