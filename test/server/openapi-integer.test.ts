// The OpenAPI document of an integer store (buildOpenApiDocument with INTEGER_IDS): every id of a
// resource with integer ids is a JSON number (objects, references in writes, tags by id, path
// parameters, `id` / `<fk>_id` / `start` parameters, bulk items, tokens), the ids of resources with
// `uuidIds` stay UUIDs, and the write schemas agree with validateInput given the same style. The
// uuid document is the one the server has always served (docs/ is generated from it).
import { expect } from 'chai';
import { INTEGER_IDS, UUID_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import { resourcePath } from '../../engine/schema/registry.js';
import { validateInput } from '../../engine/schema/validate-input.js';
import { INVENTORY_RESOURCES } from '../../server/routes/inventory.js';
import { buildOpenApiDocument } from '../../server/openapi/index.js';
import { schemaNames } from '../../server/openapi/inventory-schemas.js';
import { checkRequest, compileOperations, createAjv } from '../../server/openapi/validate-requests.js';
import type { JsonSchema, OpenApiDocument, Parameter } from '../../server/openapi/types.js';
import { writeCases } from '../support/write-bodies.js';

const build = (ids?: IdStyle) => buildOpenApiDocument({ apiVersion: 't', maxPageSize: 1000, ...(ids ? { ids } : {}) });
const INTEGER = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

function conformer(doc: OpenApiDocument) {
  const ajv = createAjv(doc);
  return (schema: string, value: unknown): string | null => {
    const v = ajv.getSchema(`openapi.json#/$defs/${schema}`) ?? ajv.compile({ $ref: `openapi.json#/$defs/${schema}` });
    return v(value) ? null : JSON.stringify(v.errors?.slice(0, 3));
  };
}

describe('OpenAPI document of an integer store', () => {
  const doc = build(INTEGER_IDS);
  const schemas = doc.components.schemas;
  const conforms = conformer(doc);
  const props = (name: string) => schemas[name].properties as Record<string, JsonSchema>;
  const query = (path: string): Map<string, Parameter> =>
    new Map(doc.paths[path].get!.parameters!.map((p) => [p.name, p]));
  const pathId = (path: string) => doc.paths[path].parameters!.find((p) => p.name === 'id')!.schema;

  it('is OpenAPI 3.1 whose every $ref resolves and every component compiles with strict JSON Schema 2020-12', () => {
    expect(doc.openapi).to.match(/^3\.1\.\d+$/);
    const ajv = createAjv(doc);
    for (const name of Object.keys(schemas))
      expect(() => ajv.compile({ $ref: `openapi.json#/$defs/${name}` }), name).to.not.throw();
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of new Set(refs)) {
      const name = /#\/components\/(schemas|responses)\/([^"]+)"/.exec(r);
      expect(name, r).to.not.equal(null);
      expect((doc.components as Record<string, Record<string, unknown>>)[name![1]][name![2]], r).to.be.an('object');
    }
  });

  it("an object's id, its brief form's and a nested tag's are integers", () => {
    for (const name of ['Site', 'Device', 'Prefix', 'Webhook', 'BriefSite', 'BriefDevice', 'NestedTag', 'Token'])
      expect(props(name).id, name).to.deep.include({ type: 'integer', minimum: 1 });
    for (const r of INVENTORY_RESOURCES.filter((x) => !x.uuidIds)) {
      expect(props(schemaNames(r).read).id, r.name).to.deep.include({ type: 'integer' });
      expect(props(schemaNames(r).brief).id, r.name).to.deep.include({ type: 'integer' });
    }
  });

  it('the ids of resources with UUIDs stay UUIDs; a change record names its object by number or text', () => {
    for (const name of ['ObjectChange', 'WebhookDelivery', 'BriefEntity', 'BriefMachine'])
      expect(props(name).id, name).to.deep.include({ type: 'string', format: 'uuid' });
    expect(pathId('/api/extras/object-changes/{id}/')).to.deep.include({ type: 'string', format: 'uuid' });
    expect(query('/api/extras/object-changes/').get('start')!.schema).to.deep.equal({ type: 'string', format: 'uuid' });
    expect(query('/api/extras/object-changes/').get('id')!.schema.items).to.deep.include({ format: 'uuid' });
    expect(props('ObjectChange').changed_object_id.type).to.deep.equal(['integer', 'string']);
    expect(conforms('ObjectChange', {})).to.not.equal(null); // the schema is a real one
    for (const [p, m] of [['/api/v1/entities/{entity_id}', 'get']] as const)
      expect(JSON.stringify(doc.paths[p][m])).to.not.include('"integer"');
  });

  it('references in writes take a number, its text or {"id": number}; tags take numbers', () => {
    const site = props('DeviceWrite').site;
    for (const good of [17, '17', { id: 17 }, { id: '17' }, { slug: 'ams01' }])
      expect(
        conforms('DeviceWrite', { name: 'd', site: good, role: 1, device_type: 2 }),
        JSON.stringify(good),
      ).to.equal(null);
    for (const bad of ['6f1c1b53-8a3e-4c5e-9a57-0d3c1b6f7a10', 0, -1, 1.5, '017'])
      expect(
        conforms('DeviceWrite', { name: 'd', site: bad, role: 1, device_type: 2 }),
        JSON.stringify(bad),
      ).to.not.equal(null);
    expect(JSON.stringify(site)).to.include('"integer"');
    expect(conforms('SitePatch', { tags: [3, 4] })).to.equal(null);
    expect(conforms('SitePatch', { tags: [{ id: 3 }, 'core', { slug: 'edge' }] })).to.equal(null);
    expect(conforms('SitePatch', { add_tags: [3], remove_tags: [4] })).to.equal(null);
    expect(conforms('SitePatch', { tags: [0] })).to.not.equal(null);
  });

  it('users, groups, permissions and tokens: ids are integers in answers, id lists and users of writes', () => {
    for (const name of ['User', 'Group', 'ObjectPermission', 'NestedUser', 'NestedGroup', 'NestedObjectPermission'])
      expect(props(name).id, name).to.deep.include({ type: 'integer', minimum: 1 });
    expect(conforms('UserWrite', { username: 'a', password: 'p', groups: [3, '4', { id: 5 }] })).to.equal(null);
    expect(conforms('UserWrite', { username: 'a', groups: ['x'] })).to.not.equal(null);
    expect(conforms('ObjectPermissionPatch', { users: [1], groups: [{ id: 2 }] })).to.equal(null);
    expect(conforms('TokenWrite', { user: 3, write_enabled: false, allowed_ips: ['10.0.0.0/8'] })).to.equal(null);
    expect(conforms('TokenWrite', { user: 'x' })).to.not.equal(null);
    expect(pathId('/api/users/users/{id}/')).to.deep.equal(INTEGER);
  });

  it('path ids, id and <fk>_id filters, start= and bulk items are integers', () => {
    for (const p of ['/api/dcim/sites/{id}/', '/api/users/tokens/{id}/', '/api/ipam/prefixes/{id}/available-ips/'])
      expect(pathId(p), p).to.deep.equal(INTEGER);
    const devices = query('/api/dcim/devices/');
    expect(devices.get('start')!.schema).to.deep.equal(INTEGER);
    for (const n of ['id', 'id__n']) expect(devices.get(n)!.schema.items, n).to.deep.equal(INTEGER);
    for (const n of ['site_id', 'site_id__n', 'region_id', 'tenant_id'])
      expect(devices.get(n)!.schema.items, n).to.deep.equal({ anyOf: [INTEGER, { type: 'string', enum: ['null'] }] });
    expect(devices.get('site')!.description).to.match(/^`site` by site slug\/name, or `null`/);
    expect(query('/api/users/tokens/').get('id')!.schema.items).to.deep.equal(INTEGER);
    const list = doc.paths['/api/dcim/sites/'];
    const item = (m: 'put' | 'patch' | 'delete') =>
      (list[m]!.requestBody!.content['application/json'].schema.items as JsonSchema) ?? {};
    expect(item('delete').properties).to.deep.equal({ id: INTEGER });
    for (const m of ['put', 'patch'] as const)
      expect((item(m).allOf as JsonSchema[])[1].properties, m).to.deep.equal({ id: INTEGER });
  });

  it('names a UUID only for change records, webhook deliveries and the lifecycle', () => {
    const uuidIn = (o: Record<string, unknown>) =>
      Object.keys(o).filter((k) => JSON.stringify(o[k]).includes('"format":"uuid"'));
    expect(uuidIn(doc.paths)).to.have.members([
      ...['/api/extras/object-changes/', '/api/core/object-changes/'].flatMap((p) => [p, `${p}{id}/`, `${p}stream`]),
      '/api/extras/webhook-deliveries/',
      '/api/extras/webhook-deliveries/{id}/',
      '/api/v1/entities/',
    ]);
    expect(uuidIn(schemas)).to.have.members([
      ...['Machine', 'Entity', 'History', 'Idempotency', 'ObjectChange'].map((n) => `Brief${n}`),
      'ObjectChange',
      'WebhookDelivery',
      'EntityTransitionEvent',
      'HistoryRow',
    ]);
  });

  it('the request validation accepts integer path ids (the text of a number)', () => {
    const probe: OpenApiDocument = {
      ...doc,
      paths: {
        '/api/v1/probe/{id}': {
          parameters: [doc.paths['/api/dcim/sites/{id}/'].parameters![0]],
          post: {
            ...doc.paths['/api/dcim/sites/{id}/'].patch!,
            requestBody: doc.paths['/api/dcim/sites/{id}/'].patch!.requestBody,
          },
        },
      },
    };
    const [op] = compileOperations(probe, createAjv(probe));
    const at = (id: string, body: unknown) => checkRequest(op, { path: { id }, header: () => undefined, body });
    expect(at('17', { tags: [3] })).to.equal(null);
    expect(at('17', { site: 5 })?.code).to.equal('invalid_body');
    expect(at('abc', {})?.code).to.equal('invalid_id');
    expect(at('0', {})?.code).to.equal('invalid_id');
    // The guarded operations of the real document (lifecycle, UUIDs and names) compile as before.
    expect(compileOperations(doc, createAjv(doc)).length).to.equal(
      compileOperations(build(), createAjv(build())).length,
    );
  });

  for (const [style, ids] of [
    ['uuid', UUID_IDS],
    ['integer', INTEGER_IDS],
  ] as const)
    describe(`write schemas agree with validateInput in a ${style} store`, () => {
      const styled = build(ids);
      const agrees = conformer(styled);
      for (const r of INVENTORY_RESOURCES)
        it(`${resourcePath(r)}: POST/PUT and PATCH bodies`, () => {
          for (const [what, body] of writeCases(r, ids)) {
            const registry = validateInput(r, body, { partial: false, creating: true, customFields: [], ids });
            const documented = agrees(schemaNames(r).write, body);
            const said = registry.ok
              ? 'accepts'
              : `refuses ${JSON.stringify((registry as { errors: unknown }).errors)}`;
            expect(documented === null, `${what}: registry ${said}, document ${documented ?? 'accepts'}`).to.equal(
              registry.ok,
            );
          }
        });
    });
});

describe('OpenAPI document of a uuid store', () => {
  it('is the same with UUID_IDS given as without ids, and names no integer id', () => {
    const plain = build();
    expect(JSON.stringify(build(UUID_IDS))).to.equal(JSON.stringify(plain));
    expect((plain.components.schemas.Site.properties as Record<string, JsonSchema>).id).to.deep.include({
      type: 'string',
      format: 'uuid',
    });
    expect(JSON.stringify(plain)).to.not.include('"maximum":9007199254740991');
  });
});
