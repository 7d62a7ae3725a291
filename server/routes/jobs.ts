// /api/core/jobs/: background jobs, as NetBox 4's core job endpoint shows them (list and read; the
// server alone writes them). `core.view_job` to read.
import { Router } from 'express';
import { resource } from '../../engine/schema/registry.js';
import { JOB_STATUSES } from '../../engine/schema/resources/job.js';
import { authenticate, permissionFor, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { objectUrl } from '../serialize.js';
import type { Row } from '../../storage/types.js';
import { envelope, planRequest } from './inventory.js';
import { baseUrl } from './request-url.js';
import { idStyleOf, type IdStyle } from '../../engine/schema/id-style.js';

const jobDef = resource('job');
const LABELS = new Map(JOB_STATUSES.map((c) => [c.value, c.display]));

/** A job as the API shows it (NetBox's fields, with `progress` besides). */
export function jobView(base: string, row: Row, ids: IdStyle): Record<string, unknown> {
  const done = (row.rows_done as number) ?? 0;
  const total = (row.rows_total as number | null) ?? null;
  return {
    id: idStyleOf(jobDef, ids).toJson(row.id),
    url: objectUrl(base, jobDef, row.id),
    display: row.name,
    name: row.name,
    object_type: row.object_type,
    status: { value: row.status, label: LABELS.get(String(row.status)) ?? row.status },
    created: row.created,
    started: row.started ?? null,
    completed: row.completed ?? null,
    user: row.user,
    progress: { rows_done: done, rows_total: total },
    data: row.data ?? null,
    error: row.error ?? '',
  };
}

export function jobsRouter(ctx: AppContext): Router {
  const router = Router();
  const canView = requirePermission(permissionFor(jobDef, 'view'));
  router.use(authenticate(ctx.tokens));
  router.get('/', canView, async (req, res) => {
    const got = await planRequest(ctx, jobDef, req, res, []);
    if (!got) return;
    const found = await ctx.storage.find('job', got.planned.plan, got.page);
    const views = found.rows.map((r) => jobView(baseUrl(req), r, ctx.storage.ids));
    res.json(envelope(req, got.page, found.count, views));
  });
  router.get('/:id/', canView, async (req, res) => {
    const id = idStyleOf(jobDef, ctx.storage.ids).parse(String(req.params.id));
    const row = id !== null ? await ctx.storage.get('job', id) : null;
    if (!row) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    res.json(jobView(baseUrl(req), row, ctx.storage.ids));
  });
  return router;
}
