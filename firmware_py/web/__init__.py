"""The web view: the board live in a browser, and in simulator mode the simulator's controls.

- `protocol`  what a page may send, checked before anything acts on it
- `view`      the controller's state as the JSON the page draws
- `source`    what the server shows and acts on (`GameSource`; `StateSource` for a fixed state)
- `server`    the aiohttp application, `serve()` and `WebThread`
- `static/`   the page itself: plain HTML, JavaScript and CSS, no build step, nothing from a CDN
- `simulator` the simulator in the browser: a simulated board given to it, the page as the hand

The page's picture and latency benchmark are tools: `firmware_py.tools.web_screenshot`, `web_bench`.
"""
