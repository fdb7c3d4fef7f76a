// rwshim's dashboard page: three views over the snapshot the server pushes on /api/events
// (rwshim/dashboard/app.py): the relation graph (#/), a job's fragment graph (#/job/<id>)
// and the blocked set (#/blocked).  Layout is dagre's (static/vendor/dagre.min.js); this file
// only measures the boxes it draws, asks dagre where they go, and draws the edges it routed.
"use strict";

const STATUS_LABEL = { CREATING: "Creating", CREATED: "Created", INITIAL: "Initial" };
const KIND_LABEL = {
  table: "TABLE", "materialized view": "MV", index: "INDEX", sink: "SINK",
  source: "SOURCE", view: "VIEW", subscription: "SUBSCRIPTION",
};
const ALTERS = [
  ["parallelism", "SET PARALLELISM"],
  ["backfill_parallelism", "SET BACKFILL_PARALLELISM"],
];

const state = { snapshot: null, source: null, route: null };

// ----------------------------------------------------------------------------- helpers

function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => (
    { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function el(html) {
  const t = document.createElement("template");
  t.innerHTML = html.trim();
  return t.content.firstElementChild;
}

function route() {
  const m = location.hash.match(/^#\/job\/(\d+)/);
  if (m) return { view: "job", job: Number(m[1]) };
  if (location.hash.startsWith("#/blocked")) return { view: "blocked" };
  return { view: "relations" };
}

function statusOf(job) {
  return job ? job.status : "NONE";
}

function progressBar(job) {
  if (!job || job.status === "CREATED") return "";
  const f = job.fraction ?? 0;
  const held = job.backfill_held ? '<span class="tag warn">held</span>' : "";
  return `<div class="progress" data-fraction="${f}" title="${esc(job.progress)}">
      <div class="bar"><div class="fill" style="width:${(f * 100).toFixed(2)}%"></div></div>
      <div class="progress-text"><span>${esc(job.progress)}</span>${held}</div>
    </div>`;
}

// The creating jobs whose backfill causes a refusal of job `self`'s ALTER.
function causes(refusal, self) {
  if (!refusal.causes.length) return "";
  const links = refusal.causes.map((c) => (c.id === self
    ? "its own backfill" : `<a href="#/job/${c.id}">${esc(c.name)} (#${c.id})</a>`));
  return `<div class="cause">caused by creating ${links.join(", ")}</div>`;
}

function refusalBox(kind, title, refusal, full, self) {
  if (!refusal || !refusal.refused) return "";
  const when = refusal.when === "layout change"
    ? '<span class="when">at the barrier, if the layout changes</span>' : "";
  const body = full
    ? `<pre class="error">${esc(refusal.error)}</pre>`
    : `<div class="message">${esc(refusal.message)}</div>`;
  return `<div class="refusal" data-alter="${kind}" data-when="${esc(refusal.when)}">
      <div class="refusal-title">${esc(title)} refused ${when}</div>${body}${causes(refusal, self)}
    </div>`;
}

async function act(action, body) {
  const resp = await fetch(`/api/control/${action}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!resp.ok) {
    const err = await resp.json().catch(() => ({ error: resp.statusText }));
    alert(err.error);
  }
}

function button(label, action, body, cls = "") {
  return `<button class="btn ${cls}" data-action="${action}" data-body='${esc(JSON.stringify(body))}'>${esc(label)}</button>`;
}

document.addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-action]");
  if (b) act(b.dataset.action, JSON.parse(b.dataset.body));
});

// ------------------------------------------------------------------------- graph drawing

// Draw boxes (already rendered into `canvas`) where dagre puts them, and the edges it routes.
// nodes: [{id, el}], edges: [{from, to, label, cls}]
function layout(canvas, nodes, edges, rankdir) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir, nodesep: 36, ranksep: rankdir === "LR" ? 90 : 70, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    g.setNode(String(n.id), { width: n.el.offsetWidth, height: n.el.offsetHeight });
  }
  edges.forEach((e, i) => {
    const label = e.label ? { width: e.label.length * 7 + 16, height: 20, labelpos: "c" } : {};
    g.setEdge(String(e.from), String(e.to), label, `e${i}`);
  });
  dagre.layout(g);
  const size = g.graph();
  canvas.style.width = `${Math.ceil(size.width)}px`;
  canvas.style.height = `${Math.ceil(size.height)}px`;
  for (const n of nodes) {
    const p = g.node(String(n.id));
    n.el.style.left = `${p.x - p.width / 2}px`;
    n.el.style.top = `${p.y - p.height / 2}px`;
  }
  const svg = canvas.querySelector("svg.edges");
  svg.setAttribute("width", Math.ceil(size.width));
  svg.setAttribute("height", Math.ceil(size.height));
  edges.forEach((e, i) => {
    const pts = g.edge(String(e.from), String(e.to), `e${i}`).points;
    const d = pts.map((p, j) => `${j ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", d);
    path.setAttribute("class", `edge ${e.cls || ""}`);
    path.setAttribute("marker-end", "url(#arrow)");
    svg.appendChild(path);
    if (e.label) {
      const lp = g.edge(String(e.from), String(e.to), `e${i}`);
      const label = el(`<div class="edge-label ${e.cls || ""}" data-from="${e.from}" data-to="${e.to}">${esc(e.label)}</div>`);
      label.style.left = `${lp.x}px`;
      label.style.top = `${lp.y}px`;
      canvas.appendChild(label);
    }
  });
}

function canvas() {
  return el(`<div class="canvas"><svg class="edges" xmlns="http://www.w3.org/2000/svg">
      <defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7"
        markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>
    </svg></div>`);
}

// ------------------------------------------------------------------------------ views

function renderDatabases(ov) {
  const box = document.getElementById("databases");
  const shown = ov.databases.filter((d) => d.barrier_state || ov.databases.length === 1);
  box.innerHTML = shown.map((d) => {
    const when = d.epoch_time_ms ? new Date(d.epoch_time_ms).toISOString().slice(11, 23) : "-";
    const controls = ov.control ? `<div class="db-controls">
        ${d.paused ? button("Resume", "resume", { database: d.name }, "primary")
                   : button("Pause", "pause", { database: d.name })}
        ${button("Tick", "tick", { database: d.name, count: 1 })}</div>` : "";
    return `<div class="db" data-database="${esc(d.name)}" data-paused="${d.paused}">
        <div class="db-name">${esc(d.name)}</div>
        <span class="chip ${d.paused ? "paused" : "running"}">${d.paused ? "paused" : "running"}</span>
        <div class="db-facts">
          <span>epoch <b class="epoch">${d.epoch}</b> <small>${when}</small></span>
          <span>barrier interval <b class="interval">${d.barrier_interval_ms} ms</b></span>
          <span>barriers <b>${d.barrier_count}</b></span>
        </div>${controls}</div>`;
  }).join("");
  const clock = document.getElementById("clock");
  clock.textContent = ov.manual_clock ? "manual clock" : "periodic barriers";
  clock.className = `chip ${ov.manual_clock ? "paused" : ""}`;
  if (ov.control) {
    clock.innerHTML += " " + button(ov.manual_clock ? "auto" : "manual", "clock",
      { manual: !ov.manual_clock }, "small");
  }
}

function relationNode(n, blockedById) {
  const job = n.job;
  const status = statusOf(job);
  const b = blockedById.get(n.id);
  const facts = job ? `<div class="facts">parallelism <b>${esc(job.parallelism)}</b> ·
      <b>${job.actors}</b> actors · ${esc(job.create_type.toLowerCase())}</div>` : "";
  const refusal = b ? refusalBox("parallelism", "SET PARALLELISM", b.parallelism, false, n.id) : "";
  const href = job ? `#/job/${n.id}` : null;
  return el(`<div class="node ${status}" data-id="${n.id}" data-status="${status}"
      data-name="${esc(n.name)}" ${href ? `data-href="${href}"` : ""} title="${esc(n.definition)}">
      <div class="node-head"><span class="kind k-${esc(n.kind.replace(" ", "-"))}">${esc(KIND_LABEL[n.kind] || n.kind)}</span>
        <span class="name">${esc(n.name)}</span><span class="id">#${n.id}</span></div>
      <div class="node-status"><span class="status ${status}">${esc(STATUS_LABEL[status] || "no streaming job")}</span>
        ${job && job.job_type !== "Normal" ? `<span class="tag">${esc(job.job_type)}</span>` : ""}</div>
      ${progressBar(job)}${facts}${refusal}</div>`);
}

function renderRelations(snap, view) {
  const blockedById = new Map(snap.blocked.jobs.map((b) => [b.job_id, b]));
  const byDb = new Map();
  for (const n of snap.relations.nodes) {
    if (!byDb.has(n.database)) byDb.set(n.database, []);
    byDb.get(n.database).push(n);
  }
  if (!byDb.size) {
    view.innerHTML = `<div class="empty">No relations yet. Create a table:
      <code>CREATE TABLE t (v int);</code></div>`;
    return;
  }
  for (const [db, nodes] of byDb) {
    const section = el(`<section class="panel"><h2>Relations in <b>${esc(db)}</b>
      <small>${nodes.length} relation${nodes.length === 1 ? "" : "s"}</small></h2></section>`);
    const c = canvas();
    section.appendChild(c);
    view.appendChild(section);
    const ids = new Set(nodes.map((n) => n.id));
    const drawn = nodes.map((n) => {
      const e = relationNode(n, blockedById);
      c.appendChild(e);
      return { id: n.id, el: e };
    });
    const edges = snap.relations.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
    layout(c, drawn, edges, "LR");
  }
}

function fragmentBox(f, refusal) {
  const flags = f.flags.map((x) => `<span class="flag">${esc(x)}</span>`).join("");
  const limits = [];
  if (f.backfill_rate_limit != null) limits.push(`backfill ${f.backfill_rate_limit} rows/s`);
  if (f.rate_limit != null) limits.push(`${f.rate_limit} rows/s`);
  let backfill = "";
  if (f.backfill) {
    const b = f.backfill;
    const frac = b.done ? 1 : b.total ? Math.min(b.consumed / b.total, 1) : 0;
    backfill = `<div class="backfill">${esc(f.scan_type)} of
        <a href="#/job/${f.scan_relation.id}">${esc(f.scan_relation.name)}</a>
        <div class="progress" data-fraction="${frac}"><div class="bar"><div class="fill"
          style="width:${(frac * 100).toFixed(2)}%"></div></div>
        <div class="progress-text"><span>${b.done ? "done" : `${b.consumed} / ${b.total ?? "?"} rows`}</span></div></div></div>`;
  } else if (f.scan_type) {
    backfill = `<div class="backfill">${esc(f.scan_type)}</div>`;
  }
  const owner = f.external
    ? `<div class="owner"><a href="#/job/${f.job_id}">${esc(f.job_name)} (#${f.job_id})</a></div>` : "";
  return el(`<div class="fragment ${f.external ? "external" : ""}" data-id="${f.id}">
      <div class="node-head"><span class="name">Fragment ${f.id}</span>
        <span class="tag">${esc(f.distribution)}</span></div>${owner}
      <div class="flags">${flags}</div>
      <div class="facts">parallelism <b>${f.actors}</b> actor${f.actors === 1 ? "" : "s"} ·
        ${esc(f.parallelism_policy)} · max ${f.max_parallelism}</div>
      ${limits.length ? `<div class="facts">rate limit <b>${esc(limits.join(", "))}</b></div>` : ""}
      ${backfill}${refusal ? refusalBox("fragment", `ALTER FRAGMENT ${f.id} SET PARALLELISM`, refusal, false, f.job_id) : ""}
    </div>`);
}

function blockedRows(entry, job) {
  const kind = job ? job.statement_kind : "…";
  const name = job ? job.name : entry.name;
  const rows = ALTERS.map(([key, what]) => {
    const r = entry[key];
    return `<tr data-alter="${key}" data-refused="${r.refused}">
        <td><code>ALTER ${esc(kind)} ${esc(name)} ${what} = …</code></td>
        <td>${r.refused ? refusalBox(key, what, r, true, entry.job_id) : '<span class="ok">allowed</span>'}</td></tr>`;
  });
  const refusedFragments = Object.entries(entry.fragments).filter(([, r]) => r.refused);
  const frag = refusedFragments.length
    ? refusedFragments.map(([fid, r]) => refusalBox("fragment", `ALTER FRAGMENT ${fid} SET PARALLELISM`, r, true, entry.job_id)).join("")
    : '<span class="ok">allowed</span>';
  rows.push(`<tr data-alter="fragment" data-refused="${refusedFragments.length > 0}">
      <td><code>ALTER FRAGMENT ${esc(Object.keys(entry.fragments).join(", "))} SET PARALLELISM = …</code></td>
      <td>${frag}</td></tr>`);
  return rows.join("");
}

function renderJob(snap, view, jobId) {
  const detail = snap.job;
  if (!detail) {
    view.innerHTML = `<div class="empty">Streaming job ${jobId} not found (dropped?). <a href="#/">Relations</a></div>`;
    return;
  }
  const j = detail.job;
  const nav = document.getElementById("nav-job");
  nav.hidden = false;
  nav.href = `#/job/${j.id}`;
  nav.textContent = `${j.name} (#${j.id})`;
  const controls = snap.overview.control && j.status !== "CREATED"
    ? (j.backfill_held ? button("Release backfill", "release_backfill", { job_id: j.id }, "primary")
                       : button("Hold backfill", "hold_backfill", { job_id: j.id })) : "";
  view.appendChild(el(`<section class="panel job" data-job-id="${j.id}" data-status="${j.status}">
      <h2>${esc(j.kind)} <b>${esc(j.name)}</b> <small>#${j.id} in ${esc(j.database)}</small>
        <span class="status ${j.status}">${esc(STATUS_LABEL[j.status])}</span> ${controls}</h2>
      <div class="job-facts">
        <span>create type <b>${esc(j.create_type)}</b></span><span>job type <b>${esc(j.job_type)}</b></span>
        <span>parallelism <b>${esc(j.parallelism)}</b></span><span>actors <b>${j.actors}</b></span>
        <span>max parallelism <b>${j.max_parallelism}</b></span></div>
      ${progressBar(j)}
      <pre class="definition">${esc(j.definition)}</pre></section>`));
  const fragRefusals = detail.blocked ? detail.blocked.fragments : {};
  const section = el(`<section class="panel"><h2>Fragments <small>${detail.fragments.filter((f) => !f.external).length} of this job, with the fragments it reads from and feeds</small></h2></section>`);
  const c = canvas();
  section.appendChild(c);
  view.appendChild(section);
  const drawn = detail.fragments.map((f) => {
    const r = fragRefusals[String(f.id)];
    const e = fragmentBox(f, r && r.refused ? r : null);
    c.appendChild(e);
    return { id: f.id, el: e };
  });
  const edges = detail.edges.map((e) => ({
    from: e.source, to: e.target, label: e.dispatcher, cls: `d-${e.dispatcher}`,
  }));
  layout(c, drawn, edges, "TB");
  if (detail.blocked) {
    view.appendChild(el(`<section class="panel"><h2>Blocked set <small>would these be refused now?</small></h2>
        <table class="alters" data-job-id="${j.id}">${blockedRows(detail.blocked, j)}</table></section>`));
  }
}

function renderBlocked(snap, view) {
  const nodes = new Map(snap.relations.nodes.map((n) => [n.id, n]));
  const rows = snap.blocked.jobs.map((b) => {
    const n = nodes.get(b.job_id);
    const cells = ALTERS.map(([key, what]) => {
      const r = b[key];
      return `<td data-alter="${key}" data-refused="${r.refused}">${r.refused ? refusalBox(key, what, r, false, b.job_id) : '<span class="ok">allowed</span>'}</td>`;
    });
    const refused = Object.entries(b.fragments).filter(([, r]) => r.refused);
    cells.push(`<td data-alter="fragment" data-refused="${refused.length > 0}">${refused.length
      ? refusalBox("fragment", `ALTER FRAGMENT ${refused.map(([f]) => f).join(", ")}`, refused[0][1], false, b.job_id)
      : '<span class="ok">allowed</span>'}</td>`);
    return `<tr data-job-id="${b.job_id}">
        <td><a href="#/job/${b.job_id}">${esc(b.name)}</a> <span class="id">#${b.job_id}</span>
          <div class="kind-line">${esc(n ? n.kind : "")} · ${esc(n ? n.database : "")}</div></td>
        <td><span class="status ${b.status}">${esc(STATUS_LABEL[b.status])}</span></td>${cells.join("")}</tr>`;
  });
  view.appendChild(el(`<section class="panel"><h2>Blocked set <small>for every streaming job: would the ALTER be refused now, with the error RisingWave returns</small></h2>
      <table class="blocked"><thead><tr><th>job</th><th>status</th><th>SET PARALLELISM</th>
        <th>SET BACKFILL_PARALLELISM</th><th>ALTER FRAGMENT … SET PARALLELISM</th></tr></thead>
      <tbody>${rows.join("") || '<tr><td colspan="5" class="empty">No streaming jobs.</td></tr>'}</tbody></table></section>`));
}

function render() {
  const snap = state.snapshot;
  if (!snap) return;
  const r = state.route;
  renderDatabases(snap.overview);
  for (const a of document.querySelectorAll("nav a")) {
    a.classList.toggle("active", a.dataset.view === r.view);
  }
  if (r.view !== "job") document.getElementById("nav-job").hidden = true;
  const view = document.getElementById("view");
  const scroll = [window.scrollX, window.scrollY];
  view.replaceChildren();
  view.dataset.view = r.view;
  if (r.view === "job") renderJob(snap, view, r.job);
  else if (r.view === "blocked") renderBlocked(snap, view);
  else renderRelations(snap, view);
  window.scrollTo(...scroll);
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
}

// -------------------------------------------------------------------------- live updates

function connect() {
  state.route = route();
  if (state.source) state.source.close();
  const live = document.getElementById("live");
  const query = state.route.view === "job" ? `?job=${state.route.job}` : "";
  const source = new EventSource(`/api/events${query}`);
  state.source = source;
  source.onopen = () => { live.dataset.state = "live"; live.textContent = "live"; };
  source.onerror = () => { live.dataset.state = "down"; live.textContent = "reconnecting"; };
  source.onmessage = (ev) => {
    state.snapshot = JSON.parse(ev.data);
    render();
  };
}

document.addEventListener("click", (ev) => {
  const node = ev.target.closest(".node[data-href]");
  if (node && !ev.target.closest("a, button")) location.hash = node.dataset.href;
});
window.addEventListener("hashchange", () => {
  state.snapshot = null;
  document.getElementById("view").replaceChildren();
  connect();
});
connect();
