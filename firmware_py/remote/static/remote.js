// The remote play page: the board as the host recorded it, your legal plies to click, the
// moves, a status line. Every ply carries its number (n); the host's record is the truth, and
// after a dropped connection the page opens it again and the host's state catches it up. A ply
// not yet acknowledged when the connection dropped is sent again if it is still due (the host
// takes the same ply twice as once). No build step, nothing from a CDN.
"use strict";
// The page's text in the board's language: the server puts its catalogue into the page.
const TEXT = JSON.parse((document.getElementById("catalogue") || {}).textContent || "{}");
// `text` translated, its {named} placeholders filled from `words`.
function _(text, words) {
  const t = TEXT[text] || text;
  return words ? t.replace(/\{(\w+)\}/g, (m, k) => (k in words ? String(words[k]) : m)) : t;
}
const NS = "http://www.w3.org/2000/svg";
const U = 46, SQ = Math.sqrt(3) / 2;
const token = new URLSearchParams(location.search).get("token") || "";
const remote = window.remote = { state: null, hello: null, chosen: null, outbox: null,
                                 ws: null, tries: 0, opened: 0, resent: false };
const $ = (id) => document.getElementById(id);

function xy(i) {
  const [c, r] = remote.hello.layout.coords[i];
  return [(c - r / 2) * U, (4 - r) * SQ * U];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function drawGrid() {
  const svg = $("board");
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `${-2.6 * U} ${-0.6 * U} ${12.2 * U} ${(4 * SQ + 1.2) * U}`);
  const { spaces, coords } = remote.hello.layout;
  const at = {};
  coords.forEach(([c, r], i) => { at[c + "," + r] = i; });
  coords.forEach(([c, r], i) => {
    for (const [dc, dr] of [[1, 0], [0, 1], [1, 1]]) {
      const j = at[(c + dc) + "," + (r + dr)];
      if (j === undefined) continue;
      const [x1, y1] = xy(i), [x2, y2] = xy(j);
      el("line", { class: "line", x1, y1, x2, y2 }, svg);
    }
  });
  spaces.forEach((name, i) => {
    const [x, y] = xy(i);
    const g = el("g", { class: "space", "data-space": name, transform: `translate(${x},${y})` }, svg);
    el("circle", { class: "hole", r: U * 0.42 }, g);
    el("circle", { class: "piece", r: U * 0.34, visibility: "hidden" }, g);
    el("circle", { class: "piece dvonn-mark", r: U * 0.1, visibility: "hidden" }, g);
    el("text", { class: "height" }, g);
    g.addEventListener("click", () => clicked(name));
  });
}

function myTurn() {
  const s = remote.state;
  return s && remote.hello.role === "opponent" && s.legal.length > 0;
}

function clicked(name) {
  const s = remote.state;
  if (!s || remote.hello.role !== "opponent") return;
  if (!myTurn()) { notice(s.status); return; }
  if (s.phase === 1) { send({ type: "ply", n: s.n, ply: name }); return; }
  if (remote.chosen === null || remote.chosen === name) {
    remote.chosen = remote.chosen === name ? null : name;
    draw();
    return;
  }
  const ply = remote.chosen + name;
  remote.chosen = null;
  draw();
  send({ type: "ply", n: s.n, ply });
}

function send(msg) {
  if (msg.type === "ply") { remote.outbox = msg; remote.resent = false; }
  if (remote.ws && remote.ws.readyState === WebSocket.OPEN) remote.ws.send(JSON.stringify(msg));
  else notice(_("not connected: it is sent once the connection is back"));
}

function notice(text) {
  const n = $("notice");
  n.textContent = text;
  n.hidden = !text;
}

function draw() {
  const s = remote.state;
  if (!s || !remote.hello) return;
  const white = s.colour === "white";
  const me = remote.hello.role === "opponent"
    ? (white ? _("you play white") : _("you play black"))
    : (white ? _("watching (white plays far away)") : _("watching (black plays far away)"));
  $("you").textContent = me;
  $("status").textContent = s.status;
  $("score").textContent = _("white {white} · black {black}", s.score);
  const legalDst = new Set(), legalSrc = new Set();
  for (const p of s.legal) {
    if (p.length === 2) legalDst.add(p);
    else if (remote.chosen === null) legalSrc.add(p.slice(0, 2));
    else if (p.slice(0, 2) === remote.chosen) legalDst.add(p.slice(2));
  }
  const last = s.moves.length ? s.moves[s.moves.length - 1] : "";
  for (const g of document.querySelectorAll("g.space")) {
    const name = g.dataset.space;
    const stack = s.stacks[name] || "";
    const [hole, piece, mark, text] = g.children;
    piece.setAttribute("visibility", stack ? "visible" : "hidden");
    piece.setAttribute("class", "piece " + (stack ? stack[stack.length - 1] : ""));
    mark.setAttribute("visibility", stack.includes("D") && stack[stack.length - 1] !== "D" ? "visible" : "hidden");
    mark.setAttribute("class", "piece D dvonn-mark");
    text.textContent = stack.length > 1 ? String(stack.length) : "";
    text.setAttribute("class", "height on-" + (stack ? stack[stack.length - 1] : "W"));
    g.classList.toggle("legal", legalDst.has(name) || legalSrc.has(name));
    g.classList.toggle("chosen", remote.chosen === name);
    g.classList.toggle("pending", !!s.pending && s.pending.slice(-2) === name);
    g.classList.toggle("last", !!last && last.slice(-2) === name);
  }
  const ol = $("moves");
  ol.innerHTML = "";
  for (const m of s.moves) {
    const li = document.createElement("li");
    li.textContent = m;
    ol.appendChild(li);
  }
  if (s.pending) {
    const li = document.createElement("li");
    li.textContent = _("{ply} (on the board)", { ply: s.pending });
    li.className = "pending";
    ol.appendChild(li);
  }
  const playing = remote.hello.role === "opponent" && !s.result;
  $("actions").hidden = !playing;
  const theirs = s.offer && s.offer.by !== s.colour;
  $("offer").hidden = !(playing && theirs);
  if (s.offer) {
    const draw = s.offer.what === "draw", byWhite = s.offer.by === "white";
    $("offer-text").textContent = theirs
      ? (draw ? (byWhite ? _("white asks: a draw") : _("black asks: a draw"))
        : (byWhite ? _("white asks: take back the last ply") : _("black asks: take back the last ply")))
      : (draw ? _("you offered a draw: waiting for the answer")
        : _("you offered a takeback: waiting for the answer"));
    if (!theirs) $("status").textContent += ` · ${$("offer-text").textContent}`;
  }
}

function onMessage(ev) {
  const msg = JSON.parse(ev.data);
  if (msg.type === "hello") {
    remote.hello = msg;
    drawGrid();
  } else if (msg.type === "state") {
    const first = remote.state === null || remote.state.game !== msg.game;
    remote.state = msg;
    const out = remote.outbox;
    if (out && (msg.n > out.n || msg.game === undefined)) remote.outbox = null;  // taken
    if (first) remote.chosen = null;
    draw();
  } else if (msg.type === "error") {
    if (msg.refused === "ply") remote.outbox = null;
    notice(msg.message);
  } else if (msg.type === "ok") {
    notice("");
  }
}

function connect() {
  const url = new URL("ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.search = "?token=" + encodeURIComponent(token);
  const ws = new WebSocket(url);
  remote.ws = ws;
  ws.onopen = () => {
    remote.tries = 0;
    remote.opened += 1;
    $("link").textContent = _("connected");
    $("link").classList.remove("lost");
  };
  ws.onmessage = (ev) => {
    onMessage(ev);
    const out = remote.outbox, s = remote.state;
    // A ply sent just before the connection dropped: still due, so send it again.
    if (out && s && !remote.resent && s.n === out.n && s.legal.includes(out.ply)) {
      remote.resent = true;
      ws.send(JSON.stringify(out));
    }
  };
  ws.onclose = () => {
    remote.ws = null;
    $("link").textContent = _("connection lost: reconnecting…");
    $("link").classList.add("lost");
    remote.resent = false;
    const pause = [100, 300, 1000, 2000, 4000][Math.min(remote.tries++, 4)];
    setTimeout(connect, pause);
  };
}

$("takeback").addEventListener("click", () => send({ type: "offer", what: "takeback", n: remote.state.moves.length }));
$("draw").addEventListener("click", () => send({ type: "offer", what: "draw", n: remote.state.moves.length }));
$("resign").addEventListener("click", () => {
  if (confirm(_("Resign this game?"))) send({ type: "resign" });
});
$("accept").addEventListener("click", () => {
  const o = remote.state.offer;
  send({ type: "accept", what: o.what, n: remote.state.moves.length });
});
$("decline").addEventListener("click", () => send({ type: "decline", what: remote.state.offer.what }));
connect();
