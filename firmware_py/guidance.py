"""LED guidance: what the board shows for a controller state, in the language of `colours`.

`signals(state)` says what each space means (a signal name per lit space); `render(state, now)`
turns that into an `LedFrame`, blinking each space by its signal's pattern on the clock `now`
(seconds, any clock: the session uses the frame clock). The result changes only when the state
or a blink phase changes, so a caller can send frames to the LEDs only when they differ.

>>> from firmware_py.rules import Board
>>> from firmware_py.state import BoardState
>>> state = BoardState(board=Board(), mode="idle")
>>> sorted(set(signals(state).values()))      # a DVONN piece to place on any empty space
['dvonn_to_place']
>>> render(state, 0.1).spaces[0], render(state, 0.6).spaces[0]   # blinking slowly
((255, 0, 160), (0, 0, 0))
"""

from __future__ import annotations

from .colours import BY_NAME, is_lit
from .interfaces import OFF, LedFrame
from .rules import BLACK, PASS, WHITE
from .spaces import INDEX, N_SPACES
from .state import BoardState

CORNERS = tuple(INDEX[name] for name in ("a1", "i1", "a3", "k3", "c5", "k5"))
"""The six corners of the board: where machine-level signals (link lost, paused) are shown."""

TURN_SIGNAL = {WHITE: "white_to_play", BLACK: "black_to_play"}


def signals(state: BoardState) -> dict[int, str]:
    """The meaning of every lit space: {space: signal name}; unlit spaces are left out."""
    board = state.board
    lit: dict[int, str] = {}

    def mark(spaces, name: str) -> None:
        for s in spaces:
            lit[s] = name

    mode = state.mode
    if mode == "link_lost":
        mark(CORNERS, "link_lost")
        return lit
    if mode == "paused":
        mark(CORNERS, "paused")
    elif mode == "calibrating":
        mark(range(N_SPACES), "calibrating")
    elif mode == "idle":
        # The sensors the board names as drifting, under the turn's marks (what to do first).
        mark(state.drifting, "drifting")
        _mark_turn(state, mark)
    elif mode in ("lifted", "error"):
        if state.lifted is not None:
            mark(state.destinations, "destination")
            hint = state.hint
            if mode == "lifted" and hint is not None and hint.src == state.lifted:
                mark([hint.dst], "computer_to")
            mark([state.lifted], "source")
    elif mode == "asking":
        mark(state.ask, "ask")
        mark(state.ask_faulty, "ask_faulty")  # (confirm answers it: a lift is not seen there)
    elif mode == "over":
        flagged = getattr(state.clock, "flagged", None)
        winner = board.winner() if flagged is None else 1 - flagged
        if winner == "draw":
            mark([s for s in range(N_SPACES) if board.height(s)], "draw")
        elif winner is not None:
            mark([s for s in range(N_SPACES) if board.owner(s) == winner], "winner")
    if mode != "idle":  # cut-off stacks stay marked while the next stack is in the hand
        mark(state.remove, "remove")
    if getattr(state.clock, "low", False) and mode in ("idle", "lifted", "error", "removing"):
        # The mover's time is low: the corners, except where the lifted stack may go.
        mark([c for c in CORNERS if lit.get(c) not in ("source", "destination")], "low_time")
    # Corrections are laid over whatever the mode shows: they are what the player must do first.
    mark(state.missing, "missing")
    mark(state.extra, "extra")
    mark(state.error, "error")
    return lit


def _mark_turn(state: BoardState, mark) -> None:
    """Whose turn and where: the spaces to place on, or the stacks that may move; passes; hints."""
    board = state.board
    turn_signal = TURN_SIGNAL[board.turn]
    if board.phase == 1:
        empty = [s for s in range(N_SPACES) if not board.height(s)]
        mark(empty, "dvonn_to_place" if board.piece_to_place() == "D" else turn_signal)
    else:
        plies = board.legal_plies()
        if plies == [PASS]:
            # The player to move must pass (recorded with the other's next move): say so on
            # their stacks, and show the other player's stacks that may move now.
            mark(_stacks_of(board, board.turn), "pass")
            other = 1 - board.turn
            mark(sorted({p.src for p in board.moves_of(other)}), TURN_SIGNAL[other])
        else:
            if board.move_stack and board.move_stack[-1].is_pass:  # the other player just passed
                mark(_stacks_of(board, 1 - board.turn), "pass")
            mark(board.mobile_stacks(), turn_signal)
    hint = state.hint
    if hint is not None and not hint.is_pass:
        if hint.is_move:
            mark([hint.src], "computer_from")
        mark([hint.dst], "computer_to")


def _stacks_of(board, player: int) -> list[int]:
    return [s for s in range(N_SPACES) if board.owner(s) == player]


def render(state: BoardState, now: float) -> LedFrame:
    """The LED frame for `state` at time `now`: each lit space on or off by its pattern."""
    return frame(signals(state), now)


def frame(lit: dict[int, str], now: float) -> LedFrame:
    """The LED frame for meanings already worked out by `signals` (a loop that renders every
    scan keeps them until the state changes, and only blinks them here)."""
    colours = [OFF] * N_SPACES
    for space, name in lit.items():
        signal = BY_NAME[name]
        if is_lit(signal.pattern, now):
            colours[space] = signal.rgb
    return LedFrame(spaces=tuple(colours))
