// provmem inspector: plain ES module, no build step. Every value is inserted as text.
const $ = (id) => document.getElementById(id);
const state = { scope: null, selected: null, stream: null, facts: [], erasing: null };
const DONE = { approve: "approved", reject: "rejected", correct: "corrected", retract: "retracted" };
const OPEN = ["active", "needs-review"];
const STATUS_ORDER = ["needs-review", "active", "superseded", "deleted"];
const REF = /\b(?:fact|ev)_[0-9a-f]{32}\b/g;
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "onclick") node.addEventListener("click", value);
    else if (name === "onsubmit") node.addEventListener("submit", value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
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
    const detail = Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail;
    throw new Error(`${response.status}: ${detail ?? response.statusText}`);
  }
  return response.json();
}

const post = (path, body) => api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
const q = encodeURIComponent;

function say(text) { $("status").textContent = text; }
const status = (s) => el("span", { class: `status status-${s}` }, s);
const id = (text) => el("span", { class: "id" }, text);
const when = (iso) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

// ids named in reasons and diagnostics are shown as the statement or quote they stand for
const named = new Map();

async function resolve(texts) {
  const ids = [...new Set(texts.flatMap((t) => (t ?? "").match(REF) ?? []))].filter((i) => !named.has(i));
  for (let start = 0; start < ids.length; start += 100) {
    const chunk = ids.slice(start, start + 100);
    const { statements } = await api(`/ui/api/statements?${chunk.map((i) => `ids=${q(i)}`).join("&")}`);
    for (const i of chunk) named.set(i, statements[i] ?? null);
  }
}

function ref(refId) {
  const found = named.get(refId);
  if (!found) return el("span", { class: "ref ref-gone", title: refId }, refId.startsWith("fact_") ? "an erased fact" : "erased evidence");
  if (found.kind === "evidence") return el("q", { class: "ref ref-evidence", title: `${refId} (${found.speaker})` }, found.text);
  return el("a", { class: "ref ref-fact", href: "#", title: `${refId} (${found.status})`, "data-ref": refId,
    onclick: (e) => { e.preventDefault(); showFact(refId); } }, `“${found.text}”`);
}

function explained(text) {
  const out = [];
  let last = 0;
  for (const match of (text ?? "").matchAll(REF)) {
    out.push(text.slice(last, match.index), ref(match[0]));
    last = match.index + match[0].length;
  }
  out.push((text ?? "").slice(last));
  return parts(out);
}

function quote(item, erasable = false) {
  return el("div", { class: "quote" },
    el("blockquote", {}, item.quote),
    el("div", { class: "quote-meta" }, `${item.speaker} · ${when(item.captured_at)} · turn ${item.source_turn_id} · `,
      id(item.evidence_id), item.role ? ` · ${item.role}` : "",
      erasable ? el("button", { type: "button", class: "erase-evidence danger", onclick: () => askErase("evidence", item) }, "erase evidence…") : null));
}

async function loadScopes() {
  const { scopes } = await api("/ui/api/scopes");
  const select = $("scope");
  const keep = state.scope;
  select.replaceChildren(...scopes.map((s) => el("option", { value: s }, s)));
  if (scopes.includes(keep)) select.value = keep;
  else if (keep !== null) { clearDetail(); $("changes").replaceChildren(); }
  state.scope = select.value || null;
  $("erase-subject").disabled = !state.scope;
  say(`${scopes.length} scope(s)`);
}

async function loadFacts() {
  state.facts = state.scope ? await api(`/v1/facts?scope=${q(state.scope)}`) : [];
  drawFacts();
}

// microseconds since the epoch: Date keeps milliseconds only, and facts said in one batch
// are a microsecond apart
function instant(iso) {
  const micros = (iso.match(/\.(\d+)/)?.[1] ?? "").padEnd(6, "0").slice(3, 6);
  return Date.parse(iso) * 1000 + Number(micros);
}

function sorted(facts) {
  const [key, dir] = $("sort").value.split("-");
  const compare = {
    time: (a, b) => instant(a.last_verified_at) - instant(b.last_verified_at),
    statement: (a, b) => a.statement.localeCompare(b.statement),
    status: (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status)
      || instant(b.last_verified_at) - instant(a.last_verified_at),
  }[key];
  const sign = dir === "desc" ? -1 : 1;
  return [...facts].sort((a, b) => sign * compare(a, b) || a.fact_id.localeCompare(b.fact_id));
}

function shown() {
  const wanted = $("status-filter").value;
  const words = $("fact-search").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return sorted(state.facts.filter((f) => (!wanted || f.status === wanted)
    && words.every((w) => f.statement.toLowerCase().includes(w))));
}

function drawFacts() {
  const facts = shown();
  $("fact-count").textContent = facts.length === state.facts.length ? `${facts.length}` : `${facts.length} of ${state.facts.length}`;
  const [key, dir] = $("sort").value.split("-");
  for (const th of $("facts").tHead.rows[0].cells) {
    if (th.dataset.sort) th.setAttribute("aria-sort", th.dataset.sort === key ? (dir === "asc" ? "ascending" : "descending") : "none");
  }
  $("facts").tBodies[0].replaceChildren(...(facts.length ? facts.map(factRow)
    : [el("tr", { class: "empty" }, el("td", { colspan: 5, class: "muted" }, state.facts.length ? "no fact matches" : "no facts"))]));
}

function factRow(f) {
  const row = el("tr", { "data-fact-id": f.fact_id, "data-status": f.status, onclick: () => showFact(f.fact_id) },
    el("td", { "data-label": "time", class: "time" }, el("time", { datetime: f.last_verified_at }, when(f.last_verified_at))),
    el("td", { "data-label": "status" }, status(f.status)),
    el("td", { "data-label": "statement", class: "statement" }, f.statement,
      (f.conflicts_with ?? []).length ? el("span", { class: "conflict" }, " ⚠ conflict") : null),
    el("td", { "data-label": "v" }, f.version),
    el("td", { "data-label": "fact id" }, id(f.fact_id)));
  if (f.fact_id === state.selected) row.classList.add("selected");
  return row;
}

function sortBy(key) {
  const [current, dir] = $("sort").value.split("-");
  const flip = current === key ? (dir === "asc" ? "desc" : "asc") : (key === "time" ? "desc" : "asc");
  const option = `${key}-${flip}`;
  $("sort").value = [...$("sort").options].some((o) => o.value === option) ? option : `${key}-asc`;
  drawFacts();
}

function clearDetail() {
  state.selected = null;
  $("detail").replaceChildren(el("p", { class: "muted" }, "Select a fact to see its evidence, versions and supersession chain, and to correct or retract it."));
}

function factLine(f) {
  return el("li", {}, status(f.status), " ", f.statement, " ", id(f.fact_id), ` v${f.version}`);
}

async function showFact(factId) {
  state.selected = factId;
  for (const row of $("facts").tBodies[0].rows) row.classList.toggle("selected", row.dataset.factId === factId);
  const d = await api(`/v1/facts/${q(factId)}`);
  const f = d.fact;
  const conflicts = f.conflicts_with ?? [];
  await resolve([f.review_reason, f.superseded_by, ...conflicts]);
  $("detail").replaceChildren(...parts(
    el("p", {}, status(f.status), " ", el("strong", { class: "statement" }, f.statement)),
    el("p", {}, "id ", id(f.fact_id), ` · version ${f.version} · confidence ${f.confidence} · said ${when(f.last_verified_at)}`),
    f.review_reason ? el("p", { class: "review-reason" }, "review: ", explained(f.review_reason)) : null,
    f.superseded_by ? el("p", { class: "superseded-by" }, "superseded by ", ref(f.superseded_by)) : null,
    conflicts.length ? el("div", { class: "conflict" }, el("h3", {}, "Conflicts with"), el("ul", {}, conflicts.map((c) => el("li", {}, ref(c))))) : null,
    OPEN.includes(f.status) ? actions(f) : null,
    el("h3", {}, `Evidence (${d.evidence.length})`), d.evidence.map((e) => quote(e, true)),
    el("h3", {}, `Versions (${d.history.length})`), el("ol", { class: "versions" }, d.history.map(factLine)),
    el("h3", {}, `Supersession chain (${d.supersedes.length})`),
    d.supersedes.length ? el("ol", { class: "chain" }, d.supersedes.map(factLine)) : el("p", { class: "muted" }, "supersedes nothing")));
}

function actions(f) {
  const correct = el("form", { class: "correct-form", onsubmit: (e) => act(e, f, "correct") },
    el("label", {}, "correct to ", el("input", { name: "statement", required: "", value: f.statement })),
    el("label", {}, "because ", el("input", { name: "reason", placeholder: "reason (optional)" })),
    el("button", { type: "submit" }, "correct"));
  const retract = el("form", { class: "retract-form", onsubmit: (e) => act(e, f, "retract") },
    el("label", {}, "retract because ", el("input", { name: "reason", required: "", placeholder: "why it is wrong" })),
    el("button", { type: "submit", class: "danger" }, "retract"));
  return el("div", { class: "actions" }, el("h3", {}, "Correct or retract"), correct, retract);
}

async function act(event, f, verb) {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = { by: "inspector", reason: form.get("reason") ?? "", scope: state.scope };
  if (verb === "correct") body.statement = form.get("statement");
  try {
    await post(`/v1/facts/${q(f.fact_id)}/${verb}`, body);
    say(`${DONE[verb]} “${f.statement}”`);
    const after = await settled(f.fact_id);
    await loadFacts();
    await showFact(verb === "correct" && after.superseded_by ? after.superseded_by : f.fact_id);
    await loadReview();
  } catch (error) { say(error.message); }
}

async function settled(factId) {
  // the distributed runtime applies an action in a worker: wait until the fact has moved on
  for (let tries = 0; ; tries++) {
    const { fact } = await api(`/v1/facts/${q(factId)}`);
    if (!OPEN.includes(fact.status) || tries >= 60) return fact;
    await pause(500);
  }
}

async function loadReview() {
  if (!state.scope) { $("review").replaceChildren(); $("review-count").textContent = ""; return; }
  const queue = await api(`/v1/review?scope=${q(state.scope)}`);
  await resolve(queue.map((d) => d.fact.review_reason));
  $("review-count").textContent = `${queue.length}`;
  $("review").replaceChildren(...(queue.length ? queue.map(reviewCard) : [el("p", { class: "muted" }, "nothing to review")]));
}

function reviewCard(d) {
  const decide = (verb) => async () => {
    const reason = `${DONE[verb]} in the inspector`;
    try {
      await post(`/v1/facts/${q(d.fact.fact_id)}/${verb}`, { by: "inspector", reason, scope: state.scope });
      say(`${DONE[verb]} “${d.fact.statement}”`);
    } catch (error) { say(error.message); }
    await refresh();
  };
  return el("div", { class: "card review-item", "data-fact-id": d.fact.fact_id },
    el("p", {}, el("strong", {}, d.fact.statement), " ", id(d.fact.fact_id)),
    el("p", { class: "muted review-reason" }, explained(d.fact.review_reason ?? "")), d.evidence.map((e) => quote(e)),
    el("button", { type: "button", class: "approve", onclick: decide("approve") }, "approve"), " ",
    el("button", { type: "button", class: "reject", onclick: decide("reject") }, "reject"));
}

function receiptView(r) {
  const stores = Object.entries(r.removed_per_store ?? {}).map(([store, n]) => `${store} ${n}`).join(" · ");
  return el("div", { class: "receipt", "data-request-id": r.request_id },
    el("p", {}, `evidence erased ${r.evidence_erased} · facts erased ${r.facts_erased} · revalidated ${r.facts_revalidated} · residue ${r.residue_found} · verified by ${r.verified_by} · ${r.seconds_to_receipt.toFixed(2)} s`),
    el("details", {}, el("summary", {}, `receipt ${r.request_id} · completed ${when(r.completed_at)}`),
      el("p", { class: "diag" }, `removed per store: ${stores}`),
      el("p", { class: "diag" }, `awaiting compaction ${r.awaiting_compaction ?? 0} · erased evidence fingerprints ${(r.erased_evidence ?? []).length} · erased fact fingerprints ${(r.erased_facts ?? []).length} · scope hash `, id(r.scope_key_hash))));
}

async function loadErasures() {
  const { erasures } = await api("/ui/api/erasures");
  $("erasures").replaceChildren(...(erasures.length ? erasures.map((e) => el("div", { class: "card erasure", "data-request-id": e.request_id, "data-scope": e.scope },
    el("p", {}, el("strong", {}, e.scope), ` · ${e.target} · requested ${when(e.requested_at)}`, e.reason ? ` · “${e.reason}”` : "", " · ", id(e.request_id)),
    e.receipt ? receiptView(e.receipt) : el("p", { class: "muted" }, "queued"))) : [el("p", { class: "muted" }, "no erasures")]));
}

function askErase(kind, evidence = null) {
  if (!state.scope) return;
  state.erasing = { kind, scope: state.scope, evidence };
  const subject = kind === "subject";
  $("erase-title").textContent = subject ? "Erase a subject" : "Erase evidence";
  $("erase-what").replaceChildren(...(subject
    ? ["Every turn, fact and derived trace of ", el("strong", {}, state.scope), " is erased; only the receipt stays."]
    : ["The turn ", el("q", {}, evidence.quote), " (", id(evidence.evidence_id), ") is erased; facts it supported are re-derived without it."]));
  $("erase-expected").textContent = subject ? state.scope : "erase";
  for (const input of ["erase-typed", "erase-reason"]) $(input).value = "";
  $("erase-receipt").replaceChildren();
  $("erase-confirm").hidden = false;
  $("erase-confirm").disabled = true;
  $("erase-close").textContent = "cancel";
  $("erase-dialog").showModal();
  $("erase-typed").focus();
}

async function erase() {
  const { kind, scope, evidence } = state.erasing;
  $("erase-confirm").disabled = true;
  const body = { scope, reason: $("erase-reason").value.trim() };
  if (kind === "subject") body.subject = true;
  else body.evidence_ids = [evidence.evidence_id];
  try {
    $("erase-receipt").replaceChildren(el("p", { class: "muted" }, "erasing…"));
    const receipt = await receiptOf(await post("/v1/erasures", body));
    $("erase-receipt").replaceChildren(el("h3", {}, "Receipt"), receiptView(receipt));
    $("erase-confirm").hidden = true;
    $("erase-close").textContent = "close";
    say(`erased ${kind === "subject" ? scope : evidence.evidence_id}`);
  } catch (error) {
    $("erase-receipt").replaceChildren(el("p", { class: "conflict" }, error.message));
    $("erase-confirm").disabled = false;
  }
  await reload();
}

async function receiptOf(filed) {
  // embedded: the receipt at once; distributed: queued, its receipt follows from a worker
  for (let tries = 0; filed.status === "queued"; tries++) {
    if (tries >= 240) throw new Error(`erasure ${filed.request_id} still queued; its receipt will be listed below`);
    await pause(500);
    filed = await api(`/v1/erasures/${q(filed.request_id)}`);
  }
  return filed;
}

async function search(event) {
  event.preventDefault();
  const query = $("query").value.trim();
  if (!query || !state.scope) return;
  const r = await post("/v1/query", { scope: state.scope, query, limit: 5 });
  await resolve([...r.path_reasons, ...r.routes.map((d) => d.note), ...r.bundles.flatMap((b) => b.conflicts ?? [])]);
  $("search").replaceChildren(...parts(
    el("p", { class: "diag path" }, `path ${r.path}: `, r.path_reasons.flatMap((reason, i) => [i ? "; " : "", ...explained(reason)]), ` · ${r.tokens} tokens`),
    el("ul", { class: "diag routes" }, "routes: ", r.routes.map((d) => el("li", { "data-route": d.route }, `${d.route} ${d.hits}`, d.note ? [" (", ...explained(d.note), ")"] : ""))),
    r.bundles.length ? r.bundles.map((b) => el("div", { class: "card bundle" },
      el("p", {}, b.fact ? status(b.fact.status) : "raw evidence", " ", el("strong", {}, b.fact ? b.fact.statement : ""), " ",
        b.fact ? id(b.fact.fact_id) : "", el("span", { class: "diag" }, ` score ${b.score.toFixed(4)} via ${b.routes.join(",")}`)),
      (b.conflicts ?? []).length ? el("p", { class: "conflict" }, "conflicts with ", b.conflicts.map(ref)) : null,
      b.evidence.map((e) => quote(e)))) : el("p", { class: "muted" }, "nothing found: insufficient evidence")));
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
  const item = el("li", { class: "change" }, el("strong", {}, change.op), ` ${statement} `, id(change.fact_id), ` v${change.version} · `);
  item.append(change.reason);
  $("changes").prepend(item);
  resolve([change.reason]).then(() => item.replaceChildren(...Array.from(item.childNodes).slice(0, -1), ...explained(change.reason))).catch(() => {});
  clearTimeout(pending);
  pending = setTimeout(() => { loadFacts(); loadReview(); }, 300);
}

async function refresh() {
  try {
    await Promise.all([loadFacts(), loadReview(), loadErasures()]);
    if (state.selected) await showFact(state.selected).catch(clearDetail);
  } catch (error) { say(error.message); }
}

function start() {
  $("token").value = localStorage.getItem("provmem-token") ?? "";
  $("token").addEventListener("change", () => { localStorage.setItem("provmem-token", $("token").value); reload(); });
  $("scope").addEventListener("change", () => { state.scope = $("scope").value; clearDetail(); $("changes").replaceChildren(); refresh(); follow(); });
  $("reload").addEventListener("click", reload);
  $("search-form").addEventListener("submit", (e) => search(e).catch((error) => say(error.message)));
  for (const control of ["fact-search", "status-filter", "sort"]) $(control).addEventListener("input", drawFacts);
  for (const th of $("facts").tHead.querySelectorAll("th[data-sort] button")) th.addEventListener("click", () => sortBy(th.parentElement.dataset.sort));
  $("erase-subject").addEventListener("click", () => askErase("subject"));
  $("erase-typed").addEventListener("input", () => { $("erase-confirm").disabled = $("erase-typed").value.trim() !== $("erase-expected").textContent; });
  $("erase-confirm").addEventListener("click", erase);
  $("erase-form").addEventListener("submit", (e) => { e.preventDefault(); if (!$("erase-confirm").disabled && !$("erase-confirm").hidden) erase(); });
  $("erase-close").addEventListener("click", () => $("erase-dialog").close());
  reload();
}

async function reload() {
  try { await loadScopes(); } catch (error) { say(error.message); return; }
  await refresh();
  follow();
  document.body.dataset.ready = "true";
}

start();
