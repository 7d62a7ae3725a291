// What a webhook sends for a change record, without a server: which records it wants, the default
// body, the template substitution, the headers and NetBox's signature (checked against Python's hmac).
import { expect } from 'chai';
import {
  backoffMs,
  renderBody,
  renderTemplate,
  requestHeaders,
  signature,
  templateContext,
  wants,
  webhookAt,
} from '../../../engine/changes/webhook-payload.js';

const hook = {
  content_types: ['dcim.site'],
  type_create: true,
  type_update: false,
  type_delete: true,
  body_template: '',
  additional_headers: '',
  http_content_type: 'application/json',
  secret: '',
};
const record = (action: string, extra: Record<string, unknown> = {}) => ({
  id: 'c0ffee00-0000-4000-8000-000000000001',
  seq: 42,
  time: '2026-11-25T21:00:00.000Z',
  user_name: 'netops',
  request_id: 'req-1',
  action,
  changed_object_type: 'dcim.site',
  changed_object_id: 's1',
  object_data: { id: 's1', name: 'Zürich', status: 'active', asn: 65000 },
  prechange_data: action === 'create' ? null : { id: 's1', name: 'Zurich', status: 'planned', asn: 65000 },
  ...extra,
});

describe('webhook payload', () => {
  it('wants the content types and actions it names, nothing else', () => {
    expect(wants(hook, record('create'))).to.equal(true);
    expect(wants(hook, record('update'))).to.equal(false);
    expect(wants(hook, record('delete'))).to.equal(true);
    expect(wants(hook, record('create', { changed_object_type: 'dcim.region' }))).to.equal(false);
    expect(wants({ ...hook, type_create: 'true' }, record('create'))).to.equal(false); // booleans only, as stored
  });

  it('default body: NetBox and Nautobot fields plus seq and change_id; a delete has no postchange', () => {
    const up = JSON.parse(renderBody(hook, record('update')));
    expect(up).to.deep.equal({
      event: 'updated',
      timestamp: '2026-11-25T21:00:00.000Z',
      model: 'site',
      username: 'netops',
      request_id: 'req-1',
      data: { id: 's1', name: 'Zürich', status: 'active', asn: 65000 },
      snapshots: {
        prechange: { id: 's1', name: 'Zurich', status: 'planned', asn: 65000 },
        postchange: { id: 's1', name: 'Zürich', status: 'active', asn: 65000 },
      },
      seq: 42,
      change_id: 'c0ffee00-0000-4000-8000-000000000001',
    });
    const del = templateContext(record('delete', { object_data: { id: 's1', name: 'Zürich' } }));
    expect(del).to.include({ event: 'deleted' });
    expect(del.snapshots).to.deep.equal({
      prechange: { id: 's1', name: 'Zurich', status: 'planned', asn: 65000 },
      postchange: null,
    });
    expect(del.data).to.deep.equal({ id: 's1', name: 'Zürich' });
    expect(templateContext(record('create', { changed_object_type: 'lifecycle.entity' })).model).to.equal('entity');
  });

  it('templates: text as is, other values as JSON, | tojson, unknown paths empty, nothing else evaluated', () => {
    const ctx = templateContext(record('update'));
    expect(renderTemplate('{{event}} {{ data.name }} {{data.asn}} {{ snapshots.prechange.status }}', ctx)).to.equal(
      'updated Zürich 65000 planned',
    );
    expect(renderTemplate('{"site": {{ data.name | tojson }}, "data": {{ data }}}', ctx)).to.equal(
      '{"site": "Zürich", "data": {"id":"s1","name":"Zürich","status":"active","asn":65000}}',
    );
    expect(
      renderTemplate('[{{ nothing.here }}][{{ data.name.length }}][{{ data.constructor }}][{{ __proto__ }}]', ctx),
    ).to.equal('[][][][]');
    expect(renderTemplate('{% for x in data %}{{ x }}{% endfor %} {{ 1 + 1 }} {{ data|upper }}', ctx)).to.equal(
      '{% for x in data %}{% endfor %} {{ 1 + 1 }} {{ data|upper }}',
    );
    expect(renderTemplate('{{ snapshots.postchange }}', templateContext(record('delete')))).to.equal('null');
  });

  it('headers: the content type, the rendered additional headers, and the signature only with a secret', () => {
    const body = renderBody(hook, record('create'));
    expect(requestHeaders(hook, record('create'), body)).to.deep.equal({
      ok: true,
      headers: { 'Content-Type': 'application/json' },
    });
    const h = requestHeaders(
      {
        ...hook,
        secret: 's',
        additional_headers: 'X-Model: {{ model }}\r\nAuthorization: Bearer abc:def\n\n  X-Seq:{{ seq }}  ',
      },
      record('create'),
      body,
    );
    expect(h).to.deep.equal({
      ok: true,
      headers: {
        'Content-Type': 'application/json',
        'X-Model': 'site',
        Authorization: 'Bearer abc:def',
        'X-Seq': '42',
        'X-Hook-Signature': signature(body, 's'),
      },
    });
  });

  it(
    'headers: a substituted value never starts another header; control characters, characters beyond Latin-1 ' +
      'and reserved names refuse the request',
    () => {
      const named = (name: string, headers = 'X-Name: {{ data.name }}') =>
        requestHeaders(
          { ...hook, additional_headers: headers },
          record('create', { object_data: { id: 's1', name } }),
          '{}',
        );
      expect(named('Zürich')).to.deep.equal({
        ok: true,
        headers: { 'Content-Type': 'application/json', 'X-Name': 'Zürich' },
      });
      for (const [name, code] of [
        ['L4\nHost: evil.example', 'U+000A'],
        ['L4\rX', 'U+000D'],
        ['a\tb', 'U+0009'],
        ['\u007f', 'U+007F'],
      ]) {
        expect(named(name)).to.deep.equal({
          ok: false,
          reason:
            `additional_headers: the value of X-Name holds a control character (${code}); the request ` +
            `was not sent`,
        });
      }
      expect(named('東京')).to.deep.equal({
        ok: false,
        reason:
          'additional_headers: the value of X-Name holds a character HTTP headers cannot carry (U+6771); the ' +
          'request was not sent',
      });
      expect(named('x', 'Transfer-Encoding: chunked')).to.deep.equal({
        ok: false,
        reason: 'additional_headers: Transfer-Encoding may not be set (the server frames the body)',
      });
      expect(named('x', 'host: {{ data.name }}')).to.deep.equal({
        ok: false,
        reason: 'additional_headers: host may not be set (the target is payload_url)',
      });
      expect(
        requestHeaders({ ...hook, http_content_type: 'text/plain\nHost: x' }, record('create'), '{}'),
      ).to.deep.equal({
        ok: false,
        reason: 'http_content_type holds a control character (U+000A); the request was not sent',
      });
    },
  );

  it(
    "signs as NetBox does: HMAC-SHA512 of the body's UTF-8 bytes keyed with the secret's, hex (Python's hmac " +
      'gives the same)',
    () => {
      // python3: hmac.new('sécret'.encode(), '{"event":"created","data":{"name":"Zürich"}}'.encode(),
      // hashlib.sha512).hexdigest()
      expect(signature('{"event":"created","data":{"name":"Zürich"}}', 'sécret')).to.equal(
        '2f8c38ca3751acb962ed99ce52ceeb0f971bfdc9bd9164ba5127e7b69e5b1012' +
          '5c882d21e8beaf3baae95b9cbde7d2081867b253313feced79ac832ecdd3c3e0',
      );
    },
  );

  it(
    'a webhook as it was at a record: after its last change before it, else before its first change after it, ' +
      'else as it is',
    () => {
      const v1 = { enabled: false },
        v2 = { enabled: true },
        v3 = { enabled: false };
      const versions = [
        { seq: 10, before: null, after: v1 },
        { seq: 20, before: v1, after: v2 },
        { seq: 30, before: v2, after: v3 },
      ];
      expect([5, 15, 25, 35].map((seq) => webhookAt(v3, versions, seq))).to.deep.equal([null, v1, v2, v3]);
      expect(webhookAt(v3, [], 5)).to.equal(v3);
      expect(webhookAt(null, [{ seq: 40, before: v3, after: null }], 35)).to.equal(v3); // deleted since
      expect(webhookAt(v3, [{ seq: 40, before: v2, after: v3 }], 35)).to.equal(v2);
    },
  );

  it('backs off doubling from the base, capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 1000, 10_000))).to.deep.equal([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });
});
