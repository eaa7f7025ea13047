"""Every exception the project raises on purpose, named after the failure it reports."""


class DvonnError(Exception):
    """Base class of the project's own errors."""


class IllegalPly(DvonnError, ValueError):
    """A placement, move or pass that the rules do not allow in the current position."""


class RecordError(DvonnError, ValueError):
    """A game record that cannot be read: names the line, the ply number and the token."""

    def __init__(self, message: str, *, ply: int | None = None, token: str | None = None,
                 line: int | None = None):
        super().__init__(message)
        self.ply = ply
        self.token = token
        self.line = line


class ProfileError(DvonnError, ValueError):
    """A board profile or configuration value that is missing or wrong: names the key."""

    def __init__(self, key: str, problem: str):
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem


class LinkLost(DvonnError, ConnectionError):
    """The scanner link is down (cable pulled, port gone); the source keeps trying to reopen it."""


class FirmwareMismatch(LinkLost):
    """The scanner runs another firmware or protocol version than this installation: its frames
    are refused until the matching firmware is copied onto it (`dvonn-board firmware install`)."""


class HardwareUnavailable(DvonnError, RuntimeError):
    """A hardware driver cannot run on this machine (not a Pi, a Pi 5 for rpi_ws281x, no SPI...)."""


class NoGpio(HardwareUnavailable):
    """This machine has no GPIO at all (not a Raspberry Pi, or no pin library installed)."""


class StoreError(DvonnError, RuntimeError):
    """The game database cannot do what was asked (no such game, a ply out of order, a bad file)."""
