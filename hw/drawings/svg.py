"""A small SVG canvas for the hand-made drawings: shapes, text and dimension lines.

>>> c = Canvas(100, 50)
>>> c.rect(10, 10, 20, 10, fill="#ccc")
>>> c.dim_h(10, 30, 40, "20")
>>> c.svg().startswith("<svg")
True
"""

from __future__ import annotations

from html import escape

FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"


class Canvas:
    def __init__(self, width: float, height: float):
        self.width, self.height = width, height
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def rect(self, x, y, w, h, fill="none", stroke="#000", width=1.0, rx=0, dash=None):
        extra = f" stroke-dasharray='{dash}'" if dash else ""
        self.add(f"<rect x='{x:.1f}' y='{y:.1f}' width='{w:.1f}' height='{h:.1f}' rx='{rx}' "
                 f"fill='{fill}' stroke='{stroke}' stroke-width='{width}'{extra}/>")

    def circle(self, x, y, r, fill="none", stroke="#000", width=1.0):
        self.add(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{r:.1f}' fill='{fill}' stroke='{stroke}' "
                 f"stroke-width='{width}'/>")

    def line(self, x1, y1, x2, y2, stroke="#000", width=1.0, dash=None, arrow=False):
        extra = f" stroke-dasharray='{dash}'" if dash else ""
        extra += " marker-end='url(#arrow)'" if arrow else ""
        self.add(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' stroke='{stroke}' "
                 f"stroke-width='{width}'{extra}/>")

    def polyline(self, points, stroke="#000", width=1.0, dash=None, arrow=False):
        """arrow: True for an arrowhead at the end, "every" at every corner too."""
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        extra = f" stroke-dasharray='{dash}'" if dash else ""
        extra += " marker-end='url(#arrow)'" if arrow else ""
        extra += " marker-mid='url(#arrow)'" if arrow == "every" else ""
        self.add(f"<polyline points='{pts}' fill='none' stroke='{stroke}' stroke-width='{width}'"
                 f"{extra}/>")

    def text(self, x, y, text, size=12, anchor="start", weight="normal", fill="#000"):
        self.add(f"<text x='{x:.1f}' y='{y:.1f}' {FONT} font-size='{size}' text-anchor='{anchor}' "
                 f"font-weight='{weight}' fill='{fill}'>{escape(text)}</text>")

    def dim_h(self, x1, x2, y, label, size=11):
        """A horizontal dimension line with end ticks and its value above."""
        self.line(x1, y, x2, y, width=0.8)
        for x in (x1, x2):
            self.line(x, y - 5, x, y + 5, width=0.8)
        self.text((x1 + x2) / 2, y - 4, label, size, "middle")

    def dim_v(self, x, y1, y2, label, size=11, side="right"):
        """A vertical dimension line with end ticks and its value beside it."""
        self.line(x, y1, x, y2, width=0.8)
        for y in (y1, y2):
            self.line(x - 5, y, x + 5, y, width=0.8)
        dx, anchor = (7, "start") if side == "right" else (-7, "end")
        self.text(x + dx, (y1 + y2) / 2 + 4, label, size, anchor)

    def svg(self) -> str:
        w, h = round(self.width), round(self.height)
        defs = ("<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' "
                "markerHeight='7' orient='auto-start-reverse'><path d='M0,0L10,5L0,10z' "
                "fill='context-stroke'/></marker></defs>")
        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}' "
                f"viewBox='0 0 {w} {h}'>{defs}<rect width='100%' height='100%' fill='white'/>"
                + "".join(self.parts) + "</svg>\n")
