// A write whose body is not JSON is a 415 saying what to send (#17 item 7); JSON under any
// `application/*+json` type is JSON; the machine upload keeps taking YAML; requests without a body
// are not touched. Raw sockets where a client library would add a Content-Type of its own.
import { expect } from 'chai';
import http from 'node:http';
import { ADMIN_KEY, startServer, type TestServer } from '../support/server.js';

/** One request with exactly these headers (no Content-Type unless given). */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + path,
      { method, headers: { Authorization: `Token ${ADMIN_KEY}`, ...headers } },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c) => {
            text += c;
          })
          .on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const MACHINE_YAML = `meta: {machine_name: ct_probe, version: 1.0.0, description: probe}
states: [{name: a, type: initial}, {name: b, type: terminal}]
transitions: [{trigger: go, source: a, dest: b}]
`;

describe('request bodies: JSON, else 415', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    await srv?.close();
  });

  it(
    "a POST with curl's default form type is a 415 naming the type and saying to send application/json; " +
      'nothing is written',
    async () => {
      const res = await srv.req('POST', '/api/dcim/sites/', 'name=ams1&slug=ams1', undefined, {
        'Content-Type': 'application/x-www-form-urlencoded',
      });
      expect(res.status).to.equal(415);
      expect(res.body.code).to.equal('unsupported_media_type');
      expect(res.body.detail)
        .to.include('"application/x-www-form-urlencoded"')
        .and.to.include('Content-Type: application/json');
      expect((await srv.req('GET', '/api/dcim/sites/?slug=ams1')).body.count).to.equal(0);
    },
  );

  it('PUT and PATCH with a body that is not JSON, or with no Content-Type at all, are 415 too', async () => {
    const id = (await srv.req('POST', '/api/dcim/sites/', { name: 'a', slug: 'a' })).body.id;
    const json = JSON.stringify({ description: 'x' });
    for (const [method, headers] of [
      ['PATCH', { 'Content-Type': 'text/plain' }],
      ['PUT', { 'Content-Type': 'application/xml' }],
      ['PATCH', {}],
      ['POST', {}],
    ] as const) {
      const path = method === 'POST' ? '/api/dcim/sites/' : `/api/dcim/sites/${id}/`;
      const res = await raw(srv.url, method, path, headers, json);
      expect(res.status, `${method} ${JSON.stringify(headers)}`).to.equal(415);
      expect(res.body.detail).to.include(
        headers['Content-Type' as keyof typeof headers] ? 'Unsupported media type "' : '(no Content-Type)',
      );
    }
    expect((await srv.req('GET', `/api/dcim/sites/${id}/`)).body.description).to.equal('');
    // Also on the lifecycle API and a YAML body where only the machine upload takes YAML.
    expect(
      (
        await srv.req('POST', '/api/v1/entities/e1/create', 'machine_name: x', undefined, {
          'Content-Type': 'application/yaml',
        })
      ).status,
    ).to.equal(415);
    // A list URL takes YAML as an import (docs/import-export.md): a list of mappings, not one object.
    expect(
      (await srv.req('POST', '/api/dcim/sites/', 'name: y', undefined, { 'Content-Type': 'application/yaml' })).status,
    ).to.equal(400);
  });

  it('application/*+json and a charset are JSON; pynetbox\'s "application/json;" too', async () => {
    for (const [i, type] of [
      'application/vnd.api+json',
      'application/json; charset=utf-8',
      'application/json;',
    ].entries())
      expect(
        (
          await srv.req('POST', '/api/dcim/sites/', { name: `j${i}`, slug: `j${i}` }, undefined, {
            'Content-Type': type,
          })
        ).status,
        type,
      ).to.equal(201);
    const id = (await srv.req('GET', '/api/dcim/sites/?slug=j0')).body.results[0].id;
    const patched = await srv.req('PATCH', `/api/dcim/sites/${id}/`, { description: 'merged' }, undefined, {
      'Content-Type': 'application/merge-patch+json',
    });
    expect(patched.status).to.equal(200);
    expect(patched.body.description).to.equal('merged');
  });

  it('the machine upload keeps taking YAML (and JSON)', async () => {
    const res = await srv.req('POST', '/api/v1/machines', MACHINE_YAML, undefined, {
      'Content-Type': 'application/yaml',
    });
    expect(res.status).to.equal(201);
    expect(
      (
        await srv.req('POST', '/api/v1/machines', MACHINE_YAML.replace('ct_probe', 'ct_probe_text'), undefined, {
          'Content-Type': 'text/yaml',
        })
      ).status,
    ).to.equal(201);
    expect(
      (await srv.req('POST', '/api/v1/machines', MACHINE_YAML, undefined, { 'Content-Type': 'text/plain' })).status,
    ).to.equal(415);
  });

  it('requests without a body are not touched: DELETE, a POST without one, GET with a stray Content-Type', async () => {
    const id = (await srv.req('POST', '/api/dcim/sites/', { name: 'd', slug: 'd' })).body.id;
    expect(
      (await raw(srv.url, 'DELETE', `/api/dcim/sites/${id}/`, { 'Content-Type': 'application/x-www-form-urlencoded' }))
        .status,
    ).to.equal(204);
    // No body: the route's own answer (a body is required there), not a 415.
    const empty = await raw(srv.url, 'POST', '/api/dcim/sites/', { 'Content-Length': '0' });
    expect(empty.status).to.equal(400);
    expect((await raw(srv.url, 'GET', '/api/dcim/sites/', { 'Content-Type': 'text/plain' })).status).to.equal(200);
  });

  it('without a token a body is a 401 first (the body is never read)', async () => {
    const res = await srv.req('POST', '/api/dcim/sites/', 'name=x', null, {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).to.equal(401);
  });
});
