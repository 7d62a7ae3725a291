// What NetBox/Nautobot clients read before anything else (#17 items 4 and 10): the API tree, the
// status, the API version an answer speaks and how a client asks for another, the OpenAPI document
// where NetBox clients fetch it, and REST framework's `display_name` on every choice.
import { expect } from 'chai';
import fs from 'node:fs';
import { RESOURCES, resourcePath } from '../../engine/schema/registry.js';
import { acceptedVersion } from '../../server/api-version.js';
import { ConfigError, loadConfig } from '../../server/config/load-config.js';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import { startServer, type TestServer } from '../support/server.js';
import { REPO_URL } from '../support/paths.js';

const PRODUCT_VERSION = JSON.parse(fs.readFileSync(new URL('package.json', REPO_URL), 'utf8')).version as string;
/** Registry resources the API serves at their resourcePath (the lifecycle API lives under /api/v1/). */
const AT_RESOURCE_PATH = RESOURCES.filter((r) => r.inventory !== false || r.name === 'token');

describe('API tree, versions and where the document is', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    await srv?.close();
  });

  it('/api/ links every app of the registry, the lifecycle API and the status; every link answers', async () => {
    const root = await srv.req('GET', '/api/', undefined, null);
    expect(root.status).to.equal(200);
    // Apps of the registry, and those of further paths an endpoint is served at (/api/core/object-changes/).
    const apps = [
      ...new Set([
        ...AT_RESOURCE_PATH.map((r) => r.app),
        ...AT_RESOURCE_PATH.flatMap((r) => (r.alsoAt ?? []).map((p) => p.split('/')[2])),
      ]),
    ];
    expect(apps).to.include.members(['dcim', 'ipam', 'extras', 'users']);
    expect(Object.keys(root.body).sort()).to.deep.equal([...apps, 'lifecycle', 'status'].sort());
    for (const a of apps) expect(root.body[a]).to.equal(`${srv.url}/api/${a}/`);
    expect(root.body.lifecycle).to.equal(`${srv.url}/api/v1/`);
    expect(root.body.status).to.equal(`${srv.url}/api/status/`);
    // Ansible's nb_inventory asks so
    expect((await srv.req('GET', '/api/status', undefined, null)).status).to.equal(200);
    for (const url of Object.values(root.body) as string[]) expect((await fetch(url)).status, url).to.equal(200);
  });

  it(
    'each app index links each of its registry resources (and the lifecycle index its lists); every link ' + 'answers',
    async () => {
      for (const r of AT_RESOURCE_PATH) {
        const index = await srv.req('GET', `/api/${r.app}/`, undefined, null);
        expect(index.status).to.equal(200);
        expect(index.body[r.plural], `${r.app}/${r.plural}`).to.equal(srv.url + resourcePath(r));
        expect((await srv.req('GET', resourcePath(r))).status, resourcePath(r)).to.equal(200);
      }
      const users = await srv.req('GET', '/api/users/', undefined, null);
      expect(users.body).to.deep.equal({
        groups: `${srv.url}/api/users/groups/`,
        permissions: `${srv.url}/api/users/permissions/`,
        tokens: `${srv.url}/api/users/tokens/`,
        users: `${srv.url}/api/users/users/`,
      });
      const lifecycle = await srv.req('GET', '/api/v1/', undefined, null);
      expect(lifecycle.body).to.deep.equal({
        entities: `${srv.url}/api/v1/entities/`,
        machines: `${srv.url}/api/v1/machines`,
      });
      for (const url of Object.values(lifecycle.body) as string[])
        expect((await srv.req('GET', url.slice(srv.url.length))).status).to.equal(200);
    },
  );

  it('every answer says API-Version: 3.7 (the NetBox level), errors and refusals included', async () => {
    const answers = [
      await srv.req('GET', '/api/', undefined, null),
      await srv.req('GET', '/api/dcim/sites/'),
      await srv.req('GET', '/api/dcim/sites/', undefined, null), // 401
      await srv.req('GET', '/api/dcim/nothing/'), // 404
      await srv.req('POST', '/api/dcim/sites/', 'name=a', undefined, {
        'Content-Type': 'application/x-www-form-urlencoded',
      }), // 415
      await srv.req('GET', '/api/v1/machines'),
      await srv.req('GET', '/api/schema/', undefined, null),
    ];
    for (const a of answers) expect(a.headers.get('api-version')).to.equal('3.7');
  });

  it('a Nautobot client asking for 1.3 (Accept version or api_version) gets it; 3.7 may be asked too', async () => {
    for (const accept of [
      'application/json; version=1.3',
      'application/json;version="1.3"',
      'text/html, */*; version=1.3',
    ]) {
      const res = await srv.req('GET', '/api/dcim/sites/', undefined, undefined, { Accept: accept });
      expect(res.status, accept).to.equal(200);
      expect(res.headers.get('api-version'), accept).to.equal('1.3');
    }
    expect((await srv.req('GET', '/api/dcim/sites/?api_version=1.3')).headers.get('api-version')).to.equal('1.3');
    expect(
      (
        await srv.req('GET', '/api/dcim/sites/', undefined, undefined, { Accept: 'application/json; version=3.7' })
      ).headers.get('api-version'),
    ).to.equal('3.7');
    // pynetbox's own header: no version asked.
    expect(
      (await srv.req('GET', '/api/', undefined, null, { Accept: 'application/json;' })).headers.get('api-version'),
    ).to.equal('3.7');
    const status = await srv.req('GET', '/api/status/', undefined, null, { Accept: 'application/json; version=1.3' });
    expect(status.body).to.include({ 'api-version': '1.3', 'netbox-version': '3.7.0' });
  });

  it(
    'any other asked version is refused as Nautobot refuses it: 406 (header), 404 (parameter), 400 (both ' + 'differ)',
    async () => {
      const header = await srv.req('GET', '/api/dcim/sites/', undefined, undefined, {
        Accept: 'application/json; version=2.0',
      });
      expect(header.status).to.equal(406);
      expect(header.body).to.deep.equal({
        detail: 'Invalid version in "Accept" header: "2.0". Supported versions are 3.7, 1.3.',
        code: 'not_acceptable',
      });
      const param = await srv.req('GET', '/api/dcim/sites/?api_version=3.6');
      expect(param.status).to.equal(404);
      expect(param.body.detail).to.equal(
        'Invalid version in query parameter: api_version=3.6. Supported versions are 3.7, 1.3.',
      );
      const both = await srv.req('GET', '/api/dcim/sites/?api_version=3.7', undefined, undefined, {
        Accept: 'application/json; version=1.3',
      });
      expect(both.status).to.equal(400);
      expect(both.body.code).to.equal('api_version_mismatch');
      // Refused before anything is written.
      const post = await srv.req('POST', '/api/dcim/sites/', { name: 'v', slug: 'v' }, undefined, {
        Accept: 'application/json; version=9.9',
      });
      expect(post.status).to.equal(406);
      expect((await srv.req('GET', '/api/dcim/sites/?slug=v')).body.count).to.equal(0);
    },
  );

  it('serves the OpenAPI document at /api/schema/ (JSON, also by default) and /api/docs/?format=openapi', async () => {
    const doc = await (await fetch(`${srv.url}/openapi.json`)).json();
    for (const path of ['/api/schema/', '/api/schema/?format=json', '/api/docs/?format=openapi']) {
      const res = await fetch(srv.url + path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.match(/^application\/json/);
      expect(await res.json(), path).to.deep.equal(doc);
    }
    expect((await fetch(`${srv.url}/api/schema/?format=yaml`)).status).to.equal(404);
    const docs = await fetch(`${srv.url}/api/docs/`, { redirect: 'manual' });
    expect(docs.status).to.equal(302);
    expect(docs.headers.get('location')).to.equal('/docs');
    expect(doc.info.version).to.equal('3.7');
    for (const p of [
      '/api/',
      '/api/status/',
      '/api/schema/',
      '/api/docs/',
      '/api/dcim/',
      '/api/ipam/',
      '/api/extras/',
      '/api/users/',
      '/api/v1/',
    ])
      expect(doc.paths, p).to.have.property(p);
  });

  it(
    "OPTIONS gives every choice value, display and display_name (REST framework's), for every choice field of " +
      'the registry',
    async () => {
      let seen = 0;
      for (const r of RESOURCES.filter((x) => x.inventory !== false)) {
        const choiceFields = r.fields.filter((f) => f.kind === 'choice' && !f.hidden && !f.readOnly);
        if (!choiceFields.length) continue;
        const body = (await srv.req('OPTIONS', resourcePath(r))).body;
        for (const f of choiceFields) {
          const choices = body.actions.POST[f.name].choices as Record<string, string>[];
          expect(
            choices.map((c) => c.value),
            `${r.name}.${f.name}`,
          ).to.deep.equal(f.choices!.map((c) => c.value));
          for (const c of choices)
            expect(c.display_name, `${r.name}.${f.name}`).to.equal(c.display).and.to.be.a('string');
          seen++;
        }
      }
      expect(seen).to.be.greaterThan(2);
    },
  );
});

describe('the version an Accept header asks for', () => {
  it('is the version parameter of the first JSON (or wildcard) media range that has one', () => {
    const cases: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['application/json', undefined],
      ['application/json;', undefined],
      ['application/json; version=1.3', '1.3'],
      ['application/json; indent=4; version="1.3"', '1.3'],
      ['text/html; version=2.0, application/json; version=1.3', '1.3'],
      ['*/*;q=0.8;version=1.3', '1.3'],
      ['application/xml; version=9.9', undefined],
      ['Application/JSON; Version=3.7', '3.7'],
    ];
    for (const [accept, version] of cases) expect(acceptedVersion(accept), String(accept)).to.equal(version);
  });
});

describe('NETBOX_API_LEVEL', () => {
  it(
    'is read from the environment and from the config file key netboxApiLevel; default 3.7; a bad one stops ' +
      'the start',
    () => {
      expect(loadConfig([], {}).netboxApiLevel).to.equal('3.7');
      expect(loadConfig([], { NETBOX_API_LEVEL: '4.1' }).netboxApiLevel).to.equal('4.1');
      const file = `/tmp/netinv-level-${process.pid}.json`;
      fs.writeFileSync(file, JSON.stringify({ netboxApiLevel: '3.6' }));
      try {
        expect(loadConfig(['--config', file], {}).netboxApiLevel).to.equal('3.6');
        fs.writeFileSync(file, JSON.stringify({ netboxApiLevel: 3.6 }));
        expect(() => loadConfig(['--config', file], {})).to.throw(
          ConfigError,
          /netboxApiLevel must be a NetBox API level as text/,
        );
      } finally {
        fs.rmSync(file);
      }
      for (const bad of ['3', '3.7.0', 'v3.7', 'latest'])
        expect(() => loadConfig([], { NETBOX_API_LEVEL: bad }), bad).to.throw(ConfigError, /NETBOX_API_LEVEL/);
    },
  );

  it('sets API-Version, netbox-version and the document version; 1.3 stays askable', async () => {
    const srv = await startServer({ netboxApiLevel: '4.0' });
    try {
      const status = await srv.req('GET', '/api/status/', undefined, null);
      expect(status.headers.get('api-version')).to.equal('4.0');
      expect(status.body).to.include({ 'netbox-version': '4.0.0', 'api-version': '4.0' });
      expect(
        (await srv.req('GET', '/api/', undefined, null, { Accept: 'application/json; version=1.3' })).headers.get(
          'api-version',
        ),
      ).to.equal('1.3');
      expect(
        (await srv.req('GET', '/api/', undefined, null, { Accept: 'application/json; version=3.7' })).status,
      ).to.equal(406);
      expect((await srv.req('GET', '/api/schema/', undefined, null)).body.info.version).to.equal('4.0');
    } finally {
      await srv.close();
    }
  });
});

for (const backend of BACKENDS)
  describe(`/api/status/ on ${backend.name}`, function () {
    this.timeout(60000);
    const srv = serverOn(backend);

    it(
      'names the NetBox level, the product, Node, the storage and its server version, and the installed ' + 'machines',
      async () => {
        const res = await srv.req('GET', '/api/status/', undefined, null);
        expect(res.status).to.equal(200);
        const s = res.body;
        expect(Object.keys(s).sort()).to.deep.equal([
          'api-version',
          'installed-machines',
          'netbox-version',
          'netinv-version',
          'node-version',
          'plugins',
          'replica_lag_ms',
          'replica_lag_seq',
          'storage',
          'storage-version',
        ]);
        expect([s.replica_lag_seq, s.replica_lag_ms]).to.deep.equal([null, null]); // no READ_REPLICA here
        expect(s).to.include({
          'netbox-version': '3.7.0',
          'api-version': '3.7',
          'netinv-version': PRODUCT_VERSION,
          'node-version': process.versions.node,
          storage: backend.driver,
        });
        expect(s.plugins).to.deep.equal({});
        const machines = (await srv.req('GET', '/api/v1/machines')).body.count;
        expect(machines).to.be.greaterThan(0);
        expect(s['installed-machines']).to.equal(machines);
        const server =
          backend.driver === 'postgres'
            ? /^\d+(\.\d+)+/
            : backend.driver === 'mysql'
              ? /^\d+\.\d+\.\d+/
              : new RegExp(`^${PRODUCT_VERSION.replace(/\./g, '\\.')}$`);
        expect(s['storage-version']).to.match(server);
        if (backend.name === 'mysql') expect(s['storage-version']).to.match(/mariadb/i);
        if (backend.name === 'mysql9') expect(s['storage-version']).to.match(/^9\./);
      },
    );
  });
