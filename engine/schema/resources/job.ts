// Background jobs (NetBox 4's core.Job, as far as it fits): a large CSV / YAML import answered 202 at
// once and run by the server. The file a job imports is kept beside it, in parts (`job_input`), until
// the job ends: a server that stops mid-job finds it there at its next start and runs the job again.
import type { ResourceDef } from '../types.js';
import type { RowOf } from '../row-types.js';
import { baseFields, choices, rowVersionField } from '../common-fields.js';

export const JOB_STATUSES = choices(
  ['pending', 'Pending'],
  ['running', 'Running'],
  ['completed', 'Completed'],
  ['failed', 'Failed'],
  ['errored', 'Errored'],
);

export const job = {
  name: 'job',
  app: 'core',
  plural: 'jobs',
  label: 'Job',
  description: 'Background jobs: large CSV / YAML imports (newest first)',
  refField: 'name',
  displayField: 'name',
  inventory: false,
  logged: false,
  writable: false,
  defaultOrder: [{ field: 'created', desc: true }],
  fields: [
    ...baseFields,
    rowVersionField,
    { name: 'name', kind: 'string', label: 'Name', readOnly: true, maxLength: 200, search: true },
    // The content type of the list the job writes ('ipam.prefix').
    { name: 'object_type', kind: 'string', label: 'Object type', readOnly: true, maxLength: 100 },
    { name: 'status', kind: 'choice', label: 'Status', readOnly: true, default: 'pending', choices: JOB_STATUSES },
    { name: 'started', kind: 'datetime', label: 'Started', readOnly: true, nullable: true },
    { name: 'completed', kind: 'datetime', label: 'Completed', readOnly: true, nullable: true },
    // Who asked: the token's name, as change records name it.
    { name: 'user', kind: 'string', label: 'User', readOnly: true, maxLength: 200 },
    { name: 'rows_done', kind: 'integer', label: 'Rows done', readOnly: true, default: 0 },
    { name: 'rows_total', kind: 'integer', label: 'Rows in the file', readOnly: true, nullable: true },
    // The result ({created, updated, unchanged}) or the rows' errors ({errors, count}).
    { name: 'data', kind: 'json', label: 'Data', readOnly: true, nullable: true },
    { name: 'error', kind: 'string', label: 'Error', readOnly: true, default: '', maxLength: 1000, filter: false },
    {
      name: 'format',
      kind: 'choice',
      label: 'Format',
      readOnly: true,
      hidden: true,
      default: 'csv',
      choices: choices(['csv', 'CSV'], ['yaml', 'YAML']),
    },
    // The ids of the input's parts in order; null until the whole file is stored (then the job may run).
    { name: 'input_parts', kind: 'json', label: 'Input parts', readOnly: true, hidden: true, nullable: true },
    { name: 'request_id', kind: 'string', label: 'Request id', readOnly: true, hidden: true, maxLength: 64 },
  ],
} as const satisfies ResourceDef;

/** A part of a job's file, as text (a JSON string: any length a database's JSON column holds). */
export const jobInput = {
  name: 'job_input',
  uuidIds: true,
  app: 'core',
  plural: 'job-inputs',
  label: 'Job input',
  description: "A part of a job's file, kept until the job ends",
  refField: 'id',
  displayField: 'id',
  inventory: false,
  logged: false,
  writable: false,
  fields: [
    ...baseFields,
    { name: 'job', kind: 'fk', label: 'Job', target: 'job', onDelete: 'cascade', readOnly: true, required: true },
    { name: 'text', kind: 'json', label: 'Text', readOnly: true, hidden: true, filter: false },
  ],
} as const satisfies ResourceDef;

export type JobRow = RowOf<typeof job>;
