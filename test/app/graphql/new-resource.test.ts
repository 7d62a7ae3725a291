// A resource added to the registry (the fixture's circuit, one file) is served by GraphQL with no GraphQL
// change. The registry is read once per process, so the fixture runs in a child process of its own.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('./fixture/run.js', import.meta.url));

describe('GraphQL serves a resource added to the registry (fixture registry)', function () {
  this.timeout(120000);

  it('circuits: root fields of both dialects, filters, the site reference, sites { circuits } and circuit_count', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--enable-source-maps', RUN], { maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const answer = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(answer.errors).to.equal(undefined);
    expect(answer.data).to.deep.equal({
      circuits: [{ cid: 'C-2', site: null }],
      circuit_list: [{ cid: 'C-1' }],
      circuit: { cid: 'C-1', status: 'planned' },
      sites: [{ slug: 'ams', circuits: [{ cid: 'C-1' }], circuit_count: 1 }],
    });
  });
});
