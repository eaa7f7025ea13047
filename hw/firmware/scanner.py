# The scanner's logic, free of machine-specific code so that it runs on MicroPython (the RP2040)
# and on CPython (the tests, with stand-in hardware). main.py gives it the real hardware.
#
# What it does, forever (step() once per loop):
#   - reads whatever the host sent, decodes it with protocol.py and obeys: HELLO (answer with
#     ours), PING (PONG with our receive counters), LED_FRAME (copy the bytes
#     to the LED chain), SET_RATE, SET_OVERSAMPLE; anything else gets an ERROR back;
#   - when a frame is due, scans every channel (Gray-code order over the mux inputs, one mux
#     enabled at a time, `oversample` ADC samples averaged) and sends a SENSOR_FRAME.

try:
    from dvonn_hw import protocol  # CPython: the package
except ImportError:
    import protocol  # MicroPython: protocol.py copied next to this file

# The version of this firmware (main.py, scanner.py and the protocol.py copied with them), sent
# in every HELLO. The Pi refuses the frames of a scanner whose version differs from the one in
# its own installed package: change it whenever any of those files changes.
FIRMWARE_VERSION = 2

MUX_INPUTS = 16
GRAY_ORDER = [i ^ (i >> 1) for i in range(MUX_INPUTS)]
MAX_LEDS = protocol.MAX_BODY // 3


class Scanner:
    """hw: an object with select(input), enable(mux), read() -> 12-bit code, show(chain bytes),
    send(bytes), receive() -> bytes (possibly empty, never blocking), ticks_us(),
    ticks_diff(a, b), ticks_add(a, delta), sleep_us(us) (MicroPython's time functions)."""

    def __init__(self, hw, channels=49, rate_hz=100, oversample=8, settle_us=20, leds=50,
                 adc_bits=12, name="dvonn-rp2040"):
        self.hw = hw
        self.channels = channels
        self.settle_us = settle_us
        self.leds = leds
        self.adc_bits = adc_bits
        self.name = name
        self.encoder = protocol.Encoder()
        self.decoder = protocol.Decoder()
        self.tracker = protocol.SeqTracker()
        self.oversample = oversample
        self.set_rate(rate_hz)
        # scan plan: for each input (Gray order), the muxes that have a channel there
        self.plan = []
        for mux_input in GRAY_ORDER:
            muxes = [m for m in range(4) if m * MUX_INPUTS + mux_input < channels]
            if muxes:
                self.plan.append((mux_input, muxes))
        self.readings = [0] * channels
        self.t_us = 0  # our own 32-bit microsecond clock (ticks_us wraps at 2**30)
        self.last_ticks = hw.ticks_us()
        self.next_frame = self.last_ticks
        self.frames = 0

    def set_rate(self, rate_hz):
        self.rate_hz = rate_hz
        self.period_us = 1000000 // rate_hz if rate_hz else 0

    def send(self, kind, body=b""):
        self.hw.send(self.encoder.packet(kind, body))

    def hello_body(self):
        return protocol.hello_body(protocol.ROLE_SCANNER, self.adc_bits, self.channels,
                                   self.leds, self.rate_hz, self.name, FIRMWARE_VERSION)

    def counters(self):
        d = self.decoder
        return (d.frames, d.bad_crc, d.truncated + d.too_long + d.bad_version, self.tracker.gaps)

    # ------------------------------------------------------------------ from the host

    def handle(self, message):
        self.tracker.check(message.seq)
        kind, body = message.kind, message.body
        try:
            if kind == protocol.LED_FRAME:
                chain = protocol.parse_led(body)
                if len(chain) > 3 * self.leds:
                    raise ValueError("%d LEDs sent, the chain has %d" % (len(chain) // 3, self.leds))
                self.hw.show(chain)
            elif kind == protocol.HELLO:
                protocol.parse_hello(body)
                self.tracker.reset()  # a (re)started host numbers its packets from 0 again
                self.tracker.check(message.seq)
                self.send(protocol.HELLO, self.hello_body())
            elif kind == protocol.PING:
                token = protocol.parse_ping(body)
                self.send(protocol.PONG, protocol.pong_body(token, self.counters()))
            elif kind == protocol.SET_RATE:
                self.set_rate(protocol.parse_rate(body))
                self.next_frame = self.hw.ticks_us()
            elif kind == protocol.SET_OVERSAMPLE:
                self.oversample = protocol.parse_oversample(body)
            else:
                self.send(protocol.ERROR, protocol.error_body(
                    protocol.ERR_UNKNOWN_TYPE, "unknown message type %d" % kind))
        except ValueError as exc:
            self.send(protocol.ERROR, protocol.error_body(protocol.ERR_BAD_BODY, str(exc)))

    # ------------------------------------------------------------------ the sensors

    def scan(self):
        hw = self.hw
        n = self.oversample
        half = n // 2
        readings = self.readings
        for mux_input, muxes in self.plan:
            hw.select(mux_input)
            for mux in muxes:
                hw.enable(mux)
                if self.settle_us:
                    hw.sleep_us(self.settle_us)
                total = 0
                for _ in range(n):
                    total += hw.read()
                readings[mux * MUX_INPUTS + mux_input] = (total + half) // n
        return readings

    def clock(self):
        now = self.hw.ticks_us()
        self.t_us = (self.t_us + self.hw.ticks_diff(now, self.last_ticks)) & 0xFFFFFFFF
        self.last_ticks = now
        return now

    def step(self):
        """One turn of the main loop: obey the host, send a frame if one is due."""
        data = self.hw.receive()
        if data:
            for message in self.decoder.feed(data):
                self.handle(message)
        now = self.clock()
        if self.period_us and self.hw.ticks_diff(now, self.next_frame) >= 0:
            readings = self.scan()
            self.send(protocol.SENSOR_FRAME, protocol.sensor_body(self.t_us, readings))
            self.frames += 1
            self.next_frame = self.hw.ticks_add(self.next_frame, self.period_us)
            if self.hw.ticks_diff(now, self.next_frame) > self.period_us:
                # fell behind: start again from now rather than race to catch up
                self.next_frame = self.hw.ticks_add(now, self.period_us)
            return True
        return False

    def start(self):
        self.hw.send(b"\x00")  # ends any text (a REPL banner) the host saw before us
        self.send(protocol.HELLO, self.hello_body())
