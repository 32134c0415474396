/**
 * The inspector page served at `/__mock/`: one self-contained HTML document (inline style and
 * script, no CDN, works offline) that polls `GET /__mock/requests`, `GET /__mock/states` and
 * `GET /__mock/coverage` (the percentage, and what was never exercised by operation) and
 * drives the admin endpoints (snapshot, restore, reset) with `Content-Type: application/json`. A
 * state shows as its token's hint (first and last characters), its id, where it lives (memory,
 * the state file), the global snapshot it is a fork of, and the collections it changed.
 * Every value from the log is written with textContent, never as HTML.
 */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mock inspector · store admin API</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2433;background:#f6f7f9}
header{background:#1d2433;color:#fff;padding:10px 16px;display:flex;gap:16px;align-items:baseline}
header h1{font-size:17px;margin:0}header span{opacity:.7}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(280px,1.2fr);gap:16px;padding:16px}
section{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:12px}
h2{font-size:15px;margin:0 0 8px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 6px;border-bottom:1px solid #eef0f3;vertical-align:top}
th{font-weight:600;color:#556}tr.req{cursor:pointer}tr.req:hover{background:#f2f5fb}
.s2{color:#17733a}.s4{color:#a45a00}.s5{color:#b3261e}code,pre{font:12px/1.4 ui-monospace,monospace}
pre{background:#f6f7f9;padding:6px;white-space:pre-wrap;word-break:break-all;max-height:240px;overflow:auto;margin:4px 0}
.filters{display:flex;gap:8px;margin-bottom:8px}input,select,button{font:inherit}
button{border:1px solid #b8c0cc;background:#fff;border-radius:4px;padding:2px 8px;cursor:pointer}
button:hover{background:#eef2f8}.state{border-top:1px solid #eef0f3;padding:8px 0}.muted{color:#778}
.cov{border-top:1px solid #eef0f3;padding:6px 0}
</style></head><body>
<header><h1>Mock inspector</h1><span id="summary">loading…</span></header>
<main>
<section><h2>Requests</h2>
<div class="filters"><label>Status <select id="status"><option value="">all</option><option value="2">2xx</option>
<option value="3">3xx</option><option value="4">4xx</option><option value="5">5xx</option></select></label>
<label>Path <input id="path" placeholder="contains…"></label></div>
<table><thead><tr><th>time</th><th>method</th><th>path</th><th>version</th><th>status</th><th>ms</th><th>state</th></tr></thead>
<tbody id="requests"></tbody></table></section>
<section><h2>States</h2><div><button id="reset-all">Reset every state</button></div><div id="states"></div>
<h2>Coverage</h2><div id="coverage-summary" class="muted">loading…</div><div id="coverage"></div></section>
</main>
<script>
const $ = (id) => document.getElementById(id);
const open = new Set();
const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
async function admin(method, path, body) {
  const r = await fetch('/__mock' + path, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) });
  if (!r.ok) alert((await r.json()).detail || r.status);
  refresh();
}
function pretty(text) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; } }
function detail(req) {
  const td = el('td'); td.colSpan = 7;
  for (const warning of req.warnings || []) td.append(el('div', 'Warning: ' + warning, 's4'));
  if (req.problem) td.append(el('div', 'Problem: ' + req.problem.title + ' — ' + req.problem.detail + (req.problem.fields.length ? ' (fields: ' + req.problem.fields.join(', ') + ')' : ''), 's4'));
  for (const [label, part] of [['Request body', req.request], ['Response body', req.response]]) {
    td.append(el('div', label + (part.contentType ? ' (' + part.contentType + ')' : '') + (part.truncated ? ' — truncated' : ''), 'muted'));
    td.append(el('pre', part.body ? pretty(part.body) : '(empty)'));
  }
  const tr = el('tr'); tr.append(td); return tr;
}
function renderRequests(list) {
  const status = $('status').value, path = $('path').value;
  const body = $('requests'); body.replaceChildren();
  for (const req of list) {
    if (status && String(req.status)[0] !== status) continue;
    if (path && !req.path.includes(path)) continue;
    const tr = el('tr', undefined, 'req'); tr.dataset.id = req.id;
    for (const [v, c] of [[req.at.slice(11, 23)], [req.method], [req.path + (req.warnings ? ' ⚠' : '')], [req.version], [req.status, 's' + String(req.status)[0]], [req.ms], [req.state || '-']]) tr.append(el('td', v, c));
    tr.onclick = () => { open.has(req.id) ? open.delete(req.id) : open.add(req.id); renderRequests(list); };
    body.append(tr);
    if (open.has(req.id)) body.append(detail(req));
  }
}
function renderStates(data) {
  const box = $('states'); box.replaceChildren();
  if (data.states.length === 0) box.append(el('p', 'No state yet: every token reads the seeded data.', 'muted'));
  for (const s of data.states) {
    const div = el('div', undefined, 'state'); div.dataset.state = s.id;
    const where = s.where === 'file' ? 'in the state file only (loaded on its next request)'
      : s.fromFile ? 'in memory, loaded from the state file'
      : s.durable ? 'in memory, saved to the state file' : 'in memory only (lost when the mock stops)';
    const title = el('div'); title.append('token ', el('strong', s.hint, 'hint'), ' · ', el('code', s.id));
    const base = s.origin ? 'its global snapshot ' + s.origin.snapshot : 'the seeded data';
    div.append(title, el('div', where, 'where'));
    if (s.origin) div.append(el('div', 'fork of global snapshot ' + s.origin.snapshot + ' (' + s.origin.at + ')', 'origin'));
    div.append(el('div', 'changed: ' + (s.changed.join(', ') || 'nothing (it reads ' + base + ')'), 'changed'));
    const snap = el('button', 'Snapshot'); snap.onclick = () => { const name = prompt('Snapshot name'); if (name) admin('POST', '/snapshots', { state: s.id, name }); };
    const reset = el('button', 'Reset'); reset.onclick = () => admin('POST', '/reset', { state: s.id });
    div.append(snap, ' ', reset);
    for (const n of s.snapshots) {
      const b = el('button', 'Restore ' + n.name); b.onclick = () => admin('POST', '/snapshots/' + encodeURIComponent(n.name) + '/restore', { state: s.id });
      div.append(' ', b);
    }
    box.append(div);
  }
  $('summary').textContent = data.usage.states + ' states in memory (at most ' + data.limits.maxStates + ')';
}
function renderCoverage(report) {
  $('coverage-summary').textContent = report.percent.toFixed(1) + '% of ' + report.total + ' items exercised by ' + report.requests + ' requests ('
    + Object.entries(report.dimensions).map(([d, s]) => d + ' ' + s.covered + '/' + s.total).join(', ') + ')';
  const box = $('coverage'); box.replaceChildren();
  for (const o of report.operations) {
    const never = o.items.filter((i) => i.count === 0);
    if (never.length === 0) continue;
    const div = el('div', undefined, 'cov'); div.dataset.operation = o.operation + ' ' + o.version;
    div.append(el('strong', o.operation), ' ', el('code', o.version), ' ' + o.covered + '/' + o.total);
    div.append(el('div', 'never: ' + never.map((i) => i.dimension + ' ' + i.name).join(', '), 'muted never'));
    box.append(div);
  }
}
let last = [];
async function refresh() {
  try {
    const [r, s, c] = await Promise.all([fetch('/__mock/requests?limit=200'), fetch('/__mock/states'), fetch('/__mock/coverage')]);
    last = (await r.json()).requests; renderRequests(last); renderStates(await s.json()); renderCoverage(await c.json());
  } catch (e) { $('summary').textContent = 'mock unreachable'; }
}
$('status').onchange = () => renderRequests(last);
$('path').oninput = () => renderRequests(last);
$('reset-all').onclick = () => { if (confirm('Reset every state to the seeded data?')) admin('POST', '/reset', { scope: 'all' }); };
refresh(); setInterval(refresh, 1000);
</script></body></html>
`;
