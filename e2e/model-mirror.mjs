#!/usr/bin/env node
/**
 * Test-only static "hub mirror" for the end-to-end tests: serves test/models/<name>/<file> at the hub's URL
 * layout `/<name>/resolve/<revision>/<file>` (any revision), on loopback only.
 *
 *   node e2e/model-mirror.mjs [--port 4180] [--root test/models] [--max-mb 256]
 *
 * - CORS `Access-Control-Allow-Origin: *` and `Cross-Origin-Resource-Policy: cross-origin` (the app is
 *   cross-origin isolated), Range requests (transformers.js asks for `bytes=0-0` to learn sizes),
 *   `Cache-Control: no-store` (so every fetch the page makes reaches this server and is counted), 404 for
 *   missing files, nothing outside the root.
 * - Control (for the tests, never needed by the app):
 *     GET  /__health                     → ok
 *     GET  /__log                        → { requests: [{ method, path, range, status }] } (last 2000)
 *     POST /__reset                      → clears the log and every fault
 *     POST /__fault?model=M&file=F&mode=html|truncate|cut|endless   (mode=off removes it)
 *        html:     a 200 HTML page instead of the file (a login wall / portal)
 *        truncate: the first 40% of the file, with a matching (short) Content-Length
 *        cut:      the full Content-Length, then the connection is closed after 40% of the bytes
 *        endless:  no Content-Length and bytes for as long as the client reads (range probes still answered)
 */
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const PORT = Number(arg('port', process.env.MIRROR_PORT ?? '4180'));
const ROOT = resolve(arg('root', fileURLToPath(new URL('../test/models/', import.meta.url))));
const MAX_LOG = 2000;
const MAX_FILE = Number(arg('max-mb', '256')) * 1024 * 1024;

/** @type {{ method: string, path: string, range: string | null, status: number }[]} */
let log = [];
/** @type {Map<string, 'html' | 'truncate' | 'cut' | 'endless'>} key: `${model}/${file}` */
const faults = new Map();

const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Range, Content-Type',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Content-Type, Accept-Ranges, ETag',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Cache-Control': 'no-store',
};

const contentType = (file) => (file.endsWith('.json') ? 'application/json; charset=utf-8' : 'application/octet-stream');

function send(res, status, body, headers = {}) {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  res.writeHead(status, { ...cors, 'Content-Length': buf.length, ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : buf);
}

async function serveFile(req, res, model, file) {
  const path = resolve(ROOT, model, file);
  if (!path.startsWith(ROOT + sep)) return send(res, 404, 'not found', { 'Content-Type': 'text/plain' });
  let info;
  try {
    info = await stat(path);
  } catch {
    return send(res, 404, `Entry not found: ${model}/${file}`, { 'Content-Type': 'text/plain' });
  }
  if (!info.isFile() || info.size > MAX_FILE) return send(res, 404, 'not found', { 'Content-Type': 'text/plain' });
  let bytes = await readFile(path);
  const fault = faults.get(`${model}/${file}`);
  if (fault === 'html')
    return send(
      res,
      200,
      '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><h1>Please sign in to continue</h1></body></html>\n',
      { 'Content-Type': 'text/html; charset=utf-8' },
    );
  if (fault === 'truncate') bytes = bytes.subarray(0, Math.floor(bytes.length * 0.4));
  const type = contentType(file);
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  if (range) {
    const start = Number(range[1]);
    const end = Math.min(range[2] ? Number(range[2]) : bytes.length - 1, bytes.length - 1);
    if (start >= bytes.length || start > end) return send(res, 416, '', { 'Content-Range': `bytes */${bytes.length}` });
    return send(res, 206, bytes.subarray(start, end + 1), {
      'Content-Type': type,
      'Content-Range': `bytes ${start}-${end}/${bytes.length}`,
      'Accept-Ranges': 'bytes',
    });
  }
  if (fault === 'endless') {
    // No length, and bytes for as long as the client reads (a host that never stops sending).
    res.writeHead(200, { ...cors, 'Content-Type': type });
    if (req.method === 'HEAD') return res.end();
    const chunk = Buffer.alloc(1024 * 1024, 32);
    const pump = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', pump);
    };
    return pump();
  }
  if (fault === 'cut') {
    res.writeHead(200, { ...cors, 'Content-Type': type, 'Content-Length': bytes.length, 'Accept-Ranges': 'bytes' });
    if (req.method === 'HEAD') return res.end();
    res.write(bytes.subarray(0, Math.floor(bytes.length * 0.4)), () => setTimeout(() => res.destroy(), 20));
    return;
  }
  return send(res, 200, bytes, { 'Content-Type': type, 'Accept-Ranges': 'bytes' });
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://mirror');
  let path;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return send(res, 400, 'bad path');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...cors, 'Access-Control-Max-Age': '600' });
    return res.end();
  }
  if (path === '/__health') return send(res, 200, 'ok', { 'Content-Type': 'text/plain' });
  if (path === '/__log') return send(res, 200, { requests: log }, { 'Content-Type': 'application/json' });
  if (path === '/__reset' && req.method === 'POST') {
    log = [];
    faults.clear();
    return send(res, 200, { ok: true }, { 'Content-Type': 'application/json' });
  }
  if (path === '/__fault' && req.method === 'POST') {
    const model = url.searchParams.get('model') ?? '';
    const file = url.searchParams.get('file') ?? '';
    const mode = url.searchParams.get('mode') ?? '';
    if (!model || !file || !['html', 'truncate', 'cut', 'endless', 'off'].includes(mode))
      return send(res, 400, { error: 'need model, file and mode=html|truncate|cut|endless|off' });
    if (mode === 'off') faults.delete(`${model}/${file}`);
    else faults.set(`${model}/${file}`, /** @type {'html' | 'truncate' | 'cut' | 'endless'} */ (mode));
    return send(res, 200, { ok: true, faults: [...faults] }, { 'Content-Type': 'application/json' });
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');

  const entry = { method: req.method, path, range: req.headers.range ?? null, status: 0 };
  if (log.length >= MAX_LOG) log.shift();
  log.push(entry);
  res.on('finish', () => (entry.status = res.statusCode));
  res.on('close', () => (entry.status ||= res.statusCode));
  // /<name>/resolve/<revision>/<file…>, with <name> optionally owner/name.
  const m = /^\/((?:[\w.-]+\/)?[\w.-]+)\/resolve\/[^/]+\/(.+)$/.exec(path);
  if (!m || path.includes('..')) return send(res, 404, 'not found', { 'Content-Type': 'text/plain' });
  try {
    await serveFile(req, res, m[1], m[2]);
  } catch (e) {
    if (!res.headersSent) send(res, 500, String(e), { 'Content-Type': 'text/plain' });
    else res.destroy();
  }
});

server.headersTimeout = 10_000;
server.requestTimeout = 30_000;
server.listen(PORT, '127.0.0.1', () => console.log(`model mirror: http://localhost:${PORT}/ → ${ROOT}`));
// "localhost" may resolve to ::1 first; serve there too when the machine has IPv6 loopback.
const v6 = createServer(server.listeners('request')[0]);
v6.on('error', () => undefined);
v6.listen(PORT, '::1');
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
