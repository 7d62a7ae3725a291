// Webhooks (Nautobot's fields) and their outbox: the change log is the queue, a cursor says how far
// it has been read, and one delivery row per (webhook, change record) says what was sent and how.
import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields, changeActionField, choices, inventoryBaseFields, rowVersionField } from '../common-fields.js';

export const webhook: ResourceDef = {
  name: 'webhook',
  app: 'extras',
  plural: 'webhooks',
  label: 'Webhook',
  description: 'HTTP requests made for each change of the chosen object types, from the change log',
  refField: 'name',
  displayField: 'name',
  fields: [
    ...inventoryBaseFields,
    { name: 'name', kind: 'string', label: 'Name', required: true, unique: true, maxLength: 150, search: true },
    { name: 'content_types', kind: 'string_list', label: 'Content types', required: true },
    { name: 'type_create', kind: 'boolean', label: 'On create', default: false },
    { name: 'type_update', kind: 'boolean', label: 'On update', default: false },
    { name: 'type_delete', kind: 'boolean', label: 'On delete', default: false },
    { name: 'payload_url', kind: 'string', label: 'URL', required: true, maxLength: 500 },
    { name: 'enabled', kind: 'boolean', label: 'Enabled', default: true },
    {
      name: 'http_method',
      kind: 'choice',
      label: 'HTTP method',
      default: 'POST',
      choices: choices(['GET', 'GET'], ['POST', 'POST'], ['PUT', 'PUT'], ['PATCH', 'PATCH'], ['DELETE', 'DELETE']),
    },
    {
      name: 'http_content_type',
      kind: 'string',
      label: 'HTTP content type',
      default: 'application/json',
      maxLength: 100,
    },
    // One `Name: Value` per line; {{ ... }} is substituted as in the body template.
    {
      name: 'additional_headers',
      kind: 'string',
      label: 'Additional headers',
      default: '',
      maxLength: 2000,
      filter: false,
    },
    // Empty: the default JSON body. Else the body as written, with {{ path }} substituted (webhook-payload.ts).
    { name: 'body_template', kind: 'string', label: 'Body template', default: '', maxLength: 4000, filter: false },
    // HMAC-SHA512 key of X-Hook-Signature; write-only: never read back, never in a change record.
    {
      name: 'secret',
      kind: 'string',
      label: 'Secret',
      default: '',
      maxLength: 255,
      hidden: true,
      writeOnly: true,
      filter: false,
    },
    { name: 'ssl_verification', kind: 'boolean', label: 'SSL verification', default: true },
  ],
};

/** One planned request of a webhook for one change record; written by the dispatcher only. */
export const webhookDelivery = {
  name: 'webhook_delivery',
  uuidIds: true,
  app: 'extras',
  plural: 'webhook-deliveries',
  label: 'Webhook delivery',
  description: 'What each webhook was sent for each change record, and how it went (newest first)',
  refField: 'id',
  displayField: 'id',
  writable: false,
  logged: false,
  defaultOrder: [{ field: 'seq', desc: true }],
  fields: [
    ...inventoryBaseFields,
    {
      name: 'webhook',
      kind: 'fk',
      label: 'Webhook',
      target: 'webhook',
      onDelete: 'cascade',
      readOnly: true,
      required: true,
    },
    // The change record's id and seq (not a reference: retention may prune delivered records).
    { name: 'change', kind: 'string', label: 'Change record', readOnly: true, maxLength: 36 },
    { name: 'seq', kind: 'integer', label: 'Change sequence', readOnly: true },
    changeActionField,
    {
      name: 'changed_object_type',
      kind: 'string',
      label: 'Changed object type',
      readOnly: true,
      maxLength: 100,
      search: true,
    },
    {
      name: 'changed_object_id',
      kind: 'string',
      label: 'Changed object id',
      readOnly: true,
      maxLength: 128,
      objectOf: 'changed_object_type',
    },
    {
      name: 'status',
      kind: 'choice',
      label: 'Status',
      readOnly: true,
      default: 'pending',
      choices: choices(
        ['pending', 'Pending'],
        ['delivered', 'Delivered'],
        ['failed', 'Failed'],
        ['skipped', 'Skipped'],
      ),
    },
    { name: 'attempts', kind: 'integer', label: 'Attempts', readOnly: true, default: 0 },
    { name: 'next_attempt_at', kind: 'datetime', label: 'Next attempt at', readOnly: true, nullable: true },
    { name: 'last_attempt_at', kind: 'datetime', label: 'Last attempt at', readOnly: true, nullable: true },
    { name: 'response_status', kind: 'integer', label: 'Response status', readOnly: true, nullable: true },
    { name: 'error', kind: 'string', label: 'Error', readOnly: true, default: '', maxLength: 1000, filter: false },
    {
      name: 'request_excerpt',
      kind: 'string',
      label: 'Request (excerpt)',
      readOnly: true,
      default: '',
      maxLength: 1000,
      filter: false,
    },
    // Kept only with WEBHOOK_KEEP_RESPONSE: the receiver's answer may hold what the server should not show.
    {
      name: 'response_excerpt',
      kind: 'string',
      label: 'Response (excerpt)',
      readOnly: true,
      default: '',
      maxLength: 1000,
      filter: false,
    },
    // How many deliveries led to the change (writes made with X-Netinv-Webhook): past WEBHOOK_MAX_CHAIN it is skipped.
    { name: 'chain', kind: 'integer', label: 'Chain', readOnly: true, default: 0 },
  ],
} as const satisfies ResourceDef;

/** How far the change log has been planned into deliveries: one row, compare-and-swapped by its version. */
export const webhookCursor = {
  name: 'webhook_cursor',
  uuidIds: true,
  app: 'extras',
  plural: 'webhook-cursors',
  label: 'Webhook cursor',
  description: 'The last change seq planned into webhook deliveries',
  refField: 'id',
  displayField: 'id',
  inventory: false,
  logged: false,
  fields: [
    ...baseFields,
    rowVersionField,
    { name: 'after_seq', kind: 'integer', label: 'Planned up to seq', readOnly: true, default: 0 },
  ],
} as const satisfies ResourceDef;

export type WebhookDeliveryRow = RowOf<typeof webhookDelivery>;
export type WebhookCursorRow = RowOf<typeof webhookCursor>;
