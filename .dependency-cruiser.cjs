/**
 * The import direction of server/ (ARCHITECTURE.md): doors -> areas -> base.
 * Doors parse and call; areas hold the rules; base is plumbing every area shares.
 */
const BASE = '(core|db|events|shared)';
const DOORS = '(http|trpc|jobs|demo)';
const ROOT_DOORS = '(cli|index|bootstrap)[.]ts';
const AREA = `(?!${BASE}/|${DOORS}/)[^/]+`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Areas form a strict hierarchy; a cycle means a rule has two homes.',
      from: { path: '^server/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'base-imports-only-base',
      severity: 'error',
      comment: 'core, db, events and shared never reach up into an area or a door.',
      from: { path: `^server/${BASE}/` },
      to: { path: '^server/', pathNot: `^server/${BASE}/` },
    },
    {
      name: 'areas-never-import-doors',
      severity: 'error',
      comment: 'An area is called by doors; it never knows which door called it.',
      from: { path: `^server/${AREA}/` },
      to: { path: `^server/(${DOORS}/|${ROOT_DOORS})` },
    },
    {
      name: 'other-areas-only-through-index',
      severity: 'error',
      comment:
        "Another area's internals are private: import what its index.ts exports (doors too).",
      from: { path: '^server/([^/]+)/' },
      to: {
        path: `^server/${AREA}/`,
        pathNot: ['^server/$1/', `^server/${AREA}/index[.]ts$`],
      },
    },
    {
      name: 'root-doors-only-through-index',
      severity: 'error',
      comment: 'cli.ts, index.ts and bootstrap.ts call areas through their index.ts too.',
      from: { path: `^server/${ROOT_DOORS}$` },
      to: { path: `^server/${AREA}/`, pathNot: `^server/${AREA}/index[.]ts$` },
    },
    {
      name: 'doors-hold-no-sql',
      severity: 'error',
      comment: 'Routes and procedures parse and call; queries belong to an area.',
      from: { path: `^server/(http|trpc)/` },
      to: { path: '^server/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'flag-rows-only-through-flags',
      severity: 'error',
      comment:
        'Per-user flag rows are sparse (db/DESIGN.md): only the flags area writes or reads them raw.',
      from: { path: '^server/', pathNot: ['^server/flags/', '^server/narrow/access[.]ts$'] },
      to: { path: '^server/db/queries/flags[.]ts$' },
    },
    // narrow/access.ts is the one exception: who holds a flag row is who
    // received the message (Zulip's UserMessage), and flags/ sits above
    // narrow/ (it checks access through it), so the access rule reads it raw.
    {
      name: 'demo-seed-writes-only-backdated-history',
      severity: 'error',
      comment:
        "The --demo seed makes people, bots and settings through the areas' operations; " +
        'only the week of backdated history (channels with their subscribers, messages with ' +
        'past timestamps, DM groups), which no operation writes, goes in as rows, and users ' +
        'are only read or given the shared demo password hash.',
      from: { path: '^server/demo/' },
      to: {
        path: '^server/db/',
        pathNot: '^server/db/queries/(dm-groups|messages|streams|users)[.]ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'main-only-through-entry-points',
      severity: 'error',
      comment:
        'main/ is a thin shell: it starts the server through server/index.ts, bootstrap.ts, ' +
        'data-dir.ts and node-flags.ts, and uses areas and the tRPC door through their ' +
        'index.ts; ipc-wire.ts is the one file the preload bundles (constants, no server).',
      from: { path: '^main/' },
      to: {
        path: '^server/',
        pathNot: [
          '^server/(index|bootstrap|data-dir|node-flags)[.]ts$',
          '^server/[^/]+/index[.]ts$',
          '^server/trpc/ipc-wire[.]ts$',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'server-never-imports-electron',
      severity: 'error',
      comment: 'server/ runs headless on plain Node; main/ is the Electron shell.',
      from: { path: '^server/' },
      to: { path: '(^|/)node_modules/electron/|^electron$' },
    },
    {
      name: 'server-never-imports-main-or-renderer',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(main|renderer)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
