// Every element the console shows is built here: text always goes in as a text node, never as
// markup, so data from the graph (a name holding "<script>") is shown, never run.

/** Creates an element; props set attributes, classes, listeners (onclick …) and dataset. */
export function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'disabled') e[k] = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  appendAll(e, children);
  return e;
}

function appendAll(parent, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    parent.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  appendAll(node, children);
  return node;
}

/** A value as display text: JSON for objects and lists, '' for null. */
export function show(v) {
  if (v == null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Microseconds since the epoch as a local date-time. */
export function time(micros) {
  if (micros == null) return '';
  return new Date(Math.floor(Number(micros) / 1000)).toLocaleString();
}

/** A table of rows (objects) under the given columns. */
export function table(columns, rows, { onRow, rowClass } = {}) {
  return el('table', { class: 'grid' },
    el('thead', {}, el('tr', {}, columns.map(c => el('th', {}, c)))),
    el('tbody', {}, rows.map(r => el('tr', {
      class: rowClass ? rowClass(r) : null,
      onclick: onRow ? () => onRow(r) : null,
    }, columns.map(c => el('td', {}, show(r[c])))))));
}
