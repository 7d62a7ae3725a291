// Imported first by the entry points (server/main.ts, the GraphQL bench): graphql-js decides once, as it
// is loaded, whether to run its development-mode checks (a cross-realm `instanceOf` on every type test,
// about a fifth of a query's CPU). ES modules evaluate their imports in order, depth first, so this
// module's line runs before any later import loads graphql. An explicit NODE_ENV is kept (tests run
// in development mode).
process.env.NODE_ENV ??= 'production';
