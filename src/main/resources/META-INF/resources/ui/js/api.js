// The public HTTP API, with the user's bearer token. The token lives in session storage (gone
// when the tab closes) and travels only in the Authorization header, never in a URL.

const TOKEN_KEY = 'omnigraph.console.token';

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY) || '',
  set(value) {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
};

/** A failed request: the HTTP status and the server's ErrorOutput body. */
export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.retryAfter = retryAfter;
  }
}

function headers(extra = {}) {
  const h = { Accept: 'application/json', ...extra };
  const t = token.get();
  if (t) h.Authorization = `Bearer ${t}`;
  return h;
}

async function parse(response) {
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch (e) {
    body = { error: text };
  }
  if (!response.ok) throw new ApiError(response.status, body, response.headers.get('Retry-After'));
  return body;
}

async function send(path, init) {
  let response;
  try {
    response = await fetch(path, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, { error: `the service did not answer (${e.message})` });
  }
  return parse(response);
}

export const enc = encodeURIComponent;

/** A route of one graph, e.g. graphPath('default', '/commits'). */
export function graphPath(graph, rest) {
  return `/graphs/${enc(graph)}${rest}`;
}

/** A query string of the defined values. */
export function qs(params) {
  const entries = Object.entries(params).filter(([, v]) => v != null && v !== '');
  return entries.length ? '?' + entries.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&') : '';
}

export function get(path) {
  return send(path, { headers: headers() });
}

export function post(path, body, extraHeaders = {}) {
  return send(path, {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json', ...extraHeaders }),
    body: JSON.stringify(body),
  });
}

/** Plain text (the Prometheus metrics). */
export async function text(path) {
  let response;
  try {
    response = await fetch(path, { headers: headers({ Accept: 'text/plain' }), cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, { error: `the service did not answer (${e.message})` });
  }
  if (!response.ok) throw new ApiError(response.status, { error: `HTTP ${response.status}` });
  return response.text();
}

/**
 * Uploads a file as the request body, reporting progress (sent bytes, total) as it goes: fetch()
 * cannot report upload progress, XMLHttpRequest can.
 */
export function upload(path, file, contentType, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    for (const [k, v] of Object.entries(headers({ 'Content-Type': contentType }))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = e => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onerror = () => reject(new ApiError(0, { error: 'the service did not answer' }));
    xhr.onload = () => {
      let body = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch (e) {
        body = { error: xhr.responseText };
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body, xhr.getResponseHeader('Retry-After')));
    };
    xhr.send(file);
  });
}

/**
 * A Blob cell's route answered as bytes (GET, HEAD, PUT /graphs/{id}/blob): the Response itself, so
 * the caller reads its headers (size, type, ETag) and body. An external cell's 302 is not followed
 * (the console's policy connects to this service only): it comes back as an opaque redirect.
 */
export async function blob(path, { method = 'GET', range, ifMatch, body } = {}) {
  const extra = { Accept: '*/*' };
  if (range) extra.Range = range;
  if (ifMatch) extra['If-Match'] = ifMatch;
  if (body) extra['Content-Type'] = 'application/octet-stream';
  let response;
  try {
    response = await fetch(path, { method, headers: headers(extra), body, credentials: 'same-origin', cache: 'no-store', redirect: 'manual' });
  } catch (e) {
    throw new ApiError(0, { error: `the service did not answer (${e.message})` });
  }
  if (response.type === 'opaqueredirect' || response.ok || response.status === 304) return response;
  return parse(response);
}
