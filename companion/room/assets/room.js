// The room's page: every table live (server-sent events), the teacher's commands and
// the room's report. Text goes in with textContent only; the one SVG per table (the
// mini board) is drawn by the room's server from checked values.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = {};
let language = "en";
let setup = {games: [], may_command: false, stale_after: 900};
const tables = new Map();  // name -> {view, at (ms when received)}
const lookup = (s) => (catalog.core || {})[s];
const _ = (s) => { const t = lookup(s); return (Array.isArray(t) ? t[0] : t) || s; };
function ngettext(one, many, n) {
  const forms = lookup(one);
  if (!Array.isArray(forms)) return n === 1 ? one : many;
  const rule = ((catalog[""] || {}).plural || {})[new Intl.PluralRules(language).select(n)];
  return forms[rule ?? forms.length - 1] || forms[0];
}
const fmt = (s, values) => s.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

async function loadCatalog() {
  const got = await (await fetch("/catalog.json", {credentials: "same-origin"})).json();
  catalog = got.messages || {};
  language = got.language || "en";
  for (const e of document.querySelectorAll("[data-t]")) {
    if (!e.dataset.en) e.dataset.en = e.textContent;
    e.textContent = _(e.dataset.en);
  }
  // Translators: the room's page's title in the browser's tab.
  document.title = _("companion: the room");
}

// ------------------------------------------------------------------ tables

// Translators: a game's status on the room's page (one word).
const statusWord = (s) => ({playing: _("playing"), won: _("won"), lost: _("lost")})[s] || s || "";
// Translators: what a table's box shows when no game is in play, on the room's page.
const modeWord = (m) => ({menu: _("In the menu"),
  // Translators: what a table's box shows during a game's set-up, on the room's page.
  setup: _("Setting up a game"),
  // Translators: what a table's box shows when no game is in play, on the room's page.
  settings: _("In the settings")})[m] ||
  // Translators: what the room's page says of a table whose mode it does not know.
  _("No game in play");

function title(game) {
  const g = setup.games.find((x) => x.game === game);
  return g ? g.title : game;
}

function tableCard(name) {
  const {view, at} = tables.get(name);
  const s = view.state || {};
  const li = el("li", null, "table");
  li.id = "table-" + name;
  li.dataset.table = name;
  const passed = (Date.now() - at) / 1000;
  const offline = view.online === false;
  const quiet = !offline && view.heard_ago + passed > setup.stale_after;
  if (offline) li.classList.add("offline");
  if (quiet) li.classList.add("quiet");
  const h = el("h3");
  if (view.web) {
    const a = el("a", name);
    a.href = view.web;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    // Translators: the tooltip of a table's name on the room's page (a link).
    a.title = _("The table's own page");
    h.append(a);
  } else {
    h.append(el("span", name));
  }
  // Translators: beside a table's name on the room's page: its box is off the network.
  if (offline) h.append(el("span", _("offline"), "mark"));
  // Translators: beside a table's name on the room's page: nothing heard for n minutes.
  else if (quiet) h.append(el("span", fmt(_("quiet for {n} min"), {n: Math.floor((view.heard_ago + passed) / 60)}), "mark"));
  li.append(h);
  const line = (text, cls) => li.append(el("p", text, "line" + (cls ? " " + cls : "")));
  if (!s.game) {
    line(modeWord(s.mode), "mode");
    return li;
  }
  const status = statusWord(s.status);
  // Translators: a table's game and its status on the room's page ("Entanglion: playing").
  line(fmt(_("{game}: {status}"), {game: title(s.game), status}), "status");
  const turn = s.turn || {};
  if (s.status === "playing" && turn.player !== null && turn.player !== undefined) {
    // A player, a camp or a ship, as the table's own page names them.
    const who = s.game === "qno" ? fmt(_("Player {player}"), {player: turn.player})
      : s.game === "qlanet" ? fmt(_("Camp {camp}"), {camp: turn.player})
        : turn.player.charAt(0).toUpperCase() + turn.player.slice(1);
    // Translators: whose turn it is at a table, on the room's page.
    line(fmt(_("Turn {n}: {player}"), {n: turn.number ?? "?", player: who}), "turn");
  }
  if (s.game === "entanglion" && s.detection !== null && s.detection !== undefined)
    line(fmt(_("Detection: space {space}"), {space: s.detection}), "detection");
  if (s.game === "entanglion") line(fmt(_("Components aboard: {parts}/8"), {parts: s.aboard ?? 0}));
  if (s.game === "qno" && s.counts) line(fmt(_("Cards in hand: {counts}"), {counts: s.counts.join(" · ")}));
  // Translators: the QNO card on top of the discard pile, on the room's page.
  if (s.game === "qno" && s.top) line(fmt(_("On top: {card}"), {card: s.top}));
  // Translators: each QLANET camp's costs so far, on the room's page.
  if (s.game === "qlanet" && s.costs) line(fmt(_("Costs: {costs}"), {costs: s.costs.join(" · ")}));
  if (s.game === "qlanet" && s.deck_size !== null && s.deck_size !== undefined)
    // Translators: the QLANET deck's size, on the room's page.
    line(fmt(ngettext("Deck: {n} card", "Deck: {n} cards", s.deck_size), {n: s.deck_size}));
  if (view.playing_for !== null && view.playing_for !== undefined) {
    const minutes = Math.floor((view.playing_for + passed) / 60);
    line(fmt(view.playing_for_exact ? ngettext("Playing for {n} minute", "Playing for {n} minutes", minutes)
      : ngettext("Playing for {n} minute or more", "Playing for {n} minutes or more", minutes), {n: minutes}), "time");
  }
  if (view.board) {
    const mini = el("div", null, "mini");
    mini.innerHTML = view.board;  // drawn by the room's server from checked values
    li.append(mini);
  }
  return li;
}

function take(view) {
  const had = tables.get(view.name);
  if (view.board === undefined && had) view.board = had.view.board;  // unchanged board
  tables.set(view.name, {view, at: Date.now()});
}

function render(name) {
  const list = $("tables");
  const card = tableCard(name);
  const old = document.getElementById("table-" + name);
  if (old) old.replaceWith(card);
  else {
    const after = [...list.children].find((c) => byName(c.dataset.table, name) > 0);
    list.insertBefore(card, after || null);
  }
  $("no-tables").hidden = tables.size > 0;
}

// t2 before t10: tables are named by people, who count
const byName = new Intl.Collator(undefined, {numeric: true}).compare;

function renderAll() { for (const name of [...tables.keys()].sort(byName)) render(name); }

// Records the laptop could not save: they wait in the broker (not acknowledged), and
// the room takes them again once its disk does.
function storeStatus(store) {
  const line = $("store-status");
  const parts = [];
  if (store && store.why)
    // Translators: the room's page when the laptop cannot save finished games; {why} is the system's reason ("No space left on device").
    parts.push(fmt(_("Records cannot be saved: {why}."), {why: store.why}));
  if (store && store.unsaved)
    // Translators: the room's page, after "Records cannot be saved: ..." (the broker is the MQTT server).
    parts.push(fmt(ngettext("{n} finished game waits in the broker and is saved as soon as the disk takes it.",
      "{n} finished games wait in the broker and are saved as soon as the disk takes them.", store.unsaved), {n: store.unsaved}));
  line.textContent = parts.join(" ");
  line.hidden = !parts.length;
}

function connect() {
  const source = new EventSource("/events");
  source.onopen = () => { $("link").className = "link up"; $("link").textContent = _("live"); };
  source.onerror = () => { $("link").className = "link down"; $("link").textContent = _("reconnecting…"); };
  source.onmessage = (e) => {
    const got = JSON.parse(e.data);
    tables.clear();
    $("tables").replaceChildren();
    for (const view of got.tables) take(view);
    renderAll();
    document.body.dataset.version = got.version;
    storeStatus(got.store);
    loadReport();
  };
  source.addEventListener("table", (e) => {
    const view = JSON.parse(e.data);
    take(view);
    render(view.name);
    document.body.dataset.version = view.version;
  });
  source.addEventListener("records", (e) => { storeStatus(JSON.parse(e.data).store); loadReport(); });
}

// ------------------------------------------------------------------ commands

function csrf() {
  const m = document.cookie.match(/(?:^|; )companion_csrf=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "";
}

async function send(command, done) {
  const r = await fetch("/command", {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-Companion-CSRF": csrf()},
    body: JSON.stringify(command)});
  const got = await r.json().catch(() => ({}));
  // Translators: the room's page, after a command the room refused (why follows).
  $("sent").textContent = r.ok ? done : fmt(_("Not sent: {why}"), {why: got.error || r.status});
}

function stepsOf(game) {
  const g = setup.games.find((x) => x.game === game);
  const box = $("rules-steps");
  box.replaceChildren();
  for (const step of g.steps) {
    const label = el("label");
    const select = el("select");
    select.dataset.key = step.key;
    select.append(new Option(_("(as the table chooses)"), ""));
    step.choices.forEach((c, i) => { const o = new Option(c.label, String(i)); select.append(o); });
    label.append(el("span", step.title + " "), select);
    box.append(label);
  }
}

function setupCommands() {
  if (!setup.may_command) { $("watch-only").hidden = false; return; }
  $("rules-form").hidden = false;
  $("message-form").hidden = false;
  const game = $("rules-game");
  for (const g of setup.games) game.append(new Option(g.title, g.game));
  game.addEventListener("change", () => stepsOf(game.value));
  stepsOf(game.value);
  $("rules-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const g = setup.games.find((x) => x.game === game.value);
    const rules = {};
    for (const select of $("rules-steps").querySelectorAll("select")) {
      if (select.value === "") continue;
      const step = g.steps.find((s) => s.key === select.dataset.key);
      rules[step.key] = step.choices[Number(select.value)].value;
    }
    if (!Object.keys(rules).length) { $("sent").textContent = _("Choose at least one rule"); return; }
    send({command: "rules", game: g.game, rules}, fmt(_("Rules for {game} sent: every table's next game starts on them"), {game: g.title}));
  });
  $("message-form").addEventListener("submit", (e) => {
    e.preventDefault();
    // Translators: the room's page, once a message went to every table.
    send({command: "message", text: $("message-text").value}, _("Message sent"));
  });
  // Translators: the room's page, once every table was asked to pause.
  $("pause-button").addEventListener("click", () => send({command: "pause"}, _("Pause asked")));
}

// ------------------------------------------------------------------ report

function tableOf(headers, rows) {
  const t = el("table", null, "report");
  const head = el("tr");
  for (const h of headers) head.append(el("th", h));
  t.append(head);
  for (const row of rows) {
    const tr = el("tr");
    for (const cell of row) tr.append(el("td", cell));
    t.append(tr);
  }
  return t;
}

// The report's column names, each with its note for translators.
const columns = () => ({
  // Translators: a column of the room's report: the game.
  game: _("Game"),
  // Translators: a column of the room's report: games played.
  played: _("Played"),
  // Translators: a column of the room's report: games won.
  won: _("Won"),
  // Translators: a column of the room's report: the set-up choices.
  setup: _("Set-up"),
  // Translators: a column of the room's report: a cause of detection or of a loss.
  cause: _("Cause"),
  // Translators: a column of the room's report: how many detections.
  detections: _("Detections"),
  // Translators: a column of the room's report: how many games.
  games: _("Games"),
  // Translators: a column of the room's report: the table's name.
  table: _("Table"),
  // Translators: a column of the room's report: the turn of a choice.
  turn: _("Turn"),
  // Translators: a column of the room's report: the choice a table made.
  choice: _("Choice played"),
  // Translators: a column of the room's report: the best choice, as the analysis found it.
  best: _("Best choice"),
  // Translators: a column of the room's report: what a choice cost, in percent of the chance to win.
  cost: _("Cost"),
});

let reportAsked = null;
let reportStale = false;
async function loadReport() {
  // One fetch at a time: a burst of records is one more fetch after the one in flight,
  // which may have left before the last of them was counted.
  if (reportAsked) { reportStale = true; return; }
  reportStale = false;
  reportAsked = fetch("/report", {credentials: "same-origin"});
  try {
    const r = await (await reportAsked).json();
    const body = $("report-body");
    body.replaceChildren();
    const archived = (r.store || {}).archived || 0;
    if (archived)
      // Translators: the room's report, when it holds the latest games only; older ones are moved to a folder.
      body.append(el("p", fmt(ngettext("{n} older game is in the room's archive folder, not in this report.",
        "{n} older games are in the room's archive folder, not in this report.", archived), {n: archived})));
    if (!r.games.length) { body.append(el("p", _("No finished game yet."))); return; }
    const c = columns();
    // Translators: the room's report: a heading.
    body.append(el("h3", _("Games")), tableOf([c.game, c.played, c.won],
      r.games.map((g) => [g.title, g.played, g.won])));
    // Translators: the room's report: a heading.
    body.append(el("h3", _("Wins by set-up")), tableOf([c.game, c.setup, c.played, c.won],
      r.setups.map((s) => [s.title, s.setup, s.played, s.won])));
    // Translators: the room's report: a heading.
    if (r.causes.length) body.append(el("h3", _("What detected the ships")),
      tableOf([c.cause, c.detections], r.causes.map((c) => [c.cause, c.count])));
    // Translators: the room's report: a heading (the causes follow in a table).
    if (r.lost_to.length) body.append(el("h3", _("Games lost to")),
      tableOf([c.cause, c.games], r.lost_to.map((c) => [c.cause, c.count])));
    // Translators: the room's report: a heading.
    if (r.costliest.length) body.append(el("h3", _("The costliest choices")),
      tableOf([c.table, c.game, c.turn, c.choice, c.best, c.cost],
        r.costliest.map((c) => [c.table, "#" + c.game_id, c.turn, c.played, c.best, c.cost + "%"])));
    if (r.damaged.length) body.append(el("p", fmt(_("Records that cannot be read (left out): {files}"), {files: r.damaged.join(", ")})));
  } finally {
    reportAsked = null;
    if (reportStale) loadReport();
  }
}

async function start() {
  await loadCatalog();
  pageTheme.start(_);  // theme.js, shared with the box's page
  setup = await (await fetch("/setup", {credentials: "same-origin"})).json();
  // Translators: the room's page's title (the room's name as its config says it).
  $("title").textContent = fmt(_("Room {room}"), {room: setup.room});
  setupCommands();
  connect();
  setInterval(renderAll, 30000);  // the minutes and the quiet marks count on
}
start();
