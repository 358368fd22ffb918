// The stack's ceiling for `npm run bench` (measures/api-reads.ts): one bare Fastify route in its own process, started
// with the same Node flags as the server, answering a small JSON body to the same 200 clients. The API-read throughput
// is printed next to this one's on the same machine in the same run, so the ratio holds on a noisy machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { data: { id: 1, name: 'Bench', email: 'bench@bench.test', permissions: [12, 14, 15] } };
app.get('/api/bare', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`bare Fastify is running at http://127.0.0.1:${process.env.PORT}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
