// Docs examples name objects by reference: `{site:ams-core-01}` stands for the id of the site whose
// slug (else name) is ams-core-01, looked up on the running server.
import { expect } from 'chai';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import type { TestServer } from './server.js';

export async function withIds(srv: TestServer, text: string): Promise<string> {
  let out = text;
  for (const [placeholder, name, ref] of text.matchAll(/\{(\w+):([^}]+)\}/g)) {
    const r = resource(name);
    const res = await srv.req('GET', `${resourcePath(r)}?${new URLSearchParams({ [r.refField]: ref })}`);
    expect(res.body.count, placeholder).to.equal(1);
    out = out.replace(placeholder, res.body.results[0].id);
  }
  return out;
}
