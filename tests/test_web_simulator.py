"""`dvonn-board sim` through its page in a real headless Chromium: the whole pipeline (simulated
physics -> sensor frames -> controller -> store -> LEDs -> page), acted on only by clicking and
dragging as a person would. The simulated clock runs faster than real time (`speed`) so a whole
game takes seconds, and stands still while the page's hand makes a gesture (`GestureClock`);
every wait is on what the page shows, never a fixed sleep.
"""

from __future__ import annotations

import random
import time
from contextlib import contextmanager

import pytest

from firmware_py.controller import Controller
from firmware_py.rules import Board, Ply
from firmware_py.spaces import SPACES
from firmware_py.store import Store
from firmware_py.web.simulator import SimulatorRun
from dvonn_sim.clock import RealTimeClock
from dvonn_sim.compose import simulated_board

from .test_web_browser import browser, expect, needs_chromium, new_page, sync_api  # noqa: F401

pytestmark = needs_chromium
SPEED = 20.0  # simulated seconds per wall-clock second
WAIT = 15_000  # ms: generous for a loaded 2-core machine; passing runs take a fraction of it


def make_controller(board):
    return Controller(board=board)


class GestureClock(RealTimeClock):
    """Real time at `speed`, stopped while the page's hand makes a gesture (`stopped`).

    A gesture is clicks in a row (Lift, then where to set the stack down), which a loaded
    machine spreads out in wall time: at speed 20, a fifth of a second between them is a hand
    holding the stack in the air for 4 s, which the board rightly asks about ("did you land
    on it?"), and an answer's stack held off its space that long is carried, not shown.
    Stopped, the board's loop still takes the page's requests (no frame comes, not even one
    it is behind on); once time runs again the hand does them one after another, as a person
    clicking at once."""

    POLL_S = 0.01  # wall time between the loop's looks at the page's requests while stopped

    def __init__(self, speed: float):
        super().__init__(speed)
        self._since = (self._t0, None)  # (wall moment of simulated 0, wall moment stopped)

    def now(self) -> float:
        t0, stopped = self._since
        return ((time.monotonic() if stopped is None else stopped) - t0) * self.speed

    def wait_until(self, t: float, timeout: float | None = None) -> bool:
        if self._since[1] is not None:  # the session's loop takes the requests, reads again
            time.sleep(self.POLL_S if timeout is None else min(timeout, self.POLL_S))
            return False
        return super().wait_until(t, timeout)

    @contextmanager
    def stopped(self):
        self._since = (self._since[0], time.monotonic())
        try:
            yield
        finally:
            t0, stopped = self._since
            self._since = (t0 + time.monotonic() - stopped, None)  # one assignment: no gap


@pytest.fixture()
def simulator(tmp_path):
    """Start a simulator (optionally resuming the plies given) and return its run."""
    runs = []

    def start(plies=(), speed=SPEED, computer=()):
        db = tmp_path / "sim.sqlite3"
        if plies:
            with Store(db) as store:
                game = store.new_game({"Event": "test"})
                for ply in plies:
                    store.add_ply(game, ply)
        board = simulated_board("default", seed=7, clock=GestureClock(speed))
        run = SimulatorRun(make_controller, db, board, port=0, computer=computer).start()
        runs.append(run)
        return run
    yield start
    for run in runs:
        run.stop()


def hit(page, name: str):
    return page.locator(f'[data-space="{name}"] .hit')


CLOCKS: dict = {}  # page -> its simulator's GestureClock (`open_board`)


def open_board(new_page, run):  # noqa: F811
    page = new_page(run.web.url, viewport={"width": 1200, "height": 900})
    CLOCKS[page] = run.board.clock
    expect(page.locator("#kind")).to_have_text("simulator")
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    return page


@contextmanager
def gesture(page):
    """The page's clicks in the block make one gesture of the hand: the simulated world stands
    still until the board has taken every request they sent (`answered_so_far`)."""
    with CLOCKS[page].stopped():
        yield
        answered_so_far(page)


def drag(page, src: str, dst: str) -> None:
    a, b = hit(page, src).bounding_box(), hit(page, dst).bounding_box()
    with gesture(page):
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down()
        page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=6)
        page.mouse.up()


def lift(page, src: str) -> None:
    """Tap the stack on src (which only reads it), then press Lift under the board."""
    hit(page, src).click()
    page.locator("#btn-lift").click()


def carry(page, src: str, dst: str, count: int | None = None) -> None:
    """Lift (the top `count` pieces of) the stack on src and set it down on dst, one gesture:
    a hand that holds a stack still in the air for long gets asked where it landed."""
    if count is not None:
        page.locator("#lift-count").select_option(str(count))
    with gesture(page):
        lift(page, src)
        hit(page, dst).click()
    if count is not None:
        page.locator("#lift-count").select_option("")


def play(page, board: Board, ply, by_drag: bool = False) -> None:
    """Make `ply` with the page's controls, wait until it is recorded, clear cut-off stacks."""
    moves = page.locator("#moves li")
    if ply.is_pass:  # forced: the controller records it by itself
        board.push(ply)
        expect(moves).to_have_count(board.ply_count, timeout=WAIT)
        return
    cut = board.isolated_by(ply) if ply.is_move else []
    if ply.is_placement:
        hit(page, SPACES[ply.dst]).click()
    elif by_drag:
        drag(page, SPACES[ply.src], SPACES[ply.dst])
    else:
        carry(page, SPACES[ply.src], SPACES[ply.dst])
    board.push(ply)
    try:
        page.wait_for_function("n => window.dvonn.page.game.moves.length >= n"
                               " || window.dvonn.page.game.mode === 'asking'",
                               arg=board.ply_count, timeout=WAIT)
    except sync_api.TimeoutError:
        pytest.fail(f"{ply} (ply {board.ply_count}) not recorded: the page shows "
                    + str(page.evaluate("[window.dvonn.page.game, window.dvonn.page.sim]")))
    if page.locator("#mode").text_content() == "asking":  # answer: lift where it landed, set back
        carry(page, SPACES[ply.dst], SPACES[ply.dst])
    expect(moves).to_have_count(board.ply_count, timeout=WAIT)
    expect(moves.last).to_have_text(str(ply))
    if cut:
        expect(page.locator("#mode")).to_have_text("removing", timeout=WAIT)
        page.locator("#btn-remove-cut").click()
        expect(page.locator("#mode")).not_to_have_text("removing", timeout=WAIT)


def random_placements(seed: int) -> list:
    rnd, board = random.Random(seed), Board()
    while board.phase == 1:
        board.push(rnd.choice(board.legal_plies()))
    return list(board.move_stack)


def test_a_whole_game_through_the_page(simulator, new_page):  # noqa: F811
    run = simulator()
    page = open_board(new_page, run)
    expect(page.locator("#help")).to_have_attribute("open", "")  # the page explains itself
    rnd, board = random.Random(5), Board()
    dragged = False
    while not board.is_over():
        ply = rnd.choice(board.legal_plies())
        by_drag = ply.is_move and not dragged
        play(page, board, ply, by_drag=by_drag)
        dragged = dragged or by_drag
    expect(page.locator("#mode")).to_have_text("over", timeout=WAIT)
    winner = board.winner()
    expect(page.locator("#winner")).to_have_text(
        "a draw" if winner == "draw" else f"{('white', 'black')[winner]} wins")
    white, black = board.score()
    expect(page.locator("#score-white")).to_have_text(str(white))
    expect(page.locator("#score-black")).to_have_text(str(black))
    # What was recorded (and is exported) is exactly what the hand did.
    assert run.session.state.board.move_stack == board.move_stack
    record = page.request.get(run.web.url + "record.txt").text()
    assert str(board.move_stack[-1]) in record and "Result" in record
    assert "dvonn-board simulator" in record and "Date" in record  # the stored game's tags


def test_a_wrong_piece_is_flagged_until_corrected(simulator, new_page):  # noqa: F811
    run = simulator()
    page = open_board(new_page, run)
    board = Board()
    for token in ("e3", "f3", "g3"):
        play(page, board, Ply.parse(token))
    # Black is to place a black piece: place a white one instead.
    page.locator("#piece").select_option("W")
    hit(page, "a1").click()
    expect(page.locator("#mode")).to_have_text("error", timeout=WAIT)
    expect(page.locator("#message")).to_contain_text("a1")
    expect(page.locator('[data-space="a1"]')).to_have_attribute("data-stack", "W")
    assert run.session.state.board.ply_count == 3  # nothing wrong was recorded
    # Correct it: take the white piece off, place the right one.
    page.locator('[data-tool="remove"]').click()
    hit(page, "a1").click()
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    page.locator('[data-tool="move"]').click()
    page.locator("#piece").select_option("")
    play(page, board, Ply.parse("a1"))
    expect(page.locator('[data-space="a1"]')).to_have_attribute("data-stack", "B")
    # A new game (two clicks: it abandons this one): the table is cleared, play starts over.
    page.locator("#btn-new").click()
    expect(page.locator("#btn-new")).to_have_text("Click again for a new game")
    page.locator("#btn-new").click()
    expect(page.locator("#moves li")).to_have_count(0, timeout=WAIT)
    expect(page.locator('[data-space="a1"]')).to_have_attribute("data-stack", "", timeout=WAIT)
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    play(page, Board(), Ply.parse("k5"))


def test_the_computers_placement_is_shown_and_only_it_is_recorded(simulator, new_page):  # noqa: F811
    from firmware_py.ai import Thinker
    from firmware_py.rules import BLACK

    run = simulator(computer=[Thinker(BLACK, level=1, seed=1, nodes=300)])
    page = open_board(new_page, run)
    board = Board()
    play(page, board, Ply.parse("e3"))
    expect(page.locator("#hint")).to_contain_text("plays", timeout=WAIT)
    hint = Ply.parse(page.locator("#hint").text_content().split()[1])
    other = next(p for p in board.legal_plies() if p != hint)
    hit(page, SPACES[other.dst]).click()  # the person places elsewhere than shown
    expect(page.locator("#mode")).to_have_text("error", timeout=WAIT)
    expect(page.locator("#message")).to_contain_text(f"the computer plays {hint}")
    assert run.session.state.board.ply_count == 1  # nothing wrong was recorded
    page.locator('[data-tool="remove"]').click()
    hit(page, SPACES[other.dst]).click()
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    page.locator('[data-tool="move"]').click()
    play(page, board, hint)  # as shown: recorded
    assert run.session.state.board.move_stack == board.move_stack


def test_a_move_onto_an_illegal_space_and_a_takeback(simulator, new_page):  # noqa: F811
    placements = random_placements(11)
    run = simulator(placements, speed=5.0)  # slower: each stack is carried in two clicks
    page = open_board(new_page, run)
    board = Board.from_plies(placements)
    expect(page.locator("#moves li")).to_have_count(49)
    # A legal move that cuts nothing off (the takeback below must be rebuildable by hand).
    ply = next(p for p in board.legal_plies() if not board.isolated_by(p))
    src, dst = SPACES[ply.src], SPACES[ply.dst]
    # First set it down where it may not go: flagged, nothing recorded.
    wrong = next(s for s in range(49) if board.stack(s) and s != ply.src
                 and s not in board.destinations(ply.src))
    carry(page, src, SPACES[wrong])
    expect(page.locator("#mode")).to_have_text("error", timeout=WAIT)
    assert run.session.state.board.ply_count == 49
    # Correct it: lift the carried pieces off again and set them down legally.
    height = board.height(ply.src)
    carry(page, SPACES[wrong], dst, count=height)
    board.push(ply)
    expect(page.locator("#moves li")).to_have_count(50, timeout=WAIT)
    expect(page.locator("#moves li").last).to_have_text(str(ply))
    # Take it back: the page says what to rebuild (and the ply is not made again while the
    # board still shows it); the hand carries the moved pieces back.
    page.locator("#btn-takeback").click()
    expect(page.locator("#moves li")).to_have_count(49, timeout=WAIT)
    expect(page.locator("#rebuild")).to_contain_text(src)
    expect(page.locator("#mode")).to_have_text("paused")
    carry(page, dst, src, count=height)
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    expect(page.locator("#rebuild")).to_be_hidden()
    assert run.session.state.board.ply_count == 49


def test_fault_controls_reach_the_simulated_hardware(simulator, new_page):  # noqa: F811
    run = simulator()
    page = open_board(new_page, run)
    # A clumsy hand: knock a stack aside, see it lying there, push it back.
    board = Board()
    play(page, board, Ply.parse("e3"))
    page.locator('[data-tool="knock"]').click()
    expect(page.locator("#how")).to_contain_text("Tap a stack to knock it off its space")
    hit(page, "e3").click()
    expect(page.locator('[data-space="e3"]')).to_have_attribute("data-stack", "", timeout=WAIT)
    page.locator('[data-tool="restore"]').click()
    hit(page, "e3").click()
    expect(page.locator('[data-space="e3"]')).to_have_attribute("data-stack", "D",
                                                                  timeout=WAIT)
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    assert run.session.state.board.ply_count == 1
    # The scanner link: unplugged, play pauses; plugged in, it goes on.
    page.locator("#faults summary").click()
    page.locator("#link").uncheck()
    expect(page.locator("#mode")).to_have_text("link lost", timeout=WAIT)
    page.locator("#link").check()
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    # Noise and a dead sensor reach the simulated sensors.
    page.locator("#noise").select_option("poor")
    expect(page.locator("#notice")).to_contain_text("sensor noise now 0.3 mT")
    page.locator("#dead").select_option("k5")
    expect(page.locator("#notice")).to_contain_text("the sensor under k5 is dead")
    assert run.desk.dead == SPACES.index("k5") and run.desk.noise == "poor"
    assert run.board.sensors.faults == {SPACES.index("k5"): ("dead", None)}
    assert run.board.params.noise_mt == 0.3
    page.locator("#dead").select_option("")
    expect(page.locator("#notice")).to_contain_text("every sensor works again")
    assert run.board.sensors.faults == {}


def test_the_readme_screenshot_is_made_by_the_project(tmp_path, browser):  # noqa: F811
    from firmware_py.tools.web_screenshot import shoot

    out = shoot(tmp_path / "web.png", width=800, height=600, browser=browser)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def answered_so_far(page) -> None:
    """Wait until the server has answered everything the page sent so far (it answers a page's
    requests in order, and a ping last)."""
    n = page.evaluate("window.dvonn.page.replies.length")
    page.evaluate("window.dvonn.send({type: 'ping'})")
    page.wait_for_function("n => window.dvonn.page.replies.slice(n).some("
                           "(m) => m.message === 'pong')", arg=n)


def test_a_tap_reads_a_stack_and_never_lifts_it(simulator, new_page):  # noqa: F811
    placements = random_placements(11)
    run = simulator(placements, speed=5.0)
    page = open_board(new_page, run)
    board = Board.from_plies(placements)
    ply = next(p for p in board.legal_plies() if not board.isolated_by(p))
    src, dst = SPACES[ply.src], SPACES[ply.dst]
    for _ in range(2):  # tapping again is reading again
        hit(page, src).click()
    expect(page.locator("#tapped")).to_contain_text(f"{src}: height {board.height(ply.src)}")
    answered_so_far(page)
    assert run.board.hand.held == [] and run.board.hand.idle()
    assert "lift" not in str(run.board.hand.log)
    expect(page.locator("#hand")).to_have_text("empty")
    expect(page.locator("#mode")).to_have_text("idle")
    # Lifting is its own action, named under the board.
    expect(page.locator("#how")).to_contain_text("then Lift")
    page.locator("#btn-lift").click()
    expect(page.locator("#mode")).to_have_text("lifted", timeout=WAIT)
    expect(page.locator("#how")).to_contain_text("Tap a space to set the stack down")
    hit(page, dst).click()
    expect(page.locator("#moves li")).to_have_count(50, timeout=WAIT)
    expect(page.locator("#moves li").last).to_have_text(str(ply))


def test_new_game_empties_the_hand(simulator, new_page):  # noqa: F811
    run = simulator(random_placements(11), speed=5.0)
    page = open_board(new_page, run)
    lift(page, "e3")
    expect(page.locator("#hand")).to_contain_text("holding", timeout=WAIT)
    page.locator("#btn-new").click()
    page.locator("#btn-new").click()
    expect(page.locator("#moves li")).to_have_count(0, timeout=WAIT)
    expect(page.locator("#hand")).to_have_text("empty", timeout=WAIT)
    expect(page.locator("#mode")).to_have_text("idle", timeout=WAIT)
    assert run.board.hand.held == [] and not any(run.board.stacks)
    play(page, Board(), Ply.parse("e3"))  # and the new game is played with an empty hand


def test_confirm_with_nothing_asked_says_so(simulator, new_page):  # noqa: F811
    run = simulator()
    page = open_board(new_page, run)
    page.locator("#btn-confirm").click()
    expect(page.locator("#notice")).to_contain_text("nothing to confirm")
    expect(page.locator("#notice")).to_be_visible()


def test_a_faulty_sensor_is_a_note_under_whose_turn_it_is(simulator, new_page):  # noqa: F811
    run = simulator()
    page = open_board(new_page, run)
    page.locator("#faults summary").click()
    page.locator("#dead").select_option("e1")
    expect(page.locator("#note")).to_contain_text("sensor e1 looks faulty", timeout=WAIT)
    expect(page.locator("#note code")).to_have_text("dvonn-board diag selftest")
    expect(page.locator("#message")).to_have_text("white to place a DVONN piece")
    play(page, Board(), Ply.parse("e3"))  # play goes on, the turn in the headline
    expect(page.locator("#message")).to_have_text("black to place a DVONN piece")
