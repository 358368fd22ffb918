import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built web app (web/dist); the same path from server/src and from the server/dist bundle. */
export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
