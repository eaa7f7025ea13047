"""Real hardware behind the interfaces of `firmware_py.interfaces`: board profiles, the serial
scanner link and its protocol, the direct SPI scanner, WS2812 LEDs (rpi_ws281x, or the Pi 5's
ws2812-pio), buttons. And building one: the board's geometry (`geometry`), its fabrication
files (`fabrication`), parts list (`bom`), drawings (`drawings`), the Pi's set-up
(`setup_pi`) and the scanner firmware with its installer (`firmware`).

>>> import hw
>>> sensors, leds, buttons = hw.open_board("default", port="/dev/ttyACM0")   # doctest: +SKIP

Modules import their hardware libraries lazily, so ``import hw`` works anywhere.
"""


def open_board(profile=None, port=None, **kwargs):
    """Open the board a profile describes: see `dvonn_hw.board.open_board`."""
    from .board import open_board as _open_board

    return _open_board(profile, port, **kwargs)


def list_ports():
    """Serial ports, likely scanners first: see `dvonn_hw.serial_link.list_ports`."""
    from .serial_link import list_ports as _list_ports

    return _list_ports()
