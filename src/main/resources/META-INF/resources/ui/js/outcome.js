// Typed outcomes in words a user can act on. Decided from the status and the typed detail of the
// server's ErrorOutput (key_conflict, read_set_conflict, precondition_failure, resource_limit,
// recovery_required), never from the message text; the message is shown as the server wrote it.

import { el } from './dom.js';

/** Where a query error points: "L:C: …" at the start of the message. */
export function errorPosition(message) {
  const m = /^(\d+):(\d+):/.exec(message || '');
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}

/** {kind, title, advice} for a failed request. */
export function describe(error) {
  const status = error.status;
  const body = error.body || {};
  const message = body.error || error.message || '';
  if (status === 0) {
    return { kind: 'unavailable', title: 'The service did not answer', advice: message };
  }
  if (status === 401) {
    return { kind: 'unauthorized', title: 'Not authorized (401)',
      advice: 'Enter a bearer token for this service in the token field at the top and try again.' };
  }
  if (body.key_conflict) {
    const k = body.key_conflict;
    return { kind: 'key-conflict', title: `Key conflict (409): ${k.entity_kind} ${k.type_name} "${k.entity_id}" already exists`,
      advice: `Nothing was written. Give the ${k.type_name} another id, or load with mode "merge" to update the existing one.` };
  }
  if (body.read_set_conflict) {
    const r = body.read_set_conflict;
    return { kind: 'read-set-changed', title: 'The branch moved while this write was prepared (409)',
      advice: `Nothing was written (${r.member}: expected ${r.expected}, now ${r.actual}). Run it again.` };
  }
  if (body.merge_conflicts) {
    return { kind: 'conflict', title: `Merge conflicts (409): ${body.merge_conflicts.length}`,
      advice: body.merge_conflicts.map(c => `${c.kind || ''} ${c.type_name || ''} ${c.entity_id || ''}: ${c.message || ''}`).join('; ') };
  }
  if (status === 412 || body.precondition_failure) {
    const p = body.precondition_failure || {};
    return { kind: 'precondition', title: 'The branch head is not the commit you expected (412)',
      advice: `Nothing was written. Expected ${p.expected || '?'}, the head is ${p.actual || '?'}: reload and decide again.` };
  }
  if (body.resource_limit) {
    const r = body.resource_limit;
    return { kind: 'resource-limit', title: `Too large (${status}): ${r.resource} limit ${r.limit}, got ${r.actual}`,
      advice: status === 408 ? 'The read ran past its time budget: narrow the match or add a limit.'
        : 'Split the input into smaller parts, or narrow the query.' };
  }
  if (status === 413) {
    return { kind: 'resource-limit', title: 'Request too large (413)', advice: message };
  }
  if (body.recovery_required) {
    return { kind: 'recovery', title: 'Writes wait for recovery (503)',
      advice: `An interrupted write (operation ${body.recovery_required.operation_id}) is being recovered; `
        + 'the service retries it in the background. Try again shortly, or run "omnigraph recover".' };
  }
  if (status === 503) {
    const wait = error.retryAfter ? ` Retry after ${error.retryAfter} s.` : ' Retry later.';
    return { kind: 'unavailable', title: 'Service unavailable (503)', advice: message + wait };
  }
  if (status === 409) {
    return { kind: 'conflict', title: 'Conflict (409)', advice: message };
  }
  if (status === 404) {
    return { kind: 'not-found', title: 'Not found (404)', advice: message };
  }
  if (status === 400) {
    const at = errorPosition(message);
    return { kind: 'bad-request', title: at ? `Error at line ${at.line}, column ${at.column}` : 'Bad request (400)',
      advice: message, position: at };
  }
  return { kind: 'error', title: `Error (${status})`, advice: message };
}

/** The outcome box for a failure. */
export function errorBox(error) {
  const d = describe(error);
  return el('div', { class: `outcome error ${d.kind}`, role: 'alert', dataset: { kind: d.kind } },
    el('strong', {}, d.title), el('p', {}, d.advice));
}

/** The outcome box for a success. */
export function okBox(title, detail) {
  return el('div', { class: 'outcome ok', role: 'status', dataset: { kind: 'ok' } },
    el('strong', {}, title), detail ? el('p', {}, detail) : null);
}
