// The nqueens page: five views over the JSON API of `nqueens serve`. Plain JavaScript, no
// build step. Every board carries data-n and data-columns (space-separated 0-based columns,
// row by row; "-" for a row without a queen), the browse view data-k and data-state.
//
// Work that can take long (a live count, the completions of a large placement, solution k
// far into a large board) shows that it works at once, says how long it has run, and has a
// Cancel button; the completions of a large placement are counted only when asked. Every
// address the page writes in the address bar opens the same view again.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// One id per tab: the server runs at most one heavy job of each kind per client.
const CLIENT = (crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2)).slice(0, 40);
const VIEWS = ["sizes", "browse", "play", "watch", "large"];
const DEFAULT_N = 8;
const MAX_N = 32;
// A look-up still running after this long shows the working state (a faster one never
// flashes it).
const WORKING_DELAY_MS = 120;

const state = {
  n: DEFAULT_N,
  view: "browse",
  sizes: null, // from /api/sizes
  limits: null,
  browse: null, // the last solution shown
  browseK: null, // the k the browse view stands for: the shown solution's, or a failed look-up's
  browseMessage: null, // what the browse view says instead of a board
  browseRequest: null, // the look-up on its way
  play: { rows: [], cursor: [0, 0], first: null, controller: null },
  count: { controller: null },
  watch: null,
};

const fmt = (s) => (s === null || s === undefined ? "unknown" : BigInt(s).toLocaleString("en-US"));
const plural = (count, word) => `${fmt(count)} ${word}${String(count) === "1" ? "" : "s"}`;
const columnsText = (rows) => rows.map((c) => (c === null || c === undefined ? "-" : String(c))).join(" ");
const seconds = (s) => (s === null || s === undefined ? "?" : s < 60 ? `${s.toFixed(1)} s` : s < 3600 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${(s / 3600).toFixed(1)} h`);

// Shows `text` in `element`, styled and announced as an error when `error` is set.
function say(element, text, error = false) {
  element.textContent = text;
  element.classList.toggle("error", error);
  if (error) element.setAttribute("role", "alert");
  else element.removeAttribute("role");
}

async function api(path, options = {}) {
  const headers = Object.assign({ "x-client": CLIENT }, options.headers || {});
  return fetch(path, Object.assign({}, options, { headers }));
}

async function json(path, options) {
  const response = await api(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

// Asks the server to stop this tab's heavy jobs of these kinds (closing the connection stops
// them too; this says so at once).
function cancelJobs(...kinds) {
  for (const kind of kinds) api(`/api/cancel?kind=${kind}`, { method: "POST" }).catch(() => {});
}

// Splits a stream's text into JSON Lines: push(chunk) returns the objects completed.
function lineSplitter() {
  const decoder = new TextDecoder();
  let buffer = "";
  return (chunk) => {
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop();
    return lines.filter((text) => text.trim()).map((text) => JSON.parse(text));
  };
}

// Reads a JSON Lines response, calling onLine for each object; resolves at the end.
async function readLines(response, onLine) {
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.error || `HTTP ${response.status}`);
  }
  const reader = response.body.getReader();
  const split = lineSplitter();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    split(value).forEach(onLine);
  }
}

// A clock for a working state: calls show(seconds elapsed) now and every quarter second
// until stopped.
function ticker(show) {
  const started = performance.now();
  const tick = () => show((performance.now() - started) / 1000);
  tick();
  const timer = setInterval(tick, 250);
  return () => clearInterval(timer);
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

// ---- Size picker, tabs, the address and notices ---------------------------------------

// Reads a board size as given in a link or the size field: the size shown, and what to say
// when it is not the one asked for.
function readN(text) {
  const given = String(text).trim();
  if (!/^\d+$/.test(given)) {
    return { n: DEFAULT_N, note: `“${given}” is not a board size (a whole number from 1 to ${MAX_N}): showing n = ${DEFAULT_N}.` };
  }
  const n = Number(given);
  if (n < 1) return { n: 1, note: `n = ${given} is too small: boards go from 1 to ${MAX_N}. Showing n = 1.` };
  if (n > MAX_N) return { n: MAX_N, note: `n = ${given} is too large: boards go from 1 to ${MAX_N}. Showing n = ${MAX_N}.` };
  return { n, note: null };
}

// The notice under the header: what the page changed in what it was asked (null clears it).
function notice(text) {
  const p = $("notice");
  p.hidden = !text;
  p.textContent = text || "";
}

function setN(value, options = {}) {
  const { n, note } = readN(value);
  if (!options.keepNotice) notice(note);
  const changed = n !== state.n;
  state.n = n;
  $("n").value = String(n);
  $("n-down").disabled = n <= 1;
  $("n-up").disabled = n >= MAX_N;
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
    resetPlay(options.queens);
    resetWatch();
    cancelBrowse(false);
    state.browse = null;
    state.browseK = null;
    state.browseMessage = null;
    if (state.view === "browse" && !options.keepBrowse) browseTo(0);
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
  if (view === "browse" && !options.noLoad && !state.browseRequest && (!state.browse || state.browse.n !== state.n) && state.browseMessage === null) browseTo(0);
  if (view === "play") renderPlay(true);
  if (view === "watch") renderWatch();
  if (view === "large" && !$("large-board").dataset.n) drawLarge();
  updateUrl();
}

// Writes the view into the address bar, so that reopening the address shows it again: the
// size, the view, and what the view shows (solution k and the unique-only mode, the queens
// placed, the large board's size).
function updateUrl() {
  const params = new URLSearchParams({ n: String(state.n) });
  if (state.view === "browse") {
    if (state.browseK !== null) params.set("k", state.browseK);
    if ($("browse-unique").checked) params.set("unique", "1");
  } else {
    params.set("view", state.view);
  }
  if (state.view === "play" && state.play.rows.some((c) => c !== null)) {
    params.set("queens", state.play.rows.map((c) => (c === null ? "-" : String(c))).join("."));
  }
  if (state.view === "large") params.set("large", $("large-n").value);
  history.replaceState(null, "", `/?${params}`);
}

// The queens of a link (`queens=0.4.-.-`) for an n x n board, or a note saying why not.
function readQueens(text, n) {
  const rows = text.split(".").map((c) => (c === "-" ? null : /^\d+$/.test(c) ? Number(c) : NaN));
  if (rows.length !== n || rows.some((c) => Number.isNaN(c) || c >= n)) {
    return { rows: null, note: `The link's queens “${text}” do not fit the ${n} × ${n} board: the board is empty.` };
  }
  return { rows, note: null };
}

// ---- Counts ---------------------------------------------------------------------------

function renderSizes() {
  const body = $("sizes-table").querySelector("tbody");
  body.innerHTML = "";
  for (const size of state.sizes) {
    const tr = document.createElement("tr");
    tr.dataset.n = String(size.n);
    tr.tabIndex = 0;
    // A figure too wide for a narrow screen breaks after one of its commas.
    const cell = (count) => (count === null ? "—" : fmt(count).replace(/,/g, ",<wbr>"));
    tr.innerHTML = `<td>${size.n}</td><td>${cell(size.total)}</td><td>${cell(size.unique)}</td>`;
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

const liveLimit = () => state.limits.live_count;

function renderCountIdle() {
  const allowed = state.n <= liveLimit();
  renderCountButtons();
  if (!state.count.controller) {
    $("count-progress").value = 0;
    say($("count-status"), allowed ? "" : `Live counts go up to n = ${liveLimit()}: n = ${state.n} would take hours to days here; the table gives the known counts up to n = 27.`);
    $("count-result").textContent = "";
  }
}

function renderCountButtons() {
  $("count-start").disabled = state.n > liveLimit() || state.count.controller !== null;
  $("count-cancel").disabled = state.count.controller === null;
}

async function startCount() {
  cancelCount();
  const n = state.n;
  const controller = new AbortController();
  state.count.controller = controller;
  renderCountButtons();
  $("count-result").textContent = "";
  say($("count-status"), "Starting…");
  $("count-progress").value = 0;
  try {
    const response = await api(`/api/count?n=${n}`, { signal: controller.signal });
    await readLines(response, (line) => {
      if (line.event === "progress") {
        $("count-progress").value = line.percent;
        const tasks = line.tasks === null ? "preparing the tasks" : `${line.done}/${line.tasks} tasks`;
        say($("count-status"), `${line.percent.toFixed(1)}% · ${tasks} · ${seconds(line.elapsed_s)} elapsed · ETA ${seconds(line.eta_s)}`);
      } else if (line.event === "done") {
        $("count-progress").value = 100;
        say($("count-status"), `Done in ${seconds(line.seconds)} with the ${line.engine} engine, ${plural(line.tasks, "task")} on ${plural(line.threads, "thread")}.`);
        const agrees = line.known === null ? "no count is known to compare" : line.agrees ? "agrees with the known count" : `DIFFERS from the known count ${fmt(line.known)}`;
        say($("count-result"), `n = ${line.n}: ${plural(line.solutions, "solution")} (${agrees}).`, line.agrees === false);
      } else if (line.event === "cancelled") {
        say($("count-status"), line.reason === "replaced" ? "Stopped: this page started another count." : "Cancelled.");
      } else if (line.event === "error") {
        say($("count-status"), `Error: ${line.error}`, true);
      }
    });
  } catch (e) {
    if (e.name !== "AbortError") say($("count-status"), `Error: ${e.message}`, true);
  } finally {
    if (state.count.controller === controller) {
      state.count.controller = null;
      renderCountButtons();
    }
  }
}

function cancelCount() {
  const controller = state.count.controller;
  if (!controller) return;
  state.count.controller = null;
  controller.abort();
  cancelJobs("count");
  say($("count-status"), "Cancelled.");
  renderCountButtons();
}

// ---- Browse ---------------------------------------------------------------------------

// The browse view is in one of four states (#browse data-state): "shown" (a solution),
// "working" (a look-up on its way for more than a moment: the old board is cleared, the
// time runs, Cancel stops it), "message" (nothing to show: a link past the last solution, a
// board without solutions, a look-up stopped), or "" before the first look-up.

// Sends a look-up (`path`), described by `what` while it works. `k` is the number asked for
// by a jump (kept in the address even when it fails, so that the address reopens the same
// message), or null for a step from the shown solution (whose failure leaves it shown).
async function browseRequest(path, what, k) {
  cancelBrowse(false);
  const controller = new AbortController();
  const request = { controller, what, working: false, stop: null };
  state.browseRequest = request;
  say($("browse-note"), "");
  const timer = setTimeout(() => {
    if (state.browseRequest !== request) return;
    request.working = true;
    renderBrowse();
    request.stop = ticker((s) => ($("browse-working-text").textContent = `Working… ${seconds(s)}`));
  }, WORKING_DELAY_MS);
  let solution = null;
  let failure = null;
  try {
    solution = await json(path, { signal: controller.signal });
  } catch (e) {
    failure = e;
  }
  clearTimeout(timer);
  if (state.browseRequest !== request) return; // cancelled, or replaced by a newer look-up
  endBrowseRequest(request);
  if (failure && k === null) {
    say($("browse-note"), failure.message, true);
  } else if (failure) {
    state.browse = null;
    state.browseK = k;
    state.browseMessage = { text: failure.message, error: true };
  } else if (solution.columns === null) {
    say($("browse-note"), "No more solutions that way.");
  } else if (solution.n === state.n) {
    state.browse = solution;
    state.browseK = solution.k;
    state.browseMessage = null;
  }
  renderBrowse();
  updateUrl();
}

function endBrowseRequest(request) {
  if (request.stop) request.stop();
  state.browseRequest = null;
}

// Stops the look-up on its way, if any; `told` says so on the page (the user's Cancel).
function cancelBrowse(told) {
  const request = state.browseRequest;
  if (!request) return;
  endBrowseRequest(request);
  request.controller.abort();
  cancelJobs("solution", "index");
  if (!told) return;
  if (state.browse) say($("browse-note"), "Stopped: the board shown is the one before.");
  else state.browseMessage = { text: "Stopped before the solution was found.", error: false };
  renderBrowse();
  updateUrl();
}

function browseTo(k) {
  const n = state.n;
  const size = state.sizes[n - 1];
  if (size.total === "0") {
    cancelBrowse(false);
    state.browse = null;
    state.browseK = null;
    state.browseMessage = { text: `n = ${n} has no solutions: no queens can be placed without attacks.`, error: false };
    renderBrowse();
    updateUrl();
    return Promise.resolve();
  }
  const text = String(k);
  let what = `Looking up k = ${text}…`;
  if (/^\d+$/.test(text)) {
    what = `Finding solution ${fmt(BigInt(text) + 1n)} of n = ${n} (k = ${fmt(text)})…`;
    if (n <= state.limits.index && n >= 15) what += ` The first look-up on n = ${n} indexes its ${fmt(size.total)} solutions.`;
  }
  return browseRequest(`/api/solution?n=${n}&k=${encodeURIComponent(text)}`, what, text);
}

function browseStep(direction) {
  const b = state.browse;
  if (!b) return browseTo(0);
  const params = new URLSearchParams({ n: String(b.n), from: b.columns.join(" "), direction });
  if ($("browse-unique").checked) params.set("unique", "1");
  if (b.k !== null) params.set("k", b.k);
  const what = `Finding the ${direction} ${$("browse-unique").checked ? "class representative" : "solution"}…`;
  return browseRequest(`/api/step?${params}`, what, null);
}

function browseTitle(b) {
  if (b.k === null) return `A solution of n = ${b.n}`;
  const number = fmt(BigInt(b.k) + 1n);
  const of = b.total === null ? "" : ` of ${fmt(b.total)}`;
  return `Solution ${number}${of}, n = ${b.n} (k = ${fmt(b.k)})`;
}

function renderBrowse() {
  const b = state.browse;
  const request = state.browseRequest;
  const message = state.browseMessage;
  const mode = request && request.working ? "working" : message ? "message" : b ? "shown" : "";
  const view = $("browse");
  const board = $("browse-board");
  view.dataset.state = mode;
  view.dataset.k = mode === "shown" && b.k !== null ? b.k : "";
  $("browse-board-wrap").hidden = mode === "message" || mode === "";
  $("browse-working").hidden = mode !== "working";
  $("browse-message").hidden = mode !== "message";
  $("browse-columns-line").hidden = mode !== "shown";
  $("browse-class").hidden = mode !== "shown";
  const last = mode === "shown" && b.k !== null && b.total !== null && BigInt(b.k) + 1n === BigInt(b.total);
  $("browse-first").disabled = mode === "working" || state.sizes[state.n - 1].total === "0";
  $("browse-prev").disabled = mode !== "shown" || b.k === "0";
  $("browse-next").disabled = mode !== "shown" || last;
  $("browse-jump").disabled = mode === "working";
  board.classList.toggle("working", mode === "working");
  if (mode === "working") {
    // The board being left is not the answer: it is cleared while the look-up works.
    drawBoard(board, state.n, new Array(state.n).fill(null));
    $("browse-title").textContent = request.what;
    return;
  }
  if (mode === "message") {
    $("browse-title").textContent = "";
    say($("browse-message"), message.text, message.error);
    return;
  }
  if (mode === "") return;
  drawBoard(board, b.n, b.columns);
  $("browse-title").textContent = browseTitle(b);
  $("browse-columns").textContent = b.columns.join(" ");
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
    // Above the indexed sizes the images' numbers are unknown: they are shown, not linked.
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

// #play-count's data-state: "first" (looking for a first completion), "counting", "large"
// (a first completion found; counting them all waits for the button), "done", "cancelled",
// "error"; data-completions once counted.

function resetPlay(rows) {
  stopPlay();
  state.play = { rows: rows || new Array(state.n).fill(null), cursor: [0, 0], first: null, controller: null, stop: null };
  if (state.view === "play") renderPlay(true);
}

// Ends the completions request on its way, if any, without a word.
function stopPlay() {
  const play = state.play;
  if (play.stop) play.stop();
  if (play.controller) play.controller.abort();
  play.stop = null;
  play.controller = null;
  $("play-cancel").hidden = true;
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
  if (ask) {
    askCompletions(false);
    updateUrl();
  }
}

// Asks for the first completion of the placement and, when it has few empty rows or
// `count` is set (the button), for their number.
async function askCompletions(count) {
  stopPlay();
  const play = state.play;
  const controller = new AbortController();
  play.controller = controller;
  // The button counts the same placement: its first completion stays known meanwhile.
  if (!count) {
    play.first = null;
    $("play-complete").disabled = true;
  }
  const rows = play.rows.slice();
  const queens = rows.filter((c) => c !== null).length;
  const free = state.n - queens;
  const quick = free <= state.limits.quick_completions;
  const counting = count || quick;
  const status = $("play-count");
  const detail = $("play-detail");
  delete status.dataset.completions;
  status.dataset.state = counting ? "counting" : "first";
  $("play-count-start").hidden = true;
  say(status, counting ? "Counting the completions…" : "Looking for a completion…");
  detail.textContent = "";
  // Long work shows its time and can be stopped; a quick count is over before it shows.
  if (!quick) {
    $("play-cancel").hidden = false;
    play.stop = ticker((s) => (detail.textContent = `Working for ${seconds(s)}… (placing a queen starts over)`));
  }
  const settle = () => {
    if (play.stop) play.stop();
    play.stop = null;
    $("play-cancel").hidden = true;
  };
  try {
    const response = await api("/api/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n: state.n, rows, count: counting }),
      signal: controller.signal,
    });
    await readLines(response, (line) => {
      if (play.controller !== controller) return;
      if (line.event === "first") {
        play.first = line.first;
        $("play-complete").disabled = line.first === null || queens === state.n;
        if (line.first === null) {
          settle();
          status.dataset.state = "done";
          status.dataset.completions = "0";
          say(status, "No possible configurations");
          detail.textContent = line.conflict
            ? `The queens of rows ${line.conflict[0] + 1} and ${line.conflict[1] + 1} attack each other.`
            : "No solution holds these queens.";
        } else if (!counting) {
          settle();
          status.dataset.state = "large";
          say(status, "These queens can be completed: Complete it shows how.");
          detail.textContent = `With ${plural(free, "row")} left empty, counting every completion can take long: it starts when asked.`;
          $("play-count-start").hidden = false;
        }
      } else if (line.event === "completions") {
        settle();
        status.dataset.state = "done";
        status.dataset.completions = line.completions;
        if (line.completions === "0") {
          say(status, "No possible configurations");
        } else if (queens === state.n) {
          say(status, "Solved! Every row holds a queen and none attacks another.");
          detail.textContent = "";
        } else {
          say(status, `${plural(line.completions, "solution")} complete${line.completions === "1" ? "s" : ""} this placement`);
          detail.textContent = `Counted in ${seconds(line.seconds)}.`;
        }
      } else if (line.event === "cancelled") {
        settle();
        status.dataset.state = "cancelled";
        say(status, "Count cancelled.");
      } else if (line.event === "error") {
        settle();
        status.dataset.state = "error";
        say(status, `Error: ${line.error}`, true);
      }
    });
  } catch (e) {
    if (e.name !== "AbortError" && play.controller === controller) {
      status.dataset.state = "error";
      say(status, `Error: ${e.message}`, true);
    }
  } finally {
    if (play.controller === controller) {
      settle();
      play.controller = null;
    }
  }
}

// The Cancel button: stops the search or the count, and offers the count again.
function cancelPlay() {
  stopPlay();
  cancelJobs("completions");
  const status = $("play-count");
  status.dataset.state = "cancelled";
  say(status, "Stopped.");
  $("play-detail").textContent = "Count the completions starts it again.";
  $("play-count-start").hidden = false;
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
  state.watch = { n: state.n, reader: null, split: null, queue: [], ended: false, rows: new Array(state.n).fill(null), steps: 0, solutions: 0, playing: false, timer: null, mark: null, solved: false, last: "" };
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
      say($("watch-note"), body.error || "The search cannot be shown.", true);
      return;
    }
    w.reader = response.body.getReader();
    w.split = lineSplitter();
  }
  // Reads only what the animation needs next: the server produces the trace as it is read.
  while (w.queue.length < 256 && !w.ended) {
    const { value, done } = await w.reader.read();
    if (state.watch !== w) return;
    if (done) {
      w.ended = true;
      break;
    }
    w.queue.push(...w.split(value));
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
    w.last = `The search is over: ${plural(w.solutions, "solution")} in ${plural(w.steps, "step")}.`;
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
  const limit = state.limits.trace;
  const allowed = state.n <= limit;
  ["watch-play", "watch-step", "watch-restart"].forEach((id) => ($(id).disabled = !allowed));
  say($("watch-note"), allowed ? "" : `The search is animated for boards up to n = ${limit}.`);
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
  const text = $("large-n").value.trim();
  const canvas = $("large-board");
  updateUrl();
  try {
    const result = await json(`/api/find?n=${encodeURIComponent(text)}`);
    canvas.dataset.n = String(result.n);
    canvas.dataset.columns = result.columns ? result.columns.join(" ") : "";
    // A board without a solution (n = 2, 3) has nothing to draw.
    $("large-wrap").hidden = !result.columns;
    say($("large-check"), `n = ${result.n}: ${result.check}`, !result.valid && result.columns !== null);
    if (!result.columns) return;
    const n = result.n;
    const ctx = canvas.getContext("2d");
    const size = canvas.width;
    const cell = size / n;
    ctx.fillStyle = "#f0d9b5";
    ctx.fillRect(0, 0, size, size);
    if (n <= 200) {
      ctx.fillStyle = "#b58863";
      for (let r = 0; r < n; r++) for (let c = (r + 1) % 2; c < n; c += 2) ctx.fillRect(c * cell, r * cell, cell, cell);
    }
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
  } catch (e) {
    // No board for a size that is not one: the error alone, not over an empty canvas.
    canvas.dataset.n = "";
    canvas.dataset.columns = "";
    $("large-wrap").hidden = true;
    say($("large-check"), e.message, true);
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
  $("browse-cancel").addEventListener("click", () => cancelBrowse(true));
  $("browse-unique").addEventListener("change", updateUrl);
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
  $("play-clear").addEventListener("click", () => {
    resetPlay();
    updateUrl();
  });
  $("play-count-start").addEventListener("click", () => askCompletions(true));
  $("play-cancel").addEventListener("click", cancelPlay);
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

// Opens the view the address names. What the address asks and the page cannot show (a size
// out of range, a view that does not exist, queens that do not fit) is said in the notice;
// a solution number past the last is said in the browse view itself.
async function start() {
  wire();
  const sizes = await json("/api/sizes");
  state.sizes = sizes.sizes;
  state.limits = sizes.limits;
  renderSizes();
  const params = new URLSearchParams(location.search);
  const notes = [];
  const asked = params.get("view");
  const view = VIEWS.includes(asked) ? asked : "browse";
  if (asked !== null && view !== asked) notes.push(`There is no view “${asked}”: showing Browse.`);
  const { n, note } = readN(params.get("n") ?? String(DEFAULT_N));
  if (note) notes.push(note);
  let queens = null;
  if (params.has("queens")) {
    const read = readQueens(params.get("queens"), n);
    if (read.note) notes.push(read.note);
    queens = read.rows;
  }
  if (params.has("large")) $("large-n").value = params.get("large");
  $("browse-unique").checked = params.get("unique") === "1";
  // The size first, in the default view (which loads nothing yet), then the view asked for,
  // which loads what it shows once.
  state.n = 0; // so that setN sees a change
  setN(String(n), { keepBrowse: true, keepNotice: true, queens });
  notice(notes.join(" ") || null);
  const deep = params.has("k") && view === "browse";
  showView(view, { noLoad: deep });
  if (deep) await browseTo(params.get("k"));
  document.body.dataset.ready = "true";
}

start().catch((e) => {
  document.body.dataset.ready = "error";
  document.querySelector("main").insertAdjacentHTML("afterbegin", `<p class="error" role="alert">Cannot reach the server: ${e.message}</p>`);
});
