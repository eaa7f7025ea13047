"""dvonn-board: the software of an electronic DVONN board.

The core (`spaces`, `rules`, `records`) does no I/O. Everything that touches a board goes through
the small interfaces in `interfaces`, behind which sit the real hardware (`hw`) or the simulator
(`sim`).
"""

__version__ = "0.1.0"
