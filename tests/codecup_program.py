"""A tiny program speaking the CodeCup DVONN protocol, for the tests of `prog:` players.

    python codecup_program.py MODE SEED

It plays random legal plies (our rules engine keeps its board), and from its 6th own ply on
misbehaves as MODE says: `random` never, `garble` replies HELLO, `illegal` places on a taken
space, `silent` waits for input instead of replying, `exit` ends with status 3. It leaves when it
reads Quit, as a CodeCup program does.
"""

import random
import sys

from firmware_py.rules import Board, Ply


def main() -> int:
    mode, rng = sys.argv[1], random.Random(int(sys.argv[2]))
    board, mine = Board(), 0

    def read() -> str:
        line = sys.stdin.readline().strip()
        if line in ("Quit", ""):
            sys.exit(0)
        return line

    first = read()
    if first != "Start":
        board.push(Ply.parse(first))
        mine = 1
    own = 0
    while not board.is_over():
        if board.turn != mine:
            board.push(Ply.parse(read()))
            continue
        own += 1
        if own >= 6 and mode != "random":
            if mode == "garble":
                print("HELLO", flush=True)
            elif mode == "illegal":
                print(str(board.move_stack[0]).upper(), flush=True)
            elif mode == "exit":
                return 3
            read()  # silent (and after a bad reply): wait for what comes, Quit
            return 0
        ply = rng.choice(board.legal_plies())
        print(str(ply).upper(), flush=True)
        board.push(ply)
    read()
    return 0


if __name__ == "__main__":
    sys.exit(main())
