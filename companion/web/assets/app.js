// The table's screen: renders each snapshot the box pushes (server-sent events).
// Text goes in with textContent only; the one SVG (the board) is drawn by the box.
"use strict";
const $ = (id) => document.getElementById(id);
let config = null;
let last = null;
// The box's language: the page asks the box for its catalog (msgid -> text) and reloads
// it whenever a snapshot says the box speaks another language.
// The catalog keeps each game's words apart, as the box does: the game on show answers
// first, then the page's own (core) words, so no game's wording hides another's.
let catalog = {};
let language = null;
let shownGame = null;
const lookup = (s, game) => (catalog[game || shownGame] || {})[s] ?? (catalog.core || {})[s];
const _ = (s, game) => { const t = lookup(s, game); return (Array.isArray(t) ? t[0] : t) || s; };
// A counted phrase: Intl.PluralRules names the count's category, the catalog says which
// of its forms that category takes (Polish and Czech have three, Japanese one).
function ngettext(one, many, n, game) {
  const forms = lookup(one, game);
  if (!Array.isArray(forms)) return n === 1 ? one : many;
  const rule = ((catalog[""] || {}).plural || {})[new Intl.PluralRules(language || "en").select(n)];
  return forms[rule ?? forms.length - 1] || forms[0];
}
// Translators: between the items of a list on one line (Japanese: 、).
const listed = (items) => items.join(_(", "));
const fmt = (s, values) => s.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));

async function loadCatalog(code) {
  const r = await fetch("/catalog.json", {credentials: "same-origin"});
  const got = await r.json();
  catalog = got.messages || {};
  language = got.language || code;
  document.documentElement.lang = language;
  // The page's own words (marked data-t in index.html), kept in English in data-en.
  for (const e of document.querySelectorAll("[data-t]")) {
    if (!e.dataset.en) e.dataset.en = e.textContent;
    e.textContent = _(e.dataset.en);
  }
  for (const e of document.querySelectorAll("[data-t-alt]")) e.alt = _(e.dataset.tAlt);
  document.title = _("companion: the table's screen");
  if (setupViewing.labels) setupViewing.labels();  // in the new words
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function fact(name, value, cls) {
  const d = el("div", null, "fact" + (cls ? " " + cls : ""));
  d.append(el("b", name), el("span", value));
  return d;
}

function csrf() {
  const m = document.cookie.match(/(?:^|; )companion_csrf=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "";
}

// A message by the control that was used (not at the end of the page), for a while.
let toastTimer = null;
function toast(message, near) {
  const t = $("toast");
  const spot = near && near.closest ? near.closest("section") : null;
  if (spot && t.parentNode !== spot) spot.append(t);
  t.textContent = message;
  t.hidden = !message;
  clearTimeout(toastTimer);
  if (message) toastTimer = setTimeout(() => { t.hidden = true; }, 8000);
}

async function post(path, body, near) {
  let r;
  try {
    r = await fetch(path, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-Companion-CSRF": csrf()},
      body: JSON.stringify(body)});
  } catch (e) {
    toast(_("The box does not answer: is it on, and this phone on its network?"), near);
    return false;
  }
  if (!r.ok) {
    let why = r.statusText;
    try { why = (await r.json()).error || why; } catch (e) { /* keep the status text */ }
    if (r.status === 403 && path !== "/pair") {  // unpaired (a restart, a new PIN)?
      await readConfig();
      if (!$("pair").hidden) near = $("pin");  // the buttons went: say it by the form
    }
    toast(_(why), near);
    return false;
  }
  toast("");
  return true;
}

function addButton(parent, label, body, title) {
  const b = el("button", label);
  b.type = "button";
  if (title) b.title = title;
  b.dataset.input = JSON.stringify(body);
  b.addEventListener("click", () => post("/input", body, b));
  parent.append(b);
  return b;
}

function setupControls() {
  const buttons = $("buttons");
  buttons.textContent = "";
  for (const name of config.buttons) addButton(buttons, name, {kind: "press", button: name});
  // Translators: buttons of the page's remote control (the box's buttons keep their names).
  addButton(buttons, _("Hold BACK (undo)"), {kind: "hold", button: "BACK"});
  // Translators: a button of the page's remote control: press and hold EXCHANGE.
  addButton(buttons, _("Hold EXCHANGE"), {kind: "hold", button: "EXCHANGE"});
  // Translators: a button of the page's remote control: let go of EXCHANGE.
  addButton(buttons, _("Let go EXCHANGE"), {kind: "release", button: "EXCHANGE"});
  if (config.box) {
    const pad = $("pad");
    pad.textContent = "";
    for (const p of config.pads) { const o = el("option", p); o.value = p; pad.append(o); }
    $("cards").hidden = false;
  }
}

function showCards(game) {
  const list = $("cardlist");
  const want = game || "";
  if (list.dataset.game === want) return;
  list.dataset.game = want;
  list.textContent = "";
  for (const c of config.cards) {
    if (game && c.game !== game) continue;
    const b = el("button", c.label);
    b.type = "button";
    b.dataset.uid = c.uid;
    b.addEventListener("click", () => post("/input",
      {kind: "tap", pad: Number($("pad").value), uid: c.uid}, b));
    list.append(b);
  }
}

function renderPrompt(s) {
  const m = s.menu;
  $("prompt").hidden = !m;
  if (!m) return;
  $("prompt-title").textContent = m.title;
  $("prompt-text").textContent = m.text.join(" ");
  const ol = $("prompt-items");
  ol.textContent = "";
  const cursor = s.screen && s.screen.screen === "menu" ? s.screen.cursor : -1;
  m.items.forEach((item, i) => ol.append(el("li", item, i === cursor ? "cursor" : "")));
}

const SHIP = {mercurial: "Mercurial", rubicon: "Rubicon"};
const pretty = (n) => String(n).replace(/_/g, " ").toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
// Names (components, events, planets) come from the game's catalog under their English
// names, which is how pretty() spells them ("Quantum Tunnel", "PHI PLUS").
const named = (n) => {
  const p = /[a-z]/.test(n) ? pretty(n).replace("Schrodinger", "Schrödinger") : String(n).replace(/_/g, " ");
  return _(p);
};
// A cause of detection as the box's end pages say it (the engine's reasons are
// identifiers: an event's name, "probe", "orbital defence").
const CAUSES = {"orbital defence": "orbital defence", "ground defence": "ground defence",
  probe: "PROBE", schrodinger: "Schrödinger"};
const cause = (c) => (c in CAUSES ? _(CAUSES[c]) : named(c));
const status = (s) => ({playing: _("playing"), won: _("won"), lost: _("lost"),
  setup: _("setting up"), abandoned: _("abandoned")})[s] || s;

// The board is SVG drawn by the box from its own data (every text in it escaped), in
// pieces that stay put: a move sends the two that changed, and only those are parsed
// again here (each in a group of its own), the rest of the drawing left as it is.
let board = null;
function drawBoard(parts, root) {
  if (!board || board.parts.length !== parts.length || board.parts[0] !== parts[0]) {
    const holder = el("div", null, "board-holder");
    holder.innerHTML = parts[0] + parts.slice(1, -1).map((p) => `<g class="part">${p}</g>`).join("") +
      parts[parts.length - 1];
    board = {holder, parts, groups: [...holder.querySelectorAll("svg > g.part")],
      note: el("p", null, "board-note")};
    holder.append(board.note);
  } else {
    parts.forEach((p, i) => {
      if (p !== board.parts[i] && i > 0 && i < parts.length - 1) board.groups[i - 1].innerHTML = p;
    });
    board.parts = parts;
  }
  board.note.textContent = _("CNOT |0⟩|+⟩ on a planet: the way in, when the ship playing CNOT is on |0⟩ and the other ship on |+⟩.");
  if (board.holder.parentNode !== root) root.prepend(board.holder);
}

function renderEntanglion(s, root) {
  drawBoard(s.board_svg || ["<svg>", "</svg>"], root);
  const facts = el("div", null, "facts");
  const turn = s.turn.player ? SHIP[s.turn.player] : "—";
  facts.append(
    fact(_("Status"), status(s.status)),
    fact(fmt(_("Turn {number}"), {number: s.turn.number}), turn, s.turn.player || ""),
    fact(_("Detection"), fmt(_("space {space} (value {value})"),
      {space: s.detection.space, value: s.detection.value})),
    fact(_("Engine control"), `${s.engine_control.count}/${s.engine_control.of}`),
    fact(_("Engine stack"), fmt(ngettext("{n} card", "{n} cards", s.decks.engine), {n: s.decks.engine})),
    fact(_("Event deck"), fmt(ngettext("{n} card", "{n} cards", s.decks.events), {n: s.decks.events})));
  for (const ship of ["mercurial", "rubicon"]) {
    const aboard = listed(s.components[ship].map(named)) || _("none");
    facts.append(fact(fmt(_("{ship} carries"), {ship: SHIP[ship]}), aboard, ship));
    if (s.hands) facts.append(fact(fmt(_("{ship}'s hand"), {ship: SHIP[ship]}),
      s.hands[ship].join(" ") || _("empty"), ship));
    if (s.events[ship].length) facts.append(fact(fmt(_("{ship}'s events"), {ship: SHIP[ship]}),
      listed(s.events[ship].map(named)), ship));
  }
  root.append(facts);
  const q = el("div", null, "quantum");
  q.append(el("h2", _("Behind the board: two qubits")),
    el("p", fmt(_("The ships are in the state {state}."), {state: s.quantum.state})));
  // Translators: the last gate played, a line of QNO's quantum notes on the page.
  if (s.quantum.last_gate) q.append(el("p", fmt(_("Last gate: {gate}"), {gate: s.quantum.last_gate})));
  // Translators: what the last gate did to the state, a line of QNO's quantum notes.
  if (s.quantum.last_move) q.append(el("p", fmt(_("It did: {move}"), {move: s.quantum.last_move})));
  root.append(q);
}

function renderQno(s, root) {
  const facts = el("div", null, "facts");
  facts.append(
    fact(_("Status"), status(s.status) + (s.winners.length ? " (" + listed(s.winners.map((w) => "P" + w)) + ")" : "")),
    fact(fmt(_("Turn {number}"), {number: s.turn.number}), fmt(_("Player {player}"), {player: s.turn.player})),
    fact(_("Direction"), s.turn.direction > 0 ? _("clockwise") : _("anticlockwise")),
    fact(_("Top state"), "|" + s.top.state + "⟩"),
    fact(_("Value to match"), s.top.value === null ? _("any") : s.top.value),
    fact(_("Cards in hand"), s.counts.map((n, i) => `P${i + 1}: ${n}`).join("  ")));
  root.append(facts, el("h2", _("The circuit so far")), el("pre", s.circuit));
  const a = el("a", _("Download the circuit (OpenQASM 2)"));
  a.href = "/qno.qasm";
  a.setAttribute("download", "qno-game.qasm");
  root.append(a);
}

function renderQlanet(s, root) {
  const facts = el("div", null, "facts");
  facts.append(
    fact(_("Status"), status(s.status) + (s.winners.length ?
      " (" + listed(s.winners.map((c) => fmt(_("camp {camp}"), {camp: c}))) + ")" : "")),
    fact(fmt(_("Move {number}"), {number: s.turn.number}),
      s.turn.player === null ? "—" : fmt(_("Camp {camp}"), {camp: s.turn.player})),
    fact(_("Costs"), fmt(_("camp 0: {zero}  camp 1: {one}"), {zero: s.costs[0], one: s.costs[1]})),
    fact(_("Cards in hand"), fmt(_("camp 0: {zero}  camp 1: {one}"),
      {zero: s.hand_sizes[0], one: s.hand_sizes[1]})),
    s.refill === "deck" ?
      fact(_("Deck"), fmt(ngettext("{n} card", "{n} cards", s.deck_size), {n: s.deck_size})) :
      // Translators: a label of QLANET's facts on the page, then its value.
      fact(_("Refills"), _("drawn at random from an endless supply")));
  root.append(facts, grid(_("The board"), s.planets));
  if (s.reveal) root.append(grid(_("Revealed"), s.reveal.planets));
}

function grid(title, planets) {
  const wrap = el("div");
  const g = el("div", null, "qlanet-grid");
  for (const p of planets) {
    const d = el("div", p.shown === "entangled" ? "⟷ " + p.entangled_with : p.shown);
    d.dataset.planet = p.planet;
    d.append(el("small", fmt(_("planet {planet}"), {planet: p.planet}) + (p.bell ? " " + p.bell : "")));
    g.append(d);
  }
  wrap.append(el("h2", title), g);
  return wrap;
}

const GAMES = {entanglion: renderEntanglion, qno: renderQno, qlanet: renderQlanet};
const TITLES = {entanglion: "Entanglion", qno: "QNO", qlanet: "QLANET"};

function list(id, box, items) {
  $(box).hidden = !items || !items.length;
  const ol = $(id);
  ol.textContent = "";
  for (const item of items || []) ol.append(el("li", typeof item === "string" ? item :
    `${item.move}: ${Math.round(item.chance * 100)}%`));
}

function svgs(holder, list) {
  holder.textContent = "";
  for (const plot of list || []) {
    const d = el("div", null, "plot-holder");
    d.innerHTML = plot;  // drawn by the box, every text in it escaped
    holder.append(d);
  }
}

function renderEnd(s) {
  const end = s.end;
  $("end").hidden = !end;
  if (!end) return;
  const facts = $("end-facts");
  facts.textContent = "";
  facts.append(
    // Translators: labels of the facts after a game on the page (a value follows each).
    fact(_("Turns"), end.turns),
    // Translators: a label of the facts after a game: the defence rolls made and failed.
    fact(_("Defence rolls"), listed([
      // Translators: defence rolls that succeeded, counted ("5 made"), beside the failed ones.
      fmt(ngettext("{n} made", "{n} made", end.rolls.made), {n: end.rolls.made}),
      // Translators: defence rolls that failed, counted ("1 failed"), after the ones made.
      fmt(ngettext("{n} failed", "{n} failed", end.rolls.failed), {n: end.rolls.failed})])));
  for (const [why, n] of Object.entries(end.detections)) {
    // Translators: a label of the facts after a game: detections by one cause, a count follows.
    facts.append(fact(fmt(_("Detected: {cause}"), {cause: cause(why)}), n));
  }
  // Translators: a label of the facts after a game: what a ship retrieved follows.
  for (const r of end.retrieved) facts.append(fact(fmt(_("{ship} retrieved"), {ship: SHIP[r.player]}),
    fmt(_("{component} on {planet}"), {component: named(r.component), planet: named(r.planet)}),
    r.player));
  svgs($("end-plots"), s.end_svg);
}

// The box's own hint (best move and next best, with the chance to win), asked for a
// position; it goes stale, and is cleared, as soon as the position changes.
let hintFor = null;

async function showHint() {
  const asked = last ? last.game_id + ":" + last.inputs : null;
  // Translators: on the page while the box works out a hint.
  $("hint-why").textContent = _("Thinking…");
  const r = await fetch("/hint", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-Companion-CSRF": csrf()}, body: "{}"});
  const h = await r.json();
  if (r.status === 403) readConfig();
  hintFor = asked;
  // Translators: the lead-in of the hint's list of moves, each with its chance, on the page.
  $("hint-why").textContent = r.ok ? (h.why || _("Chance to win if you:")) : h.error;
  const ol = $("hint-list");
  ol.textContent = "";
  for (const label of h.hints || []) ol.append(el("li", label));
}

function renderHint(s) {
  $("hint").hidden = !(s.game === "entanglion" && config && (config.box || config.may_play));
  const now = s.game_id + ":" + s.inputs;
  if (hintFor !== null && now !== hintFor) {
    hintFor = null;
    $("hint-why").textContent = "";
    $("hint-list").textContent = "";
  }
}

async function showHistory() {
  const r = await fetch("/history", {credentials: "same-origin"});
  const h = await r.json();
  const body = $("history-body");
  body.textContent = "";
  body.append(el("p", fmt(_("Finished games in the journal: {n}"), {n: h.games || 0})));
  const plots = el("div");
  svgs(plots, h.plots);
  body.append(plots);
}

function render(s) {
  last = s;
  document.body.dataset.game = s.game || "";
  shownGame = s.game || null;
  document.body.dataset.mode = s.mode;
  if (s.language && s.language !== language) {  // the box changed language: follow it
    loadCatalog(s.language).then(() => {
      setupControls();
      render(s);
      if ($("history-body").childElementCount) showHistory();  // charts in the new words
    });
    return;
  }
  $("title").textContent = s.game ?
    fmt(_("{game} · game #{number}"), {game: TITLES[s.game], number: s.game_id}) : "companion";
  if (config && config.box) {
    $("oled").hidden = !s.oled;
    if (s.oled) $("oled").src = "data:image/png;base64," + s.oled;
    showCards(s.game);
  }
  renderPrompt(s);
  const root = $("game");
  for (const c of [...root.children]) if (!board || c !== board.holder) c.remove();
  if (board && s.game !== "entanglion") board.holder.remove();
  if (s.peeking) root.append(el("p", _("A camp is peeking at its secret on the box.")));
  if (s.game) GAMES[s.game](s, root);
  // Translators: the page's game panel while a game is being set up.
  else if (s.mode === "setup") root.append(el("p", _("Setting up a game…")));
  // Translators: the page's game panel with no game in play.
  else root.append(el("p", _("No game in play.")));
  root.hidden = false;
  renderEnd(s);
  list("odds-list", "odds", s.odds);
  renderHint(s);
  list("story-list", "story", s.story);
  renderLog(s);
}

// The log: each line with the number of the input it came from (as the game counts
// them, not 1-40 of the window), kept in the page so that only new lines are added:
// a screen reader hears those (the list is an aria-live log), and a reader who
// scrolled up to read is not pulled back to the bottom.
let logKeys = [];
function renderLog(s) {
  const lines = s.log || [];
  $("log-box").hidden = !lines.length;
  const box = $("log"), log = $("log-list");
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 8;
  const numbers = s.log_numbers || [];
  const keys = lines.map((line, i) => `${s.game_id}|${numbers[i] ?? ""}|${line}`);
  // The lines kept: the old window less its first k lines is where the new one starts.
  let k = 0;
  while (k < logKeys.length && !logKeys.slice(k).every((key, i) => key === keys[i])) k++;
  if (k === logKeys.length && logKeys.length && keys.length) {
    log.textContent = "";  // nothing in common (another game, an undo): start over
  } else {
    for (let i = 0; i < k; i++) log.firstElementChild.remove();
  }
  const kept = log.childElementCount;
  for (let i = kept; i < lines.length; i++) {
    const li = el("li");
    const n = numbers[i];
    const number = el("span", n == null || numbers[i - 1] === n ? "" : n, "n");
    // Translators: a log line's number for screen readers ("input 12").
    if (n != null && numbers[i - 1] !== n) number.setAttribute("aria-label", fmt(_("input {n}"), {n}));
    li.append(number, el("span", lines[i].trim(), "line"));
    log.append(li);
  }
  logKeys = keys;
  if (atBottom) box.scrollTop = box.scrollHeight;
}

// A patch takes the last snapshot to the next (what changed only; see the box's
// web/patch.py): objects get set, del and sub; lists drop and add, or at.
function patched(old, p) {
  if (Array.isArray(old)) {
    if (!p.at) return old.slice(p.drop).concat(p.add);
    const out = old.slice();
    for (const [i, v] of Object.entries(p.at)) out[+i] = v;
    return out;
  }
  const out = Object.assign({}, old);
  for (const k of p.del || []) delete out[k];
  Object.assign(out, p.set || {});
  for (const [k, sub] of Object.entries(p.sub || {})) out[k] = patched(out[k], sub);
  return out;
}

function connect() {
  const source = new EventSource("/events");
  source.onopen = () => {
    // Translators: the page's connection to the box works (one word at the top).
    $("link").textContent = _("live");
    $("link").className = "link up";
    readConfig();  // the box may have restarted: is this phone still paired?
  };
  source.onmessage = (e) => render(JSON.parse(e.data));
  source.addEventListener("patch", (e) => { if (last) render(patched(last, JSON.parse(e.data))); });
  source.addEventListener("full", () => {  // every page the box can feed is open
    source.close();
    $("link").textContent = _("The box is full: too many pages are open. Trying again in a minute.");
    $("link").className = "link down";
    if (!last) {
      $("game").hidden = false;
      $("game").textContent = _("The box is full: too many pages are open. Close one, or wait: this page tries again in a minute.");
    }
    setTimeout(connect, 60000);
  });
  source.onerror = () => {
    // Translators: the page lost the box and tries again (one word at the top).
    $("link").textContent = _("reconnecting…");
    $("link").className = "link down";
    // The browser retries by itself; if it gave up (the box refused), start over.
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  };
}

// What this page may do: re-read on every connection of the stream and after a
// refused press, so a phone unpaired by a restart or a new PIN says so at once.
async function readConfig() {
  let got;
  try {
    const r = await fetch("/config", {credentials: "same-origin"});
    got = await r.json();
  } catch (e) { return; }  // the stream's state says the box is away
  const was = config;
  config = got;
  $("box").hidden = !(config.box || config.may_play);
  if ((config.box || config.may_play) && !(was && (was.box || was.may_play))) setupControls();
  $("oled").hidden = !config.box;
  const unpaired = config.control && !config.may_play;
  $("pair").hidden = !unpaired;
  $("pair-why").hidden = !(unpaired && was && was.may_play);
  $("pair-why").textContent = config.pairing_kept ?
    _("This phone is no longer paired (a new PIN was asked for, or the pairing ran out).") :
    _("This phone is no longer paired: the box restarted, and pairings do not outlast a restart.");
  if (last) renderHint(last);
}

// The header's switches: the theme (theme.js, shared with the room's page) and board only.
function setupViewing() {
  pageTheme.start(_);
  // Board only (a TV by the table): ?tv=1 in the address, or the button.
  const tv = (on) => {
    document.body.classList.toggle("tv", on);
    // Translators: the page's button back from the board-only view.
    const all = _("Everything");
    // Translators: the page's button that shows the board only (for a TV).
    $("tv-button").textContent = on ? all : _("Board only");
  };
  tv(new URLSearchParams(location.search).get("tv") === "1");
  setupViewing.labels = () => { pageTheme.relabel(); tv(document.body.classList.contains("tv")); };
  $("tv-button").addEventListener("click", () => tv(!document.body.classList.contains("tv")));
}

async function start() {
  await loadCatalog(null);
  setupViewing();
  await readConfig();
  $("history-button").addEventListener("click", showHistory);
  $("hint-button").addEventListener("click", showHint);
  $("pairform").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await post("/pair", {pin: $("pin").value.trim()}, $("pin"))) {
      $("pin").value = "";
      await readConfig();
    }
  });
  connect();
}

start().catch(() => setTimeout(() => location.reload(), 2000));
