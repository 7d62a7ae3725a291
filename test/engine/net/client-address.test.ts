// The client address a token's allowed_ips is checked against, and the configuration of peppers and
// trusted proxies (issue #39: TRUSTED_PROXIES, API_TOKEN_PEPPERS).
import { expect } from 'chai';
import { clientAddress, inNetworks, parseNetworkList, parseNetworks } from '../../../engine/net/client-address.js';
import { ConfigError, loadConfig } from '../../../server/config/load-config.js';

describe('client address', () => {
  const trusted = parseNetworkList('10.0.0.0/8, 127.0.0.1, ::1');

  it('is the socket peer when the peer is not a trusted proxy, whatever X-Forwarded-For says', () => {
    expect(clientAddress('192.0.2.5', '10.1.1.1', trusted)).to.equal('192.0.2.5');
    expect(clientAddress('192.0.2.5', undefined, [])).to.equal('192.0.2.5');
    expect(clientAddress('::ffff:192.0.2.5', undefined, trusted)).to.equal('192.0.2.5'); // a dual-stack socket
    expect(clientAddress('127.0.0.1', '198.51.100.1', [])).to.equal('127.0.0.1'); // no proxy trusted
  });

  it('behind trusted proxies is the last hop that is not one of them', () => {
    expect(clientAddress('127.0.0.1', '198.51.100.1', trusted)).to.equal('198.51.100.1');
    expect(clientAddress('127.0.0.1', '203.0.113.1, 198.51.100.1, 10.2.3.4', trusted)).to.equal('198.51.100.1');
    expect(clientAddress('::ffff:127.0.0.1', ['203.0.113.1', '198.51.100.1'], trusted)).to.equal('198.51.100.1');
    expect(clientAddress('127.0.0.1', '10.9.9.9, 10.2.3.4', trusted)).to.equal('10.9.9.9'); // every hop trusted
    expect(clientAddress('127.0.0.1', '', trusted)).to.equal('127.0.0.1');
    expect(clientAddress('10.0.0.1', 'not-an-address', trusted)).to.equal('not-an-address');
  });

  it('networks: normalized, checked naming the bad entry, matched by family', () => {
    expect(parseNetworks(['10.1.2.3/16', '2001:DB8::1', '10.1.0.0/16']).texts).to.deep.equal([
      '10.1.0.0/16',
      '2001:db8::1/128',
    ]);
    for (const bad of ['10.0.0.0/33', 'example.com', 42, ''])
      expect(() => parseNetworks([bad]), String(bad)).to.throw(String(bad));
    const nets = parseNetworks(['10.1.0.0/16', '2001:db8::/32']).nets;
    expect(inNetworks(nets, '10.1.200.3')).to.equal(true);
    expect(inNetworks(nets, '::ffff:10.1.0.1')).to.equal(true);
    expect(inNetworks(nets, '10.2.0.1')).to.equal(false);
    expect(inNetworks(nets, '2001:db8:5::1')).to.equal(true);
    expect(inNetworks(nets, 'not-an-address')).to.equal(false);
  });
});

describe('API_TOKEN_PEPPERS and TRUSTED_PROXIES in the configuration', () => {
  const pepper = 'x'.repeat(50);

  it('peppers: a JSON object of whole-number ids to peppers of 50 characters or more, else naming the bad one', () => {
    expect(loadConfig([], {}).apiTokenPeppers).to.deep.equal({});
    expect(
      loadConfig([], { API_TOKEN_PEPPERS: JSON.stringify({ 1: pepper, 2: pepper + 'y' }) }).apiTokenPeppers,
    ).to.deep.equal({ '1': pepper, '2': pepper + 'y' });
    const bad: [string, RegExp][] = [
      [JSON.stringify({ 1: 'short' }), /API_TOKEN_PEPPERS: pepper 1 must be a string of at least 50/],
      [JSON.stringify({ one: pepper }), /API_TOKEN_PEPPERS: pepper id "one"/],
      ['[1]', /API_TOKEN_PEPPERS must be a JSON object/],
      ['{nope', /API_TOKEN_PEPPERS must be a JSON object/],
    ];
    for (const [text, why] of bad)
      expect(() => loadConfig([], { API_TOKEN_PEPPERS: text }), text).to.throw(ConfigError, why);
  });

  it('trusted proxies: a comma list of addresses and CIDRs, a bad entry named', () => {
    expect(loadConfig([], { TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1, ::1' }).trustedProxies).to.equal(
      '10.0.0.0/8, 192.0.2.1, ::1',
    );
    expect(loadConfig([], {}).trustedProxies).to.equal('');
    expect(() => loadConfig([], { TRUSTED_PROXIES: '10.0.0.0/8, proxy.local' })).to.throw(
      ConfigError,
      /TRUSTED_PROXIES: "proxy.local"/,
    );
  });
});
