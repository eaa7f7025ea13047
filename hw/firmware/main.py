# Reference firmware of the DVONN board's scanner: MicroPython on a Raspberry Pi Pico (RP2040).
#
# It scans the 49 Hall sensors through four 74HC4067 multiplexers with the RP2040's ADC, drives
# the WS2812 chain, and talks to the Pi over USB serial with the protocol of hw/protocol.py.
#
# Install (with MicroPython already on the Pico), from the installed dvonn-board on the Pi:
#
#     dvonn-board firmware install                     # copies protocol.py, scanner.py,
#                                                      # config.py, main.py with mpremote
#     dvonn-board firmware install --config my_config.py   # if your pins differ
#
# The files must come from the dvonn-board version running on the Pi: the scanner sends its
# FIRMWARE_VERSION (scanner.py) in its HELLO, and the Pi refuses the frames of any other.
# To get the REPL back, stop the Pi's dvonn-board service first, then `mpremote` (Ctrl-C works
# again once the host is gone: this firmware only disables it while running).

import sys
import time

import machine
import micropython
import neopixel
import select

import config
from scanner import Scanner


class PicoHardware:
    def __init__(self):
        self.select_pins = [machine.Pin(p, machine.Pin.OUT, value=0) for p in config.SELECT_PINS]
        self.enable_pins = [machine.Pin(p, machine.Pin.OUT, value=1) for p in config.ENABLE_PINS]
        self.enabled = None
        self.adc = machine.ADC(machine.Pin(config.ADC_PIN))
        self.strip = neopixel.NeoPixel(machine.Pin(config.LED_PIN), config.LED_COUNT)
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.rx = sys.stdin.buffer
        self.tx = sys.stdout.buffer
        self.ticks_us = time.ticks_us
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add
        self.sleep_us = time.sleep_us

    def select(self, mux_input):
        for bit, pin in enumerate(self.select_pins):
            pin.value((mux_input >> bit) & 1)

    def enable(self, mux):
        if mux != self.enabled:
            if self.enabled is not None:
                self.enable_pins[self.enabled].value(1)
            self.enable_pins[mux].value(0)
            self.enabled = mux

    def read(self):
        return self.adc.read_u16() >> 4  # MicroPython scales to 16 bits; the ADC has 12

    def show(self, chain):
        # The host already applied the index map, gamma, brightness and colour order: copy the
        # bytes straight into the driver's buffer.
        n = min(len(chain), len(self.strip.buf))
        self.strip.buf[:n] = chain[:n]
        self.strip.write()

    def send(self, data):
        self.tx.write(data)

    def receive(self):
        data = b""
        while len(data) < 512 and self.poll.poll(0):
            data += self.rx.read(1)
        return data


def run():
    micropython.kbd_intr(-1)  # a 0x03 byte in a packet must not stop the program
    try:
        scanner = Scanner(PicoHardware(), channels=config.CHANNELS, rate_hz=config.RATE_HZ,
                          oversample=config.OVERSAMPLE, settle_us=config.SETTLE_US,
                          leds=config.LED_COUNT, adc_bits=12, name=config.NAME)
        scanner.start()
        while True:
            if not scanner.step():
                time.sleep_us(200)
    finally:
        micropython.kbd_intr(3)


run()
