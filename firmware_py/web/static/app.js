// The board's page: draws what the server pushes over /ws and, in the simulator, sends what the
// hand does. Plain JavaScript, no build step, nothing loaded from elsewhere.
"use strict";

const U = 60;                      // one grid step in SVG units
const SQ = Math.sqrt(3) / 2;
const NS = "http://www.w3.org/2000/svg";
const TOKEN = new URLSearchParams(location.search).get("token");
// The page's text in the board's language: the server puts its catalogue into the page.
const TEXT = JSON.parse((document.getElementById("catalogue") || {}).textContent || "{}");
// `text` translated, its {named} placeholders filled from `words`.
function _(text, words) {
  const t = TEXT[text] || text;
  return words ? t.replace(/\{(\w+)\}/g, (m, k) => (k in words ? String(words[k]) : m)) : t;
}
const PIECE_WORD = { W: _("white"), B: _("black"), D: _("DVONN") };
const SIDE_WORD = { white: _("white"), black: _("black") };
const MODE_WORD = {
  calibrating: _("calibrating"), idle: _("idle"), lifted: _("lifted"), removing: _("removing"),
  asking: _("asking"), error: _("error"), unexplained: _("unexplained"),
  link_lost: _("link lost"), paused: _("paused"), over: _("over"),
};

const page = {
  layout: null, canAct: false, simulator: false, game: null, sim: null, leds: null,
  tool: "move", gesture: null, nextId: 1, ws: null, spaces: {},
  replies: [], inflight: {}, acked: 0, plan: false,
  tapped: null, hover: null,  // the selected space (a tap) and the one under the mouse
};
const $ = (id) => document.getElementById(id);

// -- the channel -------------------------------------------------------------------------------
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" +
    (TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "");
  const ws = new WebSocket(url);
  page.ws = ws;
  ws.onopen = () => { $("offline").hidden = true; };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    $("offline").hidden = false;
    setTimeout(connect, 1000);
  };
}

// What the hand will hold once everything asked of it is done. The server says so in each
// state (`will_hold`, with `done`: requests done so far); while requests of ours are on the way,
// or the last state predates their answers, the page goes by what it asked for.
const HAND_PLAN = { lift: true, put: false, discard: false, remove: false };

function send(message) {
  const id = page.nextId++;
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) {
    notice(_("not connected to the board"));
    return null;
  }
  page.ws.send(JSON.stringify(Object.assign({ id }, message)));
  page.inflight[id] = message.type;
  if (message.type in HAND_PLAN) page.plan = HAND_PLAN[message.type];
  return id;
}

function answered(m) {
  if (m.id in page.inflight) delete page.inflight[m.id];
  if (typeof m.done === "number") page.acked = Math.max(page.acked, m.done);
}

function sendRaw(text) {  // for tests: anything at all
  page.ws.send(text);
}

function receive(m) {
  if (m.type === "hello") {
    page.layout = m.layout; page.canAct = m.can_act; page.simulator = m.simulator;
    page.readOnlyReason = m.read_only_reason;
    setup();
  } else if (m.type === "state") {
    page.game = m.game; page.sim = m.sim; page.session = m.session || null;
    draw();
  } else if (m.type === "leds") {
    page.leds = m.leds; drawLeds();
  } else if (m.type === "error") {
    page.replies.push(m);
    answered(m);
    notice(m.message);
    drawHand();
  } else if (m.type === "ok") {
    page.replies.push(m);
    answered(m);
    if (m.message) notice(m.message, true);
  }
}

let noticeTimer = null;
// Text from the board, with `command` spans shown as code (never as literal backticks).
function setText(node, text) {
  node.textContent = "";
  String(text || "").split("`").forEach((part, i) => {
    if (i % 2) node.appendChild(document.createElement("code")).textContent = part;
    else if (part) node.appendChild(document.createTextNode(part));
  });
}

// The board's words for the situation, spoken by its speech engine and played here.
async function sayAloud() {
  const audio = $("say-audio");
  let reply;
  try {
    reply = await fetch("/say.wav", { cache: "no-store" });
  } catch (e) {
    notice(_("the board did not answer: {error}", { error: e.message }));
    return;
  }
  if (!reply.ok) { notice(await reply.text()); return; }
  if (audio.src) URL.revokeObjectURL(audio.src);
  audio.src = URL.createObjectURL(await reply.blob());
  audio.play().catch(() => notice(_("the browser would not play the sound (is it muted?)")));
}

function notice(text, quiet) {
  const n = $("notice");
  setText(n, text);
  n.hidden = false;
  n.classList.toggle("quiet", !!quiet);
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { n.hidden = true; }, quiet ? 3000 : 10000);
}

// -- geometry ----------------------------------------------------------------------------------
function xy(i) {
  const [c, r] = page.layout.coords[i];
  return [(c - r / 2) * U, (4 - r) * SQ * U];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// The board's outline: the hexagon through the six corner spaces, pushed out by `d` on every
// side (a rim wide enough for the coordinates).
function rim(d) {
  const names = page.layout.spaces;
  const p = ["a1", "i1", "k3", "k5", "c5", "a3"].map((n) => xy(names.indexOf(n)));
  const normal = (a, b) => {  // outward unit normal of the edge a -> b
    const dx = b[0] - a[0], dy = b[1] - a[1], l = Math.hypot(dx, dy);
    return [-dy / l, dx / l];
  };
  return p.map((c, i) => {
    const n1 = normal(p[(i + 5) % 6], c), n2 = normal(c, p[(i + 1) % 6]);
    const k = d / (1 + n1[0] * n2[0] + n1[1] * n2[1]);
    return [c[0] + (n1[0] + n2[0]) * k, c[1] + (n1[1] + n2[1]) * k];
  });
}

// Coordinates on the rim, outside the LED rings: row numbers at both ends of each row, column
// letters below row 1 and above row 5.
function coordinateLabels(svg) {
  const names = page.layout.spaces, off = 0.78 * U;
  const label = (text, [x, y], dx, dy) =>
    el("text", { class: "label", x: x + dx * off, y: y + dy * off }, svg).textContent = text;
  for (let r = 1; r <= 5; r++) {
    const row = names.filter((n) => n.slice(1) === String(r)).map((n) => xy(names.indexOf(n)));
    label(String(r), row[0], -1, 0);
    label(String(r), row[row.length - 1], 1, 0);
  }
  for (const col of "abcdefghijk") {
    const spaces = names.filter((n) => n[0] === col);
    if (spaces.includes(col + "1")) label(col, xy(names.indexOf(col + "1")), -0.5, SQ);
    if (spaces.includes(col + "5")) label(col, xy(names.indexOf(col + "5")), 0.5, -SQ);
  }
}

function setup() {
  const svg = $("board");
  svg.innerHTML = "";
  const names = page.layout.spaces;
  const wood = rim(1.1 * U);
  const xs = wood.map((p) => p[0]), ys = wood.map((p) => p[1]);
  const left = Math.min(...xs) - 4, top = Math.min(...ys) - 4, bottom = Math.max(...ys) + 4;
  const width = Math.max(...xs) + 4 - left;
  const trayH = page.simulator ? 1.15 * U : 0;
  svg.setAttribute("viewBox", `${left} ${top} ${width} ${bottom - top + trayH}`);
  el("polygon", { class: "wood", points: wood.map(([x, y]) => `${x},${y}`).join(" ") }, svg);
  coordinateLabels(svg);
  const at = {};
  page.layout.coords.forEach(([c, r], i) => { at[c + "," + r] = i; });
  page.layout.coords.forEach(([c, r], i) => {
    for (const [dc, dr] of [[1, 0], [1, 1], [0, 1]]) {
      const j = at[(c + dc) + "," + (r + dr)];
      if (j === undefined) continue;
      const [x1, y1] = xy(i), [x2, y2] = xy(j);
      el("line", { class: "line", x1, y1, x2, y2 }, svg);
    }
  });
  page.spaces = {};
  names.forEach((name, i) => {
    const [x, y] = xy(i);
    const g = el("g", { class: "space", "data-space": name, transform: `translate(${x},${y})` }, svg);
    const title = el("title", {}, g);
    // A dark edge on both sides of a lit ring sets it off from a piece of its own colour.
    const ledBack = el("circle", { class: "led-back", r: 0.42 * U, fill: "none" }, g);
    const led = el("circle", { class: "led", r: 0.42 * U, fill: "none", stroke: "none" }, g);
    el("circle", { class: "hole", r: 0.1 * U }, g);
    const loose = el("g", { class: "loose", transform: `translate(${0.28 * U},${-0.28 * U})` }, g);
    const stack = el("g", { class: "stack" }, g);
    el("circle", { class: "selected", r: 0.5 * U, fill: "none" }, g);
    el("circle", { class: "hit", r: 0.5 * U, fill: "transparent" }, g);
    page.spaces[name] = { g, title, led, ledBack, stack, loose };
  });
  if (page.simulator) {
    const y = bottom + 0.1 * U, w = 7.5 * U, x = 4 * U - w / 2;
    el("rect", { class: "tray", x, y, width: w, height: 0.9 * U, rx: 10, "data-space": "box" }, svg);
    const text = el("text", { class: "tray-text", x: 4 * U, y: y + 0.45 * U }, svg);
    text.textContent = _("the box: a stack put here leaves the board");
    const room = w - 0.4 * U;  // a font wider than ours must not spill out of the box
    if (text.getComputedTextLength() > room) {
      text.setAttribute("textLength", room);
      text.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
  const ghost = el("g", { class: "ghost", visibility: "hidden" }, svg);
  page.ghost = ghost;
  // Controls
  document.body.classList.toggle("readonly", !page.canAct);
  document.body.classList.toggle("simulator", page.simulator);
  $("kind").textContent = page.simulator ? _("simulator") : _("live board");
  const access = $("access");
  access.textContent = page.canAct ? "" : _("read-only");
  access.className = "badge" + (page.canAct ? "" : " readonly");
  access.title = page.readOnlyReason || "";
  $("sim-controls").hidden = !page.simulator;
  $("help-sim").hidden = !page.simulator;
  $("help-live").hidden = page.simulator;
  $("help").open = page.simulator && !localStorage.getItem("dvonn-help-seen");
  for (const b of document.querySelectorAll("#panel button")) {
    b.disabled = !page.canAct;
    if (!page.canAct) b.title = page.readOnlyReason || _("read-only");
  }
  for (const s of document.querySelectorAll("#faults select, #faults input, #piece, #lift-count"))
    s.disabled = !page.canAct;
  $("btn-say").disabled = false;  // only listens: read-only pages may too
  $("btn-say").title = _("the situation aloud: the lifted stack and where it may go, whose turn and the last move, or the board's question (as the board's say button)");
  const dead = $("dead");
  if (dead.options.length === 1)
    for (const n of names) dead.add(new Option(n, n));
  const legend = $("legend-list");
  legend.innerHTML = "";
  for (const [name, s] of Object.entries(page.layout.signals)) {
    const li = document.createElement("li");
    li.innerHTML = `<span class="swatch" style="background:${s.rgb}"></span>` +
      `<span><b>${s.label || name.replace(/_/g, " ")}</b> (${s.pattern_word || s.pattern}): ${s.meaning}</span>`;
    legend.appendChild(li);
  }
  draw();
  drawLeds();
}

// -- drawing -----------------------------------------------------------------------------------
function shownStacks() {
  if (page.sim && page.sim.stacks) return page.sim.stacks;
  return page.game ? page.game.stacks : {};
}

function describe(name, stack) {
  if (!stack) return _("{space}: empty", { space: name });
  const words = {
    space: name, height: stack.length, top: PIECE_WORD[stack[stack.length - 1]],
    pieces: stack.split("").map((p) => PIECE_WORD[p]).join(", "),
  };
  return stack.includes("D")
    ? _("{space}: height {height}, {top} on top, holds a DVONN piece — {pieces} (bottom to top)", words)
    : _("{space}: height {height}, {top} on top — {pieces} (bottom to top)", words);
}

function drawStack(g, stack, scale) {
  g.innerHTML = "";
  if (!stack) return;
  const top = stack[stack.length - 1];
  const r = 0.31 * U * (scale || 1);
  el("circle", { class: "disc " + top, r }, g);
  if (stack.includes("D") && (top !== "D" || stack.length > 1))
    el("circle", { class: "dvonn-mark", r: r * 0.72 }, g);
  if (stack.length > 1 || top === "D")
    el("text", { class: "height " + top }, g).textContent = top === "D" && stack.length === 1
      ? "D" : String(stack.length);
}

function draw() {
  if (!page.layout || !page.game) return;
  const game = page.game, stacks = shownStacks();
  const loose = {};
  for (const l of (page.sim && page.sim.loose) || []) loose[l.home] = l.stack;
  for (const name of page.layout.spaces) {
    const s = page.spaces[name];
    drawStack(s.stack, stacks[name]);
    drawStack(s.loose, loose[name], 0.8);
    let t = describe(name, stacks[name]);
    if (loose[name]) t += " " + _("(knocked aside: {stack})", { stack: loose[name] });
    const sig = game.signals[name];
    if (sig) t += ` — LED: ${page.layout.signals[sig].meaning}`;
    s.title.textContent = t;
    s.g.dataset.stack = stacks[name] || "";
  }
  const mode = $("mode");
  mode.textContent = MODE_WORD[game.mode] || game.mode.replace(/_/g, " ");
  mode.className = "badge " + game.mode;
  // The headline says what the board waits for; while it only waits for the player to move,
  // that is whose turn it is, and a standing note (a faulty sensor...) goes under it.
  const waiting = game.mode === "idle" || game.mode === "over";
  setText($("message"), waiting ? fallbackMessage(game) : game.message || fallbackMessage(game));
  const note = waiting && game.message && game.message !== fallbackMessage(game) ? game.message : "";
  setText($("note"), note);
  $("note").hidden = !note;
  $("turn").textContent = game.winner ? "—" : game.to_place
    ? _("{player} (places {piece})", { player: SIDE_WORD[game.turn], piece: PIECE_WORD[game.to_place] })
    : SIDE_WORD[game.turn] || game.turn;
  $("phase").textContent = game.phase === 1 ? _("1: placing") : _("2: moving");
  $("score-white").textContent = game.score.white;
  $("score-black").textContent = game.score.black;
  $("winner-row").hidden = !game.winner;
  $("winner").textContent = game.winner === "draw" ? _("a draw")
    : game.winner === "white" ? _("white wins") : game.winner === "black" ? _("black wins") : "";
  $("hint-row").hidden = !game.hint;
  $("hint").textContent = game.hint ? _("plays {ply} (shown on the LEDs)", { ply: game.hint }) : "";
  drawClock(game.clock);
  $("btn-hint").hidden = !(page.session && page.session.hints) || game.mode === "over";
  drawReview(game);
  drawFarAway();
  const moves = $("moves");
  if (moves.childElementCount !== game.moves.length || moves.dataset.last !== game.moves.join(" ")) {
    moves.innerHTML = "";
    game.moves.forEach((m, i) => {
      const li = document.createElement("li");
      li.textContent = m;
      if (i === game.moves.length - 1) li.className = "last";
      moves.appendChild(li);
    });
    moves.dataset.last = game.moves.join(" ");
    moves.scrollTop = moves.scrollHeight;
  }
  // The session keeps its rebuild lines until the next ply; once the board matches, they are done.
  const rebuilding = !["idle", "over", "lifted", "removing"].includes(game.mode);
  const rebuild = (rebuilding && page.session && page.session.rebuild) || [];
  const rb = $("rebuild");
  rb.hidden = rebuild.length === 0;
  rb.innerHTML = rebuild.length ? "<li><b>Rebuild:</b></li>" : "";
  for (const line of rebuild) {
    const li = document.createElement("li");
    li.textContent = line;
    rb.appendChild(li);
  }
  $("btn-remove-cut").hidden = !(page.simulator && game.remove.length);
  drawHand();
  drawReading();
  if (page.sim && page.sim.faults) syncFaults(page.sim.faults);
}

// A game against someone far away: the local player's draw offers and resignation (the
// remote side's plies light up on the board; its offers are answered here or with the buttons).
function drawFarAway() {
  const far = page.session && page.session.far;
  $("far-controls").hidden = !far;
  if (!far) return;
  $("far-who").textContent = far.me === "white" ? SIDE_WORD.black : SIDE_WORD.white;
  setText($("far-status"), far.status || "");
  const open = !far.result;
  const theirDraw = open && far.theirs && far.offer && far.offer.what === "draw";
  $("btn-offer-draw").hidden = !open || theirDraw;
  $("btn-offer-draw").disabled = !!far.offer;
  $("btn-accept-draw").hidden = !theirDraw;
  $("btn-decline-draw").hidden = !theirDraw;
  $("btn-resign").hidden = !open;
}

// After the game: the engine's review (evaluation graph and mistakes), fetched once per game.
function drawReview(game) {
  const over = game.mode === "over" && game.phase === 2;
  $("review").hidden = !over;
  const key = game.moves.join(" ");
  if (!over || page.reviewFor === key) return;
  page.reviewFor = key;
  $("review-status").textContent = _("the engine is looking at the game…");
  $("review-graph").innerHTML = "";
  $("review-mistakes").innerHTML = "";
  fetch("/review.json", { cache: "no-store" })
    .then((r) => r.ok ? r.json() : Promise.reject(new Error(r.statusText)))
    .then((r) => {
      if (page.reviewFor !== key) return;
      $("review-graph").innerHTML = r.svg;
      $("review-status").textContent = r.mistakes.length
        ? _("The biggest swings (red dots on the graph):") : _("No mistakes found.");
      for (const text of r.mistakes) {
        const li = document.createElement("li");
        li.textContent = text;
        $("review-mistakes").appendChild(li);
      }
    })
    .catch((e) => { $("review-status").textContent = _("no review: {error}", { error: e.message }); });
}

function clockText(seconds) {
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// The game clock as the server counts it (whole seconds, updated once a second).
function drawClock(clock) {
  $("clock-row").hidden = !clock;
  if (!clock) return;
  ["white", "black"].forEach((side, i) => {
    const span = $("clock-" + side);
    const out = clock.flagged === i;
    const words = { time: clockText(clock.left[i]) };
    span.textContent = side === "white"
      ? (out ? _("white {time} (out of time)", words) : _("white {time}", words))
      : (out ? _("black {time} (out of time)", words) : _("black {time}", words));
    const running = clock.running === i;
    span.className = [running ? "running" : "", (running && clock.low) || out ? "low" : ""]
      .filter(Boolean).join(" ");
  });
}

function fallbackMessage(game) {
  if (game.winner) return game.winner === "draw" ? _("game over: a draw")
    : game.winner === "white" ? _("game over: white wins") : _("game over: black wins");
  if (game.mode === "over") return _("game over");
  if (game.mode === "calibrating") return _("calibrating: keep the board empty and still");
  if (game.mode !== "idle") return "";
  const white = game.turn === "white";
  if (game.to_place === "D")
    return white ? _("white to place a DVONN piece") : _("black to place a DVONN piece");
  if (game.to_place === "W")
    return white ? _("white to place a white piece") : _("black to place a white piece");
  if (game.to_place === "B")
    return white ? _("white to place a black piece") : _("black to place a black piece");
  return white ? _("white to move") : _("black to move");
}

function drawLeds() {
  if (!page.layout) return;
  const leds = page.leds || [];
  page.layout.spaces.forEach((name, i) => {
    const c = leds[i];
    const on = c && c !== "#000000";
    page.spaces[name].led.setAttribute("stroke", on ? c : "none");
    page.spaces[name].ledBack.setAttribute("stroke", on ? "#17110a" : "none");
    page.spaces[name].g.dataset.led = on ? c : "";
  });
}

function holding() {
  const sim = page.sim;
  if (!sim || !sim.hand) return page.plan;
  const waiting = Object.keys(page.inflight).length > 0 || sim.done < page.acked;
  return waiting ? page.plan : sim.hand.will_hold;
}

function drawHand() {
  if (!page.simulator) return;
  const h = (page.sim && page.sim.hand) || {};
  let text = h.holding ? _("holding {stack}", { stack: describe("", h.holding).replace(/^: /, "") })
    : _("empty");
  if (!h.holding && holding()) text = _("lifting…");
  if (h.busy) text = _("{hand} (moving…)", { hand: text });
  $("hand").textContent = text;
  $("btn-discard").hidden = !h.holding;
  const log = (page.sim && page.sim.log) || [];
  $("hand-log").textContent = log.length ? _("last: {action}", { action: log[log.length - 1] }) : "";
  drawStack(page.ghost, h.holding || "");
  if (!h.holding) page.ghostPlaced = false;  // shown again where the pointer next moves
  page.ghost.setAttribute("visibility", h.holding && page.ghostPlaced ? "visible" : "hidden");
}

// The fault controls show the simulator's settings, except one the person is changing (in
// focus, or its request not answered yet: the state on its way may predate it).
function syncFaults(f) {
  const pending = new Set(Object.values(page.inflight));
  const free = (id, kind) => document.activeElement !== $(id) && !pending.has(kind);
  if (free("noise", "noise") && typeof f.noise === "string") $("noise").value = f.noise;
  if (free("dead", "dead_sensor")) $("dead").value = f.dead || "";
  if (free("link", "link")) $("link").checked = f.link !== false;
}

// -- acting ------------------------------------------------------------------------------------
// In the simulator the page is the hand. A tap (or click) reads a space and never moves a stack;
// lifting is a distinct action: the Lift button under the board, or dragging the stack. While
// the hand holds a stack, a tap sets it down there (on the box: off the board). In phase 1 a tap
// on an empty space places the next piece.
const DRAG_PX = 8;  // a pointer that moves this far while pressed drags rather than taps
const TOOL_HOW = {
  remove: _("Tap a stack to take it off the board (Move / place: back to moving pieces)."),
  knock: _("Tap a stack to knock it off its space (Move / place: back to moving pieces)."),
  restore: _("Tap a knocked stack's space to push it back (Move / place: back to moving pieces)."),
};

function spaceAt(ev) {
  const e = document.elementFromPoint(ev.clientX, ev.clientY);
  const g = e && e.closest("[data-space]");
  return g ? g.dataset.space : null;
}

function gameOver() {
  return !!(page.game && (page.game.winner || page.game.mode === "over"));
}

function mayLift(name) {
  return page.simulator && page.canAct && page.tool === "move" && !gameOver() && !holding() &&
    !!name && name !== "box" && !!shownStacks()[name];
}

function select(name) {
  if (!name || name === "box") return;
  if (page.tapped && page.spaces[page.tapped]) page.spaces[page.tapped].g.classList.remove("is-selected");
  page.tapped = name;
  page.spaces[name].g.classList.add("is-selected");
  drawReading();
}

// The line under the board: the selected space as it is now (redrawn with every state, so it
// never goes stale), the Lift button for it, and what a tap does next.
function drawReading() {
  if (!page.layout) return;
  const name = page.tapped, shown = page.hover || name;  // hovering reads; a tap selects
  if (shown) {
    let t = describe(shown, shownStacks()[shown]);
    const sig = page.game && page.game.signals[shown];
    if (sig) t += ` — LED: ${page.layout.signals[sig].meaning}`;
    $("tapped").textContent = t;
  }
  const lift = $("btn-lift");
  lift.hidden = !mayLift(name);
  if (!lift.hidden) {
    const count = $("lift-count").value;
    lift.textContent = count && Number(count) < shownStacks()[name].length
      ? _("Lift the top {count} of {space}", { count, space: name }) : _("Lift {space}", { space: name });
  }
  const how = $("how");
  how.hidden = !(page.simulator && page.canAct && page.game);
  if (how.hidden) return;
  if (page.tool !== "move") how.textContent = TOOL_HOW[page.tool];
  else if (holding()) how.textContent = _("Tap a space to set the stack down there (the box: off the board), or drag it there.");
  else if (gameOver()) how.textContent = _("The game is over: New game to play again. Tap a stack to read it.");
  else if (page.game.phase === 1) how.textContent = _("Tap an empty space to place the next piece; tap a stack to read it.");
  else how.textContent = _("Tap a stack to read it, then Lift to pick it up (or drag it where it goes).");
}

function lift(name) {
  const count = $("lift-count").value;
  send({ type: "lift", space: name, count: count ? Number(count) : null });
  drawHand();
  drawReading();
}

function svgPoint(ev) {
  const svg = $("board");
  const p = svg.createSVGPoint();
  p.x = ev.clientX; p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function onDown(ev) {
  const name = spaceAt(ev);
  select(name);
  if (!page.simulator || !page.canAct || !name) return;
  page.gesture = { start: name, x: ev.clientX, y: ev.clientY, dragging: false };
  ev.preventDefault();
}

function onMove(ev) {
  const g = page.gesture;
  if (g && !g.dragging && Math.hypot(ev.clientX - g.x, ev.clientY - g.y) >= DRAG_PX) {
    g.dragging = true;
    if (mayLift(g.start)) lift(g.start);  // dragging a stack lifts it
    else if (!holding()) g.dragging = false;
  }
  if (!holding()) return;
  const p = svgPoint(ev);
  page.ghost.setAttribute("transform", `translate(${p.x},${p.y})`);
  page.ghostPlaced = true;
  if (page.sim && page.sim.hand && page.sim.hand.holding) page.ghost.setAttribute("visibility", "visible");
}

function onUp(ev) {
  const g = page.gesture;
  page.gesture = null;
  if (!g || !page.simulator || !page.canAct) return;
  const name = spaceAt(ev);
  if (!name) return;  // let go off the board: a held stack stays in the hand
  if (page.tool !== "move") {
    if (name !== "box" && !g.dragging) send({ type: page.tool, space: name });
    return;
  }
  if (holding()) {  // set down here (a tap, or the end of a drag)
    send(name === "box" ? { type: "discard" } : { type: "put", space: name });
  } else if (!g.dragging && name !== "box" && !shownStacks()[name] && !gameOver() &&
             (page.game.phase === 1 || $("piece").value)) {
    send({ type: "place", space: name, piece: $("piece").value || null });
  }
  drawReading();
}

function wire() {
  const svg = $("board");
  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  svg.addEventListener("mouseover", (ev) => {
    const g = ev.target.closest && ev.target.closest("[data-space]");
    page.hover = g && g.dataset.space !== "box" ? g.dataset.space : null;
    drawReading();
  });
  svg.addEventListener("mouseleave", () => { page.hover = null; drawReading(); });
  $("btn-lift").addEventListener("click", () => { if (mayLift(page.tapped)) lift(page.tapped); });
  $("lift-count").addEventListener("change", drawReading);
  for (const b of document.querySelectorAll("[data-tool]")) {
    b.addEventListener("click", () => {
      page.tool = b.dataset.tool;
      for (const o of document.querySelectorAll("[data-tool]")) o.classList.toggle("active", o === b);
      drawReading();
    });
  }
  $("btn-confirm").addEventListener("click", () => send({ type: "confirm" }));
  $("btn-takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("btn-hint").addEventListener("click", () => send({ type: "hint" }));
  $("btn-say").addEventListener("click", sayAloud);
  $("btn-offer-draw").addEventListener("click", () => send({ type: "offer_draw" }));
  $("btn-accept-draw").addEventListener("click", () => send({ type: "accept_draw" }));
  $("btn-decline-draw").addEventListener("click", () => send({ type: "decline_draw" }));
  // Resigning ends the game for good: ask for a second click.
  let resigning = null;
  $("btn-resign").addEventListener("click", () => {
    const b = $("btn-resign");
    if (resigning) {
      clearTimeout(resigning); resigning = null; b.textContent = _("Resign");
      send({ type: "resign" });
      return;
    }
    b.textContent = _("Click again to resign");
    resigning = setTimeout(() => { resigning = null; b.textContent = _("Resign"); }, 4000);
  });
  // A new game abandons this one (it stays in the store): ask for a second click.
  let armed = null;
  $("btn-new").addEventListener("click", () => {
    const b = $("btn-new");
    if (armed) {
      clearTimeout(armed); armed = null; b.textContent = _("New game");
      send({ type: "new_game" });
      return;
    }
    b.textContent = _("Click again for a new game");
    armed = setTimeout(() => { armed = null; b.textContent = _("New game"); }, 4000);
  });
  $("btn-discard").addEventListener("click", () => send({ type: "discard" }));
  $("btn-remove-cut").addEventListener("click", () => {
    for (const s of page.game.remove) send({ type: "remove", space: s });
  });
  $("noise").addEventListener("change", (e) => send({ type: "noise", level: e.target.value }));
  $("dead").addEventListener("change", (e) => send({ type: "dead_sensor", space: e.target.value || null }));
  $("link").addEventListener("change", (e) => send({ type: "link", connected: e.target.checked }));
  $("help").addEventListener("toggle", () => {
    if (!$("help").open) localStorage.setItem("dvonn-help-seen", "1");
  });
}

// For tests and the curious: window.dvonn.send({type: "lift", space: "c3"}).
window.dvonn = { send, sendRaw, page };
wire();
connect();
