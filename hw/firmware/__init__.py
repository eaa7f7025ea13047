"""Reference MicroPython firmware for the RP2040 scanner (see main.py for installing it).

These files run on the microcontroller, not on the Pi; they are packaged so that an installed
``dvonn-board`` carries the firmware that matches its protocol. ``scanner.py`` holds the logic
and is tested on CPython with stand-in hardware.
"""
