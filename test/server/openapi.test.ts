// The OpenAPI document against the registry and the live routes: structure (3.1), every list path
// with its derived filters, every lifecycle route, request validation by the document, responses
// that match their schemas, and /docs + /ui/ served without any external URL.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { filtersOf } from '../../engine/filters/filter-set.js';
import { ADDRESS_TEXT_LOOKUPS, NET_LOOKUPS } from '../../engine/filters/lookups.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { UUID_IDS } from '../../engine/schema/id-style.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { validateInput } from '../../engine/schema/validate-input.js';
import { INVENTORY_RESOURCES } from '../../server/routes/inventory.js';
import { createAjv } from '../../server/openapi/validate-requests.js';
import { schemaNames } from '../../server/openapi/inventory-schemas.js';
import type { OpenApiDocument, Operation, Parameter, PathItem, Response } from '../../server/openapi/types.js';
import { startServer, type TestServer } from '../support/server.js';
import { writeCases } from '../support/write-bodies.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;
const LIFECYCLE_ROUTES: [string, string][] = [
  ['get', '/api/v1/machines'],
  ['post', '/api/v1/machines'],
  ['get', '/api/v1/machines/{name}'],
  ['get', '/api/v1/machines/{name}/versions/{version}'],
  ['get', '/api/v1/entities/'],
  ['get', '/api/v1/entities/{entity_id}'],
  ['post', '/api/v1/entities/{entity_id}/create'],
  ['post', '/api/v1/entities/{entity_id}/events'],
  ['get', '/api/v1/entities/{entity_id}/history'],
];

/** Filter parameter names a resource must document, derived here from filtersOf() independently. */
function expectedFilterNames(r: ResourceDef): string[] {
  return [...filtersOf(r).values()].flatMap((s) => {
    switch (s.type) {
      case 'scalar':
        return [s.name, ...Object.keys(s.lookups).map((l) => `${s.name}__${l}`)];
      case 'fk':
      case 'tag':
        return [s.name, `${s.name}__n`];
      case 'net':
        return [s.name, ...[...NET_LOOKUPS, ...Object.keys(ADDRESS_TEXT_LOOKUPS)].map((l) => `${s.name}__${l}`)];
      default:
        return [s.name];
    }
  });
}

function operations(doc: OpenApiDocument): { path: string; method: string; op: Operation; params: Parameter[] }[] {
  return Object.entries(doc.paths).flatMap(([path, item]: [string, PathItem]) =>
    METHODS.filter((m) => item[m]).map((method) => {
      const op = item[method]!;
      return { path, method, op, params: [...(item.parameters ?? []), ...(op.parameters ?? [])] };
    }),
  );
}

function walkRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => walkRefs(n, out));
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else walkRefs(v, out);
    }
  return out;
}

const pointer = (doc: unknown, ref: string): unknown =>
  ref
    .slice(2)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc);

describe('OpenAPI document', () => {
  let srv: TestServer;
  let doc: OpenApiDocument;
  let conforms: (schema: string, value: unknown) => string | null;
  before(async () => {
    srv = await startServer();
    const res = await fetch(`${srv.url}/openapi.json`); // no token needed
    expect(res.status).to.equal(200);
    doc = (await res.json()) as OpenApiDocument;
    const ajv = createAjv(doc);
    conforms = (schema, value) => {
      const v =
        ajv.getSchema(`openapi.json#/$defs/${schema}`) ?? ajv.compile({ $ref: `openapi.json#/$defs/${schema}` });
      return v(value) ? null : JSON.stringify(v.errors?.slice(0, 3));
    };
  });
  after(() => srv.close());

  describe('structure', () => {
    it('is OpenAPI 3.1 with Token security, absolute path keys and unique operation ids', () => {
      expect(doc.openapi).to.match(/^3\.1\.\d+$/);
      expect(doc.info.title).to.be.a('string');
      expect(doc.info.version).to.be.a('string');
      expect(doc.components.securitySchemes.Token).to.deep.include({
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
      });
      expect(doc.security).to.deep.equal([{ Token: [] }]);
      for (const path of Object.keys(doc.paths)) expect(path, path).to.match(/^\//);
      const ids = operations(doc).map((o) => o.op.operationId);
      expect(new Set(ids).size).to.equal(ids.length);
      for (const { path, method, op } of operations(doc)) {
        expect(op.summary, `${method} ${path}`).to.be.a('string');
        expect(Object.keys(op.responses), `${method} ${path}`).to.not.be.empty;
      }
    });

    it('declares every path template variable as a required path parameter, and no other', () => {
      for (const { path, method, params } of operations(doc)) {
        const vars = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        const declared = params.filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort(), `${method} ${path}`).to.deep.equal(vars);
        for (const p of declared) expect(p.required, `${method} ${path} ${p.name}`).to.equal(true);
      }
    });

    it('resolves every $ref and compiles every component schema with strict JSON Schema 2020-12', () => {
      for (const ref of walkRefs(doc)) {
        expect(ref, ref).to.match(/^#\/components\/(schemas|responses)\//);
        expect(pointer(doc, ref), ref).to.be.an('object');
      }
      const ajv = createAjv(doc);
      for (const name of Object.keys(doc.components.schemas))
        expect(() => ajv.compile({ $ref: `openapi.json#/$defs/${name}` }), name).to.not.throw();
    });
  });

  describe('inventory paths from the registry', () => {
    for (const r of INVENTORY_RESOURCES) {
      it(
        `${resourcePath(r)}: list with every derived ` +
          `filter${r.writable === false ? ', read-only' : ', POST one or many, {id}/ GET PUT PATCH DELETE'}`,
        () => {
          const list = doc.paths[resourcePath(r)];
          expect(list, resourcePath(r)).to.be.an('object');
          const names = list.get!.parameters!.map((p) => p.name);
          expect(names).to.include.members(['limit', 'offset', 'ordering', 'q', ...expectedFilterNames(r)]);
          if (r.fields.some((f) => f.kind === 'custom_fields'))
            expect(list.get!.description).to.contain('cf_<name>[__<lookup>]');
          const detail = doc.paths[`${resourcePath(r)}{id}/`];
          if (r.writable === false) {
            // Read-only (the change log): no write operation is documented.
            expect(Object.keys(list)).to.not.include.members(['post']);
            expect(Object.keys(detail).filter((m) => ['put', 'patch', 'delete', 'post'].includes(m))).to.deep.equal([]);
          } else {
            const body = list.post!.requestBody!.content['application/json'].schema as { anyOf: unknown[] };
            expect(body.anyOf).to.have.length(2);
            expect(Object.keys(detail)).to.include.members(['get', 'put', 'patch', 'delete']);
          }
          expect(list.get!['x-permission']).to.equal(`${r.app}.view_${r.name.replace(/_/g, '')}`);
        },
      );
    }

    it('documents network lookups and the Nautobot convenience filters of prefixes', () => {
      const names = doc.paths['/api/ipam/prefixes/'].get!.parameters!.map((p) => p.name);
      expect(names).to.include.members([
        'network__net_contained',
        'network__net_host',
        'network__istartswith',
        'within',
        'within_include',
        'contains',
        'mask_length',
        'family',
      ]);
    });

    it('documents the token endpoints', () => {
      expect(doc.paths['/api/users/tokens/'].post).to.be.an('object');
      expect(doc.paths['/api/users/tokens/{id}/'].delete).to.be.an('object');
      for (const m of ['put', 'patch'] as const) {
        expect(doc.paths['/api/users/tokens/{id}/'][m]!.responses, m).to.include.keys([
          '200',
          '400',
          '401',
          '403',
          '404',
        ]);
        expect(doc.paths['/api/users/tokens/{id}/'][m]!['x-permission']).to.equal('users.change_token');
      }
      const provision = doc.paths['/api/users/tokens/provision/'].post!;
      expect(provision.security).to.deep.equal([]);
      expect(provision.responses).to.include.keys(['201', '400', '403', '429']);
      expect(Object.keys(doc.paths['/api/users/tokens/provision/'])).to.deep.equal(['post']);
      const write = doc.components.schemas.TokenWrite.properties as Record<string, unknown>;
      expect(write).to.have.keys([
        'user',
        'permissions',
        'description',
        'expires',
        'write_enabled',
        'allowed_ips',
        'enabled',
        'version',
      ]);
      expect(doc.components.schemas.Token.required).to.include.members([
        'user',
        'expires',
        'write_enabled',
        'allowed_ips',
        'enabled',
        'last_used',
        'version',
        'description',
      ]);
      expect(doc.components.schemas.TokenCreated.required).to.include.members(['key', 'token']);
    });

    it('documents users, groups and object permissions, and /api/authentication-check/', () => {
      for (const [plural, model] of [
        ['users', 'user'],
        ['groups', 'group'],
        ['permissions', 'objectpermission'],
      ]) {
        const list = doc.paths[`/api/users/${plural}/`];
        const one = doc.paths[`/api/users/${plural}/{id}/`];
        expect(Object.keys(list), plural).to.deep.equal(['get', 'post']);
        expect(Object.keys(one), plural).to.deep.equal(['parameters', 'get', 'put', 'patch', 'delete']);
        expect(list.get!['x-permission']).to.equal(`users.view_${model}`);
        expect(list.get!.responses).to.include.keys(['200', '400', '401', '403']);
        expect(list.post!['x-permission']).to.equal(`users.add_${model}`);
        expect(list.post!.responses).to.include.keys(['201', '400', '401', '403']);
        for (const m of ['get', 'put', 'patch', 'delete'] as const)
          expect(one[m]!.responses).to.include.keys(['401', '403', '404']);
        expect(one.delete!['x-permission']).to.equal(`users.delete_${model}`);
      }
      const check = doc.paths['/api/authentication-check/'].get!;
      expect(check.responses).to.include.keys(['200', '401', '403']);
      expect(check['x-permission']).to.equal(undefined);
    });

    it('never shows a hidden field in an answer; the password is write-only in the user write schemas', () => {
      const schemas = doc.components.schemas as Record<
        string,
        { properties?: Record<string, { writeOnly?: boolean }> }
      >;
      for (const [name, schema] of [
        ['User', 'user'],
        ['Group', 'group'],
        ['ObjectPermission', 'object_permission'],
        ['Token', 'token'],
        ['TokenCreated', 'token'],
        ['NestedUser', 'user'],
        ['BriefUser', 'user'],
      ]) {
        // A token's `version` is its form (1 or 2), served under the name of the hidden row version.
        const hidden = resource(schema).fields.filter((f) => f.hidden && !(schema === 'token' && f.name === 'version'));
        expect(hidden, schema).to.not.be.empty;
        for (const f of hidden) expect(schemas[name].properties, `${name}.${f.name}`).to.not.have.property(f.name);
      }
      for (const name of ['UserWrite', 'UserReplace', 'UserPatch'])
        expect(schemas[name].properties!.password.writeOnly, name).to.equal(true);
      expect(doc.components.schemas.UserWrite.required).to.deep.equal(['username']);
      expect(doc.components.schemas.ObjectPermissionWrite.required).to.deep.equal(['name', 'object_types', 'actions']);
      expect(doc.components.schemas.ObjectPermissionReplace.required).to.deep.equal(['name']);
    });
  });

  describe('lifecycle paths', () => {
    it('documents every lifecycle route with its bodies and the Idempotency-Key header', () => {
      for (const [method, path] of LIFECYCLE_ROUTES)
        expect(doc.paths[path]?.[method as 'get'], `${method} ${path}`).to.be.an('object');
      for (const path of ['/api/v1/entities/{entity_id}/create', '/api/v1/entities/{entity_id}/events']) {
        const op = doc.paths[path].post!;
        expect(op.parameters!.map((p) => p.name)).to.include('Idempotency-Key');
        expect(op.requestBody!.required).to.equal(true);
        expect(op.responses).to.include.keys(['400', '404', '409', '422']);
      }
      const entityParam = doc.paths['/api/v1/entities/{entity_id}/create'].parameters![0];
      expect(entityParam.schema.pattern).to.equal('^[A-Za-z0-9._:-]{1,128}$');
      const listNames = doc.paths['/api/v1/entities/'].get!.parameters!.map((p) => p.name);
      expect(listNames).to.include.members(['machine_name', 'state', 'state__n', 'created__gte', 'limit', 'offset']);
    });

    it('every documented operation reaches a real route (never the fallback 404)', async () => {
      const sample: Record<string, string> = {
        id: randomUUID(),
        name: 'order_flow',
        version: '1.0.0',
        entity_id: 'route-probe',
      };
      for (const { path, method } of operations(doc)) {
        const url = path.replace(/\{([^}]+)\}/g, (_m, n: string) => encodeURIComponent(sample[n]));
        const res = await srv.req(
          method.toUpperCase(),
          url,
          ['post', 'put', 'patch'].includes(method) ? {} : undefined,
        );
        expect(String(res.body?.detail ?? ''), `${method} ${path} -> ${res.status}`).to.not.match(/^Not found: /);
        expect(res.status, `${method} ${path}`).to.be.below(500);
      }
    });
  });

  describe('request bodies: the document is the authority', () => {
    it('refuses a lifecycle body the document forbids with 400 invalid_body and never runs the handler', async () => {
      const wrongType = await srv.req('POST', '/api/v1/entities/v-1/create', { machine_name: 5 });
      expect(wrongType.status).to.equal(400);
      expect(wrongType.body.code).to.equal('invalid_body');
      expect(wrongType.body.errors).to.deep.include({ in: 'body', path: '/machine_name', message: 'must be string' });
      const extra = await srv.req('POST', '/api/v1/entities/v-1/create', { machine_name: 'order_flow', colour: 'red' });
      expect(extra.status).to.equal(400);
      expect(extra.body.errors[0]).to.include({ path: '/colour' });
      expect((await srv.req('GET', '/api/v1/entities/v-1')).status).to.equal(404);
      const noBody = await srv.req('POST', '/api/v1/entities/v-1/events', undefined);
      expect(noBody.body.code).to.equal('invalid_body');
      for (const machine_version of ['1.0', 'v1.0.0', '99999999999999999999.0.0']) {
        const badVersion = await srv.req('POST', '/api/v1/entities/v-1/create', {
          machine_name: 'order_flow',
          machine_version,
        });
        expect(badVersion.body.errors, machine_version).to.deep.include({
          in: 'body',
          path: '/machine_version',
          message: 'must match format "semver"',
        });
      }
      const emptyTrigger = await srv.req('POST', '/api/v1/entities/v-1/events', { trigger: '' });
      expect(emptyTrigger.body.code).to.equal('invalid_body');
      // A machine definition is checked by its handler against the same schema (with the rules
      // across fields and the configured limits): refused as invalid_machine, every problem listed.
      const badMachine = await srv.req('POST', '/api/v1/machines', {
        meta: { machine_name: 'm', version: '1.0.0' },
        states: 'open',
        transitions: [],
      });
      expect(badMachine.body.code).to.equal('invalid_machine');
      expect(badMachine.body.problems).to.deep.equal(['states: must be a non-empty list, got "open"']);
      expect((await srv.req('POST', '/api/v1/machines', undefined)).body.code).to.equal('invalid_body');
    });

    it('checks path and header parameters against the document', async () => {
      const badId = await srv.req('POST', '/api/v1/entities/bad%20id/create', { machine_name: 'order_flow' });
      expect(badId.status).to.equal(400);
      expect(badId.body.code).to.equal('invalid_entity_id');
      const longKey = await srv.req('POST', '/api/v1/entities/v-2/create', { machine_name: 'order_flow' }, undefined, {
        'Idempotency-Key': 'k'.repeat(129),
      });
      expect(longKey.body.code).to.equal('invalid_idempotency_key');
      expect((await srv.req('GET', '/api/v1/entities/v-2')).status).to.equal(404);
    });

    it('answers 401 and 403 before judging the body', async () => {
      expect((await srv.req('POST', '/api/v1/entities/v-3/create', { machine_name: 5 }, null)).status).to.equal(401);
      const viewer = await srv.req('POST', '/api/users/tokens/', { permissions: ['lifecycle.view_entity'] });
      expect(
        (await srv.req('POST', '/api/v1/entities/v-3/create', { machine_name: 5 }, viewer.body.key)).status,
      ).to.equal(403);
    });

    it('accepts the examples it documents', async () => {
      const create = doc.components.schemas.EntityCreate.examples as unknown[];
      const made = await srv.req('POST', '/api/v1/entities/example-1/create', create[0]);
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const event = (doc.components.schemas.EventRequest.examples as Record<string, unknown>[])[0];
      const moved = await srv.req('POST', '/api/v1/entities/example-1/events', event);
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      const machine = (doc.components.schemas.MachineDefinition.examples as unknown[])[0];
      expect((await srv.req('POST', '/api/v1/machines', machine)).status).to.equal(201);
    });

    describe('inventory write schemas agree with the registry validation', () => {
      for (const r of INVENTORY_RESOURCES) {
        it(`${resourcePath(r)}: POST/PUT and PATCH bodies`, () => {
          for (const [what, body] of writeCases(r, UUID_IDS)) {
            const registry = validateInput(r, body, { partial: false, creating: true, customFields: [] });
            const documented = conforms(schemaNames(r).write, body);
            const said = registry.ok
              ? 'accepts'
              : `refuses ${JSON.stringify((registry as { errors: unknown }).errors)}`;
            expect(documented === null, `${what}: registry ${said}, document ${documented ?? 'accepts'}`).to.equal(
              registry.ok,
            );
          }
          expect(conforms(schemaNames(r).patch, {})).to.equal(null);
          expect(conforms(schemaNames(r).patch, { bogus: 1 })).to.not.equal(null);
        });
      }
    });
  });

  describe('responses match their documented schemas', () => {
    /** Conforms, and carries no key its schema does not name (the read schemas allow more). */
    const exactly = (schema: string, value: unknown): string | null => {
      const props = (doc.components.schemas[schema].properties ?? {}) as Record<string, unknown>;
      const extra = Object.keys(value as object).filter((k) => !(k in props));
      return conforms(schema, value) ?? (extra.length ? `not in ${schema}: ${extra.join(', ')}` : null);
    };

    /** Conforms to an inline schema of the document (its references rebased as createAjv() does). */
    const conformsTo = (schema: unknown, value: unknown): string | null => {
      const v = createAjv(doc).compile(
        JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', 'openapi.json#/$defs/')),
      );
      return v(value) ? null : JSON.stringify(v.errors?.slice(0, 3));
    };

    it('users, groups, permissions, tokens, provision and authentication-check', async () => {
      const group = await srv.req('POST', '/api/users/groups/', { name: 'noc', description: 'NOC' });
      expect(group.status).to.equal(201);
      const user = await srv.req('POST', '/api/users/users/', {
        username: 'alice',
        password: 'correct horse',
        groups: [group.body.id],
      });
      expect(user.status, JSON.stringify(user.body)).to.equal(201);
      const perm = await srv.req('POST', '/api/users/permissions/', {
        name: 'sites',
        object_types: ['dcim.site'],
        actions: ['view'],
        constraints: { slug: 'ams1' },
        users: [user.body.id],
        groups: [{ id: group.body.id }],
      });
      expect(perm.status, JSON.stringify(perm.body)).to.equal(201);
      expect(exactly('ObjectPermission', perm.body)).to.equal(null);
      expect(exactly('User', (await srv.req('GET', `/api/users/users/${user.body.id}/`)).body)).to.equal(null);
      expect(exactly('Group', (await srv.req('GET', `/api/users/groups/${group.body.id}/`)).body)).to.equal(null);
      for (const [path, schema] of [
        ['users', 'User'],
        ['groups', 'Group'],
        ['permissions', 'ObjectPermission'],
      ]) {
        const list = (await srv.req('GET', `/api/users/${path}/`)).body;
        expect(list.results, path).to.not.be.empty;
        const documented = doc.paths[`/api/users/${path}/`].get!.responses['200'] as Response;
        expect(conformsTo(documented.content!['application/json'].schema, list), path).to.equal(null);
        for (const item of list.results) expect(exactly(schema, item), path).to.equal(null);
      }
      const patched = await srv.req('PATCH', `/api/users/users/${user.body.id}/`, { first_name: 'Alice' });
      expect(exactly('User', patched.body)).to.equal(null);
      expect(exactly('NestedGroup', patched.body.groups[0])).to.equal(null);
      expect(exactly('NestedObjectPermission', patched.body.permissions[0])).to.equal(null);
      const replaced = await srv.req('PUT', `/api/users/groups/${group.body.id}/`, { name: 'noc2' });
      expect(exactly('Group', replaced.body)).to.equal(null);
      expect(exactly('NestedUser', replaced.body.users[0])).to.equal(null);
      expect(conforms('FieldErrors', (await srv.req('POST', '/api/users/users/', { username: '' })).body)).to.equal(
        null,
      );
      expect(conforms('Error', (await srv.req('GET', `/api/users/users/${randomUUID()}/`)).body)).to.equal(null);

      const made = await srv.req('POST', '/api/users/tokens/', { user: user.body.id, expires: '2999-01-01T00:00:00Z' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      expect(exactly('TokenCreated', made.body)).to.equal(null);
      const changed = await srv.req('PATCH', `/api/users/tokens/${made.body.id}/`, {
        description: 'ci',
        enabled: true,
      });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(exactly('Token', changed.body)).to.equal(null);
      const refused = await srv.req('PATCH', `/api/users/tokens/${made.body.id}/`, { write_enabled: false });
      expect(refused.status).to.equal(400);
      expect(conforms('FieldErrors', refused.body)).to.equal(null);
      const tokens = (await srv.req('GET', '/api/users/tokens/')).body;
      const tokenList = doc.paths['/api/users/tokens/'].get!.responses['200'] as Response;
      expect(conformsTo(tokenList.content!['application/json'].schema, tokens)).to.equal(null);
      for (const t of tokens.results) expect(exactly('Token', t)).to.equal(null);
      const check = await srv.req('GET', '/api/authentication-check/', undefined, made.body.key);
      expect(check.status).to.equal(200);
      expect(exactly('User', check.body)).to.equal(null);

      const provision = (b: unknown) => srv.req('POST', '/api/users/tokens/provision/', b, null);
      const provisioned = await provision({ username: 'alice', password: 'correct horse', description: 'login' });
      expect(provisioned.status, JSON.stringify(provisioned.body)).to.equal(201);
      expect(exactly('TokenCreated', provisioned.body)).to.equal(null);
      expect(conforms('Error', (await provision({ username: 'alice', password: 'wrong' })).body)).to.equal(null);
      expect(conforms('FieldErrors', (await provision({ username: 'alice' })).body)).to.equal(null);
    });

    it('v2 tokens (with a pepper): created and read as documented, the key id served', async () => {
      const v2 = await startServer({ apiTokenPeppers: { '1': 'pepper-'.repeat(8) } });
      try {
        const me = (await v2.req('GET', '/api/authentication-check/')).body;
        const made = await v2.req('POST', '/api/users/tokens/', {
          user: me.id,
          version: 2,
          allowed_ips: ['10.0.0.0/8'],
        });
        expect(made.status, JSON.stringify(made.body)).to.equal(201);
        expect(made.body.version).to.equal(2);
        expect(exactly('TokenCreated', made.body)).to.equal(null);
        const read = (await v2.req('GET', `/api/users/tokens/${made.body.id}/`)).body;
        expect(read.key).to.be.a('string');
        expect(exactly('Token', read)).to.equal(null);
      } finally {
        await v2.close();
      }
    });

    it('inventory objects, lists and brief lists', async () => {
      await srv.req('POST', '/api/extras/tags/', { name: 'Core', slug: 'core' });
      const region = await srv.req('POST', '/api/dcim/regions/', { name: 'EU', slug: 'eu' });
      const site = await srv.req('POST', '/api/dcim/sites/', {
        name: 's1',
        slug: 's1',
        region: region.body.id,
        tags: ['core'],
        asn: 65000,
      });
      expect(site.status).to.equal(201);
      expect(conforms('Site', site.body)).to.equal(null);
      expect(conforms('SiteList', (await srv.req('GET', '/api/dcim/sites/')).body)).to.equal(null);
      expect(conforms('SiteList', (await srv.req('GET', '/api/dcim/sites/?brief=true')).body)).to.equal(null);
      const prefix = await srv.req('POST', '/api/ipam/prefixes/', { prefix: '10.1.0.0/16', site: site.body.id });
      expect(conforms('Prefix', prefix.body)).to.equal(null);
      expect(conforms('FieldErrors', (await srv.req('GET', '/api/dcim/sites/?bogus=1')).body)).to.equal(null);
    });

    it('lifecycle entities, events, history and machines', async () => {
      const created = await srv.req('POST', '/api/v1/entities/resp-1/create', { machine_name: 'order_flow' });
      expect(conforms('Entity', created.body)).to.equal(null);
      const moved = await srv.req('POST', '/api/v1/entities/resp-1/events', {
        trigger: 'pay',
        context: { amount: 5, currency: 'EUR', payment_ref: 'r' },
      });
      expect(conforms('EventResult', moved.body)).to.equal(null);
      expect(conforms('HistoryList', (await srv.req('GET', '/api/v1/entities/resp-1/history')).body)).to.equal(null);
      expect(conforms('EntityList', (await srv.req('GET', '/api/v1/entities/?state=paid')).body)).to.equal(null);
      expect(conforms('MachineSummaryList', (await srv.req('GET', '/api/v1/machines')).body)).to.equal(null);
      expect(conforms('MachineVersions', (await srv.req('GET', '/api/v1/machines/device_lifecycle')).body)).to.equal(
        null,
      );
      expect(
        conforms('Machine', (await srv.req('GET', '/api/v1/machines/device_lifecycle/versions/1.0.0')).body),
      ).to.equal(null);
      expect(
        conforms('Error', (await srv.req('POST', '/api/v1/entities/resp-1/events', { trigger: 'nope' })).body),
      ).to.equal(null);
      expect(
        conforms('InvalidRequest', (await srv.req('POST', '/api/v1/entities/resp-1/events', { trigger: 5 })).body),
      ).to.equal(null);
      expect(
        conforms(
          'TokenCreated',
          (await srv.req('POST', '/api/users/tokens/', { permissions: ['dcim.view_site'] })).body,
        ),
      ).to.equal(null);
    });
  });
});

describe('/docs and /ui/ are served by the app, with no external URL', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());

  // An XML namespace names a vocabulary; it is never fetched.
  // XML namespace names are identifiers, never fetched (Preact's renderer names MathML's and XHTML's).
  const NAMESPACES = new Set([
    'http://www.w3.org/2000/svg',
    'http://www.w3.org/1999/xlink',
    'http://www.w3.org/1998/Math/MathML',
    'http://www.w3.org/1999/xhtml',
  ]);
  const externalUrls = (text: string, own: string): string[] =>
    [...text.matchAll(/https?:\/\/[^\s"'`)<>\\]+/g)]
      .map((m) => m[0])
      .filter((u) => !u.startsWith(own) && !NAMESPACES.has(u));

  async function get(path: string): Promise<{ status: number; type: string; text: string }> {
    const res = await fetch(srv.url + path);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  }

  /** Local script and stylesheet references of an HTML page, as absolute paths. */
  function assets(html: string, base: string): string[] {
    return [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1])
      .filter((ref) => !ref.startsWith('data:'))
      .map((ref) => new URL(ref, srv.url + base).pathname);
  }

  it('/docs: Swagger UI page, its own initializer loading /openapi.json, assets from swagger-ui-dist', async () => {
    const page = await get('/docs');
    expect(page.status).to.equal(200);
    expect(page.type).to.contain('text/html');
    expect(externalUrls(page.text, srv.url)).to.deep.equal([]);
    const refs = assets(page.text, '/docs');
    expect(refs).to.include.members([
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/init.js',
    ]);
    for (const ref of refs) expect((await get(ref)).status, ref).to.equal(200);
    const init = await get('/docs/init.js');
    expect(init.text).to.contain("url: '/openapi.json'");
    expect(init.text).to.contain('validatorUrl: null');
    expect(externalUrls(init.text, srv.url)).to.deep.equal([]);
    expect(
      externalUrls((await get('/docs/assets/swagger-ui.css')).text.match(/url\([^)]*\)/g)?.join(' ') ?? '', srv.url),
    ).to.deep.equal([]);
    expect((await get('/docs/assets/swagger-initializer.js')).status).to.equal(404); // the petstore demo stays out
    expect((await get('/docs/assets/index.html')).status).to.equal(404);
  });

  it('/ui/: HTML, CSS and the bundle (with every ES module it imports) are local', async () => {
    const page = await get('/ui/');
    expect(page.status).to.equal(200);
    expect(page.type).to.contain('text/html');
    expect(externalUrls(page.text, srv.url)).to.deep.equal([]);
    const queue = assets(page.text, '/ui/');
    expect(queue).to.include.members(['/ui/app.js', '/ui/style.css']);
    const seen = new Set<string>();
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const file = await get(path);
      expect(file.status, path).to.equal(200);
      expect(externalUrls(file.text, srv.url), path).to.deep.equal([]);
      if (path.endsWith('.js')) {
        expect(file.type, path).to.match(/javascript/);
        // static (`from "./x.js"`) and dynamic (`import("./x.js")`) imports, quoted either way
        for (const m of file.text.matchAll(/\bfrom\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g))
          queue.push(new URL(m[1] ?? m[2], srv.url + path).pathname);
      }
    }
    // One bundle (npm run build: esbuild) holds the pages, components and Preact; what only the import preview
    // uses (csv-parse, yaml) is a chunk it loads when asked: nothing else to load.
    const chunks = [...seen].filter((p) => /^\/ui\/chunk-[A-Z0-9]+\.js$/.test(p));
    expect(chunks).to.have.length.greaterThan(0);
    expect([...seen].sort()).to.deep.equal(['/ui/app.js', ...chunks, '/ui/style.css'].sort());
    expect((await get('/ui/app.js')).text)
      .to.contain('API playground')
      .and.to.contain('Explain');
  });
});
