"""`python -m dvonn_hw.drawings [DIR]`: write the build drawings (SVG, and PNG where Chromium is)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import drawings

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "docs"


def to_png(svg_path: Path) -> Path | None:
    """A PNG beside the SVG, at the SVG's own size, by headless Chromium; None without it."""
    exe = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                if shutil.which(b)), None)
    if exe is None:
        return None
    head = svg_path.read_text(encoding="utf-8")[:3000]
    w = float(re.search(r"""width=['"]([\d.]+)""", head).group(1))
    h = float(re.search(r"""height=['"]([\d.]+)""", head).group(1))
    if re.search(r"""width=['"][\d.]+pt""", head):  # schemdraw sizes in points
        w, h = w * 4 / 3, h * 4 / 3
    png = svg_path.with_suffix(".png")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--screenshot={png}",
                        f"--window-size={int(w) + 1},{int(h) + 1}", svg_path.resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
    return png


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else DEFAULT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, make in drawings().items():
        path = out / name
        try:
            text = make()
        except ImportError as exc:  # schemdraw: the "build" extra
            missing = (exc.name or "schemdraw").split(".")[0]
            print(f"{name}: {missing} is not installed: pip install 'dvonn-board[build]'",
                  file=sys.stderr)
            return 1
        path.write_text(text, encoding="utf-8")
        png = to_png(path)
        print(f"wrote {path}" + (f" and {png.name}" if png else " (no Chromium: no PNG)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
