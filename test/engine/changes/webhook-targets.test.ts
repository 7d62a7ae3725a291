// WEBHOOK_ALLOWED_HOSTS without a network: parsing the list, and what it says of URLs and addresses.
import { expect } from 'chai';
import { addressAllowed, parseAllowedHosts, targetVerdict } from '../../../engine/changes/webhook-targets.js';

describe('webhook targets (WEBHOOK_ALLOWED_HOSTS)', () => {
  const rules = parseAllowedHosts(
    'hooks.example.com, chat.example.com:8443, 10.0.0.0/8:443, 192.0.2.7, fd00::/8, [2001:db8::/32]:80',
  );
  const verdict = (url: string) => targetVerdict(rules, new URL(url)).verdict;

  it('parses names, addresses and networks, each with an optional port', () => {
    expect(rules.map((r) => [r.name, r.cidr?.length ?? null, r.port])).to.deep.equal([
      ['hooks.example.com', null, null],
      ['chat.example.com', null, 8443],
      [null, 8, 443],
      [null, 32, null],
      [null, 8, null],
      [null, 32, 80],
    ]);
    expect(parseAllowedHosts('  ')).to.deep.equal([]);
    for (const bad of ['10.0.0.0/33', '1.2.3', 'a b', 'x:0', 'x:65536', 'x,,y', 'http://x/', '[hooks.example.com]'])
      expect(() => parseAllowedHosts(bad), bad).to.throw();
  });

  it('allows listed names and addresses inside listed networks, on their ports; other names need resolving', () => {
    expect(verdict('https://hooks.example.com/x')).to.equal('allowed');
    expect(verdict('http://HOOKS.EXAMPLE.COM./x')).to.equal('allowed');
    expect(verdict('https://chat.example.com:8443/')).to.equal('allowed');
    expect(verdict('https://chat.example.com/')).to.equal('resolve'); // 443: a network on 443 may admit it by address
    expect(verdict('https://10.1.2.3/')).to.equal('allowed');
    expect(verdict('http://10.1.2.3/')).to.equal('refused');
    expect(verdict('http://192.0.2.7:9000/')).to.equal('allowed');
    expect(verdict('http://[fd12::1]:1/')).to.equal('allowed');
    expect(verdict('http://[2001:db8::1]/')).to.equal('allowed');
    expect(verdict('http://[2001:db8::1]:81/')).to.equal('refused'); // its network allows port 80 only
    expect(verdict('http://127.0.0.1/')).to.equal('refused');
    expect(verdict('http://[::ffff:10.0.0.1]:443/')).to.equal('allowed');
    expect(targetVerdict([], new URL('http://127.0.0.1/')).verdict).to.equal('allowed');
    expect(
      targetVerdict(parseAllowedHosts('hooks.example.com'), new URL('http://other.example.com/')).verdict,
    ).to.equal('refused'); // no network could admit it
  });

  it('checks resolved addresses against the networks and their ports', () => {
    expect(addressAllowed(rules, '10.9.8.7', 443)).to.equal(true);
    expect(addressAllowed(rules, '10.9.8.7', 80)).to.equal(false);
    expect(addressAllowed(rules, '::ffff:10.9.8.7', 443)).to.equal(true);
    expect(addressAllowed(rules, '127.0.0.1', 443)).to.equal(false);
    expect(addressAllowed(rules, 'not an address', 443)).to.equal(false);
  });
});
