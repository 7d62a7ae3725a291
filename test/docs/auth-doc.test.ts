// docs/auth.md: each row of the client-address table is what the code answers.
import { expect } from 'chai';
import fs from 'node:fs';
import { clientAddress, parseNetworkList } from '../../engine/net/client-address.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/auth.md', REPO_URL), 'utf8');
const code = (cell: string) => cell.trim().replace(/^`|`$/g, '');
const start = doc.indexOf('| peer | X-Forwarded-For | TRUSTED_PROXIES | client address |');
const table = doc.slice(start, doc.indexOf('\n\n', start));
const rows = table
  .split('\n')
  .slice(2)
  .map((l) => l.split('|').slice(1, -1).map(code));

describe('docs/auth.md client addresses', () => {
  it('has the table, each row of four cells', () => {
    expect(rows.length).to.be.greaterThan(5);
    for (const r of rows) expect(r).to.have.length(4);
  });
  for (const [peer, xff, trusted, client] of rows)
    it(`${peer} | ${xff} | ${trusted} -> ${client}`, () => {
      expect(clientAddress(peer, xff || undefined, parseNetworkList(trusted))).to.equal(client);
    });
});
