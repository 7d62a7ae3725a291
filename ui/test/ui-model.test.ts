// The UI's model of the API, computed from the real OpenAPI document in Node (no browser): every
// inventory resource of the registry is found with its filters and columns, so a resource added to
// the registry has its list, detail and form pages with no change to the UI. Also the filter bar's
// language, the curl command, completion, and the arithmetic of the hierarchy view.
import { expect } from 'chai';
import { INVENTORY_RESOURCES } from '../../server/routes/inventory.js';
import { contentType, resourcePath } from '../../engine/schema/registry.js';
import { buildOpenApiDocument } from '../../server/openapi/index.js';
import { listColumns, relatedTo, resourcesOf, routeOfUrl, type OpenApiDoc } from '../lib/openapi.js';
import { addPairs, baseField, curlCommand, parseTyped, toSearch } from '../lib/query.js';
import { suggestions } from '../components/filter-bar.js';
import { parseBlock, usedShare } from '../lib/ip.js';
import { quickSearch } from '../pages/home.js';
import { guardKeys, availableTriggers } from '../lib/machines.js';
import { INTEGER_IDS, type IdStyle } from '../../engine/schema/id-style.js';
import { toValue } from '../pages/form.js';
import { exampleOf } from '../pages/playground.js';

/** The document of a store of style `ids` (default UUIDs). */
const docOf = (ids?: IdStyle) =>
  buildOpenApiDocument({
    apiVersion: '3.7',
    maxPageSize: 1000,
    maxMachineStates: 500,
    ...(ids ? { ids } : {}),
  }) as unknown as OpenApiDoc;
const doc = docOf();
const resources = resourcesOf(doc);

describe('UI model from the OpenAPI document', () => {
  it('finds every inventory resource of the registry, once, with its list path and content type', () => {
    const listed = INVENTORY_RESOURCES.filter((r) => doc.paths[`${resourcePath(r)}{id}/`]?.get);
    expect(resources.map((r) => r.listPath).sort()).to.deep.equal(listed.map(resourcePath).sort());
    for (const r of listed)
      expect(resources.find((x) => x.listPath === resourcePath(r))!.contentType).to.equal(contentType(r));
  });

  it('a resource added to the document is a resource of the UI, with columns, filters and ordering', () => {
    const widget = {
      paths: {
        ...doc.paths,
        '/api/dcim/widgets/': {
          get: {
            operationId: 'listWidgets',
            'x-permission': 'dcim.view_widget',
            parameters: [
              { name: 'limit', in: 'query' },
              { name: 'ordering', in: 'query', description: 'Fields: `name`, `size`.' },
              { name: 'name', in: 'query' },
              { name: 'site_id', in: 'query' },
              { name: 'colour', in: 'query', schema: { type: 'array', items: { enum: ['red', 'blue'] } } },
            ],
            responses: {
              200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/WidgetList' } } } },
            },
          },
        },
        '/api/dcim/widgets/{id}/': { get: {} },
      },
      components: {
        schemas: {
          ...doc.components.schemas,
          WidgetList: { properties: { results: { items: { $ref: '#/components/schemas/Widget' } } } },
          Widget: {
            properties: {
              id: {},
              url: {},
              display: {},
              name: { title: 'Name' },
              site: { title: 'Site', anyOf: [{ $ref: '#/components/schemas/BriefSite' }, { type: 'null' }] },
            },
          },
        },
      },
      tags: [...(doc.tags ?? []), { name: 'dcim/widgets', description: 'Widget: A thing (`dcim.widget`)' }],
    } as OpenApiDoc;
    const w = resourcesOf(widget).find((r) => r.key === 'dcim/widgets')!;
    expect(w).to.include({
      label: 'Widget',
      title: 'Widgets',
      contentType: 'dcim.widget',
      listPath: '/api/dcim/widgets/',
    });
    expect(w.filters.map((f) => f.name)).to.deep.equal(['name', 'site_id', 'colour']);
    expect(w.filters[2].choices).to.deep.equal(['red', 'blue']);
    expect(w.orderable).to.deep.equal(['name', 'size']);
    expect(listColumns(w).map((c) => [c.name, c.ref])).to.deep.equal([
      ['name', undefined],
      ['site', 'Site'],
    ]);
    expect(relatedTo(resourcesOf(widget), 'Site').map((x) => x.resource.key)).to.include('dcim/widgets');
  });

  it('knows prefixes by their filters, foreign keys and the objects pointing at sites', () => {
    const prefixes = resources.find((r) => r.key === 'ipam/prefixes')!;
    expect(prefixes.filters.map((f) => f.name)).to.include.members(['q', 'parent', 'network__net_contains', 'status']);
    expect(prefixes.filters.find((f) => f.name === 'status')!.choices).to.include('active');
    expect(prefixes.columns.find((c) => c.name === 'parent')!.ref).to.equal('Prefix');
    const onSite = relatedTo(resources, 'Site').map((x) => `${x.resource.key}?${x.field}`);
    expect(onSite).to.include.members(['dcim/devices?site_id', 'ipam/prefixes?site_id', 'ipam/vlans?site_id']);
  });

  it('routes API urls to UI pages', () => {
    expect(routeOfUrl('http://h/api/dcim/sites/0f/')).to.equal('#/dcim/sites/0f');
    expect(routeOfUrl('http://h/api/v1/machines')).to.equal(null);
  });
});

describe('filter bar language', () => {
  it('reads name=value words as filters and the rest as the search text', () => {
    expect(parseTyped(' status=active  core  site=ams&tag=a%20b eu ')).to.deep.equal({
      pairs: [
        ['status', 'active'],
        ['site', 'ams'],
        ['tag', 'a b'],
      ],
      q: 'core eu',
    });
  });
  it('keeps one search, drops repeats, ORs repeated names', () => {
    expect(
      addPairs(
        [
          ['q', 'a'],
          ['status', 'x'],
        ],
        [
          ['q', 'b'],
          ['status', 'x'],
          ['status', 'y'],
        ],
      ),
    ).to.deep.equal([
      ['status', 'x'],
      ['q', 'b'],
      ['status', 'y'],
    ]);
  });
  it('writes the query as a curl command with the URL quoted for the shell', () => {
    expect(
      curlCommand('http://h', '/api/ipam/prefixes/', [
        ['q', "it's & more"],
        ['limit', '50'],
      ]),
    ).to.equal(`curl -H "Authorization: Token $NETINV_TOKEN" 'http://h/api/ipam/prefixes/?q=it%27s+%26+more&limit=50'`);
    expect(toSearch([['network__net_contains', '10.3.1.17']])).to.equal('network__net_contains=10.3.1.17');
  });
  it('completes filter names from the document and values from the choices', () => {
    const prefixes = resources.find((r) => r.key === 'ipam/prefixes')!;
    expect(suggestions(prefixes, {}, 'q=x net_cont')).to.include('q=x network__net_contains=');
    expect(suggestions(prefixes, {}, 'status=')).to.include.members(['status=active', 'status=container']);
    expect(suggestions(prefixes, { site: ['ams'] }, 'site_id=')).to.deep.equal(['site_id=ams']);
    expect(baseField('cf_circuit__ic')).to.equal('cf_circuit');
  });
  it('sends an address or network typed on the front page to the prefixes containing it', () => {
    expect(quickSearch('10.3.1.17')).to.deep.equal({
      path: '/ipam/prefixes',
      pairs: [['network__net_host', '10.3.1.17']],
    });
    expect(quickSearch('2001:db8::/48').pairs).to.deep.equal([['network__net_contains_or_equals', '2001:db8::/48']]);
    expect(quickSearch('core').pairs).to.deep.equal([['q', 'core']]);
  });
});

describe('hierarchy arithmetic and lifecycle forms', () => {
  it('measures how much of a prefix its free blocks leave used', () => {
    const whole = parseBlock('10.0.0.0/16')!;
    expect(usedShare(whole, [parseBlock('10.0.128.0/17')!])).to.equal(0.5);
    expect(usedShare(whole, [])).to.equal(1);
    expect(
      usedShare(parseBlock('2001:db8::/32')!, [parseBlock('2001:db8:8000::/33')!, parseBlock('2001:db8:4000::/34')!]),
    ).to.equal(0.25);
  });
  it('offers the context keys the guards of a trigger read, and the triggers leaving a state', () => {
    expect(
      guardKeys([
        { field: 'amount', op: 'gt', value: 0 },
        { any: [{ field: 'ref.id', op: 'exists' }, { not: { field: 'amount', op: 'eq', value: 1 } }] } as any,
      ]),
    ).to.deep.equal(['amount', 'ref']);
    const def = {
      states: [],
      transitions: [
        { trigger: 'a', source: 'x', dest: 'y', guards: [] },
        { trigger: 'b', source: ['x', 'z'], dest: 'y', guards: [] },
        { trigger: 'c', source: '*', dest: 'y', guards: [] },
      ],
    };
    expect(availableTriggers(def as any, 'z')).to.deep.equal(['b', 'c']);
  });
});

describe('the UI in a store with integer ids', () => {
  const intDoc = docOf(INTEGER_IDS);
  const intResources = resourcesOf(intDoc);
  const fk = { type: 'field', required: false, read_only: false, label: 'Site' };

  it('knows which resources have integer ids from the document (change records and deliveries keep UUIDs)', () => {
    expect(resources.filter((r) => r.integerIds)).to.deep.equal([]);
    expect(intResources.filter((r) => !r.integerIds).map((r) => r.key)).to.have.members([
      'extras/object-changes',
      'extras/webhook-deliveries',
    ]);
    expect(intResources.find((r) => r.key === 'dcim/sites')!.integerIds).to.equal(true);
    // The same resources, columns and filters as in a uuid store.
    expect(intResources.map((r) => r.key)).to.deep.equal(resources.map((r) => r.key));
    const onSite = relatedTo(intResources, 'Site').map((x) => `${x.resource.key}?${x.field}`);
    expect(onSite).to.include.members(['dcim/devices?site_id', 'ipam/prefixes?site_id']);
  });

  it('sends a reference to an object with integer ids as a JSON number, else as the text given', () => {
    expect(toValue(fk, '17', true)).to.deep.equal({ value: 17 });
    expect(toValue(fk, ' 17 ', true)).to.deep.equal({ value: 17 });
    expect(toValue(fk, '17')).to.deep.equal({ value: '17' });
    const uuid = '6f1c1b53-8a3e-4c5e-9a57-0d3c1b6f7a10';
    expect(toValue(fk, uuid, true)).to.deep.equal({ value: uuid });
    expect(toValue(fk, uuid)).to.deep.equal({ value: uuid });
    // Not an id: left as typed, for the API to name the problem.
    for (const t of ['017', '0', '99999999999999999']) expect(toValue(fk, t, true)).to.deep.equal({ value: t });
    expect(toValue(fk, '', true)).to.deep.equal({ value: null });
    expect(toValue({ ...fk, type: 'integer' }, '17', true)).to.deep.equal({ value: 17 });
  });

  it("routes an integer object's API url to its page", () => {
    expect(routeOfUrl('http://h/api/dcim/sites/17/')).to.equal('#/dcim/sites/17');
  });

  it('fills playground bodies with numbers where ids are integers', () => {
    const body = (d: OpenApiDoc, path: string, method: string) =>
      exampleOf(d, d.paths[path][method].requestBody.content['application/json'].schema);
    expect(body(intDoc, '/api/dcim/sites/', 'delete')).to.deep.equal([{ id: 1 }]);
    expect(body(doc, '/api/dcim/sites/', 'delete')).to.deep.equal([{ id: 'string' }]);
    expect((body(intDoc, '/api/dcim/devices/', 'post') as Record<string, unknown>).site).to.equal(1);
  });
});
