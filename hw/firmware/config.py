# The reference scanner's wiring (hw/README.md, "Reference wiring"): a Raspberry Pi Pico (RP2040)
# with four 74HC4067 multiplexers and a WS2812 chain. Edit this file to match your board and
# copy it to the Pico with the others (see main.py).

NAME = "dvonn-rp2040"

SELECT_PINS = (2, 3, 4, 5)  # GP2..GP5 -> S0..S3, shared by all four multiplexers
ENABLE_PINS = (6, 7, 8, 9)  # GP6..GP9 -> /E of mux 0..3 (active low: one mux at a time)
ADC_PIN = 26  # GP26 = ADC0: the four multiplexers' common outputs, joined

CHANNELS = 49  # channels scanned, 0..CHANNELS-1; channel = mux * 16 + input
RATE_HZ = 100  # sensor frames per second (the host may change it with SET_RATE)
OVERSAMPLE = 8  # ADC samples averaged per reading (host: SET_OVERSAMPLE)
SETTLE_US = 20  # wait after switching the multiplexer inputs

LED_PIN = 16  # GP16 -> 330 ohm -> DIN of the first WS2812
LED_COUNT = 50  # 49 halo LEDs + 1 status LED, as in the default profile
