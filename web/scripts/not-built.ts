/**
 * Prints the placeholder routes (router.tsx `notBuilt(...)`) as a markdown table, for web/NOT_BUILT.md:
 *   node node_modules/tsx/dist/cli.mjs --tsconfig web/tsconfig.json web/scripts/not-built.ts   (from the repo root)
 */
import { routes } from '../src/router';

type R = { path?: string; handle?: { title?: string; notBuilt?: boolean }; children?: R[] };
const rows: string[] = [];
const walk = (list: R[]) => {
  for (const r of list) {
    if (r.path && r.handle?.notBuilt) rows.push(`| \`${r.path}\` | ${r.handle.title} |`);
    if (r.children) walk(r.children);
  }
};
walk(routes as R[]);
console.log(['| Route | Title |', '|---|---|', ...rows].join('\n'));
