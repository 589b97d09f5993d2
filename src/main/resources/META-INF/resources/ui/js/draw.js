// Node-link drawings (query results and the commit DAG) with cytoscape.js. Labels are data that
// cytoscape paints on a canvas as text, so markup in them is never interpreted.

import cytoscape from '../vendor/cytoscape/cytoscape.esm.min.js';

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f'];

function colorOf(type, types) {
  let i = types.indexOf(type);
  if (i < 0) { types.push(type); i = types.length - 1; }
  return PALETTE[i % PALETTE.length];
}

/** Draws a result graph ({nodes, edges}) into container; onNode(node data) on a click. */
export function drawResult(container, graph, onNode) {
  const types = [];
  return mount(container, {
    elements: [
      ...graph.nodes.map(n => ({ data: { ...n, color: colorOf(n.type, types) } })),
      ...graph.edges.map(e => ({ data: e, classes: e.undirected ? 'undirected' : '' })),
    ],
    style: [
      { selector: 'node', style: { 'background-color': 'data(color)', label: 'data(label)', 'font-size': 11,
        'text-valign': 'bottom', 'text-margin-y': 4, width: 26, height: 26 } },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#222' } },
      { selector: 'edge', style: { width: 1.5, 'line-color': '#999', 'target-arrow-color': '#999',
        'target-arrow-shape': 'triangle', 'curve-style': 'bezier', label: 'data(label)', 'font-size': 9,
        'text-rotation': 'autorotate', color: '#555' } },
      { selector: 'edge.undirected', style: { 'target-arrow-shape': 'none' } },
    ],
    layout: { name: graph.nodes.length > 1 ? 'cose' : 'grid', animate: false, padding: 20 },
    maxZoom: 2,
    padding: 30,
  }, node => onNode(node.data()));
}

/** Draws commits (newest first, as listed) as a DAG; onCommit(id) on a click. */
export function drawHistory(container, commits, onCommit) {
  const ids = new Set(commits.map(c => c.graph_commit_id));
  // One row per commit at a readable size, the box scrolling past a screenful: fitting 20 commits
  // into a fixed box shrank them until the labels overlapped (issue 45).
  container.style.height = `${Math.max(320, commits.length * HISTORY_ROW_PX + 40)}px`;
  const elements = [];
  for (const c of commits) {
    const actor = c.actor_id || 'anonymous';
    elements.push({ data: { id: c.graph_commit_id, label: `${c.graph_commit_id.slice(-8)}\n${actor}` },
      classes: c.merged_parent_commit_id ? 'merge' : '' });
  }
  for (const c of commits) {
    if (c.parent_commit_id && ids.has(c.parent_commit_id)) {
      elements.push({ data: { id: `p:${c.graph_commit_id}`, source: c.parent_commit_id, target: c.graph_commit_id } });
    }
    if (c.merged_parent_commit_id && ids.has(c.merged_parent_commit_id)) {
      elements.push({ data: { id: `m:${c.graph_commit_id}`, source: c.merged_parent_commit_id, target: c.graph_commit_id },
        classes: 'merged' });
    }
  }
  return mount(container, {
    elements,
    style: [
      { selector: 'node', style: { 'background-color': '#4e79a7', label: 'data(label)', 'font-size': 10,
        'text-wrap': 'wrap', 'text-halign': 'right', 'text-valign': 'center', 'text-margin-x': 6, width: 14, height: 14 } },
      { selector: 'node.merge', style: { shape: 'diamond', 'background-color': '#e15759', width: 18, height: 18 } },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#222' } },
      { selector: 'edge', style: { width: 2, 'line-color': '#aaa', 'target-arrow-shape': 'triangle',
        'target-arrow-color': '#aaa', 'curve-style': 'bezier' } },
      { selector: 'edge.merged', style: { 'line-style': 'dashed', 'line-color': '#e15759', 'target-arrow-color': '#e15759' } },
    ],
    layout: { name: 'breadthfirst', directed: true, spacingFactor: 0.9, animate: false, padding: 16,
      roots: commits.filter(c => !c.parent_commit_id || !ids.has(c.parent_commit_id)).map(c => c.graph_commit_id) },
    maxZoom: 1.5,
    minZoom: 0.9,
    padding: 16,
    // The page scrolls the history; the wheel must not zoom the drawing out of legibility.
    fixedScale: true,
  }, node => onCommit(node.id()));
}

/** Vertical room per commit in the history drawing: two 10px label lines and the arrow between. */
const HISTORY_ROW_PX = 56;

/**
 * One cytoscape instance in container, fitted; onTap(node) on a node click. The instance stays on
 * its container (container.cy) with its counts in data attributes, for the browser tests and the
 * devtools console.
 */
function mount(container, { elements, style, layout, maxZoom, minZoom, padding, fixedScale }, onTap) {
  const cy = cytoscape({ container, elements, style, layout, wheelSensitivity: 0.3,
    userZoomingEnabled: !fixedScale, userPanningEnabled: !fixedScale });
  cy.on('tap', 'node', e => onTap(e.target));
  cy.maxZoom(maxZoom);
  cy.fit(undefined, padding);
  if (minZoom && cy.zoom() < minZoom) {
    // Wider than the box (many parallel branches): keep the size, show the top, let it scroll.
    cy.zoom(minZoom);
    cy.pan({ x: padding, y: padding });
  }
  container.cy = cy;
  container.dataset.nodeCount = String(cy.nodes().length);
  container.dataset.edgeCount = String(cy.edges().length);
  return cy;
}
