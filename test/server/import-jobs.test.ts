// Background imports (?background=true) on every backend: 202 with a job readable at /api/core/jobs/,
// progress, the rows written all at once with the job's end, a bad row failing the job with nothing
// written, references to rows later in the file, the 413 of a foreground import over IMPORT_MAX_ROWS,
// and core.view_job.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { jobWhen, postFile, sitesCsv } from '../support/jobs.js';

const siteCount = async (srv: { req: (m: string, p: string) => Promise<{ body: any }> }) =>
  (await srv.req('GET', '/api/dcim/sites/?limit=1')).body.count as number;

for (const backend of BACKENDS)
  describe(`background import jobs (${backend.name})`, function () {
    this.timeout(300_000);
    const h = serverOn(backend, {
      importMaxRows: 1000,
      tokens: [
        { key: 'admin-key-0123456789', permissions: ['*'] },
        { key: 'sites-only-0123456789', permissions: ['dcim.view_site', 'dcim.add_site'] },
      ],
    });

    it('answers 202 with a job that completes with every row written at once', async () => {
      const posted = await postFile(`${h.srv.url}/api/dcim/sites/?background=true`, sitesCsv('bg', 2500));
      expect(posted.status, JSON.stringify(posted.body)).to.equal(202);
      const job = posted.body;
      expect(job.object_type).to.equal('dcim.site');
      expect(job.user).to.equal('from config'); // the token's name (its description), as change records name it
      expect(Object.keys(job)).to.include.members([
        'id',
        'url',
        'name',
        'object_type',
        'status',
        'created',
        'started',
        'completed',
        'user',
        'data',
        'error',
        'progress',
      ]);
      expect(job.status).to.deep.equal({ value: 'pending', label: 'Pending' });
      expect(job.url).to.equal(`${h.srv.url}/api/core/jobs/${job.id}/`);
      expect(posted.headers.get('location')).to.equal(job.url);
      const done = await jobWhen(job.url);
      expect(done.status.value, JSON.stringify(done)).to.equal('completed');
      expect(done.data).to.deep.equal({ created: 2500, updated: 0, unchanged: 0 });
      expect(done.progress).to.deep.equal({ rows_done: 2500, rows_total: 2500 });
      expect(done.started).to.be.a('string');
      expect(done.completed).to.be.a('string');
      expect(await siteCount(h.srv)).to.equal(2500);
      const list = await h.srv.req('GET', '/api/core/jobs/');
      expect(list.status).to.equal(200);
      expect(list.body.results.map((j: { id: unknown }) => j.id)).to.include(job.id);
      const changes = await h.srv.req('GET', '/api/extras/object-changes/?changed_object_type=dcim.site&limit=1');
      expect(changes.body.count).to.equal(2500);
      expect(changes.body.results[0].user_name).to.equal(done.user);
    });

    it('fails a job with a bad row, naming it, with nothing written', async () => {
      const before = await siteCount(h.srv);
      const csv = sitesCsv('bad', 1800).replace('bad-1500,bad-1500,active', 'bad-1500,bad 1500,active');
      const posted = await postFile(`${h.srv.url}/api/dcim/sites/?background=true`, csv);
      expect(posted.status).to.equal(202);
      const done = await jobWhen(posted.body.url);
      expect(done.status.value).to.equal('failed');
      expect(done.data.count).to.equal(1);
      expect(done.data.errors[0]).to.include({ row: 1501, field: 'slug' });
      expect(await siteCount(h.srv)).to.equal(before);
    });

    it('resolves a reference to a row further down the file (another batch)', async () => {
      const rows = ['name,slug,parent'];
      for (let i = 0; i < 1500; i++) rows.push(`child-${i},child-${i},parent-region`);
      rows.push('parent-region,parent-region,');
      const posted = await postFile(`${h.srv.url}/api/dcim/regions/?background=true`, rows.join('\n'));
      const done = await jobWhen(posted.body.url);
      expect(done.status.value, JSON.stringify(done.data)).to.equal('completed');
      expect(done.data.created).to.equal(1501);
    });

    it('refuses an unknown column at once (400), a foreground file over IMPORT_MAX_ROWS (413)', async () => {
      const bad = await postFile(`${h.srv.url}/api/dcim/sites/?background=true`, 'name,nope\na,b\n');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ row: 0, field: 'nope' });
      const big = await postFile(`${h.srv.url}/api/dcim/sites/`, sitesCsv('big', 1001));
      expect(big.status).to.equal(413);
      expect(big.body.detail).to.include('?background=true');
      const odd = await postFile(`${h.srv.url}/api/dcim/sites/?background=maybe`, sitesCsv('odd', 1));
      expect(odd.status).to.equal(400);
      expect(odd.body).to.have.property('background');
    });

    it('imports YAML in the background too', async () => {
      const yaml = Array.from({ length: 30 }, (_, i) => `- {name: y-${i}, slug: y-${i}, status: planned}`).join('\n');
      const posted = await postFile(`${h.srv.url}/api/dcim/sites/?background=true`, yaml, 'application/yaml');
      expect(posted.status).to.equal(202);
      const done = await jobWhen(posted.body.url);
      expect(done.status.value).to.equal('completed');
      expect(done.data.created).to.equal(30);
    });

    it('shows jobs only with core.view_job', async () => {
      const posted = await postFile(
        `${h.srv.url}/api/dcim/sites/?background=true`,
        sitesCsv('mine', 2),
        'text/csv',
        'sites-only-0123456789',
      );
      expect(posted.status).to.equal(202);
      const other = await h.srv.req('GET', `/api/core/jobs/${posted.body.id}/`, undefined, 'sites-only-0123456789');
      expect(other.status).to.equal(403);
      expect(other.body.detail).to.include('core.view_job');
      expect((await jobWhen(posted.body.url)).status.value).to.equal('completed');
      expect((await h.srv.req('GET', '/api/core/jobs/0/')).status).to.equal(404);
    });

    it('documents the jobs endpoints in the OpenAPI document and the API tree', async () => {
      const doc = (await h.srv.req('GET', '/openapi.json')).body;
      expect(doc.paths['/api/core/jobs/'].get['x-permission']).to.equal('core.view_job');
      expect(doc.paths['/api/core/jobs/{id}/'].get.responses[200]).to.exist;
      expect(doc.components.schemas.Job.properties.status.properties.value.enum).to.include('completed');
      expect((await h.srv.req('GET', '/api/core/')).body).to.include({ jobs: `${h.srv.url}/api/core/jobs/` });
    });
  });
