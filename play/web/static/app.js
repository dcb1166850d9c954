// The page of boardgames.play.web, for every game: draws the game's picture with its squares as clickable SVG,
// turns clicks into the human's legal moves, and shows the move list, the result and the agents'
// thinking; on /replay it steps through a recorded game. Plain JavaScript, no build step, no network
// but this server. Per game, only the HINTS below differ: the board, moves and notation come from the
// server (the engine's State interface).
"use strict";

const HINTS = {
  dorix: "Click an empty square or your stack to place a pawn; click a stack, then its destination, to move " +
    "it. After a collapse, click the neighbour that receives the next pawn.",
  olix: "Click an empty square to place a pawn.",
  adix: "Slide: click a cube, then its destination. Rotate or tilt: click the cube (twice for a rotation), " +
    "then choose the move offered below (e1L / e1R rotate, e1~f1 tilts towards f1).",
  barc: "Click one of your pieces, then where it goes (or the 'stay' button): your order is sent, then both " +
    "players' orders are revealed together and played at once.",
};

const REPLAY_HINT = "Step through the game with the buttons or the Left and Right arrow keys (Home: the start, " +
  "End: the last position).";

const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const page = {
  mode: location.pathname.replace(/\/+$/, "") === "/replay" ? "replay" : "play",
  view: null,        // the last view the server sent
  gameId: null,      // the play session
  replayId: null,    // the replay session
  selected: [],      // the squares clicked so far towards a move
  choices: [],       // moves offered as buttons (several moves on the clicked squares)
  agent: "the agent",  // the agents' name (/api/config)
  agentThinks: true,   // whether they search or run a network: the page says they think while they do
};
window.boardPage = page;  // for debugging and the browser tests (read only)

function busy(flag) {
  document.body.dataset.busy = flag ? "1" : "0";
  if (flag || document.body.dataset.thinking !== "1") return;
  document.body.dataset.thinking = "0";
  if ($("status").textContent === thinkingLine()) setStatus("");  // a refused request
}
// Said while a request may make the agents move (a move sent, a new game where they move first): a search
// or a network takes a moment, and the page shows it is not stuck.
function agentsThinking() {
  if (!page.agentThinks) return;
  document.body.dataset.thinking = "1";
  setStatus(thinkingLine());
}
function thinkingLine() { return `${page.agent} is thinking…`; }
function showError(text) { $("error").textContent = text || ""; }
function setStatus(text) { $("status").textContent = text || ""; }

// The server's token, written into this page by the server: sent with every request (required on those
// that change something, and on all of them by a server open to the network), so no other site can play.
const TOKEN = (document.querySelector('meta[name="boardgames-token"]') || {}).content || "";

// The title the server words ("Barc duel — you against barc_az"), the engine options under a details toggle.
function showTitle(title, optionsText) {
  $("title").textContent = title;
  document.title = title;
  $("options").textContent = optionsText || "(none)";
  $("options-box").hidden = false;
}

async function api(method, path, body, contentType) {
  const options = { method, headers: { "X-Boardgames-Token": TOKEN } };
  if (body !== undefined) {
    options.headers["Content-Type"] = contentType || "application/json";
    options.body = contentType ? body : JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// ----- the board ------------------------------------------------------------------------------------
function sameSquares(a, b) { return a.length === b.length && a.every((s, i) => s === b[i]); }
function startsWith(a, prefix) { return a.length > prefix.length && prefix.every((s, i) => s === a[i]); }
function legal() { return (page.view && page.view.legal) || []; }
function exactMoves(sel) { return legal().filter((m) => sameSquares(m.squares, sel)); }
function longerMoves(sel) { return legal().filter((m) => startsWith(m.squares, sel)); }

function squareClasses(name) {
  const classes = ["sq"];
  if (page.mode !== "play" || !page.view || !page.view.your_turn) return classes;
  const n = page.selected.length;
  if (page.selected.includes(name)) classes.push("sel");
  if (n === 0 && legal().some((m) => m.squares[0] === name)) classes.push("start");
  if (n > 0 && legal().some((m) => startsWith(m.squares, page.selected) && m.squares[n] === name)) classes.push("next");
  return classes;
}

function drawBoard() {
  const board = page.view.board;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  svg.setAttribute("id", "board-svg");
  const image = document.createElementNS(SVG, "image");
  image.setAttribute("href", board.png);
  image.setAttribute("width", board.width);
  image.setAttribute("height", board.height);
  svg.appendChild(image);
  for (const [name, box] of Object.entries(board.squares)) {
    const rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", box[0]);
    rect.setAttribute("y", box[1]);
    rect.setAttribute("width", box[2] - box[0]);
    rect.setAttribute("height", box[3] - box[1]);
    rect.setAttribute("class", squareClasses(name).join(" "));
    rect.dataset.square = name;
    const title = document.createElementNS(SVG, "title");
    title.textContent = name;
    rect.appendChild(title);
    if (page.mode === "play") rect.addEventListener("click", () => clickSquare(name));
    svg.appendChild(rect);
  }
  $("board").replaceChildren(svg);
}

function drawChoices() {
  const box = $("choices");
  box.replaceChildren();
  if (page.mode !== "play" || !page.view || !page.view.your_turn) return;
  // the moves on the clicked squares, and the moves that name no square (Barc's "stay") are buttons
  const offered = page.choices.concat(legal().filter((m) => m.squares.length === 0 && !page.choices.includes(m)));
  for (const move of offered) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = move.text;
    button.dataset.move = move.text;
    button.addEventListener("click", () => submit({ action: move.action }));
    box.appendChild(button);
  }
}

// ----- clicks into moves (the pygame window's ClickSelector, in the page) ---------------------------
function clickSquare(name) {
  if (!page.view || !page.view.your_turn || document.body.dataset.busy === "1") return;
  showError("");
  const prev = page.selected;
  let sel = prev.concat([name]);
  let exact, longer;
  if (prev.length && prev[prev.length - 1] === name && exactMoves(prev).length) {
    sel = prev.slice();  // the same square twice: the moves that end there
    exact = exactMoves(sel);
    longer = [];
  } else {
    exact = exactMoves(sel);
    longer = longerMoves(sel);
  }
  if (!exact.length && !longer.length && prev.length) {  // start again from this square
    sel = [name];
    exact = exactMoves(sel);
    longer = longerMoves(sel);
  }
  page.choices = [];
  if (!exact.length && !longer.length) {
    page.selected = [];
    showError(`No legal move uses ${name}: click a highlighted square.`);
    render();
    return;
  }
  page.selected = sel;
  if (exact.length === 1 && !longer.length) {
    submit({ action: exact[0].action });
    return;
  }
  if (exact.length && !longer.length) {
    page.choices = exact;
    setStatus(`Several moves on ${sel.join("-")}: choose one below.`);
  } else if (exact.length) {
    page.choices = exact;
    setStatus(`Click ${name} again for ${exact.map((m) => m.text).join(" / ")}, or the next square.`);
  } else {
    setStatus(`${sel.join("-")}: click the next square.`);
  }
  render(false);
}

function clearSelection() {
  page.selected = [];
  page.choices = [];
  render();
}

async function submit(move) {
  if (!page.gameId || document.body.dataset.busy === "1") return;
  busy(true);
  showError("");
  agentsThinking();
  try {
    const view = await api("POST", `/api/games/${page.gameId}/move`, { ...move, ply: page.view.ply });
    page.selected = [];
    page.choices = [];
    page.view = view;
  } catch (e) {
    showError(`Refused: ${e.message}`);
    page.selected = [];
    page.choices = [];
  }
  render();
  busy(false);
}

// ----- the panels -----------------------------------------------------------------------------------
function drawMoves(current) {
  const list = $("moves");
  list.replaceChildren();
  (page.view.move_labels || page.view.moves).forEach((text, i) => {
    const item = document.createElement("li");
    item.textContent = text;
    item.dataset.move = text;
    if (current === i + 1) item.className = "current";
    if (page.mode === "replay") item.addEventListener("click", () => showReplay(i + 1));
    list.appendChild(item);
  });
  const marked = list.querySelector("li.current") || list.lastElementChild;
  if (marked) marked.scrollIntoView({ block: "nearest" });
}

function drawThinking() {
  const box = $("thinking");
  box.replaceChildren();
  const thinking = page.view.thinking || [];
  if (!thinking.length) {
    const p = document.createElement("p");
    p.textContent = page.mode === "play" ? "(the agent does not say how it chose: random and greedy have no " +
      "search or policy to show)" : "(not recorded in replays)";
    box.appendChild(p);
    return;
  }
  for (const entry of thinking) {
    const p = document.createElement("p");
    p.textContent = `${entry.name} (${entry.agent}) played ${entry.chosen}; its shares (visits or policy):`;
    box.appendChild(p);
    const table = document.createElement("table");
    table.className = "thinking";
    for (const row of entry.top) {
      const tr = document.createElement("tr");
      const move = document.createElement("td");
      move.textContent = row.move;
      const meterCell = document.createElement("td");
      const meter = document.createElement("meter");
      meter.min = 0;
      meter.max = 1;
      meter.value = row.share;
      meterCell.appendChild(meter);
      const share = document.createElement("td");
      share.textContent = `${(100 * row.share).toFixed(1)}%`;
      tr.append(move, meterCell, share);
      table.appendChild(tr);
    }
    box.appendChild(table);
  }
}

// what the Result box says while the position shown is not the game's end
function unfinishedText(view) {
  if (page.mode === "play" || view.index < view.count - 1) return "the game goes on";
  if (view.count <= 1) return "no moves: this move list holds only the starting position";
  return "the move list stops here, before the game is over";
}

function render(resetStatus = true) {
  const view = page.view;
  if (!view) return;
  drawBoard();
  drawChoices();
  $("position").textContent = view.position;
  $("result").textContent = view.result ? view.result.text : unfinishedText(view);
  document.body.dataset.over = view.result ? "1" : "0";
  document.body.dataset.outcome = (view.result && view.result.outcome) || "";
  $("hint").textContent = page.mode === "play" ? HINTS[view.game] || "" : REPLAY_HINT;
  if (page.mode === "play") {
    document.body.dataset.ply = String(view.ply);
    drawMoves(null);
    drawThinking();
    $("reveal-box").hidden = !view.reveal;
    $("reveal").textContent = view.reveal || "";
    $("download").href = `/api/games/${page.gameId}/moves`;
    $("you").textContent = view.you;
    if (resetStatus) {
      if (view.result) setStatus(view.result.text);
      else if (view.your_turn) setStatus(view.simultaneous ? "Your order: both orders are revealed together." : "Your move.");
      else setStatus(`waiting for ${page.agent}…`);
    }
  } else {
    document.body.dataset.ply = String(view.index);
    drawMoves(view.index);
    drawThinking();
    $("step").textContent = `position ${view.index} of ${view.count - 1}`;
    setStatus(view.index === 0 ? "start" : `${view.index}. ${view.move_labels[view.index - 1]}`);
  }
}

// ----- play -----------------------------------------------------------------------------------------
async function newGame(seat) {
  busy(true);
  showError("");
  agentsThinking();  // they may move first
  try {
    const view = await api("POST", "/api/games", seat === undefined ? {} : { seat });
    page.gameId = view.id;
    page.view = view;
    page.selected = [];
    page.choices = [];
    history.replaceState(null, "", `/#${view.id}`);
    $("seat").value = String(view.seat);
    render();
  } catch (e) {
    showError(`No new game: ${e.message}`);
  }
  busy(false);
}

async function startPlay() {
  $("play-controls").hidden = false;
  const config = await api("GET", "/api/config");
  page.agent = config.agent;
  page.agentThinks = config.agent_thinks !== false;
  showTitle(config.title, config.options_text);
  config.seat_names.forEach((name, i) => {
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = name;
    $("seat").appendChild(option);
  });
  $("new-game").addEventListener("click", () => newGame(Number($("seat").value)));
  $("clear").addEventListener("click", clearSelection);
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("typed-move").value.trim();
    if (text) submit({ move: text }).then(() => { $("typed-move").value = ""; });
  });
  $("to-replay").addEventListener("click", async () => {
    try {
      const response = await fetch(`/api/games/${page.gameId}/moves`, { headers: { "X-Boardgames-Token": TOKEN } });
      if (!response.ok) throw new Error((await response.json()).error || `HTTP ${response.status}`);
      const replay = await api("POST", "/api/replays?name=this%20game", await response.text(), "text/plain");
      location.href = `/replay#${replay.id}`;
    } catch (e) {
      showError(e.message);
    }
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") clearSelection(); });
  const id = location.hash.slice(1);
  if (id) {
    try {
      page.view = await api("GET", `/api/games/${id}`);
      page.gameId = id;
      $("seat").value = String(page.view.seat);
      render();
      busy(false);
      return;
    } catch (e) {
      showError(`${e.message}: a new game starts.`);
    }
  }
  await newGame();
}

// ----- replay ---------------------------------------------------------------------------------------
async function showReplay(index) {
  if (!page.replayId || !page.view) return;
  const target = Math.max(0, Math.min(index, page.view.count - 1));
  busy(true);
  try {
    page.view = await api("GET", `/api/replays/${page.replayId}/${target}`);
    render();
  } catch (e) {
    showError(e.message);
  }
  busy(false);
}

async function openReplay(text, name) {
  busy(true);
  showError("");
  try {
    const view = await api("POST", `/api/replays?name=${encodeURIComponent(name)}`, text, "text/plain");
    page.replayId = view.id;
    page.view = view;
    history.replaceState(null, "", `/replay#${view.id}`);
    showTitle(view.title, view.options_text);
    render();
  } catch (e) {
    showError(`This move list cannot be replayed: ${e.message}`);
  }
  busy(false);
}

async function startReplay() {
  document.body.classList.add("replay");
  $("replay-controls").hidden = false;
  document.title = "replay viewer";
  $("title").textContent = "replay viewer: choose a move list";
  $("result").textContent = "no game opened yet: choose a move list (a --save-moves file)";
  $("thinking").replaceChildren(Object.assign(document.createElement("p"), { textContent: "(not recorded in replays)" }));
  $("replay-file").addEventListener("change", () => {
    const file = $("replay-file").files[0];
    if (file) file.text().then((text) => openReplay(text, file.name));
  });
  $("first").addEventListener("click", () => showReplay(0));
  $("prev").addEventListener("click", () => showReplay(page.view.index - 1));
  $("next").addEventListener("click", () => showReplay(page.view.index + 1));
  $("last").addEventListener("click", () => showReplay(page.view.count - 1));
  document.addEventListener("keydown", (event) => {
    if (!page.view) return;
    const step = { ArrowLeft: page.view.index - 1, ArrowRight: page.view.index + 1, Home: 0,
      End: page.view.count - 1 }[event.key];
    if (step !== undefined) showReplay(step);
  });
  const id = location.hash.slice(1);
  if (id) {
    page.replayId = id;
    try {
      page.view = await api("GET", `/api/replays/${id}/0`);
      showTitle(page.view.title, page.view.options_text);
      render();
    } catch (e) {
      showError(e.message);
    }
  }
  busy(false);
}

(page.mode === "play" ? startPlay() : startReplay()).catch((e) => { showError(e.message); busy(false); });
