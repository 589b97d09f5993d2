// The console: one page, four views (history, query, write, health) over the public HTTP API.
// State that outlives a view (graph, branch, the query text, a chosen commit) lives here.

import * as api from './api.js';
import { el, fill, show, time, table } from './dom.js';
import { drawHistory, drawResult } from './draw.js';
import { analyze, editor, nodeQuery, parseSchema, resultGraph } from './gq.js';
import { errorBox, errorPosition, okBox } from './outcome.js';

const $ = id => document.getElementById(id);
const view = $('view');
const SELECTED_GRAPH = 'omnigraph.console.graph';

const state = {
  graph: null,
  branch: 'main',
  schema: { nodes: new Map(), edges: new Map() },
  schemaSource: '',
  query: null,
  params: '{}',
  snapshot: '',
  autoRun: true,
  timer: null,
  // The caller's actor and decisions on the branch (GET /access); null when unknown.
  access: null,
};

function banner(node) {
  const b = $('banner');
  if (!node) { b.hidden = true; b.replaceChildren(); return; }
  fill(b, node);
  b.hidden = false;
}

// ---- header: graph, branch, token, readiness --------------------------------------------------

async function loadGraphs() {
  const out = await api.get('/graphs');
  const ids = (out.graphs || []).map(g => g.graph_id);
  const wanted = sessionStorage.getItem(SELECTED_GRAPH);
  state.graph = ids.includes(wanted) ? wanted : ids[0] || null;
  fill($('graph'), ids.map(id => el('option', { value: id, selected: id === state.graph }, id)));
  await loadGraph();
}

async function loadGraph() {
  if (!state.graph) return;
  const [branches, schema] = await Promise.all([
    api.get(api.graphPath(state.graph, '/branches')),
    api.get(api.graphPath(state.graph, '/schema')),
  ]);
  const names = branches.branches || ['main'];
  if (!names.includes(state.branch)) state.branch = 'main';
  fill($('branch'), names.map(b => el('option', { value: b, selected: b === state.branch }, b)));
  state.schemaSource = schema.schema_source || '';
  state.schema = parseSchema(state.schemaSource);
  if (state.query == null) state.query = defaultQuery(state.schema);
  await loadAccess();
}

// ---- who is signed in, and what they may do on the branch ------------------------------------

async function loadAccess() {
  try {
    state.access = await api.get(api.graphPath(state.graph, `/access${api.qs({ branch: state.branch })}`));
  } catch (e) {
    // 403: the caller may not even read the branch, so nothing here is theirs to do. Any other
    // failure leaves the controls as they are: the server still decides every request.
    state.access = e.status === 403 ? { actor_id: null, state: 'denied', actions: {} } : null;
  }
  showActor();
}

function showActor(unauthorized) {
  const a = state.access;
  const who = $('actor');
  who.dataset.actor = (a && a.actor_id) || '';
  if (unauthorized) fill(who, 'not signed in');
  else if (!a) fill(who);
  else if (a.actor_id) fill(who, 'signed in as ', el('strong', {}, a.actor_id));
  else fill(who, a.state === 'open' ? 'open server: no sign-in needed' : 'not signed in');
}

/**
 * Enables a control only when the caller may do `action` on the branch; a disabled one says
 * which action is missing. Without an answer from /access the control stays enabled.
 */
function allowOnly(control, action) {
  const a = state.access;
  const ok = !a || !!(a.actions && a.actions[action]);
  control.disabled = !ok;
  control.dataset.needs = action;
  if (ok) control.removeAttribute('title');
  else control.title = `Not allowed: needs the '${action}' permission on branch ${state.branch}`;
  return ok;
}

async function start() {
  banner(null);
  try {
    await loadGraphs();
  } catch (e) {
    state.access = null;
    showActor(e.status === 401);
    banner(errorBox(e));
    fill(view);
    return;
  }
  route();
}

$('graph').addEventListener('change', async e => {
  state.graph = e.target.value;
  sessionStorage.setItem(SELECTED_GRAPH, state.graph);
  state.query = null;
  state.snapshot = '';
  await loadGraph().catch(err => banner(errorBox(err)));
  route();
});

$('branch').addEventListener('change', async e => {
  state.branch = e.target.value;
  state.snapshot = '';
  await loadAccess();
  route();
});

$('login').addEventListener('submit', e => {
  e.preventDefault();
  api.token.set($('token').value.trim());
  $('token').value = '';
  start();
});

$('token-clear').addEventListener('click', () => {
  api.token.set('');
  start();
});

async function readiness() {
  try {
    return await api.get('/q/health/ready');
  } catch (e) {
    // DOWN is a 503 whose body is the same report.
    if (e.status === 503 && e.body && e.body.checks) return e.body;
    throw e;
  }
}

async function refreshDot() {
  const dot = $('health-dot');
  try {
    const r = await readiness();
    dot.className = `dot ${r.status === 'UP' ? 'up' : 'down'}`;
    dot.title = `readiness: ${r.status}`;
  } catch (e) {
    dot.className = 'dot unknown';
    dot.title = 'readiness unknown';
  }
}

// ---- routing ---------------------------------------------------------------------------------

const VIEWS = { history: historyView, query: queryView, write: writeView, health: healthView };

function route() {
  clearInterval(state.timer);
  const name = (location.hash || '#query').slice(1);
  const render = VIEWS[name] || queryView;
  for (const a of document.querySelectorAll('#tabs a')) a.classList.toggle('active', a.dataset.view === name);
  if (!state.graph) {
    fill(view, el('p', {}, 'No graph is served.'));
    return;
  }
  render();
}

window.addEventListener('hashchange', route);

// ---- history ---------------------------------------------------------------------------------

async function historyView() {
  const dag = el('div', { id: 'dag', class: 'canvas dag' });
  const list = el('div', { id: 'commit-list' });
  const detail = el('div', { id: 'commit-detail', class: 'detail' }, el('p', { class: 'hint' }, 'Click a commit.'));
  fill(view, el('section', { class: 'history' },
    el('div', { class: 'col' }, el('h2', {}, `History of ${state.branch}`), el('div', { class: 'dag-scroll' }, dag), list),
    el('div', { class: 'col' }, detail)));
  let commits;
  try {
    commits = (await api.get(api.graphPath(state.graph, `/commits${api.qs({ branch: state.branch, limit: 200 })}`))).commits || [];
  } catch (e) {
    fill(list, errorBox(e));
    return;
  }
  const select = id => showCommit(detail, commits.find(c => c.graph_commit_id === id));
  drawHistory(dag, commits, select);
  fill(list, el('table', { class: 'grid commits' },
    el('thead', {}, el('tr', {}, ['commit', 'parents', 'actor', 'time', 'manifest'].map(h => el('th', {}, h)))),
    el('tbody', {}, commits.map(c => el('tr', {
      dataset: { commit: c.graph_commit_id },
      onclick: () => select(c.graph_commit_id),
    },
    el('td', { class: 'mono' }, c.graph_commit_id),
    el('td', { class: 'mono' }, [c.parent_commit_id, c.merged_parent_commit_id].filter(Boolean).map(p => p.slice(-8)).join(' + ')),
    el('td', {}, c.actor_id || ''),
    el('td', {}, time(c.created_at)),
    el('td', {}, show(c.graph_manifest_version)))))));
}

async function showCommit(detail, commit) {
  if (!commit) return;
  for (const tr of document.querySelectorAll('#commit-list tr')) {
    tr.classList.toggle('selected', tr.dataset.commit === commit.graph_commit_id);
  }
  const snapshotBox = el('div', {}, 'loading snapshot…');
  const changesBox = el('div', {}, 'loading changes…');
  fill(detail,
    el('h2', {}, 'Commit ', el('span', { class: 'mono' }, commit.graph_commit_id)),
    el('dl', { class: 'facts' },
      el('dt', {}, 'actor'), el('dd', {}, commit.actor_id || 'anonymous'),
      el('dt', {}, 'time'), el('dd', {}, time(commit.created_at)),
      el('dt', {}, 'parent'), el('dd', { class: 'mono' }, commit.parent_commit_id || '—'),
      el('dt', {}, 'merged parent'), el('dd', { class: 'mono' }, commit.merged_parent_commit_id || '—'),
      el('dt', {}, 'manifest version'), el('dd', {}, show(commit.graph_manifest_version))),
    el('button', {
      id: 'query-at-commit',
      onclick: () => { state.snapshot = commit.graph_commit_id; location.hash = '#query'; },
    }, 'Query at this commit'),
    el('h3', {}, 'Snapshot'), snapshotBox,
    el('h3', {}, 'Changes'), changesBox);
  api.get(api.graphPath(state.graph, `/snapshot${api.qs({ commit: commit.graph_commit_id })}`))
    .then(s => fill(snapshotBox, table(['kind', 'type', 'rows', 'version', 'table branch'],
      (s.datasets || []).map(d => ({
        kind: d.entity_kind, type: d.type_name, rows: d.entity_count,
        version: d.published_dataset_version, 'table branch': d.native_dataset_branch,
      })))))
    .catch(e => fill(snapshotBox, errorBox(e)));
  api.get(api.graphPath(state.graph, `/commits/${api.enc(commit.graph_commit_id)}/changes${api.qs({ limit: 200 })}`))
    .then(c => fill(changesBox, (c.changes || []).length === 0 ? el('p', {}, 'No entity changes.')
      : table(['op', 'kind', 'type', 'id'], c.changes.map(x => ({ op: x.op, kind: x.kind, type: x.type && x.type.name, id: x.id }))),
    c.next_page_token ? el('p', { class: 'hint' }, 'First 200 changes shown.') : null))
    .catch(e => fill(changesBox, e.status === 409 || e.status === 410
      ? el('p', { class: 'hint' }, e.body.error || 'No change list for this commit.') : errorBox(e)));
}

// ---- query -----------------------------------------------------------------------------------

function defaultQuery(schema) {
  const edge = [...schema.edges.values()][0];
  if (edge && edge.from && edge.to) {
    const a = edge.from === edge.to ? ['a', 'b'] : ['a', 'b'];
    return `query explore() {\n  match {\n    $${a[0]}: ${edge.from}\n    $${a[0]} ${edge.name.charAt(0).toLowerCase()}${edge.name.slice(1)} $${a[1]}\n  }\n`
      + `  return { $${a[0]}, $${a[1]} }\n  limit 100\n}\n`;
  }
  const node = [...schema.nodes.values()][0];
  if (node) return `query nodes() {\n  match {\n    $n: ${node.name}\n  }\n  return { $n }\n  limit 100\n}\n`;
  return 'query q() {\n  match {\n  }\n  return { }\n}\n';
}

function queryNames(text) {
  const names = [];
  const re = /\bquery\s+([A-Za-z_]\w*)/g;
  let m;
  while ((m = re.exec(text.replace(/\/\/[^\n]*/g, ''))) !== null) names.push(m[1]);
  return names;
}

async function queryView() {
  const ed = editor(state.query, { rows: 14, label: 'query' });
  ed.area.id = 'query-text';
  const params = el('textarea', { id: 'query-params', class: 'params', rows: 3, spellcheck: 'false', 'aria-label': 'parameters' });
  params.value = state.params;
  const nameSelect = el('select', { id: 'query-name', 'aria-label': 'query name' });
  const nameLabel = el('label', { hidden: true }, 'query ', nameSelect);
  const at = el('select', { id: 'query-at', 'aria-label': 'run at' });
  const run = el('button', { id: 'run-query', class: 'primary' }, 'Run');
  const outcome = el('div', { id: 'query-outcome' });
  const results = el('div', { id: 'results' });
  const schemaEditor = editor(state.schemaSource, { readOnly: true, rows: 24, label: 'schema' });
  fill(view, el('section', { class: 'query' },
    el('div', { class: 'col wide' },
      el('h2', {}, 'Query'), ed.root,
      el('div', { class: 'row' },
        el('label', {}, 'parameters (JSON) ', params),
        el('div', { class: 'stack' },
          nameLabel,
          el('label', {}, 'at ', at),
          run))),
    el('aside', { class: 'col schema' }, el('h2', {}, 'Schema'), schemaEditor.root)),
  outcome, results);

  const refreshNames = () => {
    const names = queryNames(ed.value());
    nameLabel.hidden = names.length < 2;
    const current = nameSelect.value;
    fill(nameSelect, names.map(n => el('option', { value: n, selected: n === current }, n)));
  };
  ed.area.addEventListener('input', () => { state.query = ed.value(); refreshNames(); });
  params.addEventListener('input', () => { state.params = params.value; });
  refreshNames();

  fill(at, el('option', { value: '' }, `${state.branch} (head)`));
  api.get(api.graphPath(state.graph, `/commits${api.qs({ branch: state.branch, limit: 200 })}`)).then(out => {
    const commits = out.commits || [];
    at.append(...commits.filter(c => c.graph_commit_id !== state.snapshot).map(c => el('option', { value: c.graph_commit_id },
      `${c.graph_commit_id.slice(-8)} · ${time(c.created_at)} · ${c.actor_id || 'anonymous'}`)));
  }).catch(() => {});
  if (state.snapshot) at.append(el('option', { value: state.snapshot, selected: true }, state.snapshot));
  at.addEventListener('change', () => { state.snapshot = at.value; });

  const execute = async () => {
    fill(outcome, el('p', { class: 'hint' }, 'running…'));
    fill(results);
    let body;
    try {
      body = { query: ed.value(), params: JSON.parse(params.value.trim() || '{}') };
    } catch (e) {
      fill(outcome, el('div', { class: 'outcome error bad-request', role: 'alert', dataset: { kind: 'bad-request' } },
        el('strong', {}, 'The parameters are not JSON'), el('p', {}, e.message)));
      return;
    }
    if (!nameLabel.hidden && nameSelect.value) body.name = nameSelect.value;
    if (at.value) body.snapshot = at.value; else body.branch = state.branch;
    try {
      const out = await api.post(api.graphPath(state.graph, '/query'), body);
      fill(outcome, okBox(`${out.row_count} row${out.row_count === 1 ? '' : 's'}`,
        `at ${at.value ? `commit ${at.value}` : `${state.branch}, commit ${out.graph_commit_id || '—'}`}`));
      showResult(results, out, body);
    } catch (e) {
      fill(outcome, errorBox(e));
      if (e.status === 400) ed.markError(errorPosition(e.body && e.body.error));
    }
  };
  run.addEventListener('click', execute);
  ed.area.addEventListener('keydown', e => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); execute(); }
  });
  if (state.autoRun) {
    state.autoRun = false;
    execute();
  }
}

function showResult(results, out, request) {
  const rows = out.rows || [];
  const columns = out.columns || (rows[0] ? Object.keys(rows[0]) : []);
  const tableBox = el('div', { id: 'result-table', class: 'result-table' }, table(columns, rows));
  const graph = resultGraph(out, analyze(request.query, state.schema, request.name));
  if (!graph || graph.nodes.length === 0) {
    fill(results, tableBox);
    return;
  }
  const canvas = el('div', { id: 'result-graph', class: 'canvas graph' });
  const props = el('div', { id: 'node-props', class: 'detail' }, el('p', { class: 'hint' }, 'Click a node for its properties.'));
  const tabTable = el('button', { class: 'tab' }, 'Table');
  const tabGraph = el('button', { class: 'tab active' }, 'Graph');
  const graphBox = el('div', { class: 'graph-box' }, canvas, props);
  tableBox.hidden = true;
  tabTable.addEventListener('click', () => { tableBox.hidden = false; graphBox.hidden = true; tabTable.classList.add('active'); tabGraph.classList.remove('active'); });
  tabGraph.addEventListener('click', () => { tableBox.hidden = true; graphBox.hidden = false; tabGraph.classList.add('active'); tabTable.classList.remove('active'); });
  fill(results, el('div', { class: 'tabs' }, tabGraph, tabTable), graphBox, tableBox);
  drawResult(canvas, graph, node => showNode(props, node, request));
}

async function showNode(box, node, request) {
  fill(box, el('h3', {}, `${node.type} `, el('span', { class: 'mono' }, node.entityId)), el('p', { class: 'hint' }, 'loading…'));
  const text = nodeQuery(state.schema, node.type);
  if (!text) return;
  const body = { query: text, params: { id: node.entityId } };
  if (request.snapshot) body.snapshot = request.snapshot; else body.branch = request.branch;
  try {
    const out = await api.post(api.graphPath(state.graph, '/query'), body);
    const row = (out.rows || [])[0] || {};
    const blobs = (state.schema.nodes.get(node.type) || {}).blobs || [];
    fill(box, el('h3', {}, `${node.type} `, el('span', { class: 'mono' }, node.entityId)),
      el('dl', { class: 'facts' }, Object.entries(row).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, show(v))])),
      blobs.map(p => blobPanel(node.type, node.entityId, p, request)));
  } catch (e) {
    fill(box, errorBox(e));
  }
}

// ---- Blob cells -------------------------------------------------------------------------------

/** Text previews read this much of a Blob (one ranged GET). */
const TEXT_PREVIEW = 64 * 1024;
/** Images are previewed whole up to this size. */
const IMAGE_PREVIEW = 16 * 1024 * 1024;

const IMAGE_MAGIC = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47]], ['image/jpeg', [0xff, 0xd8, 0xff]], ['image/gif', [0x47, 0x49, 0x46, 0x38]],
];

/** What the first bytes of a Blob look like: an image type, 'text' (valid UTF-8), or null. */
function sniff(bytes) {
  for (const [type, magic] of IMAGE_MAGIC) {
    if (magic.every((b, i) => bytes[i] === b)) return type;
  }
  try {
    // A cut in the middle of a character at the preview's end is not a reason to call it binary.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, Math.max(0, bytes.length - 3)));
    return bytes.includes(0) ? null : 'text';
  } catch (e) {
    return null;
  }
}

/**
 * One Blob cell of a node (GET|HEAD|PUT /graphs/{id}/blob): its size and content type, a preview of
 * an image or of text (the first 64 KiB), a download, and an upload that replaces it only if it is
 * still the version shown (If-Match with its ETag).
 */
function blobPanel(type, id, property, request) {
  const path = api.graphPath(state.graph, '/blob') + api.qs({
    entity: 'node', type, id, property, branch: request.snapshot ? null : request.branch, snapshot: request.snapshot || null,
  });
  const box = el('div', { class: 'blob', dataset: { property } });
  const title = el('h4', {}, property);
  const load = async () => {
    fill(box, title, el('p', { class: 'hint' }, 'loading…'));
    try {
      const head = await api.blob(path, { method: 'HEAD' });
      if (head.type === 'opaqueredirect') {
        fill(box, title, el('p', { class: 'hint' }, 'an external reference (read from its source, not from this service)'));
        return;
      }
      const size = Number(head.headers.get('Content-Length'));
      const etag = head.headers.get('ETag');
      const first = new Uint8Array(await (await api.blob(path, { range: `bytes=0-${TEXT_PREVIEW - 1}` })).arrayBuffer());
      const kind = size === 0 ? null : sniff(first);
      let preview = null;
      if (kind === 'text') {
        preview = el('pre', { class: 'blob-text' }, new TextDecoder('utf-8').decode(first) + (size > TEXT_PREVIEW ? '\n…' : ''));
      } else if (kind && size <= IMAGE_PREVIEW) {
        const bytes = await (await api.blob(path)).arrayBuffer();
        preview = el('img', { class: 'blob-image', alt: property, src: URL.createObjectURL(new Blob([bytes], { type: kind })) });
      }
      const download = el('button', { class: 'blob-download', onclick: async () => {
        const bytes = await (await api.blob(path)).blob();
        const a = el('a', { href: URL.createObjectURL(bytes), download: `${type}-${id}-${property}` });
        a.click();
        URL.revokeObjectURL(a.href);
      } }, 'Download');
      const file = el('input', { type: 'file', class: 'blob-file' });
      const upload = el('button', { class: 'blob-upload', onclick: async () => {
        if (!file.files[0]) return;
        try {
          await api.blob(path, { method: 'PUT', ifMatch: etag, body: file.files[0] });
          await load();
        } catch (e) {
          box.append(errorBox(e));
        }
      } }, 'Upload');
      allowOnly(upload, 'change');
      fill(box, title,
        el('dl', { class: 'facts' }, el('dt', {}, 'size'), el('dd', { class: 'blob-size' }, `${size} bytes`),
          el('dt', {}, 'content type'), el('dd', { class: 'blob-type' }, (head.headers.get('Content-Type') || '') + (kind ? ` (looks like ${kind})` : ''))),
        preview, el('div', { class: 'blob-actions' }, download, request.snapshot ? null : [file, upload]));
    } catch (e) {
      fill(box, title, e.status === 404 ? el('p', { class: 'hint' }, 'no value') : errorBox(e));
    }
  };
  load();
  return box;
}

// ---- write -----------------------------------------------------------------------------------

function defaultMutation(schema) {
  const node = [...schema.nodes.values()][0];
  if (!node) return 'query change() {\n}\n';
  const prop = node.props[0] || 'name';
  return `query add($value: String) {\n  insert ${node.name} { ${prop}: $value }\n}\n`;
}

function writeView() {
  const ed = editor(defaultMutation(state.schema), { rows: 8, label: 'mutation' });
  ed.area.id = 'mutation-text';
  const params = el('textarea', { id: 'mutation-params', class: 'params', rows: 3, spellcheck: 'false', 'aria-label': 'mutation parameters' });
  params.value = '{"value": "new"}';
  const runMutation = el('button', { id: 'run-mutation', class: 'primary' }, 'Run mutation');
  // Optimistic concurrency: the head the user last saw, sent as Omnigraph-If-Graph-Commit.
  const ifHead = el('input', { id: 'if-head', type: 'checkbox' });
  const expected = el('input', { id: 'expected-head', class: 'mono', size: 28, 'aria-label': 'expected head commit' });
  const refreshHead = async () => {
    try {
      const out = await api.get(api.graphPath(state.graph, `/commits${api.qs({ branch: state.branch, limit: 1 })}`));
      expected.value = (out.commits && out.commits[0] && out.commits[0].graph_commit_id) || '';
    } catch (e) {
      expected.value = '';
    }
  };
  refreshHead();
  const mutationOutcome = el('div', { id: 'mutation-outcome' });

  const file = el('input', { id: 'load-file', type: 'file', accept: '.ndjson,.jsonl,.json,application/x-ndjson' });
  const mode = el('select', { id: 'load-mode', 'aria-label': 'load mode' },
    ['append', 'merge', 'overwrite'].map(m => el('option', { value: m }, m)));
  const upload = el('button', { id: 'run-load', class: 'primary' }, 'Upload');
  const progress = el('progress', { id: 'load-progress', max: 100, value: 0 });
  const percent = el('span', { id: 'load-percent' }, '');
  const loadOutcome = el('div', { id: 'load-outcome' });

  fill(view, el('section', { class: 'write' },
    el('div', { class: 'col' },
      el('h2', {}, `Mutation on ${state.branch}`), ed.root,
      el('label', {}, 'parameters (JSON) ', params),
      el('label', {}, ifHead, ' only if the head is still ', expected, ' ',
        el('button', { type: 'button', onclick: refreshHead }, 'current head')),
      runMutation, mutationOutcome),
    el('div', { class: 'col' },
      el('h2', {}, `Load NDJSON into ${state.branch}`),
      el('p', { class: 'hint' }, 'One entity per line: {"type": "Person", "data": {…}} or {"edge": "Knows", "from": …, "to": …}.'),
      file, el('label', {}, 'mode ', mode), upload, el('div', { class: 'row' }, progress, percent), loadOutcome)));
  // Mutation and load are both 'change' on the branch.
  allowOnly(runMutation, 'change');
  allowOnly(upload, 'change');

  runMutation.addEventListener('click', async () => {
    fill(mutationOutcome, el('p', { class: 'hint' }, 'running…'));
    let p;
    try {
      p = JSON.parse(params.value.trim() || '{}');
    } catch (e) {
      fill(mutationOutcome, el('div', { class: 'outcome error bad-request', role: 'alert', dataset: { kind: 'bad-request' } },
        el('strong', {}, 'The parameters are not JSON'), el('p', {}, e.message)));
      return;
    }
    try {
      const conditional = ifHead.checked;
      const out = await api.post(api.graphPath(state.graph, conditional ? '/mutate/if-graph-commit' : '/mutate'),
        { query: ed.value(), params: p, branch: state.branch },
        conditional ? { 'Omnigraph-If-Graph-Commit': expected.value.trim() } : {});
      if (out.commit) expected.value = out.commit.graph_commit_id;
      fill(mutationOutcome, okBox(`Committed ${out.commit ? out.commit.graph_commit_id : ''} on ${out.branch}`,
        `${out.affected_nodes} node${out.affected_nodes === 1 ? '' : 's'} and ${out.affected_edges} edge${out.affected_edges === 1 ? '' : 's'} affected.`));
    } catch (e) {
      fill(mutationOutcome, errorBox(e));
      if (e.status === 400) ed.markError(errorPosition(e.body && e.body.error));
    }
  });

  upload.addEventListener('click', async () => {
    const f = file.files && file.files[0];
    if (!f) {
      fill(loadOutcome, el('div', { class: 'outcome error', role: 'alert', dataset: { kind: 'bad-request' } }, el('strong', {}, 'Choose a file first.')));
      return;
    }
    upload.disabled = true;
    progress.value = 0;
    fill(loadOutcome, el('p', { class: 'hint' }, `uploading ${f.name}…`));
    const path = api.graphPath(state.graph, `/load/ndjson${api.qs({ mode: mode.value, branch: state.branch })}`);
    try {
      const out = await api.upload(path, f, 'application/x-ndjson', (sent, total) => {
        const pct = total ? Math.round((100 * sent) / total) : 0;
        progress.value = pct;
        percent.textContent = sent >= total ? `${pct}% sent, the service is writing…` : `${pct}%`;
      });
      progress.value = 100;
      percent.textContent = '100%';
      const commit = out.commit ? out.commit.graph_commit_id : '';
      fill(loadOutcome, okBox(`Loaded ${out.total_entities} ${out.total_entities === 1 ? 'entity' : 'entities'} in commit ${commit}`,
        [...(out.nodes || []), ...(out.edges || [])].map(t => `${t.name}: ${t.entities_loaded}`).join(', ')),
      el('a', { href: '#history', id: 'see-history' }, 'See it in the history'));
    } catch (e) {
      fill(loadOutcome, errorBox(e));
    } finally {
      allowOnly(upload, 'change');
    }
  });
}

// ---- health ----------------------------------------------------------------------------------

function parseMetrics(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const l of (m[2] || '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

function sumBy(samples, name, graph, key) {
  const out = new Map();
  for (const s of samples) {
    if (s.name !== name || (graph && s.labels.graph !== graph)) continue;
    const k = key(s.labels);
    out.set(k, (out.get(k) || 0) + s.value);
  }
  return [...out.entries()].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

const CONFLICTS = new Set(['key_conflict', 'read_set_changed', 'precondition_failed', 'conflict']);

async function healthView() {
  const box = el('div', { id: 'health' }, el('p', { class: 'hint' }, 'loading…'));
  const refresh = el('button', { id: 'health-refresh' }, 'Refresh');
  fill(view, el('section', { class: 'health' }, el('h2', {}, 'Health'), refresh, box));
  const load = async () => {
    const parts = [];
    try {
      const h = await api.get('/healthz');
      parts.push(el('dl', { class: 'facts' },
        el('dt', {}, 'service'), el('dd', {}, `${h.status} · API ${h.version} · ${h.source_version || ''}`)));
    } catch (e) {
      parts.push(errorBox(e));
    }
    try {
      const r = await readiness();
      const check = (r.checks || []).find(c => c.name === 'omnigraph-graphs') || { data: {} };
      const data = check.data || {};
      const graphs = Object.keys(data).filter(k => k.endsWith('.state')).map(k => k.slice(0, -6));
      parts.push(el('h3', {}, `Readiness: ${r.status}`), table(['graph', 'state', 'open', 'reason'],
        graphs.map(g => ({ graph: g, state: data[`${g}.state`], open: data[`${g}.open`], reason: data[`${g}.reason`] || '' })),
        { rowClass: row => (row.state === 'up' ? 'good' : 'bad') }));
    } catch (e) {
      parts.push(errorBox(e));
    }
    try {
      const lease = await api.get(api.graphPath(state.graph, '/lease'));
      parts.push(el('h3', {}, 'Writer lease'), el('dl', { class: 'facts', id: 'lease' },
        el('dt', {}, 'this service'), el('dd', {}, lease.role),
        el('dt', {}, 'holder'), el('dd', {}, lease.holder ? `${lease.holder.host} pid ${lease.holder.pid}` : 'none'),
        el('dt', {}, 'live'), el('dd', {}, show(lease.live)),
        el('dt', {}, 'expires'), el('dd', {}, lease.expires_at_micros ? time(lease.expires_at_micros) : '—')));
    } catch (e) {
      parts.push(el('h3', {}, 'Writer lease'), errorBox(e));
    }
    try {
      const samples = parseMetrics(await api.text('/q/metrics'));
      const writes = sumBy(samples, 'omnigraph_writes_total', state.graph, l => l.outcome);
      const total = writes.reduce((a, [, v]) => a + v, 0);
      const conflicts = writes.filter(([k]) => CONFLICTS.has(k)).reduce((a, [, v]) => a + v, 0);
      const pending = sumBy(samples, 'omnigraph_recovery_pending_sidecars', state.graph, () => 'pending');
      const recovery = sumBy(samples, 'omnigraph_recovery_outcomes_total', state.graph, l => `${l.verdict} / ${l.action}`);
      parts.push(el('h3', {}, `Metrics of ${state.graph}`),
        el('dl', { class: 'facts', id: 'metrics' },
          el('dt', {}, 'writes'), el('dd', {}, String(total)),
          el('dt', {}, 'conflicts'), el('dd', {}, String(conflicts)),
          el('dt', {}, 'pending recovery sidecars'), el('dd', {}, String(pending.length ? pending[0][1] : 0))),
        el('h4', {}, 'Writes by outcome'), table(['outcome', 'count'], writes.map(([outcome, count]) => ({ outcome, count }))),
        el('h4', {}, 'Recovery outcomes'), recovery.length === 0 ? el('p', { class: 'hint' }, 'none')
          : table(['verdict / action', 'count'], recovery.map(([k, count]) => ({ 'verdict / action': k, count }))));
    } catch (e) {
      parts.push(errorBox(e));
    }
    fill(box, parts);
    refreshDot();
  };
  refresh.addEventListener('click', load);
  await load();
  state.timer = setInterval(load, 10000);
}

start();
refreshDot();
setInterval(refreshDot, 15000);
