import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A webhook receiver for tests (server tests and the browser test): records what it receives, answers as told. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Status codes of the next answers, in order (then 200). */
  answer(...codes: number[]): void;
  /** Forgets what was received and the answers still queued (a test that used fewer than it queued). */
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const queue: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const code = queue.shift() ?? 200;
      res.writeHead(code, { 'content-type': 'text/plain' });
      res.end(code < 300 ? 'ok, received' : `failure ${code}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    answer: (...codes) => queue.push(...codes),
    reset: () => {
      received.length = 0;
      queue.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
