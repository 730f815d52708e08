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
    $("game-frame").src = `/play?game=${gameId}` + (result.game.token ? `#t=${result.game.token}` : "");
    $("rulebook-frame").src = "/rules?v=" + gameId;
    $("playing").textContent = `${result.title}: a new game from the same seed`;
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

function tabs() {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    tab.addEventListener("click", () => {
      for (const other of document.querySelectorAll("[role=tab]")) {
        other.setAttribute("aria-selected", String(other === tab));
        $(other.dataset.pane).hidden = other !== tab;
      }
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
  savedState();
}

start().catch((error) => { $("status").textContent = "the studio failed to start: " + error.message; });
