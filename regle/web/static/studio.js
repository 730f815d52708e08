// regle studio: the rules text in an editor, the game it makes beside it. Every pause in typing
// sends the text to the server, which answers with its mistakes (drawn in the text) or, when it
// checks, plays it from the same seed in the frame beside; then what changed since the file was
// saved, and a quick simulation of both versions. Save writes the one file served, and only
// with the key of the address regle printed (it travels in the fragment, #k=...).
"use strict";
const $ = (id) => document.getElementById(id);
const KEY_STORE = "regle-studio-key";
let key = new URLSearchParams(location.hash.slice(1)).get("k");
if (key) {
  sessionStorage.setItem(KEY_STORE, key);
  history.replaceState(null, "", location.pathname);  // the key stays out of the address bar
} else {
  key = sessionStorage.getItem(KEY_STORE);
}
let editor = null;
let saved = "";           // the text of the file as last saved (or read)
let gameId = null;        // the game in the frame
let checked = null;       // the last text the server checked clean
let simulated = null;     // the last text simulated against the saved one
let simTimer = null;
let simGeneration = 0;
let checkGeneration = 0;  // checks answered out of order: only the latest text's answer is shown
let link = null;          // the game made for the text: its id, your seat's token, the others'
let inspected = null;     // the game and version the inspector shows (it asks again when either moves)

async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["X-Regle-Studio"] = key;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const result = await response.json();
  if (!response.ok) { const error = new Error(result.error || response.statusText); error.status = response.status; throw error; }
  return result;
}

function words(list) {
  return new RegExp("(?:" + list.map((w) => w.replace(/[^A-Za-z0-9_]/g, "")).join("|") + ")\\b");
}

function defineMode(grammar) {
  // the rules language's colours, from the server's word lists (the Pygments lexer's)
  CodeMirror.defineSimpleMode("regle", {
    start: [
      {regex: /(?:#|\/\/\/).*/, token: "comment"},
      {regex: /"(?:[^"\\]|\\.)*"?/, token: "string"},
      {regex: /\d+(?:\.\d+)?/, token: "number"},
      {regex: words(grammar.keywords), token: "keyword"},
      {regex: words(grammar.builtins), token: "builtin"},
      {regex: words(grammar.constants), token: "atom"},
      {regex: /[A-Za-z_][A-Za-z0-9_]*/, token: "variable"},
    ],
    meta: {lineComment: "#"},
  });
}

function wordEnd(line, ch) {
  const text = editor.getLine(line) || "";
  const m = /^[A-Za-z0-9_]+/.exec(text.slice(ch));
  return m ? ch + m[0].length : Math.min(ch + 1, Math.max(text.length, ch + 1));
}

function annotations(result) {
  return result.problems.map((p) => {
    const line = Math.max(0, p.line - 1);
    const ch = Math.max(0, p.column - 1);
    const where = p.elsewhere ? `(in ${p.elsewhere}) ` : "";
    return {from: CodeMirror.Pos(line, ch), to: CodeMirror.Pos(line, wordEnd(line, ch)),
            message: where + p.message + (p.hint ? "\n" + p.hint : ""), severity: p.severity === "warning" ? "warning" : "error"};
  });
}

function lint(text, update) {
  const generation = ++checkGeneration;
  api("POST", "/api/studio/check", {text}).then((result) => {
    if (generation !== checkGeneration) return;  // a later text is being checked
    update(annotations(result));
    show(result, text);
  }).catch((error) => { $("status").textContent = "cannot check: " + error.message; update([]); });
}

function show(result, text) {
  const list = $("problems");
  list.innerHTML = "";
  for (const p of result.problems) {
    const li = document.createElement("li");
    li.className = p.severity;
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = p.elsewhere ? p.elsewhere + ": " : `${p.line}:${p.column}: `;
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `${p.severity}: ${p.message}`;
    li.append(where, what);
    if (p.hint) { const hint = document.createElement("span"); hint.className = "hint"; hint.textContent = p.hint; li.append(hint); }
    li.addEventListener("click", () => { editor.focus(); editor.setCursor(CodeMirror.Pos(p.line - 1, p.column - 1)); });
    list.append(li);
  }
  $("problem-count").textContent = result.problems.length ? `(${result.problems.length})` : "none";
  const notes = $("notes");
  notes.innerHTML = "";
  for (const n of result.notes || []) { const li = document.createElement("li"); li.textContent = n; notes.append(li); }
  if (result.problems.length) {
    $("status").textContent = "the game below plays the last text without mistakes";
  } else {
    checked = text;
    $("status").textContent = "";
  }
  if (result.game && result.game.id !== gameId) {
    gameId = result.game.id;
    link = result.game;
    $("game-frame").src = `/play?game=${gameId}` + (seatToken() ? `#t=${seatToken()}` : "");
    $("rulebook-frame").src = "/rules?v=" + gameId;
    $("playing").textContent = `${result.title}: a new game from the same seed`;
    seats(result.seats_count);
    const others = (result.seats || []).filter((s) => s !== "human");
    if (others.length && [...$("opponent").options].some((o) => o.value === others[0])) $("opponent").value = others[0];
    else if (result.seats && !others.length) $("opponent").value = "human";
    versions();
  }
  savedState();
  if (!result.problems.length) changes(text);
}

function savedState() {
  const unsaved = editor.getValue() !== saved;
  $("saved-state").textContent = unsaved ? "● unsaved changes" : "saved";
  $("saved-state").classList.toggle("unsaved", unsaved);
  $("save").disabled = !key || !unsaved;
  $("save").title = key ? "write the text to the file (Ctrl-S)" : "only the page opened from the address regle printed saves";
}

async function changes(text) {
  const generation = ++simGeneration;
  const found = await api("POST", "/api/studio/changes", {text});
  if (generation !== simGeneration) return;
  const list = $("changes");
  list.innerHTML = "";
  $("changes-why").textContent = found.why || (found.changes.length ? "" : "none: the text plays as the saved file does");
  for (const c of found.changes || []) { const li = document.createElement("li"); li.textContent = c; list.append(li); }
  $("change-count").textContent = found.changes && found.changes.length ? `(${found.changes.length})` : "";
  if (!found.changes || !found.changes.length) { $("sim-box").hidden = true; simulated = null; return; }
  if (text === simulated) return;
  clearTimeout(simTimer);
  simTimer = setTimeout(() => simulate(text, generation), 600);
}

async function simulate(text, generation) {
  $("sim-box").hidden = false;
  $("sim-status").textContent = "playing both versions…";
  let result;
  try {
    result = await api("POST", "/api/studio/simulate", {text, games: 200});
  } catch (error) {
    if (generation === simGeneration) $("sim-status").textContent = "no simulation: " + error.message;
    return;
  }
  if (generation !== simGeneration) return;
  simulated = text;
  const fewer = result.games < result.asked ? ` (stopped at ${result.seconds} s)` : ` in ${result.seconds} s`;
  $("sim-status").textContent = `${result.games} games of each, seeds 0..${result.games - 1}${fewer}`;
  const table = $("sim");
  table.innerHTML = "<tr><th></th><th>saved</th><th>this text</th><th></th></tr>";
  for (const row of result.rows) {
    const tr = document.createElement("tr");
    if (row.significant) tr.className = "significant";
    for (const [value, cls] of [[row.label, ""], [row.old, ""], [row.new, ""], [row.significant ? "*" : "", "mark"]]) {
      const td = document.createElement("td");
      td.textContent = value;
      if (cls) td.className = cls;
      tr.append(td);
    }
    table.append(tr);
  }
}

async function save() {
  if (!key) return;
  const text = editor.getValue();
  try {
    await api("POST", "/api/studio/save", {text});
    saved = text;
    $("status").textContent = "saved " + $("file").textContent;
    savedState();
    if (!editor.state.lint || checked === text) changes(text);
  } catch (error) {
    $("status").textContent = "not saved: " + error.message;
  }
}

// -- who plays -------------------------------------------------------------------------------
function seatToken() {
  // the token of the seat you play: yours, or, when you play every seat, the one chosen
  if (!link) return null;
  const as = Number($("as-seat").value || 0);
  if (link.seat === as) return link.token;
  const other = (link.invites || []).find((i) => i.seat === as);
  return other ? other.token : link.token;
}

function seats(count) {
  const select = $("as-seat");
  if (!count || select.options.length === count) return;
  const chosen = Number(select.value || 0);
  select.innerHTML = "";
  const seen = $("seen-by");
  while (seen.options.length > 1) seen.remove(1);
  for (let p = 0; p < count; p++) {
    select.add(new Option(`P${p + 1}`, String(p), false, p === chosen));
    seen.add(new Option(`P${p + 1} (as that seat's page shows it)`, String(p)));
  }
}

async function seatPlan() {
  // a new game, you at the seat chosen, the others played by the opponent chosen ("human": you
  // play every seat, and the frame shows the seat chosen)
  const opponent = $("opponent").value;
  const as = Number($("as-seat").value || 0);
  try {
    const result = await api("POST", "/api/studio/seats", {opponent, as});
    gameId = null;
    show(result, editor.getValue());
  } catch (error) { $("status").textContent = "cannot seat the game so: " + error.message; }
}

// -- the inspector: the position as the engine holds it, and any legal move by hand -----------
function frameGame() {
  // the game the frame shows now (a new game started there moves it on)
  try {
    const id = new URLSearchParams($("game-frame").contentWindow.location.search).get("game");
    return id || gameId;
  } catch (error) { return gameId; }
}

async function inspect(force) {
  if ($("inspector-pane").hidden || !key) return;
  const game = frameGame() || "";
  const seat = $("seen-by").value;
  // unchanged since last drawn (same game, seat and version): the server answers with the version alone
  const after = !force && inspected && inspected.startsWith(`${game}/`) && inspected.endsWith(`/${seat}`)
    ? `&after=${inspected.split("/")[1]}` : "";
  let found;
  try {
    found = await api("GET", `/api/studio/inspect?game=${encodeURIComponent(game)}&seat=${seat}${after}`);
  } catch (error) { $("inspect-where").textContent = error.message; return; }
  if (found.unchanged) return;
  const seen = `${found.game}/${found.version}/${seat}`;
  if (!force && seen === inspected) return;
  inspected = seen;
  $("inspect-where").textContent = `game ${found.game}, after ${found.position.decisions} decisions`;
  const position = $("position");
  position.innerHTML = "";
  const facts = Object.entries(found.position).filter(([, v]) => v !== null && v !== undefined);
  facts.push(["scores", found.scores.join(", ")]);
  if (found.notices.length) facts.push(["notices", found.notices.join(", ")]);
  for (const [name, value] of facts) {
    const tr = position.insertRow();
    const th = document.createElement("th");
    th.textContent = name;
    tr.append(th);
    tr.insertCell().textContent = Array.isArray(value) ? value.join(", ") : String(value);
  }
  const fields = $("fields");
  fields.innerHTML = "<tr><th>what</th><th>name</th><th>of</th><th>holds</th></tr>";
  for (const row of found.rows) {
    for (const place of row.places) {
      const tr = fields.insertRow();
      tr.dataset.name = row.name;
      const kind = document.createElement("th");
      kind.className = "kind";
      kind.textContent = row.what;
      tr.append(kind);
      tr.insertCell().textContent = row.name.replaceAll("_", " ");
      tr.insertCell().textContent = place.place;
      const text = tr.insertCell();
      text.className = "text";
      text.textContent = place.count !== undefined && place.count > 3 ? `(${place.count}) ${place.text}` : place.text;
    }
  }
  const moves = $("hand-moves");
  moves.innerHTML = "";
  $("move-count").textContent = found.position["to play"] ? `(${found.moves.length}, ${found.position["to play"]} to play)` : "";
  for (const text of found.moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.addEventListener("click", async () => {
      try {
        await api("POST", "/api/studio/move", {game: found.game, move: text, version: found.version});
      } catch (error) { $("inspect-where").textContent = "not played: " + error.message; }
      inspect(true);
    });
    moves.append(button);
  }
}

// -- versions: every text played since the studio opened, and what changed between two -------
async function versions() {
  const found = await api("GET", "/api/studio/versions");
  const table = $("version-list");
  const from = table.querySelector("input[name=from]:checked");
  const to = table.querySelector("input[name=to]:checked");
  const last = found.versions.length ? found.versions[found.versions.length - 1].n : 0;
  const pickFrom = from ? Number(from.value) : Math.max(1, last - 1);
  const pickTo = to ? Number(to.value) : last;
  table.innerHTML = "<tr><th>from</th><th>to</th><th>version</th><th>played at</th><th>lines</th><th></th></tr>";
  for (const v of found.versions) {
    const tr = table.insertRow();
    for (const [name, picked] of [["from", pickFrom], ["to", pickTo]]) {
      const input = document.createElement("input");
      input.type = "radio";
      input.name = name;
      input.value = String(v.n);
      input.checked = v.n === picked;
      input.setAttribute("aria-label", `${name} version ${v.n}`);
      tr.insertCell().append(input);
    }
    tr.insertCell().textContent = `v${v.n}`;
    tr.insertCell().textContent = v.at;
    tr.insertCell().textContent = String(v.lines);
    tr.insertCell().textContent = v.saved ? "the saved file" : "";
  }
}

async function compare() {
  const from = document.querySelector("#version-list input[name=from]:checked");
  const to = document.querySelector("#version-list input[name=to]:checked");
  const list = $("version-changes");
  list.innerHTML = "";
  if (!from || !to) return;
  try {
    const found = await api("POST", "/api/studio/versions/diff", {from: Number(from.value), to: Number(to.value)});
    const said = found.changes.length ? found.changes : ["none: the two versions play alike"];
    for (const c of said) { const li = document.createElement("li"); li.textContent = c; list.append(li); }
  } catch (error) { const li = document.createElement("li"); li.textContent = error.message; list.append(li); }
}

function tabs() {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => {
      for (const other of document.querySelectorAll("[role=tab]")) {
        other.setAttribute("aria-selected", String(other === tab));
        $(other.dataset.pane).hidden = other !== tab;
      }
      if (tab.id === "tab-inspector") inspect(true);
      if (tab.id === "tab-versions") versions();
    });
  }
}

async function start() {
  const source = await api("GET", "/api/studio/source");
  saved = source.text;
  $("file").textContent = source.file;
  document.title = source.file + " · regle studio";
  defineMode(source.grammar);
  // the editor starts with the text, so its first check is of the rules and never of an empty
  // text (whose "no game" would show until the next check answers)
  $("source").value = source.text;
  editor = CodeMirror.fromTextArea($("source"), {
    mode: "regle", lineNumbers: true, lineWrapping: true, indentUnit: 4, tabSize: 4, indentWithTabs: false,
    gutters: ["CodeMirror-lint-markers"],
    lint: {getAnnotations: lint, async: true, delay: 250},
    extraKeys: {"Ctrl-S": save, "Cmd-S": save, Tab: (cm) => cm.replaceSelection("    ")},
  });
  editor.clearHistory();
  editor.on("change", savedState);
  $("save").addEventListener("click", save);
  $("restart").addEventListener("click", () => { gameId = null; api("POST", "/api/studio/restart", {}).then((r) => show(r, editor.getValue())); });
  tabs();
  $("opponent").addEventListener("change", seatPlan);
  $("as-seat").addEventListener("change", () => {
    // you play every seat: the frame changes seat; else a new game with you at that seat
    if ($("opponent").value === "human" && link) { $("game-frame").src = `/play?game=${frameGame()}#t=${seatToken()}`; return; }
    seatPlan();
  });
  $("seen-by").addEventListener("change", () => inspect(true));
  $("compare").addEventListener("click", compare);
  if (!key) { $("tab-inspector").title = "only the page opened from the address regle printed inspects the game"; }
  setInterval(() => inspect(false), 1000);  // the inspector follows the game as it is played
  savedState();
}

start().catch((error) => { $("status").textContent = "the studio failed to start: " + error.message; });
