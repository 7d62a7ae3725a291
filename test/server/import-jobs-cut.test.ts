// A background import whose file is never wholly stored, on every backend: an upload cut off mid-body (the
// client gone) makes no job and stores no part of the file; a job whose file was stored only in part (the
// server stopped between two parts: createJob's writes cut short) is failed when jobs are run, with nothing
// imported and the parts it had stored taken away.
import { expect } from 'chai';
import net from 'node:net';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { ADMIN_KEY } from '../support/server.js';
import { jobWhen, sitesCsv } from '../support/jobs.js';
import { createJob, PART_CHARS } from '../../app/jobs/job-store.js';
import { resource } from '../../engine/schema/registry.js';
import type { Storage } from '../../storage/types.js';

/** Sends the headers and the first half of `body` (Content-Length says all of it), then goes away. */
function cutUpload(url: string, path: string, body: string): Promise<void> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(u.port), u.hostname, () => {
      sock.write(
        `POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Token ${ADMIN_KEY}\r\n` +
          `Content-Type: text/csv\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      sock.write(body.slice(0, body.length >> 1), () =>
        setTimeout(() => {
          sock.destroy();
          resolve();
        }, 300),
      );
    });
    sock.once('error', reject);
  });
}

const rowsOf = async (storage: Storage, name: string) =>
  (await storage.find(name, { kind: 'const', value: true }, { limit: 10_000, offset: 0, ordering: [] })).count;

for (const backend of BACKENDS)
  describe(`a background import whose file is never wholly stored (${backend.name})`, function () {
    this.timeout(120_000);
    const h = serverOn(backend);
    const sites = async () => (await h.srv.req('GET', '/api/dcim/sites/?limit=1')).body.count as number;

    it('makes no job of an upload cut off mid-body, and keeps no part of it', async () => {
      const storage = h.srv.running.ctx.storage;
      const [jobs, parts, before] = [await rowsOf(storage, 'job'), await rowsOf(storage, 'job_input'), await sites()];
      await cutUpload(h.srv.url, '/api/dcim/sites/?background=true', sitesCsv('cut', 20_000));
      await h.srv.running.ctx.jobs.idle();
      expect(await rowsOf(storage, 'job'), 'jobs').to.equal(jobs);
      expect(await rowsOf(storage, 'job_input'), 'parts of files').to.equal(parts);
      expect(await sites()).to.equal(before);
      // The server still answers, and a whole upload still makes a job.
      const res = await fetch(`${h.srv.url}/api/dcim/sites/?background=true`, {
        method: 'POST',
        headers: { Authorization: `Token ${ADMIN_KEY}`, 'Content-Type': 'text/csv' },
        body: sitesCsv('whole', 10),
      });
      expect(res.status).to.equal(202);
      expect((await jobWhen((await res.json()).url)).status.value).to.equal('completed');
      expect(await sites()).to.equal(before + 10);
    });

    it('fails a job whose file was stored in part, importing nothing and taking its stored parts away', async () => {
      const storage = h.srv.running.ctx.storage;
      const before = await sites();
      const parts = await rowsOf(storage, 'job_input');
      // The store as a server that stops after the job's row and its file's first part (of three).
      let writes = 0;
      const stopping = new Proxy(storage, {
        get(target, prop, receiver) {
          if (prop === 'apply' && ++writes > 2) return () => Promise.reject(new Error('the server stopped'));
          const v: unknown = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
      const text = sitesCsv('part', Math.ceil((PART_CHARS * 2.5) / 30));
      const job = { r: resource('site'), format: 'csv' as const, text, user: 'admin', requestId: 'cut' };
      let stopped: unknown = null;
      await createJob(stopping, job).catch((e: unknown) => (stopped = e));
      expect(String(stopped)).to.include('the server stopped');
      expect(await rowsOf(storage, 'job_input'), 'the first part stored').to.equal(parts + 1);
      const [left] = await storage.findBy('job', 'request_id', 'cut');
      expect(left).to.include({ status: 'pending', input_parts: null });

      h.srv.running.ctx.jobs.enqueue(left.id); // as a start that finds it unfinished does
      await h.srv.running.ctx.jobs.idle();
      const ended = await storage.get('job', left.id);
      expect(ended).to.include({ status: 'failed' });
      expect(String(ended!.error)).to.include('before the whole file was received');
      expect(ended!.completed).to.be.a('string');
      expect(await rowsOf(storage, 'job_input'), 'parts left').to.equal(parts);
      expect(await sites()).to.equal(before);
    });
  });
