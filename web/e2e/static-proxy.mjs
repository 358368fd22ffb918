import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  // pdf.js's worker (documents) is bundled as an .mjs file.
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

/**
 * Serves a built bundle (dist-mobile) with the index.html fallback and forwards API paths to the real
 * server, so the mobile-mode bundle runs same-origin like the Capacitor shell's local server.
 */
export function startStaticProxy(dir, apiBase) {
  const api = new URL(apiBase);
  const isApi = (req) =>
    /^\/(api|sanctum|graphql|logout)(\/|$|\?)/.test(req.url) ||
    (req.method !== 'GET' && /^\/(login|register)(\/|$|\?)/.test(req.url));
  const server = createServer((req, res) => {
    if (isApi(req)) {
      const upstream = request(
        {
          host: api.hostname,
          port: api.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: api.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
      return;
    }
    const clean = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(dir, clean);
    if (!file.startsWith(dir) || !existsSync(file) || statSync(file).isDirectory())
      file = path.join(dir, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  // The matrix websocket (/api/ws): the upgrade request is passed on as it came and the two sockets joined, as the
  // shell's API host would answer it.
  server.on('upgrade', (req, socket, head) => {
    if (!isApi(req)) return socket.destroy();
    const upstream = connect(Number(api.port), api.hostname, () => {
      const headers = Object.entries({ ...req.headers, host: api.host })
        .map(([name, value]) => `${name}: ${value}`)
        .join('\r\n');
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
