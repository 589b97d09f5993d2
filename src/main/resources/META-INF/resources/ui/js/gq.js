// The .gq / .pg text tools of the console: a tokenizer for highlighting, the editor (a textarea
// over a highlighted copy of its text), the schema's types, and what a read's match clause binds
// (which columns are nodes, which traversals join them) for drawing a result as a graph.

import { el, fill } from './dom.js';

const KEYWORDS = new Set(['query', 'match', 'return', 'order', 'limit', 'not', 'insert', 'update', 'delete',
  'set', 'where', 'as', 'asc', 'desc', 'node', 'edge', 'true', 'false', 'null', 'count', 'sum', 'avg',
  'min', 'max', 'contains', 'starts_with', 'now', 'date', 'datetime', 'nearest', 'search', 'fuzzy',
  'match_text', 'bm25', 'rrf', 'interface', 'implements', 'enum']);

const TOKEN = /(\/\/[^\n]*)|("(?:[^"\\\n]|\\.)*"?)|(\$[A-Za-z_][A-Za-z0-9_]*)|(@[A-Za-z_]+)|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\s+)|(.)/gs;

/** The text as [text, class] pieces; joined, the pieces are exactly the text. */
export function tokens(text) {
  const out = [];
  TOKEN.lastIndex = 0;
  let m;
  while ((m = TOKEN.exec(text)) !== null) {
    const [t, comment, string, variable, annotation, number, word] = m;
    let cls = null;
    if (comment) cls = 'tk-comment';
    else if (string) cls = 'tk-string';
    else if (variable) cls = 'tk-var';
    else if (annotation) cls = 'tk-annotation';
    else if (number) cls = 'tk-number';
    else if (word) cls = KEYWORDS.has(word) ? 'tk-keyword' : /^[A-Z]/.test(word) ? 'tk-type' : null;
    out.push([t, cls]);
  }
  return out;
}

/** Highlighted text as DOM nodes; `mark` ({line, column}) underlines the token there. */
export function highlight(text, mark) {
  const nodes = [];
  let line = 1;
  let column = 1;
  for (const [t, cls] of tokens(text)) {
    const marked = mark && line === mark.line && column <= mark.column && mark.column < column + t.length
      && !/^\s+$/.test(t);
    const c = [cls, marked ? 'tk-error' : null].filter(Boolean).join(' ');
    nodes.push(c ? el('span', { class: c }, t) : document.createTextNode(t));
    for (const ch of t) {
      if (ch === '\n') { line++; column = 1; } else column++;
    }
  }
  // A trailing newline needs content after it, or the copy ends one line short of the textarea.
  nodes.push(document.createTextNode('\n'));
  return nodes;
}

/** A highlighting editor; read-only for the schema. */
export function editor(initial, { readOnly = false, rows = 12, label = 'query' } = {}) {
  const code = el('pre', { class: 'hl', 'aria-hidden': 'true' });
  const area = el('textarea', { class: 'src', spellcheck: 'false', rows, 'aria-label': label, readonly: readOnly || null });
  area.value = initial;
  let mark = null;
  const render = () => fill(code, highlight(area.value, mark));
  area.addEventListener('input', () => { mark = null; render(); });
  area.addEventListener('scroll', () => { code.scrollTop = area.scrollTop; code.scrollLeft = area.scrollLeft; });
  area.addEventListener('keydown', e => {
    if (e.key === 'Tab' && !readOnly) {
      e.preventDefault();
      area.setRangeText('  ', area.selectionStart, area.selectionEnd, 'end');
      render();
    }
  });
  render();
  return {
    root: el('div', { class: 'editor' }, code, area),
    area,
    value: () => area.value,
    setValue(v) { area.value = v; mark = null; render(); },
    /** Marks line:column (1-based) and puts the caret there. */
    markError(position) {
      mark = position;
      render();
      if (!position) return;
      const lines = area.value.split('\n');
      let offset = 0;
      for (let i = 0; i < position.line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
      offset += Math.max(0, position.column - 1);
      area.setSelectionRange(offset, offset);
    },
  };
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The node and edge types of a schema source, with their property names. */
export function parseSchema(source) {
  const nodes = new Map();
  const edges = new Map();
  const text = source.replace(/\/\/[^\n]*/g, '');
  const decl = /\b(node|edge)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([A-Za-z_]\w*)\s*->\s*([A-Za-z_]\w*))?[^{\n]*(\{([^}]*)\})?/g;
  let m;
  while ((m = decl.exec(text)) !== null) {
    const props = [];
    // Blob properties: bytes, not values of a query (T24); the console reads them through /blob.
    const blobs = [];
    for (const line of (m[6] || '').split(/[\n,]/)) {
      const p = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(Blob\b)?/.exec(line);
      if (p) (p[2] ? blobs : props).push(p[1]);
    }
    if (m[1] === 'node') nodes.set(m[2], { name: m[2], props, blobs });
    else edges.set(m[2].toLowerCase(), { name: m[2], from: m[3], to: m[4], props, blobs });
  }
  return { nodes, edges };
}

/** The index just past the `}` closing the block whose `{` ends right before `from`. */
function afterBlock(text, from) {
  let depth = 1;
  let j = from;
  while (j < text.length && depth > 0) {
    if (text[j] === '{') depth++;
    else if (text[j] === '}') depth--;
    j++;
  }
  return j;
}

/** Text with every `not { … }` block removed (its variables stay inside it). */
function withoutNegations(body) {
  let out = '';
  let i = 0;
  const re = /\bnot\s*\{/g;
  let m;
  while ((m = re.exec(body)) !== null) {
    out += body.slice(i, m.index);
    const j = afterBlock(body, re.lastIndex);
    i = j;
    re.lastIndex = j;
  }
  return out + body.slice(i);
}

/** The brace-balanced block after `match` of the query named `name` (else the first query). */
function matchBlock(text, name) {
  const clean = text.replace(/\/\/[^\n]*/g, '').replace(/"(?:[^"\\]|\\.)*"/g, '""');
  let start = 0;
  if (name) {
    const q = new RegExp(`\\bquery\\s+${name}\\b`).exec(clean);
    if (q) start = q.index;
  }
  const m = /\bmatch\s*\{/g;
  m.lastIndex = start;
  const found = m.exec(clean);
  if (!found) return '';
  return clean.slice(m.lastIndex, afterBlock(clean, m.lastIndex) - 1);
}

/**
 * What a read binds: node variables with their types, and the traversals between them
 * ({from, edge, to, hops}). Types of traversal endpoints come from the schema's edge when the
 * match does not bind them explicitly.
 */
export function analyze(text, schema, name) {
  const body = withoutNegations(matchBlock(text, name));
  const vars = new Map();
  const traversals = [];
  const binding = /\$([A-Za-z_]\w*)\s*:\s*([A-Z]\w*)/g;
  let m;
  while ((m = binding.exec(body)) !== null) {
    if (schema.nodes.has(m[2])) vars.set(m[1], m[2]);
  }
  const step = /\$([A-Za-z_]\w*)\s+(?:\$[A-Za-z_]\w*\s*:\s*)?(<?)"?([A-Za-z_]\w*)"?>?(\{\s*\d+\s*,\s*\d+\s*\})?\s+\$([A-Za-z_]\w*)/g;
  while ((m = step.exec(body)) !== null) {
    const edge = schema.edges.get(m[3].toLowerCase());
    if (!edge) continue;
    step.lastIndex = m.index + 1 + m[1].length;
    traversals.push({ from: m[1], edge: edge.name, to: m[5], hops: m[4] ? m[4].replace(/\s+/g, '') : '', undirected: m[2] === '<' });
    if (!vars.has(m[1]) && edge.from) vars.set(m[1], edge.from);
    if (!vars.has(m[5]) && edge.to) vars.set(m[5], edge.to);
  }
  return { vars, traversals };
}

/**
 * The node-link elements of a result: each column named after a node variable is a node id;
 * each traversal between two such columns an edge, per row. Null when nothing can be drawn.
 */
export function resultGraph(result, analysis) {
  const nodeColumns = (result.columns || []).filter(c => analysis.vars.has(c));
  if (nodeColumns.length === 0) return null;
  const links = analysis.traversals.filter(t => nodeColumns.includes(t.from) && nodeColumns.includes(t.to));
  const nodes = new Map();
  const edges = new Map();
  // Nodes and edges share cytoscape's one id namespace, and keys are arbitrary strings, so ids are
  // built to be unambiguous (issue 44 item 8): a kind prefix keeps a node from ever taking an
  // edge's id, and JSON-encoded parts keep a key holding "|" or ":" from spelling another node's or
  // edge's id.
  const key = (v, id) => `n:${JSON.stringify([analysis.vars.get(v), String(id)])}`;
  for (const row of result.rows || []) {
    for (const c of nodeColumns) {
      const id = row[c];
      if (id == null) continue;
      const k = key(c, id);
      if (!nodes.has(k)) nodes.set(k, { id: k, label: String(id), type: analysis.vars.get(c), entityId: String(id) });
    }
    for (const t of links) {
      if (row[t.from] == null || row[t.to] == null) continue;
      const source = key(t.from, row[t.from]);
      const target = key(t.to, row[t.to]);
      const k = `e:${JSON.stringify([source, t.edge + t.hops, target])}`;
      if (!edges.has(k)) edges.set(k, { id: k, source, target, label: t.edge + t.hops, undirected: t.undirected });
    }
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** A read of one node's properties by id; the type and property names are checked identifiers. */
export function nodeQuery(schema, type) {
  const node = schema.nodes.get(type);
  if (!node || !IDENT.test(type)) return null;
  const props = node.props.filter(p => IDENT.test(p) && p !== 'id');
  const items = ['$n.id as id', ...props.map(p => `$n.${p} as ${p}`)];
  return `query console_node($id: String) {\n  match {\n    $n: ${type}\n    $n.id = $id\n  }\n  return { ${items.join(', ')} }\n}`;
}
