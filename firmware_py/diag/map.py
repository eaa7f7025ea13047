"""`diag map`: check the wiring map. For each space in turn the LEDs ask for a piece there; the
sensor that answers tells where that space's sensor really comes in. Reports spaces whose sensor
answers on another space's channel (two swapped wires, a multiplexer wired in the wrong order)
and spaces nobody answers for (dead), and can write a corrected profile (`--write FILE`).

If `diag leds --pattern chase` showed a wrong LED order, fix the LED map first: the person puts
the piece where the light is, so a wrong LED map looks like wrong sensor wiring here.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rich.table import Table

from ..errors import ProfileError
from ..spaces import N_SPACES, SPACES, parse_space
from .analysis import CHECKS, classify, where
from .boardview import board_values
from .common import add_arguments, console_for, fail, with_board
from .prompts import Interaction


@dataclass
class MapResult:
    """`answer[s]`: the frame position that answered a piece on space s (None: silent)."""

    spaces: list[int]
    answer: dict[int, int | None]
    flagged: dict[int, str]  # baseline faults

    @property
    def moved(self) -> dict[int, int]:
        return {s: t for s, t in self.answer.items() if t is not None and t != s}

    @property
    def silent(self) -> list[int]:
        return sorted(s for s, t in self.answer.items() if t is None)

    @property
    def ok(self) -> bool:
        return not self.moved and not self.silent

    def swaps(self) -> list[tuple[int, int]]:
        """Pairs of spaces whose sensors answer on each other's channel."""
        m = self.moved
        return sorted((a, b) for a, b in m.items() if a < b and m.get(b) == a)

    def mux_swaps(self, wiring) -> list[tuple[int, int]]:
        """Multiplexer pairs (a, b) where the spaces of mux a answer on mux b's same inputs:
        the multiplexers are in the wrong order."""
        by_pair: Counter = Counter()
        for s, t in self.moved.items():
            if wiring[s].input == wiring[t].input and wiring[s].mux != wiring[t].mux:
                by_pair[wiring[s].mux, wiring[t].mux] += 1
        on_mux = Counter(w.mux for w in wiring if w.index in self.answer)
        return sorted(p for p, n in by_pair.items() if n >= 2 and n == on_mux[p[0]])

    def as_dict(self, wiring) -> dict:
        return {"ok": self.ok,
                "checked": [SPACES[s] for s in self.spaces],
                "moved": {SPACES[s]: SPACES[t] for s, t in sorted(self.moved.items())},
                "swapped": [[SPACES[a], SPACES[b]] for a, b in self.swaps()],
                "mux_swapped": self.mux_swaps(wiring),
                "dead": [SPACES[s] for s in self.silent],
                "flagged": {SPACES[s]: k for s, k in sorted(self.flagged.items())}}


def check_map(board, spaces, say=lambda text: None, timeout_s: float = 20.0) -> MapResult:
    """Ask for a piece on each of `spaces` and note which sensor answers."""
    it = Interaction(board, say, timeout_s=timeout_s)
    stats = it.read_baseline()
    flagged = {s: k for s, (k, _) in classify(stats, board.units, empty_board=True).items()}
    it.ignore = {s for s, k in flagged.items() if k != "noisy"}  # noisy still answers
    answer: dict[int, int | None] = {}
    for n, space in enumerate(spaces, 1):
        a = it.ask_piece(space, prefix=f"[{n}/{len(spaces)}] ")
        answer[space] = a.sensor
        it.ask_clear(space, answered=not a.silent)
    return MapResult(list(spaces), answer, flagged)


def corrected_wiring(result: MapResult, wiring) -> dict[int, tuple[int, int]]:
    """space -> (mux, input) for every space whose sensor answered elsewhere: the channel it
    really comes in on. Raises ValueError when the answers do not make a consistent map."""
    new = {s: (wiring[t].mux, wiring[t].input) for s, t in result.moved.items()}
    taken = Counter(new.values())
    clash = [ch for ch, n in taken.items() if n > 1]
    if clash:
        names = [SPACES[s] for s, ch in new.items() if ch in clash]
        raise ValueError(f"{', '.join(names)} answered on the same channel: check them again")
    final = {s: (w.mux, w.input) for s, w in enumerate(wiring)}
    final.update(new)
    used = Counter(final.values())
    if any(n > 1 for n in used.values()):
        # a space that kept its channel while another now claims it: give it the free one
        free = sorted({(w.mux, w.input) for w in wiring} - set(final.values()))
        stuck = sorted(s for s, ch in final.items() if used[ch] > 1 and s not in new)
        if len(stuck) != len(free):
            raise ValueError("the answers leave " + ", ".join(SPACES[s] for s in stuck)
                             + " without a channel of their own: check them again")
        for s, ch in zip(stuck, free):
            new[s] = final[s] = ch
    return new


def profile_text(name: str | None) -> tuple[str, str]:
    """(TOML text, source) of a profile given as a path or a packaged name (None: default)."""
    from dvonn_hw.profile import packaged_profiles
    name = name or "default"
    p = Path(name)
    if not p.exists() and name in packaged_profiles():
        return (resources.files("dvonn_hw") / "profiles" / f"{name}.toml").read_text("utf-8"), \
            f"{name}.toml"
    return p.read_text(encoding="utf-8"), str(p)


def rewrite_sensors(text: str, changes: dict[int, tuple[int, int]]) -> str:
    """The profile text with `spaces.<name>.sensor` set to [mux, input] for each change; keeps
    everything else, comments and layout included (tomlkit edits TOML in place), whether the
    spaces are written `a1 = { sensor = [...] ... }` or as `[spaces.a1]` tables."""
    import tomlkit

    doc = tomlkit.parse(text)
    spaces = doc.get("spaces", {})
    for space, (mux, inp) in sorted(changes.items()):
        name = SPACES[space]
        entry = spaces.get(name)
        if not isinstance(entry, dict) or "sensor" not in entry:
            raise ProfileError(f"spaces.{name}.sensor", "not found in the profile to rewrite")
        entry["sensor"] = [mux, inp]
    return tomlkit.dumps(doc)


def write_corrected(profile_name: str | None, changes, out: Path) -> None:
    """Write the corrected profile to `out` after checking it loads with the new wiring."""
    from dvonn_hw.profile import parse_profile
    text, source = profile_text(profile_name)
    new_text = rewrite_sensors(text, changes)
    header = ("# Wiring corrected by `dvonn-board diag map` from " + source + ": "
              + ", ".join(f"{SPACES[s]} -> mux {m} input {i}"
                          for s, (m, i) in sorted(changes.items())) + "\n")
    new_text = header + new_text
    prof = parse_profile(new_text, str(out))  # raises ProfileError naming the key
    for s, (m, i) in changes.items():
        assert (prof.spaces[s].mux, prof.spaces[s].input) == (m, i)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.write_text(new_text, encoding="utf-8")
    tmp.replace(out)


def add_parser(sub) -> None:
    p = sub.add_parser("map", help="check the sensor wiring map, space by space",
                       description=__doc__.split("\n\n")[0])
    add_arguments(p)
    p.add_argument("--spaces", metavar="LIST", default=None,
                   help="only these spaces (e.g. a1,b1,e3; default: all 49)")
    p.add_argument("--write", metavar="FILE", default=None,
                   help="write a corrected profile to FILE when the wiring is wrong")
    p.add_argument("--timeout", type=float, default=20.0, metavar="S",
                   help="seconds to wait for each piece")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


def run(args, board=None) -> int:
    console = console_for(args)
    try:
        spaces = [parse_space(s) for s in args.spaces.split(",")] if args.spaces else \
            list(range(N_SPACES))
    except ValueError as e:
        return fail("map", f"--spaces: {e}")

    def say(text: str) -> None:
        if not args.json:
            console.print(text, highlight=False)

    def body(board) -> int:
        result = check_map(board, spaces, say, args.timeout)
        wiring = board.wiring
        written = error = None
        changes = {}
        if not result.ok:
            try:
                changes = corrected_wiring(result, wiring)
            except ValueError as e:
                error = str(e)
            if args.write and changes and error is None:
                try:
                    write_corrected(args.profile, changes, Path(args.write))
                    written = args.write
                except (OSError, ProfileError) as e:
                    error = f"cannot write {args.write}: {e}"
        if args.json:
            d = result.as_dict(wiring)
            d["corrections"] = {SPACES[s]: list(ch) for s, ch in sorted(changes.items())}
            d["written"], d["error"] = written, error
            print(json.dumps(d))
        else:
            report(console, result, wiring, changes, written, error)
        return 0 if result.ok else 1

    return with_board("map", args, body, board)


def report(console, result: MapResult, wiring, changes, written, error) -> None:
    values = [None] * N_SPACES
    styles = {}
    for s, t in result.answer.items():
        values[s] = "ok" if t == s else ("dead" if t is None else SPACES[t])
        styles[s] = "answer" if t == s else "wrong"
    console.print("where each space's piece was read ('ok': on its own channel):")
    console.print(board_values(values, str, styles))
    if result.ok:
        console.print(f"wiring map correct for all {len(result.spaces)} spaces checked")
        return
    t = Table("space", "finding", "what to check", title="wiring problems")
    swapped = set()
    for a, b in result.swaps():
        swapped |= {a, b}
        t.add_row(f"{SPACES[a]}, {SPACES[b]}", "sensors swapped",
                  f"the wires at{where(wiring, a)} and{where(wiring, b)}")
    for a, b in result.mux_swaps(wiring):
        t.add_row(f"mux {a}", f"reads as mux {b}",
                  "the multiplexers' outputs (or enables) are in the wrong order")
    for s, target in sorted(result.moved.items()):
        if s not in swapped:
            t.add_row(SPACES[s], f"answers on {SPACES[target]}'s channel{where(wiring, target)}",
                      CHECKS["swapped"])
    for s in result.silent:
        t.add_row(SPACES[s], "dead: nothing answered", CHECKS["silent"] + where(wiring, s))
    console.print(t)
    if error:
        console.print(f"[red]{error}[/red]")
    elif changes:
        console.print("corrected wiring: " + ", ".join(
            f"{SPACES[s]} = mux {m} input {i}" for s, (m, i) in sorted(changes.items())))
        if written:
            console.print(f"corrected profile written to {written}")
        else:
            console.print("(--write FILE writes a corrected profile)")
