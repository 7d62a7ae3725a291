// The document's CSV and YAML forms of every inventory list: `format` on the list, text/csv and application/yaml
// answers beside the JSON page, text/csv and application/yaml bodies of a POST, and the columns it names are the
// ones an export writes.
import { expect } from 'chai';
import { resourcePath } from '../../engine/schema/registry.js';
import { INVENTORY_RESOURCES } from '../../server/routes/inventory.js';
import type { JsonSchema, OpenApiDocument, Response } from '../../server/openapi/types.js';
import { ADMIN_KEY, startServer, type TestServer } from '../support/server.js';

describe('OpenAPI: CSV and YAML exports and imports', () => {
  let srv: TestServer;
  let doc: OpenApiDocument;
  before(async () => {
    srv = await startServer();
    doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as OpenApiDocument;
  });
  after(() => srv.close());

  /** The CSV header the document names for a list (the backquoted text of the text/csv schema). */
  const documentedHeader = (content: Record<string, { schema: JsonSchema }>) =>
    /`([^`]+)`/.exec(String(content['text/csv'].schema.description))![1];

  for (const r of INVENTORY_RESOURCES)
    it(`${resourcePath(r)}: format, text/csv and application/yaml, with the columns an export writes`, async () => {
      const item = doc.paths[resourcePath(r)];
      const format = item.get!.parameters!.find((p) => p.name === 'format')!;
      expect(format, 'the format parameter').to.include({ in: 'query' });
      expect(format.schema.enum).to.deep.equal(['json', 'csv', 'yaml']);
      const content = (item.get!.responses['200'] as Response).content!;
      expect(Object.keys(content)).to.include.members(['application/json', 'text/csv', 'application/yaml']);
      const res = await fetch(`${srv.url}${resourcePath(r)}?format=csv`, {
        headers: { Authorization: `Token ${ADMIN_KEY}` },
      });
      expect(res.status).to.equal(200);
      const header = (await res.text()).split('\r\n')[0];
      expect(documentedHeader(content)).to.equal(header);
      const yamlItem = content['application/yaml'].schema.items as JsonSchema;
      expect(Object.keys(yamlItem.properties as object).join(',')).to.equal(header);
      if (r.writable === false) return;
      const post = item.post!;
      expect(Object.keys(post.requestBody!.content)).to.include.members([
        'application/json',
        'text/csv',
        'application/yaml',
      ]);
      expect(post.responses['200'], 'the import answer').to.be.an('object');
      expect(post.responses['413'], 'too many rows').to.be.an('object');
    });
});
