// Bodies are read only for authenticated requests, and slow clients are bounded: an unauthenticated
// request is answered 401 before its body is sent; a stalled body (BODY_TIMEOUT_MS) or stalled
// headers (HEADERS_TIMEOUT_MS) close the connection, and the server goes on serving.
import { expect } from 'chai';
import net from 'node:net';
import { ADMIN_KEY, startServer, type TestServer } from '../support/server.js';

/** Sends `head` (and `body`), keeps the socket open; resolves with what came back and when it closed. */
function rawRequest(url: string, head: string, body = ''): Promise<{ text: string; closedAfterMs: number }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const t0 = Date.now();
    let text = '';
    const sock = net.connect(Number(u.port), u.hostname, () => {
      sock.write(head);
      if (body) sock.write(body);
    });
    sock.on('data', (d) => {
      text += d;
    });
    sock.on('error', () => undefined);
    sock.on('close', () => resolve({ text, closedAfterMs: Date.now() - t0 }));
    setTimeout(() => sock.destroy(), 8000);
  });
}

describe('slow and unauthenticated clients', function () {
  this.timeout(30000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ headersTimeoutMs: 600, bodyTimeoutMs: 600 });
  });
  after(async () => {
    await srv.close();
  });

  it('a body without a valid token is not read: 401 at once, connection closed', async () => {
    const head =
      'POST /api/dcim/sites/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n';
    const r = await rawRequest(srv.url, head, '{"name": ');
    expect(r.text).to.match(/^HTTP\/1\.1 401/);
    expect(r.closedAfterMs).to.be.lessThan(2000);
    const bad = await rawRequest(srv.url, head.replace('\r\n\r\n', '\r\nAuthorization: Token wrong-key\r\n\r\n'), '{');
    expect(bad.text).to.match(/^HTTP\/1\.1 401/);
  });

  it(
    'a stalled body of an authenticated request is closed ' + 'within BODY_TIMEOUT_MS; the next request is served',
    async () => {
      const head =
        `POST /api/dcim/sites/ HTTP/1.1\r\nHost: x\r\nAuthorization: Token ` +
        `${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
      const r = await rawRequest(srv.url, head, '{"name": "sl');
      expect(r.closedAfterMs).to.be.lessThan(4000);
      expect(r.text).to.not.match(/^HTTP\/1\.1 201/);
      expect((await srv.req('GET', '/api/dcim/sites/?name=sl')).status).to.equal(200);
    },
  );

  it('stalled headers are closed within HEADERS_TIMEOUT_MS', async () => {
    const r = await rawRequest(srv.url, 'GET /api/dcim/sites/ HTTP/1.1\r\nHost: x\r\n');
    expect(r.closedAfterMs).to.be.lessThan(4000);
  });

  it('an authenticated body is read as before', async () => {
    expect((await srv.req('POST', '/api/dcim/sites/', { name: 'fast', slug: 'fast' })).status).to.equal(201);
  });
});
