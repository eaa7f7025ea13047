"""Scripted people playing on the simulated board: they move pieces with `board.hand`, read the
board's LEDs, and make human mistakes.

`Players` plays both sides of one game: from a game record (a list of tokens such as
``["e3", "f3", ..., "a2b2", "pass", "resign"]``), from a chooser (any callable
``rules.Board -> Ply``, e.g. a computer opponent; one per side with ``white=``/``black=``), or at
random. Drive it from the frame loop: call ``players.step()`` after each frame read (it looks at
the clock and the LEDs and queues hand actions); ``players.done`` turns True at the end.

The sides the computer plays (``computer=(BLACK,)``) take their plies from the LEDs, like a
person carrying out the computer's ply at the board: the placement shown ``computer_to``, or the
move from the stack shown ``computer_from`` to the space shown ``computer_to`` (forced passes
show nothing: the player just passes). Nothing else tells them what the computer chose.

What the players do, like people who know the rules:

- wait for the board to acknowledge the last ply (the next side's "to play" colour lit, nothing
  flagged) before thinking and playing; without any LED frame at all they just play on;
- after a move: if the board asks (``ask``), lift the stack actually landed on and set it back
  (asked about the space they played on lit ``ask_faulty``, whose sensor sees no lift: confirm);
  remove the stacks shown ``remove`` (and, if the board never asks, the ones the rules cut off),
  and take one of them out of the box and put it back when the board shows it ``missing`` (it
  asks about it);
- make mistakes at ``Mistakes.rate`` per ply, one of `MISTAKES`, each corrected like a person
  would: put the stack back, take the wrong piece away, lift the stack off the illegal space...

The truth is kept for tests: ``players.truth`` (a `rules.Board` of the plies really played),
``players.made`` (mistakes made, by kind) and ``players.log`` (time, what happened).

>>> from dvonn_sim.board import SimBoard
>>> board = SimBoard(seed=1)
>>> players = Players(board, ["e3", "f3", "g3", "a1"], seed=1)
>>> while not players.done:
...     frame = board.read_frame()      # the controller would get this frame...
...     players.step()                  # ...and show its LEDs before the players look
>>> [str(p) for p in players.truth.move_stack], board.stack("e3")
(['e3', 'f3', 'g3', 'a1'], ('D',))
"""

from __future__ import annotations

import collections
import random
from typing import Callable, Iterable

from firmware_py.colours import BY_NAME
from firmware_py.rules import BLACK, PASS, WHITE, Board, Ply
from firmware_py.spaces import SPACES

from .choosers import Chooser, random_chooser, record_chooser
from .last_ply import SeeingOut
from .led_view import LedView
from .mistakes import MISTAKES, OVER, PROBLEMS, Mistakes, PlyMotions



# -- the players ------------------------------------------------------------------------------
class Players(PlyMotions, SeeingOut):
    """Both players of one game at the simulated board (see the module docstring).

    moves: a list of record tokens, a chooser callable (Board -> Ply, None to stop), or None for
    random play; white / black: a chooser per side (overrides moves for that side).
    computer: the colours (rules.WHITE / rules.BLACK) the computer plays: their plies are read
    off the LEDs (see the module docstring), waiting at most `computer_timeout` seconds for the
    board to show one (then the game stops, with a complaint).
    follow_leds: wait for and obey the board's LEDs (when it shows any); ack_timeout: how long a
    person waits for the board before playing on anyway (noted in the log); max_plies: stop
    after that many plies (None: play to the end). start: a position already on the board (its
    plies are the game's first; `play --from`), default the empty board.
    """

    def __init__(self, board, moves=None, *, white: Chooser | None = None,
                 black: Chooser | None = None, mistakes: Mistakes | None = None, seed: int = 0,
                 follow_leds: bool = True, ack_timeout: float = 6.0,
                 max_plies: int | None = None, computer: Iterable[int] = (),
                 computer_timeout: float = 60.0, start: Board | None = None):
        self.board = board
        self.hand = board.hand
        self.rng = random.Random(seed)
        if moves is None:
            default = random_chooser(seed)
        elif callable(moves):
            default = moves
        else:
            default = record_chooser(moves)
        self.choosers = {WHITE: white or default, BLACK: black or default}
        self.computer = frozenset(computer)
        if self.computer and not follow_leds:
            raise ValueError("the computer's plies are read off the LEDs: follow_leds is needed")
        self.computer_timeout = computer_timeout
        self.mistakes = mistakes or Mistakes()
        self.follow_leds = follow_leds
        self.ack_timeout = ack_timeout
        self.max_plies = max_plies
        self.truth = Board() if start is None else start.copy()
        self._resumed_at = self.truth.ply_count  # a resumed game's plies already played
        self.made: collections.Counter[str] = collections.Counter()
        self.log: list[tuple[float, str]] = []
        self.complaints: list[tuple[float, str]] = []  # the board said something unexpected
        self.done = False
        self._script = self._game()
        self._until: Callable[[float], bool] | None = None
        self._view: LedView | None = None
        self._since = -1e9
        self.glance = 0.1  # a person looks at the LEDs about ten times a second

    # -- the loop's side ------------------------------------------------------------------------
    def step(self, now: float | None = None) -> None:
        """Look at the board (its clock and LEDs) and act; call after every frame."""
        now = self.board.now if now is None else now
        while not self.done:
            if self._until is not None and not self._until(now):
                return
            try:
                self._until = next(self._script)
            except StopIteration:
                self.done = True
                self._until = None

    def leds(self, now: float | None = None) -> LedView:
        """What the players see on the LEDs: looked at again every `glance` seconds."""
        now = self.board.now if now is None else now
        if self._view is None or now >= self._view.now + self.glance or now < self._view.now:
            self._view = LedView(self.board.led_log, now, since=self._since)
        return self._view

    def _look_afresh(self) -> None:
        """From now on, ignore what the LEDs showed before (a person's new look at the board)."""
        self._since = self.board.now
        self._view = None

    @property
    def plies(self) -> list[Ply]:
        """The plies really played so far."""
        return self.truth.move_stack

    @property
    def tokens(self) -> list[str]:
        """The plies really played, as record tokens ('e3', 'e3f3', 'pass')."""
        return [str(p) for p in self.truth.move_stack]

    # -- waiting (the script yields these conditions) -------------------------------------------
    def _idle(self):
        return lambda now: self.hand.idle()

    def _pause(self, seconds: float):
        end = self.board.now + seconds
        return lambda now: now >= end - 1e-9

    def _draw(self, what: str) -> float:
        lo, hi = getattr(self.board.params.timing, what)
        return self.rng.uniform(lo, hi)

    def _watching(self) -> bool:
        return self.follow_leds and self.board.leds is not None

    def _note(self, text: str) -> None:
        self.log.append((self.board.now, text))

    def _mistake(self, kind: str) -> None:
        self.made[kind] += 1
        self._note(f"mistake: {kind}")

    # -- the game -------------------------------------------------------------------------------
    def _game(self):
        settled = True  # the last ply ended with nothing left to sort out
        while self.max_plies is None or len(self.truth.move_stack) < self.max_plies:
            board = self.truth
            if board.is_over():
                self._note(f"game over: score {board.score()}")
                return
            if board.turn in self.computer and board.legal_plies() != [PASS]:
                ply = yield from self._computer_ply()
                if ply is None:
                    self._note("the board never showed the computer's ply")
                    return
            else:
                ply = self.choosers[board.turn](board.copy())
            if ply is None:
                self._note("the record ends" if board.ply_count else "nothing to play")
                return
            if not board.is_legal(ply):
                raise ValueError(f"the chooser played an illegal ply {ply} at ply "
                                 f"{board.ply_count + 1}")
            if ply.is_pass:
                yield from self._await_board()
                board.push(ply)
                self._note("pass")
                continue
            kind = self._pick_mistake(ply, settled)
            if kind == "fast_answer":
                self._mistake(kind)
                yield self._pause(self._draw("fast_answer"))
            else:
                yield from self._await_board()
                yield self._pause(self._draw("think"))
            if kind == "knock":
                yield from self._knock(ply)
            if ply.is_placement:
                yield from self._place(ply, kind)
            else:
                yield from self._move(ply, kind)
            isolated = board.isolated_by(ply)
            board.push(ply)
            self._note(f"played {ply}")
            settled = yield from self._after(ply, isolated)
            if board.is_over() or len(board.move_stack) == self.max_plies:
                yield from self._see_out(ply, isolated)  # the last ply: until it is recorded
        self._note("stopped at max_plies")

    # -- the computer's plies -------------------------------------------------------------------
    def _computer_ply(self):
        """Wait for the board to show the computer's ply and return it (None: never shown)."""
        deadline = self.board.now + self.computer_timeout
        yield lambda now: now >= deadline or self._watching()
        yield from self._await_board()
        self._look_afresh()  # only what the board shows for this position
        yield lambda now: now >= deadline or self._shown_ply(self.leds(now)) is not None
        ply = self._shown_ply(self.leds())
        if ply is None:
            self._complain(f"never showed the computer's ply {self.truth.ply_count + 1}: "
                           f"{self.leds()}")
            return None
        self._note(f"the board shows {ply}")
        return ply

    def _shown_ply(self, view: LedView) -> Ply | None:
        """The computer's ply the LEDs show for the truth's position, if they show one that is
        legal there (a placement: one computer_to; a move: one computer_from, one computer_to)."""
        to, src = view.spaces("computer_to"), view.spaces("computer_from")
        b = self.truth
        if len(to) != 1 or len(src) > 1 or (b.phase == 2) != bool(src):
            return None  # nothing shown, or a blinking part not seen yet
        ply = Ply(src[0] if src else -1, to[0])
        if not b.is_legal(ply):
            self._complain(f"shows {ply} for the computer, not legal here")
            return None
        return ply

    # -- after a ply ----------------------------------------------------------------------------
    def _after(self, ply: Ply, isolated: list[int]):
        """Answer the board's questions and clear cut-off stacks. Returns True when the ply went
        through without anything left to sort out (so a fast answer is possible next)."""
        left = list(isolated)
        if left and "wrong_remove" in self.mistakes.kinds and self.rng.random() < self.mistakes.rate:
            yield from self._wrong_remove(left)
        if not self._watching():
            if left:
                yield self._pause(self._draw("react"))
                for s in left:
                    self.hand.remove(s)
                yield self._idle()
            return not left
        quiet = True
        answers = confirms = 0
        boxed = set()  # the cut-off stacks this player has cleared (they know where they were)
        self._look_afresh()
        deadline = self.board.now + self.ack_timeout
        while True:
            yield lambda now: (now >= deadline or self._acknowledged(self.leds(now), left)
                               or self.leds(now).shows("ask", "ask_faulty", "remove")
                               or bool(set(self.leds(now).spaces("missing")) & boxed)
                               or bool(self._misread(self.leds(now))))
            view = self.leds()
            asked = view.spaces("ask")
            faulty = view.spaces("ask_faulty")  # asked too, but no lift is seen there
            flagged = view.spaces("remove")
            back = [s for s in view.spaces("missing") if s in boxed]
            if back:
                # Asked to put back a stack just cleared (the board's question needs it): out
                # of the box and back on its space.
                quiet = False
                yield from self._take_back(back[0], boxed, left)
                deadline = self.board.now + self.ack_timeout
                continue
            if ply.is_placement and asked + faulty == [ply.dst] and answers < 3:
                # "Did you place it here?": it is where the player put it, so they say so.
                yield self._pause(self._draw("react"))
                self._view = None
                if self.leds().spaces("ask", "ask_faulty") != [ply.dst]:
                    continue  # the board made up its mind meanwhile
                quiet = False
                answers += 1
                self._note(f"confirming {SPACES[ply.dst]}")
                self.board.press("confirm")
                yield self._pause(0.5)
                self._look_afresh()
                deadline = self.board.now + self.ack_timeout
                continue
            if self._misread(view) and confirms < 2:
                quiet = False
                confirms += 1
                yield from self._confirm_if_right()
                self._look_afresh()
                deadline = self.board.now + self.ack_timeout
                continue
            if ply.is_move and faulty and answers < 3 and {ply.src, ply.dst} & set(faulty):
                # Asked about the space they played on, whose sensor sees no lift: as the
                # LEDs say, confirm.
                yield self._pause(self._draw("react"))
                self._view = None
                if not {ply.src, ply.dst} & set(self.leds().spaces("ask_faulty")):
                    continue  # the board made up its mind meanwhile
                quiet = False
                answers += 1
                self._note(f"confirming {SPACES[faulty[0]]}")
                self.board.press("confirm")
                yield self._pause(0.5)
                self._look_afresh()
                deadline = self.board.now + self.ack_timeout
                continue
            if ply.is_move and asked and answers < 3:
                # Show the board where the stack landed: lift it and set it back (a person
                # does that too when the board's candidates leave out the real destination).
                # Asked about the ply before instead (two quick plies, the later one known),
                # the players show where that one landed.
                target = ply.dst
                before = [p for p in self.truth.move_stack[:-1] if not p.is_pass][-1:]
                if (target not in asked and before and before[0].is_move
                        and before[0].dst in asked and before[0].dst != ply.src):
                    target = before[0].dst
                if target not in asked:
                    self._complain(f"asked about {[SPACES[s] for s in asked]}, "
                                   f"not {SPACES[ply.dst]}")
                yield self._pause(self._draw("react"))
                self._view = None
                if not self.leds().shows("ask"):
                    continue  # the board made up its mind meanwhile
                quiet = False
                answers += 1
                if (not self.board.stacks[target] and target in boxed
                        and self.board.now < deadline):
                    # Cleared just now, as the board had shown: nothing to lift until the
                    # board asks for it back (`missing`).
                    self._complain(f"asked about {SPACES[target]}, cleared just now")
                    answers -= 1
                    yield self._pause(0.5)
                    continue
                if not self.board.stacks[target]:  # cleared meanwhile: nothing to show
                    self._complain(f"asked about {SPACES[target]}, which is empty now")
                    answers = 3
                    continue
                self._note(f"answering: {SPACES[target]}")
                self.hand.lift(target)
                self.hand.put(target)
                yield self._idle()
                yield self._pause(self._draw("react"))
                self._look_afresh()
                deadline = self.board.now + self.ack_timeout
                continue
            if asked:
                self._complain(f"asked about {[SPACES[s] for s in asked]}")
            todo = [s for s in flagged if s in left]
            wrong = [s for s in flagged if s not in left]
            if wrong:
                self._complain(f"asked to remove {[SPACES[s] for s in wrong]}")
            if todo:
                quiet = False
                yield self._pause(self._draw("react"))
                for s in todo:
                    self.hand.remove(s)
                    left.remove(s)
                    boxed.add(s)
                yield self._idle()
                self._look_afresh()
                deadline = self.board.now + self.ack_timeout
                continue
            if self._acknowledged(view, left):
                return quiet
            if self.board.now >= deadline:
                if left:
                    self._complain(f"never asked to remove {[SPACES[s] for s in left]}")
                    for s in left:
                        self.hand.remove(s)
                    left = []
                    yield self._idle()
                    deadline = self.board.now + self.ack_timeout
                    continue
                self._complain(f"did not acknowledge {ply}: {view}")
                return False
            yield self._pause(0.1)

    def _take_back(self, space: int, boxed: set, left: list[int]):
        """Take the stack this player cleared from `space` out of the box and set it back (to
        be cleared again once the board has its answer)."""
        self._note(f"putting {SPACES[space]} back")
        boxed.discard(space)
        left.append(space)
        self.hand.take_back(space)
        yield self._idle()
        self._look_afresh()

    def _await_board(self):
        """Wait until the board shows it is this ply's turn (or give up after ack_timeout)."""
        if not self._watching():
            return
        deadline = self.board.now + self.ack_timeout
        yield lambda now: (now >= deadline or self._acknowledged(self.leds(now), [])
                           or bool(self._misread(self.leds(now)))
                           or bool(self._named_empty(self.leds(now)))
                           or bool(self._named_as_recorded(self.leds(now))))
        if self._named_empty(self.leds()) or self._named_as_recorded(self.leds()):
            yield from self._confirm_empty()
            deadline = self.board.now + self.ack_timeout
            yield lambda now: now >= deadline or self._acknowledged(self.leds(now), [])
        if self._misread(self.leds()):
            yield from self._confirm_if_right()
            yield lambda now: now >= deadline or self._acknowledged(self.leds(now), [])
        if not self._acknowledged(self.leds(), []):
            self._complain(f"board not ready for ply {self.truth.ply_count + 1}: {self.leds()}")

    def _named_empty(self, view: LedView) -> list[int]:
        """The spaces a new game's board names as pieces to clear (`extra` while it calibrates)
        when every one is empty: what a person who looks at them sees (a sensor's offset)."""
        if self.truth.ply_count or not view.shows("calibrating"):
            return []
        named = view.spaces("extra")
        return named if named and not any(self.board.stacks[s] for s in named) else []

    def _named_as_recorded(self, view: LedView) -> list[int]:
        """The spaces a resumed game's board, before its first ply, names as differing from
        the record (`extra`, `missing`) when each stands as recorded: what a person who looks
        at them sees (an empty space's sensor offset, a stack reading weakly against it)."""
        if not self._resumed_at or self.truth.ply_count != self._resumed_at:
            return []
        named = view.spaces("extra") + view.spaces("missing")
        right = all(self.board.stack(s) == self.truth.stack(s) for s in named)
        return named if named and right else []

    def _confirm_empty(self):
        """Named as pieces to clear, the spaces are empty: the player looks, and says so as the
        board's message asks (confirm). At most twice."""
        for _ in range(2):
            yield self._pause(self._draw("react"))
            self._view = None
            named = self._named_empty(self.leds()) or self._named_as_recorded(self.leds())
            if not named:
                return
            self._note(f"confirming {' '.join(SPACES[s] for s in named)} as they stand")
            self.board.press("confirm")
            yield self._pause(0.5)
            self._look_afresh()

    def _acknowledged(self, view: LedView, left: list[int]) -> bool:
        """The LEDs show the truth's next turn and nothing to sort out."""
        if left or view.shows(*PROBLEMS):
            return False
        b = self.truth
        if b.is_over():
            return view.shows(*OVER)
        # The computer's ply shows over the turn's colour (on the only space left, it is all).
        if b.phase == 1:
            name = ("dvonn_to_place" if b.piece_to_place() == "D"
                    else "white_to_play" if b.turn == WHITE else "black_to_play")
            lit = view.spaces(name, "computer_to")
            return bool(lit) and all(not b.stack(s) for s in lit)
        if b.legal_plies() == [PASS]:
            return view.shows("pass", "white_to_play", "black_to_play", "computer_from")
        name = "white_to_play" if b.turn == WHITE else "black_to_play"
        lit = view.spaces(name, "computer_from")
        return bool(lit) and all(b.owner(s) == b.turn for s in lit)

    def _complain(self, text: str) -> None:
        if self.complaints and self.complaints[-1][1] == text:
            return  # still the same thing
        self.complaints.append((self.board.now, text))
        self._note(f"board: {text}")


def play(board, moves=None, *, seconds: float = 3600.0, **kwargs) -> Players:
    """Let scripted players play a whole game on `board` with no controller (or LEDs): the
    frames are read and dropped. Returns the players (truth, mistakes made, log)."""
    players = Players(board, moves, **kwargs)
    end = board.now + seconds
    while not players.done and board.now < end:
        board.read_frame()
        players.step()
    if not players.done:
        raise TimeoutError(f"the game did not end within {seconds} s of board time")
    return players


__all__ = ["Players", "Mistakes", "MISTAKES", "LedView", "record_chooser", "random_chooser",
           "play", "BY_NAME"]
