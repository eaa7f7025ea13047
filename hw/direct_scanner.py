"""The direct scanner: the Pi itself reads the 49 Hall sensors through four 74HC4067
multiplexers into an MCP3008/MCP3208 ADC on SPI, with gpiozero.

The four multiplexers share their select lines S0..S3; mux k's common output feeds ADC channel
``mux_channels[k]``. A scan walks the 16 mux inputs in Gray-code order (one select line changes
per step), waits for the mux to settle, then reads every multiplexer at that input, each reading
the mean of ``oversample`` ADC samples in raw ADC codes, kept with its fraction of a code: each
sample's own noise (about half a code on an MCP3008) dithers the ADC, so the mean of N samples
resolves steps of 1/N code (`reading_step`) that rounding it would throw away.

The frame budget (the profile's `[sensor] oversample`): gpiozero runs hardware SPI at 500 kHz;
this scanner sets `SPI_HZ` instead, within both chips' datasheet limit at 2.7 V and so at 3.3 V.
One gpiozero read is 3 bytes (24 clocks: 24 us at 1 MHz) plus roughly 10-15 us of Python and
spidev on a Pi 4, about 36 us a sample: 49 sensors x N samples x 36 us + 16 mux settles x 20 us
is 7.4 ms of a 10 ms frame (100 Hz) at N = 4, 14.4 ms at N = 8. So the `direct` profile reads
4 samples per reading at 100 frames a second (the MCP3008 could convert faster, 75-200 ksps:
the Pi's per-read cost is the limit).

>>> scanner = DirectScanner.from_profile(load_profile("direct"))    # doctest: +SKIP
>>> frame = scanner.read_frame()                                     # doctest: +SKIP

``python -m dvonn_hw.direct_scanner`` prints what our own code costs per frame (everything but the
SPI transfers), measured on gpiozero's MockFactory pins; on the Pi, ``--profile direct`` times
whole frames with the ADC (the figures below are estimates until measured so).
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from firmware_py.errors import HardwareUnavailable, LinkLost
from firmware_py.interfaces import SensorFrame
from firmware_py.spaces import N_SPACES

MUX_INPUTS = 16
# Inputs 0..15 in Gray-code order: consecutive entries differ in exactly one select line.
GRAY_ORDER = tuple(i ^ (i >> 1) for i in range(MUX_INPUTS))
ADC_CLASSES = {"MCP3008": "MCP3008", "MCP3208": "MCP3208"}
SPI_HZ = 1_000_000
"""The SPI clock: the MCP3208's limit at 2.7 V (the MCP3008's is 1.35 MHz), both supplied at
3.3 V here; gpiozero's own 500 kHz would double the time of every sample."""


class DirectScanner:
    """SensorSource reading the sensors through the Pi's SPI ADC.

    channels: the scanner channel (mux * 16 + input) of each space, in space-index order.
    readers: optional stand-ins for the ADC channels (callables returning a raw code), used by
        the overhead benchmark; normally the gpiozero MCP3xxx devices are made here.
    """

    def __init__(self, channels: tuple[int, ...], *, select_pins=(5, 6, 13, 19),
                 mux_channels=(0, 1, 2, 3), adc_type: str = "MCP3208", spi_port: int = 0,
                 spi_device: int = 0, vref: float = 3.3, oversample: int = 4,
                 settle_us: int = 20, rate_hz: int = 100, pin_factory=None, readers=None,
                 allow_software_spi: bool = False, clock=time.monotonic, sleep=time.sleep):
        if len(channels) != N_SPACES:
            raise ValueError(f"need the channel of each of the {N_SPACES} spaces")
        if adc_type not in ADC_CLASSES:
            raise ValueError(f"unknown ADC {adc_type!r} (MCP3008 or MCP3208)")
        self.adc_type = adc_type
        self.adc_max = 1023 if adc_type == "MCP3008" else 4095
        if not 1 <= oversample <= 64:
            raise ValueError(f"oversample: {oversample} is outside 1..64 samples")
        self.oversample = oversample
        self.settle_s = settle_us / 1e6
        self.period = 1.0 / rate_hz
        self._clock, self._sleep = clock, sleep
        self._seq = -1
        self._next = 0.0
        self._devices: list = []
        self._plan = self._make_plan(channels, len(mux_channels))
        try:
            self._open(select_pins, mux_channels, spi_port, spi_device, vref, pin_factory,
                       readers, allow_software_spi)
        except Exception:
            self.close()
            raise

    @staticmethod
    def _make_plan(channels, n_mux):
        """For each input in Gray order: (input, [(mux, space), ...]) for the inputs in use."""
        plan = []
        for mux_input in GRAY_ORDER:
            reads = [(ch // MUX_INPUTS, space) for space, ch in enumerate(channels)
                     if ch % MUX_INPUTS == mux_input]
            for mux, space in reads:
                if mux >= n_mux:
                    raise ValueError(f"space {space} is on mux {mux}, but there are {n_mux}")
            if reads:
                plan.append((mux_input, reads))
        return plan

    def _open(self, select_pins, mux_channels, spi_port, spi_device, vref, pin_factory,
              readers, allow_software_spi):
        import gpiozero
        from gpiozero.exc import BadPinFactory, GPIOZeroError, SPIFixedRate

        try:
            self._select = [gpiozero.DigitalOutputDevice(pin, pin_factory=pin_factory)
                            for pin in select_pins]
            self._devices += self._select
            if readers is None:
                adc_class = getattr(gpiozero, ADC_CLASSES[self.adc_type])
                adcs = [adc_class(channel=ch, port=spi_port, device=spi_device, max_voltage=vref,
                                  pin_factory=pin_factory) for ch in mux_channels]
                self._devices += adcs
                factory = adcs[0].pin_factory
                software = "Software" in type(adcs[0]._spi).__name__
                mock = type(factory).__name__.startswith("Mock")
                if software and not mock and not allow_software_spi:
                    raise HardwareUnavailable(
                        "gpiozero fell back to slow software SPI: "
                        + (spi_problem(spi_port, spi_device) or "hardware SPI did not start"))
                for adc in adcs:
                    try:
                        adc._spi.rate = SPI_HZ
                    except SPIFixedRate:
                        pass  # bit-banged SPI (a mock's) has no clock to set
                # gpiozero's MCP3xxx._read: the raw code without scaling to 0..1
                readers = [adc._read for adc in adcs]
        except BadPinFactory as exc:
            raise HardwareUnavailable(f"no GPIO access here ({exc}); on a Pi install "
                                      "python3-lgpio, elsewhere use the simulator") from None
        except GPIOZeroError as exc:
            raise HardwareUnavailable(f"cannot open the direct scanner's hardware: {exc}") from None
        self._readers = list(readers)
        self._select_state = [None] * len(self._select)

    @classmethod
    def from_profile(cls, profile, **kwargs) -> DirectScanner:
        options = dict(select_pins=profile.mux.select, mux_channels=profile.adc.mux_channels,
                       adc_type=profile.adc.type, spi_port=profile.adc.spi_port,
                       spi_device=profile.adc.spi_device, vref=profile.adc.vref,
                       oversample=profile.sensor.oversample, settle_us=profile.mux.settle_us,
                       rate_hz=profile.scanner.rate_hz)
        return cls(profile.channels, **{**options, **kwargs})

    def _set_input(self, mux_input: int) -> None:
        state = self._select_state
        for bit, line in enumerate(self._select):
            level = (mux_input >> bit) & 1
            if state[bit] != level:  # Gray order: one line changes per step
                line.value = level
                state[bit] = level

    @property
    def reading_step(self) -> float:
        """The finest step of a reading, in codes: 1/N for the mean of N samples."""
        return 1.0 / self.oversample

    def scan(self) -> list[float]:
        """One pass over every sensor: 49 mean raw codes (with their fractions) in space order."""
        raw = [0.0] * N_SPACES
        n = self.oversample
        readers, settle, sleep = self._readers, self.settle_s, self._sleep
        samples = range(n)
        for mux_input, reads in self._plan:
            self._set_input(mux_input)
            if settle:
                sleep(settle)
            for mux, space in reads:
                read = readers[mux]
                total = 0
                for _ in samples:
                    total += read()
                raw[space] = total / n
        return raw

    def read_frame(self, timeout: float | None = None) -> SensorFrame | None:
        """Scan at the profile's rate: waits for the next frame slot (None if it is further
        away than `timeout`), then scans."""
        if not self._devices and not self._readers:
            raise LinkLost("the direct scanner is closed")
        now = self._clock()
        wait = self._next - now
        if wait > 0:
            if timeout is not None and wait > timeout:
                if timeout > 0:
                    self._sleep(timeout)
                return None
            self._sleep(wait)
            now = self._next
        self._next = max(now, self._next) + self.period
        try:
            raw = self.scan()
        except OSError as exc:  # the SPI device went away under us
            raise LinkLost(f"reading the ADC failed: {exc}") from None
        self._seq = (self._seq + 1) & 0xFFFF
        return SensorFrame(self._seq, now, tuple(raw))

    def close(self) -> None:
        for device in self._devices:
            try:
                device.close()
            except Exception:
                pass
        self._devices = []
        self._readers = []


def spi_problem(port: int = 0, device: int = 0, dev_dir: Path = Path("/dev")) -> str | None:
    """Why gpiozero cannot use hardware SPI here, or None when it can.

    It needs both the kernel's SPI device (SPI enabled) and the `spidev` Python module; missing
    either, it silently uses bit-banged software SPI, far too slow for 49 sensors at 100 Hz.
    """
    problems = []
    node = Path(dev_dir) / f"spidev{port}.{device}"
    if not node.exists():
        problems.append(
            f"SPI is not enabled ({node} is missing): `sudo raspi-config nonint do_spi 0` (or "
            "dtparam=spi=on in /boot/firmware/config.txt, which `dvonn-board setup-pi --profile "
            "direct` adds), then reboot")
    if importlib.util.find_spec("spidev") is None:
        problems.append(
            "the Python module spidev is missing: `sudo apt install python3-spidev` and use a "
            "venv made with --system-site-packages (or `pip install spidev` in the venv)")
    return "; and ".join(problems) or None


def benchmark(frames: int = 300, oversample: int = 4) -> dict:
    """Microseconds per frame spent in our own code, the SPI transfers left out.

    'scan_us': the scan loop with instant ADC reads and mux select lines on MockFactory pins
    (gpiozero's own pin code included); 'loop_us': the same with the select lines' writes
    stubbed too, i.e. only this module's Python. Both with `oversample` samples per reading.
    """
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    results = {"frames": frames, "oversample": oversample, "reads_per_frame": N_SPACES * oversample}
    try:
        scanner = DirectScanner(tuple(range(N_SPACES)), oversample=oversample, settle_us=0,
                                pin_factory=factory, readers=[lambda: 2048] * 4)
        for name, stub_select in (("scan_us", False), ("loop_us", True)):
            if stub_select:
                scanner._set_input = lambda mux_input: None
            best = float("inf")
            for _ in range(3):
                for line in scanner._select:
                    line.pin.clear_states()  # mock pins log every change
                start = time.perf_counter()
                for _ in range(frames):
                    scanner.scan()
                best = min(best, (time.perf_counter() - start) / frames * 1e6)
            results[name] = round(best, 1)
        scanner.close()
    finally:
        factory.close()
    results["max_fps_ignoring_spi"] = round(1e6 / results["scan_us"])
    return results


def frame_time(scanner: DirectScanner, frames: int = 100) -> dict:
    """What a whole scan costs with the ADC behind it, SPI transfers included (on the Pi):
    'scan_us' a frame (best of 3 runs of `frames`), 'sample_us' one ADC sample (the mux settles
    taken off), and 'share' of the frame period at the scanner's rate that it takes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(frames):
            scanner.scan()
        best = min(best, (time.perf_counter() - start) / frames * 1e6)
    settles = len(scanner._plan) * scanner.settle_s * 1e6
    return {"frames": frames, "oversample": scanner.oversample, "scan_us": round(best, 1),
            "sample_us": round(max(best - settles, 0.0) / (N_SPACES * scanner.oversample), 1),
            "share": round(best / (scanner.period * 1e6), 3)}


def main(argv=None) -> int:  # python -m dvonn_hw.direct_scanner
    import argparse

    parser = argparse.ArgumentParser(description=benchmark.__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--oversample", type=int, default=None,
                        help="samples per reading (default 4, or the profile's)")
    parser.add_argument("--profile", metavar="PROFILE",
                        help="on the Pi: time whole frames with this profile's ADC, SPI included")
    args = parser.parse_args(argv)
    if args.profile:
        import sys
        import warnings

        from firmware_py.errors import ProfileError

        from .profile import load_profile
        warnings.filterwarnings("ignore", module="gpiozero")  # the error below says it all
        try:
            profile = load_profile(args.profile)
            options = {} if args.oversample is None else {"oversample": args.oversample}
            scanner = DirectScanner.from_profile(profile, **options)
        except (ProfileError, ValueError, HardwareUnavailable) as exc:
            print(f"direct scanner: {exc}", file=sys.stderr)
            return 1
        try:
            r = frame_time(scanner, args.frames)
        finally:
            scanner.close()
        print(f"direct scanner with its {scanner.adc_type}, oversample {r['oversample']}: "
              f"{r['scan_us'] / 1000:.2f} ms a frame, {r['sample_us']:.1f} us a sample; "
              f"{r['share'] * 100:.0f} % of the {profile.scanner.rate_hz} Hz frame period"
              + (" (too slow: lower oversample or rate_hz)" if r["share"] > 0.8 else ""))
        return 0
    r = benchmark(args.frames, 4 if args.oversample is None else args.oversample)
    print(f"direct scanner, our code per frame ({r['reads_per_frame']} ADC reads stubbed, "
          f"oversample {r['oversample']}, {r['frames']} frames, best of 3):")
    print(f"  scan loop + gpiozero select lines (MockFactory): {r['scan_us']:8.1f} us/frame "
          f"(= {r['max_fps_ignoring_spi']} frames/s before SPI)")
    print(f"  scan loop alone:                                 {r['loop_us']:8.1f} us/frame")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
