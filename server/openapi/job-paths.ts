// Paths and schema of the background jobs (`/api/core/jobs/` and `{id}/`): read only, the server writes them.
import type { IdStyle } from '../../engine/schema/id-style.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { JOB_STATUSES } from '../../engine/schema/resources/job.js';
import { permissionFor } from '../auth.js';
import { filterParameters, limitOffsetParameters, orderingParameter } from './filter-parameters.js';
import { idParam, sharedResponses } from './inventory-paths.js';
import { listEnvelope } from './inventory-schemas.js';
import { idSchema } from './id-schemas.js';
import { json, ref, type JsonSchema, type PathItem } from './types.js';

const job = resource('job');
const common = { tags: ['core/jobs'], 'x-permission': permissionFor(job, 'view') };

/** `/api/core/jobs/`: list and read (a `?background=true` import answers 202 with one). */
export function jobPaths(maxPageSize: number, ids: IdStyle): Record<string, PathItem> {
  return {
    [resourcePath(job)]: {
      get: {
        ...common,
        operationId: 'listJobs',
        summary: 'List background jobs (newest first)',
        parameters: [...limitOffsetParameters(maxPageSize), orderingParameter(job), ...filterParameters(job, ids)],
        responses: {
          200: json(listEnvelope(ref('Job'), 'Job list'), 'The jobs that match'),
          ...sharedResponses('400', '401', '403'),
        },
      },
    },
    [`${resourcePath(job)}{id}/`]: {
      parameters: [idParam(job, ids)],
      get: {
        ...common,
        operationId: 'readJobs',
        summary: 'A background job: its status, progress and result',
        responses: { 200: json(ref('Job'), 'The job'), ...sharedResponses('401', '403', '404') },
      },
    },
  };
}

const time = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });

export function jobSchemas(ids: IdStyle): Record<string, JsonSchema> {
  const count: JsonSchema = { type: 'integer', minimum: 0 };
  return {
    Job: {
      type: 'object',
      required: ['id', 'url', 'name', 'object_type', 'status', 'created', 'user', 'progress', 'data', 'error'],
      properties: {
        id: idSchema('job', ids, { type: 'string', format: 'uuid' }),
        url: { type: 'string', format: 'uri' },
        display: { type: 'string' },
        name: { type: 'string' },
        object_type: { type: 'string', description: 'the list the job imports into, as `dcim.site`' },
        status: {
          type: 'object',
          properties: {
            value: { type: 'string', enum: JOB_STATUSES.map((c) => c.value) },
            label: { type: 'string', enum: JOB_STATUSES.map((c) => c.display) },
          },
        },
        created: { type: 'string', format: 'date-time' },
        started: time('when it started running (the last time, after a restart)'),
        completed: time('when it ended'),
        user: { type: 'string', description: "the token's name, as change records name it" },
        progress: {
          type: 'object',
          properties: { rows_done: count, rows_total: { type: ['integer', 'null'], minimum: 0 } },
        },
        data: {
          description: 'completed: `{created, updated, unchanged}`; failed: `{errors: [{row, field, detail}], count}`',
          type: ['object', 'null'],
        },
        error: { type: 'string' },
      },
    },
  };
}
