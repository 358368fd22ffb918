import { config } from 'zod';

/**
 * In a browser, zod must not generate code: it compiles fast parsers with `new Function` (and probes for it on first
 * use), which the web app's Content-Security-Policy forbids (issue 11 §6), so every page would report a violation.
 * The server keeps the compiled parsers. index.ts imports this first, so it runs before any schema is built or used,
 * whatever chunk the bundler puts the contracts in.
 */
if ('document' in globalThis) config({ jitless: true });
