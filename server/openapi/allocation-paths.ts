// Paths of IP allocation under a prefix (server/routes/allocation.ts): available-prefixes and
// available-ips, GET (a plain list, as NetBox answers) and POST (allocate one or a list).
import type { IdStyle } from '../../engine/schema/id-style.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { permissionFor } from '../auth.js';
import { writeSchema } from './field-schemas.js';
import { idParam, sharedResponses, IDEMPOTENCY_KEY } from './inventory-paths.js';
import { schemaNames } from './inventory-schemas.js';
import { json, ref, type JsonSchema, type Operation, type Parameter, type PathItem } from './types.js';

const prefix = resource('prefix'),
  ip = resource('ip_address');

function limit(defaultText: string, maxPageSize: number): Parameter {
  return {
    name: 'limit',
    in: 'query',
    required: false,
    description:
      `How many to list (${defaultText}, at most ${maxPageSize}); ` + 'a whole number below 1 is a 400 naming limit.',
    schema: { type: 'integer', minimum: 1 },
  };
}

const oneOrList = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'array', minItems: 1, items: s }] });

function allocation(kind: 'prefixes' | 'ips', maxPageSize: number, ids: IdStyle): PathItem {
  const made = kind === 'prefixes' ? prefix : ip;
  const free = kind === 'prefixes' ? 'AvailablePrefix' : 'AvailableIp';
  const what = kind === 'prefixes' ? 'free blocks' : 'free addresses';
  const op = (
    verb: string,
    summary: string,
    permission: string,
    rest: Omit<Operation, 'operationId' | 'summary' | 'tags'>,
  ): Operation => ({
    operationId: `${verb}${kind === 'prefixes' ? 'AvailablePrefixes' : 'AvailableIps'}`,
    summary,
    tags: ['ipam/prefixes'],
    'x-permission': permission,
    ...rest,
  });
  return {
    parameters: [idParam(prefix, ids)],
    get: op('list', `The ${what} inside a prefix`, permissionFor(prefix, 'view'), {
      description:
        kind === 'prefixes'
          ? 'The space no prefix inside this one uses, as the largest CIDR blocks, in address order (a plain ' +
            'list, as NetBox answers).'
          : "The first addresses no IP address holds (any mask), each with the prefix's length. An IPv4 prefix " +
            'shorter than /31 never offers its network and broadcast address, an IPv6 prefix shorter than /127 ' +
            'never its first (subnet-router anycast) address.',
      parameters: [limit(kind === 'prefixes' ? `default ${maxPageSize}` : 'default 50', maxPageSize)],
      responses: {
        200: json({ type: 'array', items: ref(free) }, `The ${what}`),
        400: json(ref('FieldErrors'), 'A limit below 1 (`{"limit": [...]}`)'),
        ...sharedResponses('401', '403', '404'),
      },
    }),
    post: op(
      'allocate',
      kind === 'prefixes' ? 'Allocate prefixes of the lengths asked' : 'Allocate the next free addresses',
      permissionFor(made, 'add'),
      {
        description: [
          kind === 'prefixes'
            ? 'Each request takes the first free block of its `prefix_length` in address order, in what the ' +
              "requests before it left (NetBox's order), and creates a prefix with the other fields given."
            : 'Each request takes the next free address (as the GET lists them) and creates an IP address with ' +
              "the prefix's length and the other fields given.",
          'Needs view on prefixes too (x-also-permissions). A list is all or none. Concurrent allocations ' +
            'never hand out a block or address twice, also through several server processes on one database: ' +
            'they wait for each other.',
        ].join(' '),
        'x-also-permissions': [permissionFor(prefix, 'view')],
        parameters: [IDEMPOTENCY_KEY],
        requestBody: {
          required: false,
          description: 'One object, or a non-empty list of objects.',
          content: {
            'application/json': {
              schema: oneOrList(ref(kind === 'prefixes' ? 'PrefixAllocation' : 'IpAddressAllocation')),
            },
          },
        },
        responses: {
          201: json(
            { anyOf: [ref(schemaNames(made).read), { type: 'array', items: ref(schemaNames(made).read) }] },
            'Created (one object, or the list in the order given)',
          ),
          400: json(
            { anyOf: [ref('FieldErrors'), { type: 'array', items: ref('FieldErrors') }] },
            'Invalid: errors keyed by field (a list of them for a list body)',
          ),
          409: json(
            ref('Error'),
            kind === 'prefixes'
              ? 'No room for a requested length (`insufficient_space`); nothing created'
              : 'Fewer free addresses than requested (`insufficient_space`); nothing created',
          ),
          ...sharedResponses('401', '403', '404'),
        },
      },
    ),
  };
}

export function allocationPaths(maxPageSize: number, ids: IdStyle): Record<string, PathItem> {
  const base = `${resourcePath(prefix)}{id}/`;
  return {
    [`${base}available-prefixes/`]: allocation('prefixes', maxPageSize, ids),
    [`${base}available-ips/`]: allocation('ips', maxPageSize, ids),
  };
}

/** A create body of the resource without its address field (the allocation chooses it). */
function withoutAddress(
  r: typeof prefix,
  field: string,
  extra: Record<string, JsonSchema>,
  required: string[],
  ids: IdStyle,
): JsonSchema {
  const props: Record<string, JsonSchema> = { ...extra };
  for (const f of r.fields)
    if (f.name !== field && !f.readOnly && !f.hidden && f.name !== 'id') props[f.name] = writeSchema(f, ids);
  return {
    type: 'object',
    title: `${r.label} allocation`,
    ...(required.length ? { required } : {}),
    properties: props,
  };
}

export function allocationSchemas(ids: IdStyle): Record<string, JsonSchema> {
  const family = { type: 'integer', enum: [4, 6] };
  return {
    AvailablePrefix: {
      type: 'object',
      required: ['family', 'prefix', 'vrf'],
      properties: { family, prefix: { type: 'string', examples: ['10.0.1.0/24'] }, vrf: { type: 'null' } },
    },
    AvailableIp: {
      type: 'object',
      required: ['family', 'address', 'vrf'],
      properties: { family, address: { type: 'string', examples: ['10.0.0.1/24'] }, vrf: { type: 'null' } },
    },
    PrefixAllocation: withoutAddress(
      prefix,
      'prefix',
      {
        prefix_length: {
          type: 'integer',
          minimum: 1,
          maximum: 128,
          description:
            "The length of the block to allocate: longer than the parent's, at most 32 (IPv4) or 128 (IPv6).",
        },
      },
      ['prefix_length'],
      ids,
    ),
    IpAddressAllocation: withoutAddress(ip, 'address', {}, [], ids),
  };
}
