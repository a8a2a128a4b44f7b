// site.js: the reference site's filters, sorting and history charts (scripts/results site writes it beside the pages).
//
// The pages hold their tables already; this script only hides rows and columns, reorders rows and draws the
// history chart from data.js.  Every view comes from the address (#family=copy&kind=hardware&sort=-COLUMN), so
// a view can be linked, and the controls only ever change the address.
//
// Every text in data.js and the pages came from run files, which anyone can write: the script puts text into the
// page only as text (textContent, text nodes, attributes), never as markup.  A page that cannot be drawn says so,
// with the reason, instead of staying blank.
"use strict";

// Says on the page why it could not be drawn (what failed, in words), above whatever it holds.
function failed(error) {
  let note = document.getElementById("failure");
  if (!note) {
    note = document.createElement("p");
    note.id = "failure";
    note.setAttribute("role", "alert");
    document.querySelector("main").prepend(note);
  }
  note.textContent = `This page could not be drawn: ${(error && error.message) || error}. ` +
    "The tables of the other pages are not affected.";
}

// fn(), its failure said on the page.
function guarded(fn) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (error) {
      failed(error);
      return undefined;
    }
  };
}

// The address's keys: each a filter (a comma-separated value matches any of its parts), plus sort.
const ROW_KEYS = ["family", "width", "strategy"];
const COLUMN_KEYS = ["machine", "target", "arch", "kind"];

function params() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

function anyOf(value, wanted) {
  return !wanted || wanted.split(",").some((w) => w === value);
}

// --- the reference table (index.html) ---------------------------------------------------------------------------

function applyTable(table) {
  const p = params();
  const heads = [...table.tHead.querySelectorAll("th.col")];
  const shownColumns = new Set();
  for (const th of heads) {
    const on = COLUMN_KEYS.every((k) => anyOf(th.dataset[k], p.get(k)));
    th.hidden = !on;
    if (on) shownColumns.add(th.dataset.col);
  }
  const name = (p.get("filter") || "").toLowerCase();
  const body = table.tBodies[0];
  const rows = [...body.rows].filter((tr) => !tr.classList.contains("section"));
  const sections = new Map();
  let shown = 0;
  for (const tr of rows) {
    let figures = 0;
    for (const td of tr.querySelectorAll("td")) {
      td.hidden = !shownColumns.has(td.dataset.col);
      if (!td.hidden && td.classList.contains("timed")) figures++;
    }
    const on = figures > 0 && tr.dataset.name.toLowerCase().includes(name) &&
      ROW_KEYS.every((k) => anyOf(tr.dataset[k], p.get(k)));
    tr.hidden = !on;
    if (on) {
      shown++;
      sections.set(tr.dataset.section, true);
    }
  }
  // A column without a figure in any row left (the TCG guests' under barrier/) goes too.
  const used = new Set();
  for (const tr of rows) {
    if (tr.hidden) continue;
    for (const td of tr.querySelectorAll("td.timed")) {
      if (!td.hidden) used.add(td.dataset.col);
    }
  }
  for (const th of heads) th.hidden = !used.has(th.dataset.col);
  for (const td of body.querySelectorAll("td")) td.hidden = !used.has(td.dataset.col);
  const sort = p.get("sort") || "";
  sortRows(body, rows, sort);
  for (const tr of body.querySelectorAll("tr.section")) {
    tr.hidden = Boolean(sort) || !sections.has(tr.dataset.section);
    tr.cells[0].colSpan = used.size + 1;
  }
  for (const button of table.querySelectorAll("button.sort")) {
    const key = button.dataset.sort;
    button.classList.toggle("active", sort === key || sort === "-" + key);
    const mark = sort === key ? "▲" : sort === "-" + key ? "▼" : "⇅";
    button.textContent = button.textContent.replace(/[⇅▲▼]$/, mark);
  }
  document.getElementById("nothing").hidden = shown > 0;
  document.getElementById("shown").textContent =
    `${shown} of ${rows.length} benchmarks, ${used.size} of ${heads.length} columns`;
  const form = document.getElementById("filters");
  for (const field of form.elements) {
    if (field.name) field.value = p.get(field.name) || "";
  }
}

// Rows in the table's own order (sections, then the runs' order), or by one column's figure, those without last.
function sortRows(body, rows, sort) {
  const down = sort.startsWith("-");
  const key = sort.replace(/^-/, "");
  const figure = (tr) => {
    const td = tr.querySelector(`td[data-col="${CSS.escape(key)}"]`);
    return td && td.dataset.v !== undefined ? Number(td.dataset.v) : null;
  };
  let order = rows.map((tr, i) => [tr, i]);
  if (key === "name") {
    order.sort((a, b) => a[0].dataset.name.localeCompare(b[0].dataset.name) * (down ? -1 : 1));
  } else if (key) {
    order = order.map(([tr, i]) => [tr, i, figure(tr)]);
    order.sort((a, b) => (a[2] === null) - (b[2] === null) || (down ? b[2] - a[2] : a[2] - b[2]) || a[1] - b[1]);
  }
  if (!key) {
    order = [...body.rows].map((tr, i) => [tr, Number(tr.dataset.i ?? i)]).sort((a, b) => a[1] - b[1]);
  }
  for (const [tr] of order) body.appendChild(tr);
}

// Typing replaces the address rather than adding a step to the browser's history for every key.
function setParam(key, value, typing) {
  const p = params();
  if (value) p.set(key, value);
  else p.delete(key);
  const hash = "#" + p.toString().replace(/%2F/g, "/").replace(/%2C/g, ",");
  if (!typing) {
    location.hash = hash;
  } else {
    history.replaceState(null, "", hash);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  }
}

function startTable() {
  const table = document.getElementById("reference");
  [...table.tBodies[0].rows].forEach((tr, i) => { tr.dataset.i = i; });
  const form = document.getElementById("filters");
  form.addEventListener("change", (ev) => {
    if (ev.target.name !== "filter") setParam(ev.target.name, ev.target.value);
  });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  form.elements.filter.addEventListener("input", (ev) => setParam("filter", ev.target.value, true));
  document.getElementById("clear").addEventListener("click", (ev) => { ev.preventDefault(); location.hash = ""; });
  table.tHead.addEventListener("click", (ev) => {
    const button = ev.target.closest("button.sort");
    if (!button) return;
    const now = params().get("sort");
    const key = button.dataset.sort;
    setParam("sort", now === key ? "-" + key : now === "-" + key ? "" : key);
  });
  window.addEventListener("hashchange", guarded(() => applyTable(table)));
  applyTable(table);
}

// --- a machine's runs (runs.html) --------------------------------------------------------------------------------

function applyRuns() {
  const machine = params().get("machine");
  for (const s of document.querySelectorAll("section.machine")) {
    s.hidden = !anyOf(s.dataset.machine, machine);
  }
}

// --- a cell's history (history.html) -----------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Round axis steps: 1, 2 or 5 times a power of ten, about `count` of them up to `top` (a finite figure above 0).
function ticks(top, count) {
  if (!(Number.isFinite(top) && top > 0)) throw new Error(`a figure the chart cannot scale to (${top})`);
  const raw = top / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v <= top * 1.0001; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

// What the page says instead of a chart: the address names no cell of this site, or data.js is missing.
function noHistory(text) {
  const what = document.getElementById("what");
  what.textContent = text + " ";
  what.append(Object.assign(document.createElement("a"), { href: "index.html", textContent: "The reference table." }));
}

function drawHistory() {
  const site = window.REGBENCH_SITE;
  if (!site) {
    noHistory("This page draws a cell's history from data.js, which did not load (copy the whole site folder).");
    return;
  }
  const p = params();
  const col = site.columns.find((c) => c.id === p.get("col"));
  const bench = p.get("bench");
  if (!p.get("col") || !bench) return;      // no cell asked for: the page says how to pick one
  if (!col) {
    noHistory(`This site has no column "${p.get("col")}" (the address may come from another site, or an older one).`);
    return;
  }
  const points = (site.history[col.id] || {})[bench];
  if (!points) {
    noHistory(`This site has no history of "${bench}" in the column ${col.label} · ${col.target}.`);
    return;
  }
  const unit = site.units[bench] || "";
  const emulation = col.emulation ? ` (${col.emulation} emulation)` : "";
  document.title = `${bench} on ${col.label} · ${col.target}`;
  document.querySelector("h1").textContent = bench;
  document.getElementById("what").replaceChildren();
  document.getElementById("what").append(
    `${col.label} · ${col.target}${emulation}, ${unit}: ${points.length} run${points.length > 1 ? "s" : ""}. `,
    Object.assign(document.createElement("a"), {
      href: `index.html#filter=${encodeURIComponent(bench)}`, textContent: "This benchmark on every machine." }));

  const W = 760, H = 340, L = 70, R = 50, T = 20, B = 60;
  const figures = points.filter((q) => q[1] !== null);
  const top = Math.max(...figures.map((q) => Math.max(q[1], q[3] ?? q[1])), 0) * 1.1 || 1;
  const dates = points.map((q) => Date.parse(site.runs[q[0]].date || "") || 0);
  const spread = Math.max(...dates) - Math.min(...dates);
  const x = (i) => points.length === 1 ? L + (W - L - R) / 2
    : L + (W - L - R) * (spread > 0 ? (dates[i] - Math.min(...dates)) / spread : i / (points.length - 1));
  const y = (v) => T + (H - T - B) * (1 - v / top);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
    "aria-label": `${bench}: ${unit} by run` });
  for (const v of ticks(top, 5)) {
    svg.append(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(el("text", { x: L - 8, y: y(v) + 4, class: "tick", "text-anchor": "end" }, String(v)));
  }
  svg.append(el("text", { x: 14, y: T + (H - T - B) / 2, class: "axis", "text-anchor": "middle",
    transform: `rotate(-90 14 ${T + (H - T - B) / 2})` }, unit.replace(/ \(.*$/, "").replace(/,.*$/, "")));
  const line = points.map((q, i) => q[1] !== null && q[6] ? `${x(i)},${y(q[1])}` : null).filter(Boolean);
  if (line.length > 1) svg.append(el("polyline", { points: line.join(" "), class: "trend" }));
  // Dates label the runs; their times too where two runs share a day.
  const days = points.map((q) => (site.runs[q[0]].date || "undated").slice(0, 10));
  const when = (q, i) => days.indexOf(days[i]) !== days.lastIndexOf(days[i]) && site.runs[q[0]].date
    ? site.runs[q[0]].date.slice(0, 16).replace("T", " ") : days[i];
  points.forEach((q, i) => {
    const run = site.runs[q[0]];
    svg.append(el("text", { x: x(i), y: H - B + 18, class: "tick", "text-anchor": "middle" }, when(q, i)));
    if (q[1] === null) {
      svg.append(el("text", { x: x(i), y: y(0) - 6, class: "state", "text-anchor": "middle" }, q[4]));
      return;
    }
    if (q[2] !== null && q[3] !== null) {
      svg.append(el("line", { x1: x(i), x2: x(i), y1: y(q[2]), y2: y(q[3]), class: "spread" }));
    }
    const dot = el("circle", { cx: x(i), cy: y(q[1]), r: 5, class: q[6] ? "point" : "point hollow" });
    dot.append(el("title", {}, `${run.date || "undated"} · run ${run.id.slice(0, 12)}: ${q[5]}`));
    svg.append(dot);
  });
  document.getElementById("chart").append(svg);

  const table = document.getElementById("points");
  const head = ["date", "run", "kernel", "regbench", unit.replace(/ \(.*$/, "")];
  const headRow = table.createTHead().insertRow();
  for (const h of head) headRow.appendChild(document.createElement("th")).textContent = h;
  const body = table.createTBody();
  for (const q of points) {
    const run = site.runs[q[0]];
    const tr = body.insertRow();
    for (const text of [run.date || "undated", run.id.slice(0, 12), run.kernel || "?",
      `${run.regbench_version || "?"} ${run.regbench_build_type || ""}`, q[5]]) {
      tr.insertCell().textContent = text;
    }
  }
  table.hidden = false;
}

document.addEventListener("DOMContentLoaded", guarded(() => {
  const page = document.body.dataset.page;
  if (page === "index") startTable();
  if (page === "runs") {
    window.addEventListener("hashchange", guarded(applyRuns));
    applyRuns();
  }
  if (page === "history") drawHistory();
}));
