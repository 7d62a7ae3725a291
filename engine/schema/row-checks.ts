// Checks of a whole row that no single field can make, by resource: run on the row as it would be
// stored (after a create's defaults or an update's merge), errors by field.
import { checkOne } from './custom-field-values.js';
import { MSG } from './messages.js';
import { headerLines, headerValueProblem, RESERVED_HEADERS } from '../changes/webhook-payload.js';
import { CUSTOM_FIELD_CONTENT_TYPES, LOGGED_CONTENT_TYPES } from './registry.js';
import { isCustomFieldDef } from './resources/custom-field.js';
import type { FieldErrors } from './validate-input.js';

type Row = Readonly<Record<string, unknown>>;

/** A custom field definition: known content types, choices only on select types, a default its
 * own type and choices accept. */
function customFieldDefinition(row: Row): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  for (const ct of (row.content_types as string[] | undefined) ?? [])
    if (!CUSTOM_FIELD_CONTENT_TYPES.includes(ct))
      add('content_types', MSG.cfContentType(ct, CUSTOM_FIELD_CONTENT_TYPES));
  const def = { ...row, choices: row.choices ?? [] };
  // Not reached for a row whose fields their own checks refused (they run first).
  if (!isCustomFieldDef(def)) return errors;
  const select = def.type === 'select' || def.type === 'multi-select';
  if (!select && def.choices.length) add('choices', MSG.cfChoicesNotSelect);
  if (def.default !== null && def.default !== undefined) {
    const r = checkOne(def, def.default);
    if (typeof r === 'string') add('default', r);
  }
  return errors;
}

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+:/;

/** Placeholders of a header value template (what they give is checked when the request is made). */
const PLACEHOLDERS = /\{\{[^}]*\}\}/g;

/**
 * A webhook: content types the change log has, at least one action, an http(s) URL, `Name: Value`
 * header lines, none naming a header the server sets itself, none with a character HTTP cannot carry.
 */
function webhookDefinition(row: Row): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const types = (row.content_types as string[] | undefined) ?? [];
  if (!types.length) add('content_types', MSG.whNoContentTypes);
  for (const ct of types) if (!LOGGED_CONTENT_TYPES.includes(ct)) add('content_types', MSG.whContentType(ct));
  if (!row.type_create && !row.type_update && !row.type_delete) add('type_create', MSG.whNoType);
  let url: URL | null = null;
  try {
    url = new URL(String(row.payload_url));
  } catch {
    /* refused below */
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) add('payload_url', MSG.whUrl);
  for (const line of String(row.additional_headers ?? '').split(/\r?\n/))
    if (line.trim() && !HEADER_LINE.test(line.trim())) add('additional_headers', MSG.whHeader(line));
  const typeProblem = headerValueProblem(String(row.http_content_type ?? ''));
  if (typeProblem) add('http_content_type', MSG.whHeaderValue('Content-Type', typeProblem));
  for (const { name, value } of headerLines(String(row.additional_headers ?? ''))) {
    const reserved = RESERVED_HEADERS[name.toLowerCase()];
    if (reserved) add('additional_headers', MSG.whHeaderReserved(name, reserved));
    const problem = headerValueProblem(value.replace(PLACEHOLDERS, '').trim());
    if (problem) add('additional_headers', MSG.whHeaderValue(name, problem));
  }
  return errors;
}

/** A service: on one device or one virtual machine (not both), ports a non-empty list of port numbers. */
function serviceDefinition(row: Row): FieldErrors {
  const errors: FieldErrors = {};
  const ports = row.ports;
  if (!Array.isArray(ports) || !ports.length || !ports.every((p) => Number.isInteger(p) && p >= 1 && p <= 65535))
    errors.ports = [MSG.ports];
  if ((row.device == null) === (row.virtual_machine == null)) errors.device = [MSG.serviceParent];
  return errors;
}

export const ROW_CHECKS: Readonly<Record<string, (row: Row) => FieldErrors>> = {
  custom_field: customFieldDefinition,
  webhook: webhookDefinition,
  service: serviceDefinition,
};
