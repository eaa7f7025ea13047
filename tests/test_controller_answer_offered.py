"""An answer the player gave by lifting a lit stack stands when the meaning the readings favour
is another answer the same question offered (`Answers.offered`): the player named theirs, and
the lifted stack, read anywhere once set back, is no evidence against it. (13 mV/mT, rough
12-bit m0.3 seed 2: "d3, d2 or c1?" about c2's landing, d2 named twice and refused each time
for c2d3 fitting better by 70, then dropped from the question: the game stuck.) A meaning the
question did not offer, fitting clearly better, still makes the lift no answer."""

from firmware_py.candidates import Candidate, Decision
from tests.simgames import midgame_board, resume


def question(seed: int = 5):
    """A controller on a mid-game board and three moves of one stack onto other stacks: the
    first two asked about ("which did you land on?"), the third not."""
    board = midgame_board(seed)
    _, c = resume(board, seed)
    stacks = board.stacks()
    by_src: dict = {}
    for p in board.legal_plies():
        if p.is_move and stacks[p.dst]:
            by_src.setdefault(p.src, []).append(p)
    moves = next(ps for ps in by_src.values() if len(ps) >= 3)[:3]
    cands = []
    for i, ply in enumerate(moves):
        after = board.copy()
        after.push(ply)
        cands.append(Candidate("commit", (ply,), after, after.stacks(), frozenset(),
                               chi2=100.0 + 10 * i))
    c.questions.ask(c.state, cands[:2])
    assert c.state.mode == "asking"
    return c, cands


def test_the_readings_favouring_another_answer_offered_leave_the_answer_standing():
    c, (first, second, _) = question()
    q = c.questions
    assert q.offered([first, second])  # named the second; the first fits better
    assert q.offered([second, first])


def test_the_readings_favouring_a_meaning_not_offered_make_the_lift_no_answer():
    c, (first, second, other) = question()
    assert not c.questions.offered([other, first, second])


def test_an_answer_read_afresh_stands_against_another_answer_offered_only():
    c, (first, second, other) = question()
    first.chi2, second.chi2, other.chi2 = 100.0, 170.0, 110.0  # apart by over twice the margin

    def afresh(candidates):
        c.reference.explain = lambda *a, **k: Decision("ambiguous", candidates[0], candidates,
                                                       candidates)

    afresh([first, second])
    assert c.decisions.answer_fits(c.state, second, None)
    afresh([other, first, second])
    assert not c.decisions.answer_fits(c.state, second, None)
