// regle's game page: draws what the server sends (the table as this seat sees it) and lets a
// person play by clicking a cell or an item (which narrows the legal moves to those that point
// at it) and then a move; hovering a move previews the cells it changes. No build step.
"use strict";
const params = new URLSearchParams(location.search);
let gameId = params.get("game");
let seat = params.has("seat") ? Number(params.get("seat")) : null;
let data = null;
let chosen = null;        // {kind: "cell", grid, instance, cell} or {kind: "item", value}
let autoplay = null;
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const result = await response.json();
  if (!response.ok) throw new Error(result.error || response.statusText);
  return result;
}

async function start() {
  const info = await api("GET", "/api/game");
  $("title").textContent = info.title;
  document.title = info.title + " · regle";
  if (!gameId) {
    const made = await api("POST", "/api/games", {});
    gameId = made.id;
    if (seat === null) seat = Math.max(0, info.default_seats.indexOf("human"));
    if (info.default_seats.indexOf("human") < 0) seat = -1;
    history.replaceState(null, "", `?game=${gameId}&seat=${seat}`);
  }
  if (seat === null) seat = 0;
  await refresh();
}

async function refresh() {
  data = await api("GET", `/api/games/${gameId}?seat=${seat}`);
  draw();
}

function seatOptions() {
  const select = $("seat");
  select.innerHTML = "";
  const spectator = new Option("spectator", "-1");
  select.add(spectator);
  for (const s of data.seats) select.add(new Option(`${s.name}${s.kind === "human" ? "" : " · " + s.kind}`, String(s.seat)));
  select.value = String(seat);
}

function draw() {
  seatOptions();
  $("table").innerHTML = data.html;
  const who = data.seats[data.current];
  if (data.over) {
    $("status").textContent = data.winners.length
      ? "Game over: " + data.winners.map((w) => data.seats[w].name).join(" and ") + " won"
      : "Game over: a draw";
  } else {
    $("status").textContent = `Turn ${data.turn}: ${who.name} to play` + (data.step ? ` (${data.step})` : "")
      + (data.viewer === data.current && data.moves.length ? " — your move" : "");
  }
  $("auto").hidden = !data.agent_to_play;
  $("log").innerHTML = "";
  for (const line of data.log) { const li = document.createElement("li"); li.textContent = line; $("log").append(li); }
  if (data.last) for (const [g, i, c] of data.last.cells) cellsAt(g, i, c).forEach((el) => el.classList.add("last"));
  markPointable();
  listMoves();
}

function cellsAt(grid, instance, cell) {
  const inst = instance === null ? "" : `[data-instance="${instance}"]`;
  return document.querySelectorAll(`.cell[data-grid="${CSS.escape(grid)}"]${inst}[data-cell="${cell}"]`);
}

function movePoints(move, el) {
  // whether a move points at a clicked cell (one of its arguments, or a cell it changes) or item
  if (chosen === null) return true;
  if (chosen.kind === "cell") {
    const hit = ([g, i, c]) => g === chosen.grid && (i === null || i === chosen.instance) && c === chosen.cell;
    return move.cells.some(hit) || move.preview.some(hit);
  }
  return move.values.some(([kind, value]) => value === chosen.value && kind !== "int");
}

function markPointable() {
  for (const move of data.moves) {
    for (const [g, i, c] of [...move.cells, ...move.preview]) cellsAt(g, i, c).forEach((el) => el.classList.add("pointable"));
    for (const [kind, value] of move.values) {
      if (kind === "int") continue;
      document.querySelectorAll(`.item[data-value="${value}"]`).forEach((el) => el.classList.add("pointable"));
    }
  }
  document.querySelectorAll(".cell.pointable").forEach((el) => el.addEventListener("click", () => {
    chosen = {kind: "cell", grid: el.dataset.grid, instance: Number(el.dataset.instance), cell: Number(el.dataset.cell)};
    document.querySelectorAll(".chosen").forEach((x) => x.classList.remove("chosen"));
    el.classList.add("chosen");
    $("filter-name").textContent = el.dataset.name;
    listMoves();
  }));
  document.querySelectorAll(".item.pointable").forEach((el) => el.addEventListener("click", () => {
    chosen = {kind: "item", value: Number(el.dataset.value)};
    document.querySelectorAll(".chosen").forEach((x) => x.classList.remove("chosen"));
    el.classList.add("chosen");
    $("filter-name").textContent = el.textContent;
    listMoves();
  }));
}

function preview(move, on) {
  for (const [g, i, c] of move.preview) cellsAt(g, i, c).forEach((el) => el.classList.toggle("preview", on));
}

function listMoves() {
  const list = $("moves");
  list.innerHTML = "";
  const shown = data.moves.filter(movePoints);
  $("filter").hidden = chosen === null;
  if (!data.moves.length) {
    $("hint").textContent = data.over ? "" : (data.viewer === data.current ? "" : "Waiting for " + data.seats[data.current].name + ".");
  } else {
    $("hint").textContent = "Click a highlighted cell or item to narrow the moves; point at a move to see what it changes.";
  }
  for (const move of shown) {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.text;
    button.dataset.move = move.text;
    button.addEventListener("mouseenter", () => preview(move, true));
    button.addEventListener("mouseleave", () => preview(move, false));
    button.addEventListener("focus", () => preview(move, true));
    button.addEventListener("blur", () => preview(move, false));
    button.addEventListener("click", () => play(move));
    li.append(button);
    list.append(li);
  }
}

async function play(move) {
  $("error").textContent = "";
  try {
    data = await api("POST", `/api/games/${gameId}/play`, {seat, move: move.id !== null ? move.id : move.text});
    chosen = null;
    draw();
  } catch (error) {
    $("error").textContent = error.message;
  }
}

async function step() {
  try {
    data = await api("POST", `/api/games/${gameId}/step`, {seat});
    draw();
  } catch (error) {
    $("error").textContent = error.message;
    stopAuto();
  }
  if (data.over || !data.agent_to_play) stopAuto();
}

function stopAuto() { if (autoplay) { clearInterval(autoplay); autoplay = null; $("auto").textContent = "Play agents"; } }

$("auto").addEventListener("click", () => {
  if (autoplay) { stopAuto(); return; }
  $("auto").textContent = "Pause";
  autoplay = setInterval(step, 600);
});
$("clear").addEventListener("click", () => { chosen = null; document.querySelectorAll(".chosen").forEach((x) => x.classList.remove("chosen")); listMoves(); });
$("seat").addEventListener("change", () => {
  seat = Number($("seat").value);
  history.replaceState(null, "", `?game=${gameId}&seat=${seat}`);
  chosen = null;
  refresh();
});
$("new").addEventListener("click", async () => {
  const made = await api("POST", "/api/games", {});
  gameId = made.id;
  history.replaceState(null, "", `?game=${gameId}&seat=${seat}`);
  chosen = null;
  refresh();
});
$("replay").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const text = (await file.text()).trim();
  let body;
  try {
    const first = JSON.parse(text.split("\n")[0]);
    body = first.format === "regle-state/1" ? {state: first} : {record: first};
  } catch (error) { $("error").textContent = "not a saved game or state: " + error.message; return; }
  try {
    const made = await api("POST", "/api/replay", body);
    gameId = made.id;
    seat = -1;
    history.replaceState(null, "", `?game=${gameId}&seat=${seat}`);
    await refresh();
  } catch (error) { $("error").textContent = error.message; }
});
// another person may play from another window: while it is not this page's turn, look again
// every two seconds (agents answer within the request, so they need no waiting)
setInterval(() => {
  if (!data || data.over || autoplay || document.hidden) return;
  if (data.viewer === data.current || data.agent_to_play) return;
  const seen = data.log.join("\n");
  api("GET", `/api/games/${gameId}?seat=${seat}`).then((fresh) => {
    if (fresh.log.join("\n") !== seen || fresh.current !== data.current) { data = fresh; draw(); }
  }).catch(() => {});
}, 2000);
start().catch((error) => { $("error").textContent = error.message; });
