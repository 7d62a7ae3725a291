// The OpenAPI 3.1 document, generated once at start from the schema registry (inventory resources,
// their fields and filters) and the route tables of inventory, users, tokens and lifecycle.
import { UUID_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import { INVENTORY_RESOURCES } from '../routes/inventory.js';
import { inventorySchemas, OPTIONS_SCHEMA } from './inventory-schemas.js';
import { inventoryPaths, inventoryTag } from './inventory-paths.js';
import { tokenPaths } from './token-paths.js';
import { tokenSchemas } from './token-schemas.js';
import { usersPaths } from './users-paths.js';
import { usersSchemas, USERS_RESOURCES } from './users-schemas.js';
import { resource } from '../../engine/schema/registry.js';
import { jobPaths, jobSchemas } from './job-paths.js';
import { allocationPaths, allocationSchemas } from './allocation-paths.js';
import { changeStreamPaths, changeStreamSchemas } from './change-stream-paths.js';
import { lifecyclePaths } from './lifecycle-paths.js';
import { lifecycleSchemas } from './lifecycle-schemas.js';
import { apiApps, metaPaths } from './meta-paths.js';
import { json, ref, type OpenApiDocument, type PathItem } from './types.js';

export interface DocumentOptions {
  readonly apiVersion: string;
  readonly maxPageSize: number;
  /** MAX_MACHINE_STATES, shown in MachineDefinition's limits (default: the setting's default). */
  readonly maxMachineStates?: number;
  /** The store's id style: ids are integers or UUIDs in every schema and parameter (default UUIDs). */
  readonly ids?: IdStyle;
}

const DESCRIPTION = [
  'Network inventory (Nautobot-style list endpoints with `field`, `field__lookup` and ' +
    '`cf_<name>[__<lookup>]` filters) and an entity lifecycle API.',
  '',
  'Every `/api` request needs `Authorization: Token <key>` (or `Bearer nbt_<key>.<token>`, a v2 token) but ' +
    '`POST /api/users/tokens/provision/`, which makes a token from a username and password; each operation ' +
    "names the permission it needs in `x-permission`, and a token holds its user's permissions.",
  'In this page, press **Authorize** and enter the key (the `Token ` prefix is added when neither `Token ` nor ' +
    '`Bearer ` is given).',
].join('\n');

export function buildOpenApiDocument(opts: DocumentOptions): OpenApiDocument {
  const ids = opts.ids ?? UUID_IDS;
  const served: Record<string, PathItem> = {};
  for (const r of INVENTORY_RESOURCES) Object.assign(served, inventoryPaths(r, opts.maxPageSize, ids));
  Object.assign(
    served,
    allocationPaths(opts.maxPageSize, ids),
    changeStreamPaths(),
    usersPaths(opts.maxPageSize, ids),
    tokenPaths(opts.maxPageSize, ids),
    jobPaths(opts.maxPageSize, ids),
    lifecyclePaths(opts.maxPageSize),
  );
  const paths: Record<string, PathItem> = { ...metaPaths(apiApps(served)), ...served };
  return {
    openapi: '3.1.0',
    info: {
      title: 'netinv: network inventory and entity lifecycle API',
      version: opts.apiVersion,
      description: DESCRIPTION,
    },
    tags: [
      { name: 'lifecycle/machines', description: 'Versioned state machine definitions' },
      { name: 'lifecycle/entities', description: 'Entities held at a state of a machine; events move them' },
      ...INVENTORY_RESOURCES.map(inventoryTag),
      ...[...USERS_RESOURCES, 'token'].map((n) => inventoryTag(resource(n))),
      { name: 'core/jobs', description: 'Background jobs: imports sent with `?background=true`' },
      { name: 'meta', description: 'Service information' },
    ],
    paths,
    components: {
      schemas: {
        ...inventorySchemas(INVENTORY_RESOURCES, ids),
        ...allocationSchemas(ids),
        ...changeStreamSchemas(),
        OptionsMetadata: OPTIONS_SCHEMA,
        ...usersSchemas(ids),
        ...tokenSchemas(ids),
        ...jobSchemas(ids),
        ...lifecycleSchemas(opts.maxMachineStates),
      },
      securitySchemes: {
        Token: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: '`Token <key>` or `Bearer nbt_<key>.<token>`',
        },
      },
      responses: {
        Unauthorized: {
          description: 'Missing or unknown token',
          headers: { 'WWW-Authenticate': { description: '`Token`', schema: { type: 'string' } } },
          content: { 'application/json': { schema: ref('Error') } },
        },
        Forbidden: json(ref('Error'), 'The token lacks the permission named in `x-permission`'),
        NotFound: json(ref('Error'), 'No such object'),
        FieldErrors: json(ref('FieldErrors'), 'Invalid input: one key per bad field or parameter'),
      },
    },
    security: [{ Token: [] }],
  };
}
