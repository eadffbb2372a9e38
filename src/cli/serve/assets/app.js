// The nqueens page: five views over the JSON API of `nqueens serve`. Plain JavaScript, no
// build step. Every board carries data-n and data-columns (space-separated 0-based columns,
// row by row; "-" for a row without a queen), the browse view data-k.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// One id per tab: the server runs at most one heavy job per client.
const CLIENT = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).slice(0, 40);
const VIEWS = ["sizes", "browse", "play", "watch", "large"];

const state = {
  n: 8,
  view: "browse",
  sizes: null, // from /api/sizes
  limits: null,
  browse: null, // the last solution shown
  play: { rows: [], cursor: [0, 0], first: null, controller: null },
  count: { controller: null },
  watch: null,
};

const fmt = (s) => (s === null || s === undefined ? "unknown" : BigInt(s).toLocaleString("en-US"));
const plural = (count, word) => `${fmt(count)} ${word}${String(count) === "1" ? "" : "s"}`;
const columnsText = (rows) => rows.map((c) => (c === null || c === undefined ? "-" : String(c))).join(" ");

async function api(path, options = {}) {
  const headers = Object.assign({ "x-client": CLIENT }, options.headers || {});
  const response = await fetch(path, Object.assign({}, options, { headers }));
  return response;
}

async function json(path, options) {
  const response = await api(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

// Reads a JSON Lines response, calling onLine for each object; resolves at the end.
async function readLines(response, onLine) {
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.error || `HTTP ${response.status}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const text = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (text.trim()) onLine(JSON.parse(text));
    }
  }
}

// ---- Boards ----------------------------------------------------------------------------

// Draws an n x n board into `svg`: rows[r] is the queen's column or null; `marks` maps
// "r,c" to a CSS class for an overlay.
function drawBoard(svg, n, rows, marks = new Map(), cursor = null) {
  svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
  svg.dataset.n = String(n);
  svg.dataset.columns = columnsText(rows);
  const parts = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      parts.push(`<rect x="${c}" y="${r}" width="1" height="1" class="${(r + c) % 2 ? "dark" : "light"}"/>`);
      const mark = marks.get(`${r},${c}`);
      if (mark) parts.push(`<rect x="${c}" y="${r}" width="1" height="1" class="${mark}"/>`);
    }
  }
  rows.forEach((c, r) => {
    if (c !== null && c !== undefined) {
      parts.push(`<use href="#queen" x="${c + 0.08}" y="${r + 0.08}" width="0.84" height="0.84"/>`);
    }
  });
  if (cursor) parts.push(`<rect x="${cursor[1] + 0.05}" y="${cursor[0] + 0.05}" width="0.9" height="0.9" class="cursor"/>`);
  svg.innerHTML = parts.join("");
}

// Squares attacked by the queens of `rows`, and the queens attacked by another.
function attacks(n, rows) {
  const attacked = new Set();
  const bad = new Set();
  rows.forEach((c, r) => {
    if (c === null) return;
    for (let r2 = 0; r2 < n; r2++) {
      for (let c2 = 0; c2 < n; c2++) {
        if (r2 === r && c2 === c) continue;
        if (r2 === r || c2 === c || Math.abs(r2 - r) === Math.abs(c2 - c)) {
          attacked.add(`${r2},${c2}`);
          if (rows[r2] === c2) bad.add(`${r2},${c2}`);
        }
      }
    }
  });
  return { attacked, bad };
}

// ---- Size picker and tabs -------------------------------------------------------------

function setN(n, options = {}) {
  n = Math.max(1, Math.min(32, Math.round(Number(n)) || 1));
  const changed = n !== state.n;
  state.n = n;
  $("n").value = String(n);
  document.querySelectorAll(".n-text").forEach((e) => (e.textContent = String(n)));
  const size = state.sizes && state.sizes[n - 1];
  $("n-known").textContent = size
    ? size.total === null
      ? `n = ${n}: no count known`
      : `${plural(size.total, "solution")}, ${fmt(size.unique)} unique`
    : "";
  document.querySelectorAll("#sizes-table tbody tr").forEach((tr) => tr.classList.toggle("current", Number(tr.dataset.n) === n));
  if (changed || options.force) {
    cancelCount();
    resetPlay();
    resetWatch();
    if (state.view === "browse" && !options.keepBrowse) browseTo(0);
    else state.browse = null;
    renderCountIdle();
  }
  updateUrl();
}

function showView(view, options = {}) {
  state.view = view;
  for (const v of VIEWS) {
    $(`view-${v}`).hidden = v !== view;
    $(`tab-${v}`).setAttribute("aria-selected", String(v === view));
    $(`tab-${v}`).tabIndex = v === view ? 0 : -1;
  }
  if (view === "browse" && !options.noLoad && (!state.browse || state.browse.n !== state.n)) browseTo(0);
  if (view === "play") renderPlay(true);
  if (view === "watch") renderWatch();
  if (view === "large" && !$("large-board").dataset.n) drawLarge();
  updateUrl();
}

function updateUrl() {
  const params = new URLSearchParams({ n: String(state.n) });
  if (state.view === "browse" && state.browse && state.browse.k !== null) params.set("k", state.browse.k);
  else if (state.view !== "browse") params.set("view", state.view);
  history.replaceState(null, "", `/?${params}`);
}

// ---- Counts ---------------------------------------------------------------------------

function renderSizes() {
  const body = $("sizes-table").querySelector("tbody");
  body.innerHTML = "";
  for (const size of state.sizes) {
    const tr = document.createElement("tr");
    tr.dataset.n = String(size.n);
    tr.tabIndex = 0;
    tr.innerHTML = `<td>${size.n}</td><td>${size.total === null ? "—" : fmt(size.total)}</td><td>${size.unique === null ? "—" : fmt(size.unique)}</td>`;
    tr.addEventListener("click", () => setN(size.n));
    tr.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        setN(size.n);
      }
    });
    body.appendChild(tr);
  }
}

function renderCountIdle() {
  const limit = state.limits ? state.limits.live_count : 22;
  const allowed = state.n <= limit;
  $("count-start").disabled = !allowed || state.count.controller !== null;
  if (!state.count.controller) {
    $("count-progress").value = 0;
    $("count-status").textContent = allowed ? "" : `Live counts go up to n = ${limit}: n = ${state.n} would take hours to days here; the table gives the known counts up to n = 27.`;
    $("count-result").textContent = "";
  }
}

const seconds = (s) => (s === null || s === undefined ? "?" : s < 60 ? `${s.toFixed(1)} s` : s < 3600 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${(s / 3600).toFixed(1)} h`);

async function startCount() {
  cancelCount();
  const n = state.n;
  const controller = new AbortController();
  state.count.controller = controller;
  $("count-start").disabled = true;
  $("count-cancel").disabled = false;
  $("count-result").textContent = "";
  $("count-status").textContent = "Starting…";
  $("count-progress").value = 0;
  try {
    const response = await api(`/api/count?n=${n}`, { signal: controller.signal });
    await readLines(response, (line) => {
      if (line.event === "progress") {
        $("count-progress").value = line.percent;
        const tasks = line.tasks === null ? "planning the tasks" : `${line.done}/${line.tasks} tasks`;
        $("count-status").textContent = `${line.percent.toFixed(1)}% · ${tasks} · ${seconds(line.elapsed_s)} elapsed · ETA ${seconds(line.eta_s)}`;
      } else if (line.event === "done") {
        $("count-progress").value = 100;
        $("count-status").textContent = `Done in ${seconds(line.seconds)} with the ${line.engine} engine, ${line.tasks} tasks on ${line.threads} threads.`;
        const agrees = line.known === null ? "no count is known to compare" : line.agrees ? "agrees with the known count" : `DIFFERS from the known count ${fmt(line.known)}`;
        $("count-result").textContent = `n = ${line.n}: ${plural(line.solutions, "solution")} (${agrees}).`;
      } else if (line.event === "cancelled") {
        $("count-status").textContent = "Cancelled.";
      } else if (line.event === "error") {
        $("count-status").textContent = `Error: ${line.error}`;
      }
    });
  } catch (e) {
    if (e.name !== "AbortError") $("count-status").textContent = `Error: ${e.message}`;
  } finally {
    if (state.count.controller === controller) {
      state.count.controller = null;
      $("count-cancel").disabled = true;
      renderCountButtonsOnly();
    }
  }
}

function renderCountButtonsOnly() {
  const limit = state.limits ? state.limits.live_count : 22;
  $("count-start").disabled = state.n > limit || state.count.controller !== null;
}

function cancelCount() {
  const controller = state.count.controller;
  if (!controller) return;
  state.count.controller = null;
  controller.abort();
  // Closing the connection stops the work; this says so at once, too.
  api("/api/cancel", { method: "POST" }).catch(() => {});
  $("count-status").textContent = "Cancelled.";
  $("count-cancel").disabled = true;
  renderCountButtonsOnly();
}

// ---- Browse ---------------------------------------------------------------------------

async function browseRequest(path) {
  $("browse-error").textContent = "";
  try {
    const solution = await json(path);
    if (solution.columns === null) {
      $("browse-error").textContent = "No more solutions that way.";
      return;
    }
    if (solution.n !== state.n) return; // the size changed meanwhile
    state.browse = solution;
    renderBrowse();
  } catch (e) {
    $("browse-error").textContent = e.message;
  }
  updateUrl();
}

function browseTo(k) {
  const size = state.sizes && state.sizes[state.n - 1];
  if (size && size.total === "0") {
    state.browse = null;
    renderBrowse();
    return Promise.resolve();
  }
  return browseRequest(`/api/solution?n=${state.n}&k=${encodeURIComponent(k)}`);
}

function browseStep(direction) {
  const b = state.browse;
  if (!b) return browseTo(0);
  const params = new URLSearchParams({ n: String(b.n), from: b.columns.join(" "), direction });
  if ($("browse-unique").checked) params.set("unique", "1");
  if (b.k !== null) params.set("k", b.k);
  return browseRequest(`/api/step?${params}`);
}

function renderBrowse() {
  const b = state.browse;
  const view = $("browse");
  const buttons = ["browse-first", "browse-prev", "browse-next", "browse-jump"];
  if (!b) {
    view.dataset.k = "";
    drawBoard($("browse-board"), state.n, new Array(state.n).fill(null));
    $("browse-title").textContent = `n = ${state.n} has no solutions.`;
    $("browse-columns").textContent = "";
    $("browse-class-text").textContent = "";
    $("browse-images").innerHTML = "";
    buttons.forEach((id) => ($(id).disabled = true));
    return;
  }
  buttons.forEach((id) => ($(id).disabled = false));
  view.dataset.k = b.k === null ? "" : b.k;
  drawBoard($("browse-board"), b.n, b.columns);
  const number = b.k === null ? "a solution" : `Solution ${fmt(BigInt(b.k) + 1n)}`;
  $("browse-title").textContent = `${number} of ${b.total === null ? "the" : fmt(b.total)} solutions of n = ${b.n}` + (b.k === null ? "" : ` (k = ${fmt(b.k)})`);
  $("browse-columns").textContent = b.columns.join(" ");
  $("browse-prev").disabled = b.k === "0";
  if (document.activeElement !== $("browse-k")) $("browse-k").value = b.k === null ? "" : b.k;
  const c = b.class;
  const kind = c.size === 8 ? "eight boards" : c.size === 4 ? "four boards (it is unchanged by a half turn)" : c.size === 2 ? "two boards (it is unchanged by a quarter turn)" : "one board";
  $("browse-class-text").textContent = `Its class holds ${kind}. ${c.is_representative ? "This board is the class's representative (the least of its images)." : "The representative is the least of the images, marked below."}`;
  const images = $("browse-images");
  images.innerHTML = "";
  for (const image of c.images) {
    const button = document.createElement("button");
    button.type = "button";
    const same = image.columns.join(" ") === b.columns.join(" ");
    const representative = image.columns.join(" ") === c.representative.join(" ");
    if (same) button.classList.add("this");
    const svg = document.createElementNS(SVG, "svg");
    svg.classList.add("board");
    drawBoard(svg, b.n, image.columns);
    button.appendChild(svg);
    const label = document.createElement("span");
    // Above 16 rows the images' numbers are unknown: they are shown, not linked.
    label.textContent = (image.k === null ? (same ? "this board" : "image") : `k = ${fmt(image.k)}`) + (representative ? " ★" : "");
    button.appendChild(label);
    button.setAttribute("aria-label", `Image ${image.columns.join(" ")}${representative ? ", the representative" : ""}${same ? ", shown now" : ""}`);
    button.addEventListener("click", () => {
      if (image.k !== null) browseTo(image.k);
    });
    button.disabled = image.k === null;
    images.appendChild(button);
  }
}

// ---- Play -----------------------------------------------------------------------------

function resetPlay() {
  if (state.play.controller) state.play.controller.abort();
  state.play = { rows: new Array(state.n).fill(null), cursor: [0, 0], first: null, controller: null, shown: false };
  if (state.view === "play") renderPlay(true);
}

function renderPlay(ask) {
  const { rows, cursor } = state.play;
  if (rows.length !== state.n) return resetPlay();
  const { attacked, bad } = attacks(state.n, rows);
  const marks = new Map();
  for (const key of attacked) marks.set(key, "attacked");
  for (const key of bad) marks.set(key, "bad-queen");
  const board = $("play-board");
  // The cursor is drawn always and shown by CSS while the board has the focus: redrawing on
  // focus would replace the square under a click before the click lands.
  drawBoard(board, state.n, rows, marks, cursor);
  board.classList.toggle("solved", rows.every((c) => c !== null) && bad.size === 0);
  if (ask) askCompletions();
}

async function askCompletions() {
  if (state.play.controller) state.play.controller.abort();
  const controller = new AbortController();
  state.play.controller = controller;
  state.play.first = null;
  $("play-complete").disabled = true;
  $("play-count").textContent = "Counting the completions…";
  $("play-detail").textContent = "";
  const rows = state.play.rows.slice();
  const queens = rows.filter((c) => c !== null).length;
  try {
    const response = await api("/api/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n: state.n, rows }),
      signal: controller.signal,
    });
    await readLines(response, (line) => {
      if (state.play.controller !== controller) return;
      if (line.event === "first") {
        state.play.first = line.first;
        $("play-complete").disabled = line.first === null || queens === state.n;
        if (line.first === null) {
          $("play-count").textContent = "No possible configurations";
          $("play-detail").textContent = line.conflict
            ? `The queens of rows ${line.conflict[0] + 1} and ${line.conflict[1] + 1} attack each other.`
            : "No solution holds these queens.";
        }
      } else if (line.event === "counting") {
        if (state.play.first !== null) $("play-detail").textContent = `Still counting, ${seconds(line.elapsed_s)}… (placing a queen starts over)`;
      } else if (line.event === "completions") {
        $("play-count").dataset.completions = line.completions;
        if (line.completions === "0") {
          $("play-count").textContent = "No possible configurations";
        } else if (queens === state.n) {
          $("play-count").textContent = "Solved! Every row holds a queen and none attacks another.";
          $("play-detail").textContent = "";
        } else {
          $("play-count").textContent = `${plural(line.completions, "solution")} complete${line.completions === "1" ? "s" : ""} this placement`;
          $("play-detail").textContent = `Counted in ${seconds(line.seconds)}.`;
        }
      } else if (line.event === "cancelled") {
        $("play-count").textContent = "Count cancelled.";
      } else if (line.event === "error") {
        $("play-count").textContent = `Error: ${line.error}`;
      }
    });
  } catch (e) {
    if (e.name !== "AbortError" && state.play.controller === controller) $("play-count").textContent = `Error: ${e.message}`;
  }
}

function toggleSquare(r, c) {
  const rows = state.play.rows;
  rows[r] = rows[r] === c ? null : c;
  state.play.cursor = [r, c];
  renderPlay(true);
}

function playSquareFromEvent(event) {
  const board = $("play-board");
  const box = board.getBoundingClientRect();
  const n = state.n;
  const c = Math.floor(((event.clientX - box.left) / box.width) * n);
  const r = Math.floor(((event.clientY - box.top) / box.height) * n);
  if (r < 0 || c < 0 || r >= n || c >= n) return null;
  return [r, c];
}

// ---- Watch ----------------------------------------------------------------------------

const SPEEDS = [1, 2, 5, 10, 25, 50, 100, 250, 1000, 5000]; // steps a second

function resetWatch() {
  const w = state.watch;
  if (w && w.reader) w.reader.cancel().catch(() => {});
  if (w && w.timer) clearTimeout(w.timer);
  delete $("watch-board").dataset.lastSolution;
  state.watch = { n: state.n, reader: null, buffer: "", queue: [], ended: false, rows: new Array(state.n).fill(null), steps: 0, solutions: 0, playing: false, timer: null, mark: null, solved: false, last: "" };
  if (state.view === "watch") renderWatch();
}

async function watchFill() {
  const w = state.watch;
  if (w.ended || w.queue.length > 256) return;
  if (!w.reader) {
    const response = await api(`/api/trace?n=${w.n}`);
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      w.ended = true;
      $("watch-note").textContent = body.error || "The search cannot be shown.";
      return;
    }
    w.reader = response.body.getReader();
    w.decoder = new TextDecoder();
  }
  // Reads only what the animation needs next: the server produces the trace as it is read.
  while (w.queue.length < 256 && !w.ended) {
    const { value, done } = await w.reader.read();
    if (state.watch !== w) return;
    if (done) {
      w.ended = true;
      break;
    }
    w.buffer += w.decoder.decode(value, { stream: true });
    let newline;
    while ((newline = w.buffer.indexOf("\n")) >= 0) {
      const text = w.buffer.slice(0, newline);
      w.buffer = w.buffer.slice(newline + 1);
      if (text.trim()) w.queue.push(JSON.parse(text));
    }
  }
}

async function watchStep() {
  const w = state.watch;
  if (w.queue.length === 0) await watchFill();
  if (state.watch !== w) return false;
  const event = w.queue.shift();
  if (!event || event.event === "end") {
    w.ended = true;
    w.queue.length = 0;
    w.playing = false;
    w.last = `The search is over: ${w.solutions} solutions in ${w.steps} steps.`;
    renderWatch();
    return false;
  }
  w.steps++;
  w.solved = false;
  const r = event.row;
  const c = event.column;
  switch (event.event) {
    case "place":
      w.rows[r] = c;
      w.mark = [r, c, "placed"];
      w.last = `Row ${r + 1}: queen placed in column ${c + 1}.`;
      break;
    case "conflict":
      w.mark = [r, c, "conflict"];
      w.last = `Row ${r + 1}, column ${c + 1} is attacked: skipped.`;
      break;
    case "backtrack":
      w.rows[r] = null;
      w.mark = [r, c, "back"];
      w.last = `Row ${r + 1}: nothing works below, queen taken back from column ${c + 1}.`;
      break;
    case "solution":
      w.solutions++;
      w.solved = true;
      w.mark = null;
      w.last = `Solution ${w.solutions} found: ${event.columns.join(" ")}.`;
      $("watch-board").dataset.lastSolution = event.columns.join(" ");
      break;
  }
  if (w.queue.length < 128) watchFill();
  return true;
}

function renderWatch() {
  const w = state.watch;
  if (!w || w.n !== state.n) return resetWatch();
  const limit = state.limits ? state.limits.trace : 12;
  const allowed = state.n <= limit;
  ["watch-play", "watch-step", "watch-restart"].forEach((id) => ($(id).disabled = !allowed));
  $("watch-note").textContent = allowed ? "" : `The search is animated for boards up to n = ${limit}.`;
  const marks = new Map();
  if (w.mark) marks.set(`${w.mark[0]},${w.mark[1]}`, w.mark[2]);
  const board = $("watch-board");
  drawBoard(board, w.n, w.rows, marks);
  board.classList.toggle("solved", w.solved);
  board.dataset.solutions = String(w.solutions);
  $("watch-steps").textContent = w.steps.toLocaleString("en-US");
  $("watch-solutions").textContent = String(w.solutions);
  $("watch-event").textContent = w.last;
  $("watch-play").textContent = w.playing ? "Pause" : "Play";
  $("watch-play").setAttribute("aria-pressed", String(w.playing));
  $("watch-step").disabled = !allowed || w.playing || (w.ended && w.queue.length === 0);
  $("watch-speed-text").textContent = `${SPEEDS[Number($("watch-speed").value)]} steps a second`;
}

async function watchLoop() {
  const w = state.watch;
  if (!w.playing || state.watch !== w) return;
  const speed = SPEEDS[Number($("watch-speed").value)];
  // Fast speeds take several steps a frame; a solution holds the board still a moment.
  const perTick = Math.max(1, Math.round(speed / 60));
  let pause = false;
  for (let i = 0; i < perTick; i++) {
    if (!(await watchStep())) break;
    if (w.solved) {
      pause = true;
      break;
    }
  }
  renderWatch();
  if (w.playing && state.watch === w) {
    const delay = pause ? Math.max(600, 1000 / speed) : Math.max(1000 / speed, 1000 / 60);
    w.timer = setTimeout(watchLoop, delay);
  }
}

// ---- Large boards ---------------------------------------------------------------------

async function drawLarge() {
  const n = Math.round(Number($("large-n").value));
  const canvas = $("large-board");
  try {
    const result = await json(`/api/find?n=${n}`);
    canvas.dataset.n = String(result.n);
    canvas.dataset.columns = result.columns ? result.columns.join(" ") : "";
    $("large-check").textContent = `n = ${result.n}: ${result.check}`;
    const ctx = canvas.getContext("2d");
    const size = canvas.width;
    const cell = size / n;
    ctx.fillStyle = "#f0d9b5";
    ctx.fillRect(0, 0, size, size);
    if (n <= 200) {
      ctx.fillStyle = "#b58863";
      for (let r = 0; r < n; r++) for (let c = (r + 1) % 2; c < n; c += 2) ctx.fillRect(c * cell, r * cell, cell, cell);
    }
    if (result.columns) {
      ctx.fillStyle = "#1b1b1b";
      result.columns.forEach((c, r) => {
        if (cell >= 6) {
          ctx.beginPath();
          ctx.arc((c + 0.5) * cell, (r + 0.5) * cell, cell * 0.36, 0, 2 * Math.PI);
          ctx.fill();
        } else {
          const dot = Math.max(cell, 2.5);
          ctx.fillRect((c + 0.5) * cell - dot / 2, (r + 0.5) * cell - dot / 2, dot, dot);
        }
      });
    }
  } catch (e) {
    $("large-check").textContent = e.message;
  }
}

// ---- Wiring ---------------------------------------------------------------------------

function wire() {
  $("n").addEventListener("change", () => setN($("n").value));
  $("n-down").addEventListener("click", () => setN(state.n - 1));
  $("n-up").addEventListener("click", () => setN(state.n + 1));
  VIEWS.forEach((v, i) => {
    const tab = $(`tab-${v}`);
    tab.addEventListener("click", () => showView(v));
    tab.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      const next = VIEWS[(i + step + VIEWS.length) % VIEWS.length];
      showView(next);
      $(`tab-${next}`).focus();
    });
  });
  $("count-start").addEventListener("click", startCount);
  $("count-cancel").addEventListener("click", cancelCount);
  $("browse-first").addEventListener("click", () => browseTo(0));
  $("browse-prev").addEventListener("click", () => browseStep("previous"));
  $("browse-next").addEventListener("click", () => browseStep("next"));
  $("browse-jump-form").addEventListener("submit", (e) => {
    e.preventDefault();
    browseTo($("browse-k").value.trim().replace(/[,_ ]/g, ""));
  });
  const board = $("play-board");
  board.addEventListener("click", (e) => {
    const square = playSquareFromEvent(e);
    if (square) toggleSquare(square[0], square[1]);
  });
  board.addEventListener("keydown", (e) => {
    const [r, c] = state.play.cursor;
    const n = state.n;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) {
      e.preventDefault();
      state.play.cursor = [Math.max(0, Math.min(n - 1, r + moves[e.key][0])), Math.max(0, Math.min(n - 1, c + moves[e.key][1]))];
      renderPlay(false);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      toggleSquare(r, c);
    }
  });
  $("play-clear").addEventListener("click", resetPlay);
  $("play-complete").addEventListener("click", () => {
    if (!state.play.first) return;
    state.play.rows = state.play.first.slice();
    renderPlay(true);
  });
  $("watch-play").addEventListener("click", () => {
    const w = state.watch;
    if (w.ended && w.queue.length === 0) resetWatch();
    state.watch.playing = !state.watch.playing;
    renderWatch();
    if (state.watch.playing) watchLoop();
  });
  $("watch-step").addEventListener("click", async () => {
    await watchStep();
    renderWatch();
  });
  $("watch-restart").addEventListener("click", resetWatch);
  $("watch-speed").addEventListener("input", renderWatch);
  $("large-form").addEventListener("submit", (e) => {
    e.preventDefault();
    drawLarge();
  });
}

async function start() {
  wire();
  const sizes = await json("/api/sizes");
  state.sizes = sizes.sizes;
  state.limits = sizes.limits;
  renderSizes();
  const params = new URLSearchParams(location.search);
  const view = params.get("view");
  const n = params.get("n") || "8";
  state.n = 0; // so that setN sees a change
  state.view = VIEWS.includes(view) ? view : "browse";
  setN(n, { keepBrowse: true });
  if (params.has("large")) $("large-n").value = params.get("large");
  const deep = params.has("k") && state.view === "browse";
  showView(state.view, { noLoad: deep });
  if (deep) await browseTo(params.get("k"));
  document.body.dataset.ready = "true";
}

start().catch((e) => {
  document.body.dataset.ready = "error";
  document.querySelector("main").insertAdjacentHTML("afterbegin", `<p class="error" role="alert">Cannot reach the server: ${e.message}</p>`);
});
