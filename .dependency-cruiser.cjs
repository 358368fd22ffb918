// Issue 34 §1: layers that point one way. The server's lower layers (http, db, jobs, auth, mail, storage, security:
// README "Repository layout") never import a capability or the composition at the top (bootstrap.ts, main.ts,
// register-jobs.ts, demo/); capabilities talk to them through events and registries wired at the top. `npm run lint`
// runs this check; the imports that broke the rule before it was enforced are listed in
// .dependency-cruiser-known-violations.json (each a debt to pay; the list only shrinks), and any other fails the lint.
const LOWER = '(http|db|jobs|auth|mail|storage|security)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lower-layer-imports-capability',
      comment:
        'A lower layer (http, db, jobs, auth, mail, storage, security) imports a capability or the composition above it: publish ' +
        'an event or take a registry entry instead, and wire the capability in at the top (bootstrap.ts).',
      severity: 'error',
      from: { path: `^server/src/${LOWER}/`, pathNot: '(\\.test|-test-support)\\.ts$' },
      to: {
        path: '^server/src/',
        pathNot: [`^server/src/${LOWER}/`, '^server/src/config\\.ts$'],
      },
    },
    {
      name: 'no-circular',
      comment:
        'Modules that import each other, directly or round a loop, cannot be understood or tested one at a time.',
      severity: 'error',
      from: { path: '^(server/src|web/src)/', pathNot: '\\.test\\.tsx?$' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(node_modules|/dist/|\\.test\\.tsx?$)' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
