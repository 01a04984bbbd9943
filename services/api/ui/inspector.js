// provmem inspector: plain ES module, no build step. Every value is inserted as text.
const $ = (id) => document.getElementById(id);
const state = { scope: null, selected: null, stream: null };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// replaceChildren takes nodes or strings only: flatten lists, drop the absent parts
const parts = (...items) => items.flat(Infinity).filter((x) => x !== null && x !== undefined && x !== "");

function headers(extra = {}) {
  const token = $("token").value.trim();
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(`${response.status}: ${body.detail ?? response.statusText}`);
  }
  return response.json();
}

function say(text) { $("status").textContent = text; }
const status = (s) => el("span", { class: `status status-${s}` }, s);
const id = (text) => el("span", { class: "id" }, text);
const when = (iso) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

function quote(item) {
  return el("div", { class: "quote" },
    el("blockquote", {}, item.quote),
    el("div", { class: "quote-meta" }, `${item.speaker} · ${when(item.captured_at)} · turn ${item.source_turn_id} · `,
      id(item.evidence_id), item.role ? ` · ${item.role}` : ""));
}

async function loadScopes() {
  const { scopes } = await api("/ui/api/scopes");
  const select = $("scope");
  const keep = state.scope;
  select.replaceChildren(...scopes.map((s) => el("option", { value: s }, s)));
  if (scopes.includes(keep)) select.value = keep;
  state.scope = select.value || null;
  say(`${scopes.length} scope(s)`);
}

async function loadFacts() {
  const body = $("facts").tBodies[0];
  if (!state.scope) { body.replaceChildren(); return; }
  const facts = await api(`/v1/facts?scope=${encodeURIComponent(state.scope)}`);
  $("fact-count").textContent = `${facts.length}`;
  body.replaceChildren(...facts.map((f) => {
    const row = el("tr", { "data-fact-id": f.fact_id, onclick: () => showFact(f.fact_id) },
      el("td", {}, status(f.status)),
      el("td", {}, f.statement, (f.conflicts_with ?? []).length ? el("span", { class: "conflict" }, " ⚠ conflict") : null),
      el("td", {}, id(f.fact_id)), el("td", {}, f.version));
    if (f.fact_id === state.selected) row.classList.add("selected");
    return row;
  }));
}

function factLine(f) {
  return el("li", {}, status(f.status), " ", f.statement, " ", id(f.fact_id), ` v${f.version}`);
}

async function showFact(factId) {
  state.selected = factId;
  for (const row of $("facts").tBodies[0].rows) row.classList.toggle("selected", row.dataset.factId === factId);
  const d = await api(`/v1/facts/${encodeURIComponent(factId)}`);
  const f = d.fact;
  const conflicts = f.conflicts_with ?? [];
  $("detail").replaceChildren(...parts(
    el("p", {}, status(f.status), " ", el("strong", {}, f.statement)),
    el("p", {}, "id ", id(f.fact_id), ` · version ${f.version} · confidence ${f.confidence}`,
      f.review_reason ? ` · review: ${f.review_reason}` : ""),
    f.superseded_by ? el("p", {}, "superseded by ", el("a", { href: "#", onclick: (e) => { e.preventDefault(); showFact(f.superseded_by); } }, f.superseded_by)) : null,
    conflicts.length ? el("div", { class: "conflict" }, el("h3", {}, "Conflicts with"), el("ul", {}, conflicts.map((c) => el("li", {}, id(c))))) : null,
    el("h3", {}, `Evidence (${d.evidence.length})`), d.evidence.map(quote),
    el("h3", {}, `Versions (${d.history.length})`), el("ol", { class: "versions" }, d.history.map(factLine)),
    el("h3", {}, `Supersession chain (${d.supersedes.length})`),
    d.supersedes.length ? el("ol", { class: "chain" }, d.supersedes.map(factLine)) : el("p", { class: "muted" }, "supersedes nothing")));
}

async function loadReview() {
  if (!state.scope) return;
  const queue = await api(`/v1/review?scope=${encodeURIComponent(state.scope)}`);
  $("review-count").textContent = `${queue.length}`;
  $("review").replaceChildren(...(queue.length ? queue.map(reviewCard) : [el("p", { class: "muted" }, "nothing to review")]));
}

function reviewCard(d) {
  const decide = (verb) => async () => {
    const reason = verb === "reject" ? "rejected in the inspector" : "approved in the inspector";
    await api(`/v1/facts/${encodeURIComponent(d.fact.fact_id)}/${verb}`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ by: "inspector", reason, scope: state.scope }),
    });
    say(`${verb}d ${d.fact.fact_id}`);
    await refresh();
  };
  return el("div", { class: "card review-item" },
    el("p", {}, el("strong", {}, d.fact.statement), " ", id(d.fact.fact_id)),
    el("p", { class: "muted" }, d.fact.review_reason ?? ""), d.evidence.map(quote),
    el("button", { type: "button", class: "approve", onclick: decide("approve") }, "approve"), " ",
    el("button", { type: "button", class: "reject", onclick: decide("reject") }, "reject"));
}

async function loadErasures() {
  if (!state.scope) return;
  const { erasures } = await api(`/ui/api/erasures?scope=${encodeURIComponent(state.scope)}`);
  $("erasures").replaceChildren(...(erasures.length ? erasures.map((e) => el("div", { class: "card erasure" },
    el("p", {}, id(e.request_id), ` · ${e.target} · requested ${when(e.requested_at)}`, e.reason ? ` · “${e.reason}”` : ""),
    e.receipt
      ? el("p", {}, `evidence erased ${e.receipt.evidence_erased} · facts erased ${e.receipt.facts_erased} · revalidated ${e.receipt.facts_revalidated} · residue ${e.receipt.residue_found} · verified by ${e.receipt.verified_by} · ${e.receipt.seconds_to_receipt.toFixed(2)} s`)
      : el("p", { class: "muted" }, "queued"))) : [el("p", { class: "muted" }, "no erasures")]));
}

async function search(event) {
  event.preventDefault();
  const query = $("query").value.trim();
  if (!query || !state.scope) return;
  const r = await api("/v1/query", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ scope: state.scope, query, limit: 5 }) });
  $("search").replaceChildren(...parts(
    el("p", { class: "diag" }, `path ${r.path}: ${r.path_reasons.join("; ")} · ${r.tokens} tokens`),
    el("p", { class: "diag" }, "routes: ", r.routes.map((d) => `${d.route} ${d.hits}${d.note ? ` (${d.note})` : ""}`).join(" · ")),
    r.bundles.length ? r.bundles.map((b) => el("div", { class: "card bundle" },
      el("p", {}, b.fact ? status(b.fact.status) : "raw evidence", " ", el("strong", {}, b.fact ? b.fact.statement : ""), " ",
        b.fact ? id(b.fact.fact_id) : "", el("span", { class: "diag" }, ` score ${b.score.toFixed(4)} via ${b.routes.join(",")}`)),
      b.evidence.map(quote))) : el("p", { class: "muted" }, "nothing found: insufficient evidence")));
}

async function follow() {
  if (state.stream) state.stream.abort();
  if (!state.scope) return;
  const controller = new AbortController();
  state.stream = controller;
  $("live").textContent = "connecting…";
  try {
    const response = await fetch(`/v1/scopes/${state.scope}/changes?start=latest`,
      { headers: headers({ Accept: "text/event-stream" }), signal: controller.signal });
    if (!response.ok) throw new Error(`${response.status}`);
    $("live").textContent = "live";
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
        if (data) changed(JSON.parse(data));
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) $("live").textContent = `disconnected (${error.message})`;
  }
}

let pending = null;
function changed(change) {
  const statement = change.fact ? change.fact.statement : "(erased)";
  $("changes").prepend(el("li", { class: "change" }, el("strong", {}, change.op), ` ${statement} `, id(change.fact_id), ` v${change.version} · ${change.reason}`));
  clearTimeout(pending);
  pending = setTimeout(() => { loadFacts(); loadReview(); }, 300);
}

async function refresh() {
  try {
    await Promise.all([loadFacts(), loadReview(), loadErasures()]);
    if (state.selected) await showFact(state.selected).catch(() => { state.selected = null; });
  } catch (error) { say(error.message); }
}

async function start() {
  $("token").value = localStorage.getItem("provmem-token") ?? "";
  $("token").addEventListener("change", () => { localStorage.setItem("provmem-token", $("token").value); reload(); });
  $("scope").addEventListener("change", () => { state.scope = $("scope").value; state.selected = null; $("changes").replaceChildren(); refresh(); follow(); });
  $("reload").addEventListener("click", reload);
  $("search-form").addEventListener("submit", (e) => search(e).catch((error) => say(error.message)));
  await reload();
}

async function reload() {
  try { await loadScopes(); } catch (error) { say(error.message); return; }
  await refresh();
  follow();
  document.body.dataset.ready = "true";
}

start();
