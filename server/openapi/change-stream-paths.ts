// The event stream of the change log (server/routes/change-stream.ts): GET
// /api/extras/object-changes/stream and the same at /api/core/, as Server-Sent Events.
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { permissionFor } from '../auth.js';
import { filterParameters } from './filter-parameters.js';
import { SHAPE_PARAMETERS } from './shape-parameters.js';
import { sharedResponses } from './inventory-paths.js';
import { type JsonSchema, type Operation, type Parameter, type PathItem } from './types.js';

const changes = resource('object_change');

const SINCE: Parameter = {
  name: 'since',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 0 },
  description:
    'Send the records after this seq (exclusive, like `seq__gt`); `0`: the whole log. Without it the stream ' +
    'starts at the current seq (only what is written from now on).',
};
const LAST_EVENT_ID: Parameter = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
  description:
    'The `id:` of the last event received: a reconnecting EventSource sends it, and the stream goes on after ' +
    'it. Wins over `since`.',
};

const DESCRIPTION = [
  'The change log as Server-Sent Events (`text/event-stream`), in seq order, for as long as the client ' +
    "stays. Every event's `id:` is the record's `seq`.",
  '',
  '- `event: change`: `data:` is the record as the list shows it (`ObjectChange`; `fields`, `omit` and ' +
    '`brief` shape it).',
  '- `event: entity.transition`: a lifecycle entity created or moved by a trigger; `data:` is an ' +
    '`EntityTransitionEvent` (`machine`, `from`, `to`, `trigger`, `version`, `seq`, …).',
  '- `event: dropped`: the final event for a client that did not take what was sent (more than ' +
    'STREAM_MAX_BUFFER_BYTES unsent for longer than STREAM_DRAIN_TIMEOUT_MS): `{last_seq, reason: ' +
    '"slow_client", detail}` (`StreamDropped`); also, with reason `read_failed`, when the log could not be ' +
    'read, and with `unauthorized` when the token was revoked or lost the permission (checked with every ' +
    'keep-alive). Reconnect with Last-Event-ID.',
  "- `event: gap`: first, when the stream resumes after records that the change log's retention has deleted " +
    'since: `{after, next_seq, missing, detail}` (`StreamGap`, no id).',
  '- `: keep-alive` comments every STREAM_KEEPALIVE_MS while nothing else is sent.',
  '',
  "The list's filters narrow what is sent (`changed_object_type=dcim.site`, `action=delete`, …); ordering " +
    'and paging parameters are not used. Writes of other processes on the same database arrive within the ' +
    "change feed's poll (250 ms).",
].join('\n');

export function changeStreamPaths(): Record<string, PathItem> {
  const op = (app: string, endpoint: string): Operation => ({
    operationId: `streamObjectChanges${app === 'extras' ? '' : 'Core'}`,
    summary: 'Follow the change log (Server-Sent Events)',
    description: DESCRIPTION,
    tags: [`${app}/${endpoint}`],
    'x-permission': permissionFor(changes, 'view'),
    parameters: [SINCE, LAST_EVENT_ID, ...SHAPE_PARAMETERS, ...filterParameters(changes)],
    responses: {
      200: {
        description:
          'The event stream (`text/event-stream`): `change`, `entity.transition` and, last, `dropped` events',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      ...sharedResponses('400', '401', '403'),
    },
  });
  const out: Record<string, PathItem> = {};
  for (const at of [resourcePath(changes), ...(changes.alsoAt ?? [])]) {
    const [, , app, endpoint] = at.split('/');
    out[`${at}stream`] = { get: op(app, endpoint) };
  }
  return out;
}

export function changeStreamSchemas(): Record<string, JsonSchema> {
  const text = { type: 'string' };
  return {
    EntityTransitionEvent: {
      type: 'object',
      description: 'The data of an `event: entity.transition` of the change stream.',
      required: [
        'seq',
        'change_id',
        'time',
        'entity_id',
        'machine',
        'machine_version',
        'from',
        'to',
        'trigger',
        'version',
      ],
      properties: {
        seq: { type: 'integer', description: "The record's seq (also the event's id)" },
        change_id: { type: 'string', format: 'uuid', description: 'The ObjectChange record' },
        time: { type: 'string', format: 'date-time' },
        user_name: text,
        request_id: text,
        entity_id: text,
        machine: { type: 'string', description: "The machine's name" },
        machine_version: text,
        from: { type: ['string', 'null'], description: 'The state before (null for a creation)' },
        to: { type: 'string', description: 'The state after' },
        trigger: { type: 'string', description: 'The trigger (`__entity_created__` for a creation)' },
        version: { type: 'integer', description: "The entity's version after" },
      },
    },
    StreamGap: {
      type: 'object',
      description:
        'The data of an `event: gap`: records after the resume point were deleted by retention before they were read.',
      required: ['after', 'next_seq', 'missing', 'detail'],
      properties: {
        after: { type: 'integer', description: 'Where the stream was asked to resume' },
        next_seq: { type: 'integer', description: 'The first record left, sent next' },
        missing: { type: 'integer', description: 'How many records were deleted' },
        detail: text,
      },
    },
    StreamDropped: {
      type: 'object',
      description:
        'The data of the final `event: dropped` (a slow client, the log could not be read, the token revoked).',
      required: ['last_seq', 'reason', 'detail'],
      properties: {
        last_seq: { type: 'integer', description: 'The seq of the last event sent before it' },
        reason: {
          type: 'string',
          enum: ['slow_client', 'read_failed', 'unauthorized'],
          description:
            '`slow_client`: it did not take what was sent in time; `read_failed`: the change log could not ' +
            'be read; `unauthorized`: the token was revoked or lost the permission',
        },
        detail: text,
      },
    },
  };
}
