// Database lost while serving: affected requests get a 503 JSON answer, the process survives, and
// service resumes by itself when the database is back. The "database" is reached through a TCP
// proxy the test can cut and restore.
import { expect } from 'chai';
import net from 'node:net';
import { startServer, type TestServer } from '../../support/server.js';
import { BACKENDS } from '../../e2e/conformance/backends.js';

class Proxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}
  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(this.port, '127.0.0.1', () => r()));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`database lost while serving (${backend.name})`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let srv: TestServer;
    let proxy: Proxy;
    before(async function () {
      db = await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
      }
      const u = new URL(db.url);
      proxy = new Proxy(u.hostname, Number(u.port));
      await proxy.start();
      u.port = String(proxy.port);
      srv = await startServer({ storage: u.toString() });
    });
    after(async () => {
      await srv?.close().catch(() => {});
      await proxy?.cut();
      await db?.drop();
    });

    it('answers 503 JSON while the database is gone and recovers when it returns', async () => {
      expect((await srv.req('POST', '/api/dcim/sites/', { name: 'before', slug: 'before' })).status).to.equal(201);
      await proxy.cut();
      const lost = await srv.req('GET', '/api/dcim/sites/');
      expect(lost.status).to.equal(503);
      expect(lost.body.code).to.equal('storage_unavailable');
      const ready = await srv.req('GET', '/ready', undefined, null);
      expect(ready.status).to.equal(503);
      await proxy.start();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await srv.req('GET', '/api/dcim/sites/')).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).to.equal(200);
      expect((await srv.req('GET', '/api/dcim/sites/?name=before')).body.count).to.equal(1);
    });
  });
}
