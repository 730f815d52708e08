// regle's game page: draws what the server sends (the table as this page's seat sees it) and
// lets a person play by clicking a cell or an item (which narrows the legal moves to those that
// point at it) and then a move; hovering a move previews the cells it changes. No build step.
//
// The seat is a secret: its token travels in the address's fragment (#t=...), which browsers
// never send to a server or in a Referer, and goes with each request as X-Regle-Token. A page
// without a token watches as a spectator. The page learns of moves by a long poll (the server
// answers when the game's version changes) and sends one move per click, naming the version
// it was chosen on.
"use strict";
const params = new URLSearchParams(location.search);
let gameId = params.get("game");
let token = new URLSearchParams(location.hash.slice(1)).get("t");
let data = null;
let chosen = null;        // what was clicked first: {kind: "cell", grid, instance, cell} or {kind: "item", value}
let target = null;        // then where to: {kind: "cell", grid, instance, cell}
let busy = false;         // a move is on its way: one request per click
let live = null;          // the game as it is now (data is what is drawn: live, or a past position)
let viewing = null;       // the move number of the past position drawn (null: the game as it is)
const animated = new Set();  // the changes already animated (a redraw does not replay them)
const dismissed = new Set();  // the announcement summaries put away ("game/move")
let focusKey = null;      // the board cell that had the keyboard's focus, kept across redraws
let watching = 0;         // the long poll's generation (a new game starts a new one)
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Regle-Token"] = token;
  const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const result = await response.json();
  if (!response.ok) { const error = new Error(result.error || response.statusText); error.status = response.status; throw error; }
  return result;
}

function remember(made) {
  // a game this page made: its own seat's token, and the others' links to hand out
  gameId = made.id;
  token = made.token;
  sessionStorage.setItem("invites:" + made.id, JSON.stringify(made.invites || []));
  history.replaceState(null, "", `?game=${gameId}` + (token ? `#t=${token}` : ""));
}

async function start() {
  const info = await api("GET", "/api/game");
  $("title").textContent = info.title;
  document.title = info.title + " · regle";
  if (!gameId) remember(await api("POST", "/api/games", {}));
  await refresh();
  watch();
}

async function refresh() {
  live = data = await api("GET", `/api/games/${gameId}`);
  viewing = null;
  draw();
}

async function watch() {
  // wait for the game to change (the server holds the request until it does), then draw it
  const mine = ++watching;
  while (mine === watching) {
    try {
      const fresh = await api("GET", `/api/games/${gameId}?after=${live ? live.version : 0}`);
      if (mine !== watching) return;
      if (fresh.next) { follow(fresh.next); return; }
      if (!live || fresh.version !== live.version || fresh.paused !== live.paused) {
        live = fresh;
        if (viewing === null) data = fresh;
        draw();
      }
    } catch (error) {
      if (error.status === 404) { $("error").textContent = error.message; return; }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

function follow(next) {
  // the game was started again: this seat's page moves to the new one, with its new token
  gameId = next.id;
  token = next.token;
  history.replaceState(null, "", `?game=${gameId}` + (token ? `#t=${token}` : ""));
  chosen = null;
  target = null;
  refresh().then(watch);
}

function seatLine() {
  const you = data.viewer === null ? "Watching" : "You are " + data.seats[data.viewer].name;
  $("you").textContent = you;
  const list = $("invites");
  list.innerHTML = "";
  let invites = [];
  try { invites = JSON.parse(sessionStorage.getItem("invites:" + gameId) || "[]"); } catch (error) { invites = []; }
  for (const invite of invites) {
    const link = `${location.origin}/?game=${gameId}#t=${invite.token}`;
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = link;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = `${data.seats[invite.seat].name}'s link`;
    li.append("Send ", a, " to whoever plays " + data.seats[invite.seat].name + " (it shows their hand).");
    list.append(li);
  }
  $("invite-box").hidden = !invites.length || data.over;
}

function controls() {
  $("moves-title").hidden = data.viewer === null;
  $("undo").hidden = !data.can_undo || viewing !== null;
  const alone = data.seats.every((s) => s.kind !== "human" || s.seat === data.viewer);
  $("undo").textContent = alone ? "Take back" : "Ask to take back";
  $("pace").value = String(data.pace);
  const asked = data.takeback;
  $("takeback-bar").hidden = !asked || data.viewer === null || viewing !== null;
  if (asked) {
    const mine = asked.by === data.viewer;
    $("takeback-text").textContent = mine ? "You asked to take your last move back: waiting for an answer."
      : `${data.seats[asked.by].name} asks to take their last move back.`;
    $("takeback-yes").hidden = $("takeback-no").hidden = mine;
  }
  // pause and pace are for watching agents play each other, not for a game against one
  $("agents").hidden = !data.agents_only || data.over;
  $("pause").textContent = data.paused ? "Play agents" : "Pause";
  $("step-one").hidden = !data.paused;
  $("again").textContent = data.over ? "Play again" : "New game";
  $("again").hidden = !(data.agents_only || data.viewer !== null);
}

function draw() {
  seatLine();
  controls();
  $("table").innerHTML = data.html;
  const who = data.seats[data.current];
  if (data.over) {
    $("status").textContent = data.winners.length
      ? "Game over: " + data.winners.map((w) => data.seats[w].name).join(" and ") + " won"
      : "Game over: a draw";
  } else {
    const thinking = data.agent_to_play && !data.paused;
    $("status").textContent = `Turn ${data.turn}: ${who.name} to play` + (data.step ? ` (${data.step})` : "")
      + (data.viewer === data.current && data.moves.length ? " — your move" : "")
      + (thinking ? ` — ${who.name} (${who.kind}) is thinking…` : "");
  }
  $("status").classList.toggle("thinking", !data.over && data.agent_to_play && !data.paused);
  historyList();
  // a seat with moves to choose: on a phone they sit in a sheet at the bottom (style.css)
  document.body.classList.toggle("choosing", data.moves.length > 0 && viewing === null);
  const latest = live.log.length ? live.log[live.log.length - 1] : "";  // said once by a screen reader
  if ($("said").textContent !== latest) $("said").textContent = latest;
  for (const {seat: who, cells} of data.recent || []) {  // every seat's latest move, in its colour
    for (const [g, i, c] of cells) cellsAt(g, i, c).forEach((el) => { el.classList.add("recent"); el.style.stroke = data.seats[who].colour; });
  }
  if (data.last) for (const [g, i, c] of data.last.cells) {
    cellsAt(g, i, c).forEach((el) => { el.classList.add("last"); el.style.stroke = ""; });
  }
  if (data.last) animate(data.last.motion || []);
  noticesBar();
  bindBoard();
  markPointable();
  listMoves();
  endPanel();
  summaryPanel();
  restoreFocus();
}

function centre(grid, instance, cell) {
  const el = cellsAt(grid, instance, cell)[0];
  if (!el) return null;
  const box = el.getBBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

function animate(motion) {
  // what the last move did, shown once (a redraw does not replay it): a piece slides from where
  // it left, falls down its lane, arrives, or turns over (a disc flipped, a card replaced).
  // The kinds shown stay on the page's body (data-animated), after a redraw too
  const shown = new Set();
  const show = (token, kind) => { token.classList.add(kind); shown.add(kind); };
  for (const [g, i, c, how, from, lane] of motion) {
    const key = `${data.version}/${g}/${i}/${c}`;
    if (animated.has(key)) continue;
    animated.add(key);
    const inst = i === null ? "" : `[data-instance="${i}"]`;
    const token = document.querySelector(`svg.board[data-grid="${CSS.escape(g)}"]${inst} g.token[data-cell="${c}"]`);
    if (!token) continue;
    const to = centre(g, i, c);
    const at = from === null ? null : centre(g, i, from);
    if (how === "turn") show(token, "turn");
    else if (at && to) {
      token.style.setProperty("--dx", `${at[0] - to[0]}px`);
      token.style.setProperty("--dy", `${at[1] - to[1]}px`);
      show(token, "slide");
    } else if (lane && to) {
      token.style.setProperty("--dy", `${-to[1]}px`);
      show(token, "fall");
    } else show(token, "arrive");
  }
  if (shown.size) document.body.dataset.animated = [...shown].sort().join(" ");
}

function historyList() {
  // every move of the game; the position drawn is highlighted, and any move can be looked at
  const list = $("log");
  list.innerHTML = "";
  const said = new Map();  // what the rules announced during each move
  for (const [at, text] of live.announced || []) { if (!said.has(at)) said.set(at, []); said.get(at).push(text); }
  live.log.forEach((line, k) => {
    const li = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "history";
    button.textContent = line.replace(/ #\d+$/, "");  // copies alike are one choice: no count
    if (k + 1 === data.at) { button.classList.add("current"); button.setAttribute("aria-current", "step"); }
    button.addEventListener("click", () => look(k + 1));
    li.append(button);
    for (const text of said.get(k + 1) || []) {  // said during move k + 1
      const note = document.createElement("div");
      note.className = "announced";
      note.textContent = text;
      li.append(note);
    }
    list.append(li);
  });
  const current = list.querySelector(".current");
  if (current) {  // the list scrolls to it, not the page (on a phone the board stays in view)
    const top = current.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight + current.offsetHeight + 4;
    }
  }
  $("history-bar").hidden = viewing === null;
  $("history-where").textContent = viewing === null ? "" : `After move ${viewing} of ${live.log.length}`;
  $("back").disabled = (viewing === null ? live.log.length : viewing) === 0;
  $("forward").disabled = viewing === null;
}

async function look(k) {
  // a past position (k moves in), as this seat saw it then; the last one is the game as it is
  if (k >= live.log.length) { viewing = null; data = live; draw(); return; }
  try {
    data = await api("GET", `/api/games/${gameId}?at=${k}`);
    viewing = k;
    chosen = null;
    target = null;
    draw();
  } catch (error) { $("error").textContent = error.message; }
}

function cellKey(el) { return `${el.dataset.grid}/${el.dataset.instance}/${el.dataset.cell}`; }

function restoreFocus() {
  // the keyboard: one board cell is in the tab order (the one focused last, else the first where
  // a move starts); arrows move among cells by where they are drawn, Enter or Space clicks
  const cells = [...document.querySelectorAll("#table .cell")];
  if (!cells.length) return;
  const again = focusKey && cells.find((el) => cellKey(el) === focusKey);
  const home = again || cells.find((el) => el.classList.contains("pointable")) || cells[0];
  cells.forEach((el) => el.setAttribute("tabindex", el === home ? "0" : "-1"));
  if (again && document.activeElement === document.body) home.focus();
}

function moveFocus(from, dx, dy) {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  const [x0, y0] = box(from);
  let best = null, bestScore = Infinity;
  for (const el of document.querySelectorAll(`#table .cell[data-grid="${CSS.escape(from.dataset.grid)}"]`)) {
    if (el === from) continue;
    const [x, y] = box(el);
    const along = (x - x0) * dx + (y - y0) * dy;
    if (along <= 1) continue;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    const score = along + 2 * across;
    if (score < bestScore) { best = el; bestScore = score; }
  }
  if (best) {
    from.setAttribute("tabindex", "-1");
    best.setAttribute("tabindex", "0");
    best.focus();
    focusKey = cellKey(best);
  }
}

$("table").addEventListener("keydown", (event) => {
  const el = event.target.closest && event.target.closest(".cell");
  if (!el) return;
  const arrows = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
  if (arrows[event.key]) { event.preventDefault(); moveFocus(el, ...arrows[event.key]); }
  else if (event.key === "Enter" || event.key === " ") { event.preventDefault(); focusKey = cellKey(el); clickCell(el); }
});
$("table").addEventListener("focusin", (event) => {
  const el = event.target.closest && event.target.closest(".cell");
  if (el) focusKey = cellKey(el);
});

function noticesBar() {
  // what the rules point out in this position ("check", "atari"): a banner, its cells outlined
  const bar = $("notices");
  const texts = (data.notices || []).map((n) => n.text);
  if (bar.textContent !== texts.join(" · ")) {
    bar.innerHTML = "";
    for (const text of texts) {
      const span = document.createElement("span");
      span.className = "notice";
      span.textContent = text;
      bar.append(span);
    }
  }
  for (const notice of data.notices || []) {
    for (const [g, i, c] of notice.cells) cellsAt(g, i, c).forEach((el) => el.classList.add("noticed"));
  }
}

function summaryPanel() {
  // a summary when the rules announced something (a round ending): what was said and the
  // scores just after, as this seat saw them; shown until put away or until this seat plays
  const panel = $("summary");
  const at = data.standing ? data.standing.at : null;
  const said = (data.announced || []).filter(([k]) => k === at).map(([, text]) => text);
  const key = `${gameId}/${at}`;
  panel.hidden = data.over || !said.length || dismissed.has(key);
  if (panel.hidden) return;
  $("summary-title").textContent = said.join(" · ");
  $("summary-close").onclick = () => { dismissed.add(key); panel.hidden = true; };
  scoreTable($("summary-scores"), data.standing.scores, data.standing.parts, []);
}

function scoreTable(table, scores, parts, winners) {
  table.innerHTML = "";
  table.hidden = !parts.some((p) => p.length);  // a game with no score: the winner says it all
  const head = table.insertRow();
  for (const text of ["", "score", "made of"]) { const th = document.createElement("th"); th.textContent = text; head.append(th); }
  data.seats.forEach((seat, p) => {
    const row = table.insertRow();
    if (winners.includes(p)) row.className = "winner";
    row.insertCell().textContent = seat.name;
    row.insertCell().textContent = scores[p] === null ? "?" : scores[p];
    row.insertCell().textContent = parts[p].map(([name, points]) => `${name.replaceAll("_", " ")} ${points === null ? "?" : points}`).join(", ");
  });
}

function endPanel() {
  // the game over: who won, each seat's score and the clauses that made it
  const panel = $("result");
  panel.hidden = !data.over || !data.result;
  if (!data.over || !data.result) return;
  for (const [g, i, c] of data.result.cells) cellsAt(g, i, c).forEach((el) => el.classList.add("won"));
  const won = data.winners.length ? data.winners.map((w) => data.seats[w].name).join(" and ") + " won" : "A draw";
  // a tie at the top score broken by the rules' next rank (or the seat a tie goes to): said
  $("result-title").textContent = data.result.tie_break ? `${won} on the tie-break (${data.result.tie_break})` : won;
  scoreTable($("result-scores"), data.result.scores, data.result.parts, data.winners);
}

function cellsAt(grid, instance, cell) {
  const inst = instance === null ? "" : `[data-instance="${instance}"]`;
  return document.querySelectorAll(`.cell[data-grid="${CSS.escape(grid)}"]${inst}[data-cell="${cell}"]`);
}

function startCells(move) {
  // where a move starts or lands: its cell arguments (the piece it moves, the cell it takes),
  // else, for moves named otherwise (a lane, a pit's number), the cells it changes
  return move.cells.length ? move.cells : move.preview;
}

const sameCell = (a, b) => a[0] === b.grid && (a[1] === null || a[1] === b.instance) && a[2] === b.cell;

function fromChosen(move) {
  // whether a move starts at (or names) what was clicked first
  if (chosen === null) return true;
  if (chosen.kind === "cell") return startCells(move).some((c) => sameCell(c, chosen));
  return move.values.some(([kind, value]) => value === chosen.value && kind !== "int");
}

function movePoints(move) {
  if (!fromChosen(move)) return false;
  if (target === null) return true;
  return [...move.cells, ...move.preview].some((c) => sameCell(c, target));
}

function pick(el) {
  return {kind: "cell", grid: el.dataset.grid, instance: Number(el.dataset.instance), cell: Number(el.dataset.cell)};
}

function markPointable() {
  // only where a move can start is tinted as playable; once a piece is chosen, its moves'
  // targets are tinted apart (and a click on one plays the move, when one move goes there)
  document.querySelectorAll(".pointable, .target, .chosen").forEach((x) => x.classList.remove("pointable", "target", "chosen"));
  for (const move of data.moves) {
    for (const [g, i, c] of startCells(move)) cellsAt(g, i, c).forEach((el) => el.classList.add("pointable"));
    for (const [kind, value] of move.values) {
      if (kind === "int") continue;
      document.querySelectorAll(`.item[data-value="${value}"]`).forEach((el) => el.classList.add("pointable"));
    }
  }
  if (chosen !== null) {
    if (chosen.kind === "cell") cellsAt(chosen.grid, chosen.instance, chosen.cell).forEach((el) => el.classList.add("chosen"));
    for (const move of data.moves.filter(fromChosen)) {
      for (const [g, i, c] of [...move.cells, ...move.preview]) {
        if (chosen.kind === "cell" && sameCell([g, i, c], chosen)) continue;
        cellsAt(g, i, c).forEach((el) => el.classList.add("target"));
      }
    }
  }
}

function bindBoard() {
  document.querySelectorAll("#table .cell").forEach((el) => {
    el.setAttribute("tabindex", "-1");
    el.addEventListener("click", () => clickCell(el));
  });
  document.querySelectorAll("#table .item").forEach((el) => el.addEventListener("click", () => {
    if (!el.classList.contains("pointable")) return;
    chosen = {kind: "item", value: Number(el.dataset.value)};
    target = null;
    $("filter-name").textContent = el.textContent;
    markPointable();
    listMoves();
  }));
}

function placing(here) {
  // the moves a click on this cell makes: on an empty cell, those whose one place is this cell
  // (a stone, a disc, a mark put here), when every move that starts here is one of them
  const el = cellsAt(here.grid, here.instance, here.cell)[0];
  const svg = el && el.closest("svg");
  const taken = el && el.classList.contains("wall") ? el.classList.contains("up")  // a wall standing there
    : svg && svg.querySelector(`.token[data-grid="${CSS.escape(here.grid)}"][data-cell="${here.cell}"]`);
  if (!svg) return [];
  const starting = data.moves.filter((m) => startCells(m).some((c) => sameCell(c, here)));
  const one = (m) => { const cs = startCells(m); return cs.length === 1 && sameCell(cs[0], here); };
  if (taken) {
    // a piece there: the one move that starts at it and changes nothing else (taken off after a
    // mill, turned over) is one click too; a piece with moves elsewhere is chosen first
    const alone = (m) => one(m) && m.preview.every((c) => sameCell(c, here));
    return starting.length === 1 && alone(starting[0]) ? starting : [];
  }
  return starting.length && starting.every(one) ? starting : [];
}

function closeChooser() {
  const box = document.getElementById("chooser");
  if (box) box.remove();
}

function openChooser(el, moves) {
  // several moves place at one cell (a marble, then which quarter turns): a small list at the cell
  closeChooser();
  const box = document.createElement("div");
  box.id = "chooser";
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", `moves at ${el.dataset.name}`);
  const at = el.getBoundingClientRect();
  box.style.left = `${window.scrollX + at.right + 4}px`;
  box.style.top = `${window.scrollY + at.top}px`;
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.text;
    button.dataset.move = move.text;
    button.addEventListener("click", () => { closeChooser(); play(move); });
    box.appendChild(button);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "close";
  close.textContent = "×";
  close.title = "close (Esc)";
  close.addEventListener("click", closeChooser);
  box.appendChild(close);
  document.body.appendChild(box);
  box.querySelector("button").focus();
}

document.addEventListener("keydown", (event) => { if (event.key === "Escape") closeChooser(); });

function clickCell(el) {
  const here = pick(el);
  closeChooser();
  if ((chosen === null || !el.classList.contains("target")) && el.classList.contains("pointable")) {
    const placed = placing(here);
    if (placed.length === 1) { play(placed[0]); return; }  // one click puts the piece there
    if (placed.length > 1) openChooser(el, placed);  // and the list below narrows too
  }
  if (chosen !== null && el.classList.contains("target")) {
    target = here;
    const going = data.moves.filter(movePoints);
    if (going.length === 1) { play(going[0]); return; }
    $("filter-name").textContent = `${chosenName()} to ${el.dataset.name}`;
  } else if (el.classList.contains("pointable")) {
    chosen = here;
    target = null;
    $("filter-name").textContent = el.dataset.name;
  } else {
    return;
  }
  markPointable();
  listMoves();
}

function chosenName() {
  if (chosen === null) return "";
  if (chosen.kind !== "cell") return $("filter-name").textContent;
  const el = cellsAt(chosen.grid, chosen.instance, chosen.cell)[0];
  return el ? el.dataset.name : "";
}

function preview(move, on) {
  for (const [g, i, c] of move.preview) cellsAt(g, i, c).forEach((el) => el.classList.toggle("preview", on));
}

let listOpen = false;  // the list of moves asked for where the board is the better way to choose

function byOneClick(m, found) {
  // whether one click on the board makes this move (a stone or a disc on an empty cell);
  // ``found`` keeps each cell's placing() for the listing, found once per cell
  const cs = startCells(m);
  if (cs.length !== 1) return false;
  const key = cs[0].join("/");
  if (!found.has(key)) found.set(key, placing({kind: "cell", grid: cs[0][0], instance: cs[0][1] === null ? 0 : cs[0][1], cell: cs[0][2]}));
  return found.get(key).includes(m);
}

function listMoves() {
  const list = $("moves");
  list.innerHTML = "";
  let shown = data.moves.filter(movePoints);
  // a long list of cells (a board of 121 or 81 empty cells) is a poorer way to choose than the board: those
  // moves are folded away, behind a button, and the others (a pass) stay listed
  const found = new Map();
  const clicked = chosen === null && !listOpen ? shown.filter((m) => byOneClick(m, found)) : [];
  const folded = clicked.length > 20 ? clicked.length : 0;
  if (folded) shown = shown.filter((m) => !clicked.includes(m));
  $("filter").hidden = chosen === null;
  if (!data.moves.length) {
    $("hint").textContent = data.over ? "" : (data.viewer === data.current ? "" : "Waiting for " + data.seats[data.current].name + ".");
  } else {
    $("hint").textContent = chosen === null
      ? "Click a piece or a highlighted cell to see its moves; point at a move to see what it changes."
      : "Click where it should go (a tinted cell), or a move below.";
  }
  // grouped by what a person chooses first: the piece a move takes from its cell ("white knight
  // b1", then where it goes), else the action; a heading for each when there are several; many
  // moves sit side by side
  const groups = new Map();
  for (const move of shown) {
    const key = groupOf(move);
    if (!groups.has(key.id)) groups.set(key.id, {title: key.title, moves: []});
    groups.get(key.id).moves.push(move);
  }
  list.classList.toggle("many", shown.length > 24);
  let number = 0;  // the moves numbered without gaps: a heading is not a move
  for (const {title, moves} of groups.values()) {
    if (groups.size > 1) {
      const head = document.createElement("li");
      head.className = "action";
      head.textContent = title;
      list.append(head);
    }
    // moves the engine tells apart only by a count ("play B$ #4", "play B$ #5": copies alike in
    // every way the rules read) are one choice here, said so; the first of them is played
    const alike = new Map();
    for (const move of moves) {
      const plain = move.text.replace(/ #\d+$/, "");
      if (!alike.has(plain)) alike.set(plain, []);
      alike.get(plain).push(move);
    }
    for (const [plain, group] of alike) {
      const move = group[0];
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = group.length > 1 ? `${plain} (${group.length} alike)` : move.text;
      button.dataset.move = move.text;
      button.addEventListener("mouseenter", () => preview(move, true));
      button.addEventListener("mouseleave", () => preview(move, false));
      button.addEventListener("focus", () => preview(move, true));
      button.addEventListener("blur", () => preview(move, false));
      button.addEventListener("click", () => play(move));
      li.value = ++number;
      li.append(button);
      list.append(li);
    }
  }
  if (folded) {
    $("hint").textContent = "Click an empty cell on the board to play there.";
    const li = document.createElement("li");
    li.className = "action";
    const button = document.createElement("button");
    button.type = "button";
    button.id = "show-moves";
    button.textContent = `show the ${folded} moves on the board as a list`;
    button.addEventListener("click", () => { listOpen = true; listMoves(); });
    li.append(button);
    list.append(li);
  }
}

function groupOf(move) {
  // a move that starts at a cell where something stands is grouped under that piece, as a
  // screen reader names it ("b1, white knight" heads as "white knight b1"); others by action
  if (move.cells.length) {
    const [g, i, c] = move.cells[0];
    const el = cellsAt(g, i, c)[0];
    const label = el ? el.getAttribute("aria-label") || "" : "";
    const comma = label.indexOf(", ");
    const what = comma < 0 ? "" : label.slice(comma + 2);
    if (what && what !== "empty" && what !== "hidden") {
      return {id: `cell:${g}/${i}/${c}`, title: `${what} ${label.slice(0, comma)}`};
    }
  }
  return {id: `action:${move.action}`, title: move.action.replaceAll("_", " ")};
}

async function play(move) {
  if (busy) return;
  busy = true;
  closeChooser();
  document.body.dataset.played = move.text;  // what the last click sent (tests read it)
  document.querySelectorAll("#moves button").forEach((b) => { b.disabled = true; });
  $("error").textContent = "";
  if (live.standing) dismissed.add(`${gameId}/${live.standing.at}`);  // playing on puts a summary away
  try {
    live = data = await api("POST", `/api/games/${gameId}/play`, {move: move.id !== null ? move.id : move.text, version: live.version});
    chosen = null;
    target = null;
  } catch (error) {
    $("error").textContent = error.status === 409 ? "The game moved on before this move arrived: here it is now." : error.message;
    live = data = await api("GET", `/api/games/${gameId}`).catch(() => data);
  } finally {
    busy = false;
    draw();
  }
}

async function control(body) {
  try { live = data = await api("POST", `/api/games/${gameId}/control`, body); viewing = null; draw(); }
  catch (error) { $("error").textContent = error.message; }
}

$("pace").addEventListener("change", () => control({pace: Number($("pace").value)}));
async function answer(accept) {
  try { live = data = await api("POST", `/api/games/${gameId}/takeback`, {accept}); viewing = null; draw(); }
  catch (error) { $("error").textContent = error.message; }
}
$("takeback-yes").addEventListener("click", () => answer(true));
$("takeback-no").addEventListener("click", () => answer(false));
$("undo").addEventListener("click", async () => {
  try { live = data = await api("POST", `/api/games/${gameId}/undo`, {}); viewing = null; chosen = null; target = null; draw(); }
  catch (error) { $("error").textContent = error.message; }
});
$("back").addEventListener("click", () => look((viewing === null ? live.log.length : viewing) - 1));
$("forward").addEventListener("click", () => look(viewing + 1));
$("to-live").addEventListener("click", () => look(live.log.length));

$("pause").addEventListener("click", () => control({paused: !data.paused}));
$("step-one").addEventListener("click", () => control({step: true}));
$("clear").addEventListener("click", () => { chosen = null; target = null; markPointable(); listMoves(); });
$("again").addEventListener("click", async () => {
  try {
    const made = await api("POST", `/api/games/${gameId}/again`, {});
    remember(made);
    chosen = null;
    target = null;
    await refresh();
    watch();
  } catch (error) { $("error").textContent = error.message; }
});
let replayLines = [];
$("replay").addEventListener("change", async (event) => {
  // a saved state goes on at once; a file of simulated games offers each of them to watch
  const file = event.target.files[0];
  if (!file) return;
  replayLines = [];
  for (const line of (await file.text()).split("\n")) {
    if (!line.trim()) continue;
    try { replayLines.push(JSON.parse(line)); } catch (error) { $("error").textContent = "not a saved game or state: " + error.message; return; }
  }
  if (!replayLines.length) return;
  if (replayLines[0].format === "regle-state/1") { await startReplay({state: replayLines[0]}); return; }
  const pick = $("replay-pick");
  pick.innerHTML = "";
  replayLines.forEach((r, k) => {
    const who = (r.winners || []).length ? (r.winners.map((w) => "P" + (w + 1)).join("+") + " won") : "a draw";
    pick.add(new Option(`seed ${r.seed}: ${(r.agents || []).join(" v ")}, ${who} in ${r.decisions} moves`, String(k)));
  });
  $("replay-choice").hidden = replayLines.length < 2;
  if (replayLines.length === 1) await startReplay({record: replayLines[0]});
});
$("replay-go").addEventListener("click", () => startReplay({record: replayLines[Number($("replay-pick").value)]}));

async function startReplay(body) {
  try {
    remember(await api("POST", "/api/replay", body));
    chosen = null;
    target = null;
    await refresh();
    watch();
  } catch (error) { $("error").textContent = error.message; }
}
start().catch((error) => { $("error").textContent = error.message; });
