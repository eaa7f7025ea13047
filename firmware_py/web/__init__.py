"""The web view: the board live in a browser, and in simulator mode the simulator's controls.

- `protocol`  what a page may send, checked before anything acts on it
- `view`      the controller's state as the JSON the page draws
- `source`    what the server shows and acts on (`GameSource`; `StateSource` for a fixed state)
- `server`    the aiohttp application, `serve()` and `WebThread`
- `static/`   the page itself: plain HTML, JavaScript and CSS, no build step, nothing from a CDN
- `screenshot` `python -m firmware_py.web.screenshot docs/web.png`: a picture of the page
"""
