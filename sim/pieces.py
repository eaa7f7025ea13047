"""The physical pieces of the simulated board: a piece with its magnet, a stack knocked loose."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Piece:
    """One physical piece: its kind ('W', 'B', 'D'), number, and its magnet's strength factor."""

    kind: str
    number: int
    strength: float  # about 1 +- strength_spread
    magnet_dx: float = 0.0  # the magnet's axis off the piece's centre (mm)
    magnet_dy: float = 0.0

    def __repr__(self) -> str:
        return f"{self.kind}{self.number}"


@dataclass
class Loose:
    """A stack knocked off its space: lying at (x, y) on the surface, near `home`."""

    pieces: list[Piece]
    x: float
    y: float
    home: int
