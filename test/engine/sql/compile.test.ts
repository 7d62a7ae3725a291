// The SQL compiler without a database: golden SQL + parameters per dialect, every value bound as
// a parameter, LIKE escaping, regex respelling, DDL shape.
// chai 6 ships no type declarations and @types/chai is not installed.
// @ts-ignore -- harmless once typings exist
import { expect } from 'chai';
import fc from 'fast-check';
import * as N from '../../../engine/plan/nodes.js';
import type { Plan } from '../../../engine/plan/nodes.js';
import { netValuePlan, parseNetValue } from '../../../engine/plan/net-terms.js';
import { compileWhere, SqlCompiler } from '../../../engine/sql/compile.js';
import { ddlStatements } from '../../../engine/sql/ddl.js';
import type { Dialect } from '../../../engine/sql/dialect.js';
import { postgresDialect } from '../../../engine/sql/dialects/postgres.js';
import { mysqlDialect } from '../../../engine/sql/dialects/mysql.js';
import { escapeLike, likePattern } from '../../../engine/sql/like.js';
import { minAlignedLength } from '../../../engine/sql/net-shapes.js';
import { formatAddress, networkOf } from '../../../engine/net/ip.js';
import { re2ToMysql, re2ToPostgres } from '../../../engine/sql/regex-translate.js';
import { tableModel } from '../../../engine/sql/table-model.js';

const pg = postgresDialect();
const my = mysqlDialect('mariadb');
const mysql8 = mysqlDialect('mysql');

const where = (d: Dialect, resource: string, plan: Plan) => compileWhere(d, tableModel(resource), plan);
const hex = (b: unknown) => (Buffer.isBuffer(b) ? b.toString('hex') : b);
const netPlan = (field: 'network' | 'host', lookup: Parameters<typeof netValuePlan>[1], text: string) => {
  const v = parseNetValue(text);
  if (typeof v === 'string') throw new Error(v);
  return netValuePlan(field, lookup, v);
};

interface Golden {
  name: string;
  resource: string;
  plan: Plan;
  pg: [string, unknown[]];
  my: [string, unknown[]];
}

const REGION = '0b9f3c1e-0000-4000-8000-000000000001';

const GOLDEN: Golden[] = [
  {
    name: 'case-insensitive contains with LIKE metacharacters escaped',
    resource: 'site',
    plan: N.cmp('name', 'string', 'contains', true, ['50%_Off!']),
    pg: [`lower((m."name") COLLATE "und-x-icu") LIKE $1::text ESCAPE '!'`, ['%50!%!_off!!%']],
    my: ["LOWER(m.`name`) LIKE ? ESCAPE '!'", ['%50!%!_off!!%']],
  },
  {
    name: 'negation keeps null values (guarded leaf)',
    resource: 'site',
    plan: N.not(N.cmp('asn', 'number', 'eq', false, [65000, 65001])),
    pg: [`NOT ((m."asn" IS NOT NULL AND m."asn" = ANY($1::bigint[])))`, [[65000, 65001]]],
    my: ['NOT ((m.`asn` IS NOT NULL AND m.`asn` IN (?, ?)))', [65000, 65001]],
  },
  {
    name: 'foreign key with descendants (recursive CTE), ids and slugs',
    resource: 'site',
    plan: N.fk('region', 'region', ['eu', REGION], true),
    pg: [
      `m."region" IN (WITH RECURSIVE tr ("id") AS (SELECT x."id" FROM "region" x WHERE (x."id" = $1::uuid OR ` +
        `x."slug" = ANY($2::text[])) UNION SELECT ch."id" FROM "region" ch JOIN tr ON ch."parent" = tr."id") ` +
        `SELECT tr."id" FROM tr)`,
      [REGION, ['eu', REGION]],
    ],
    my: [
      'm.`region` IN (WITH RECURSIVE tr (`id`) AS (SELECT x.`id` FROM `region` x WHERE (x.`id` = ? OR x.`slug` ' +
        'IN (?, ?)) UNION SELECT ch.`id` FROM `region` ch JOIN tr ON ch.`parent` = tr.`id`) SELECT tr.`id` FROM ' +
        'tr)',
      [REGION, 'eu', REGION],
    ],
  },
  {
    name: 'foreign key by id only (<fk>_id): no slug compared, even one spelled as an id',
    resource: 'prefix',
    plan: N.fk('site', 'site', [REGION], false, true),
    pg: [`m."site" IN (SELECT x."id" FROM "site" x WHERE x."id" = $1::uuid)`, [REGION]],
    my: ['m.`site` IN (SELECT x.`id` FROM `site` x WHERE x.`id` = ?)', [REGION]],
  },
  {
    name: '__empty on a nullable string: null or the empty text',
    resource: 'interface',
    plan: N.or([N.isNull('mac_address'), N.cmp('mac_address', 'string', 'eq', false, [''])]),
    pg: [`(m."mac_address" IS NULL OR m."mac_address" = $1::text)`, ['']],
    my: ['(m.`mac_address` IS NULL OR m.`mac_address` = ?)', ['']],
  },
  {
    name: 'tag by slug',
    resource: 'site',
    plan: N.tag('core'),
    pg: [
      `EXISTS (SELECT 1 FROM "site_tags" jt WHERE jt."obj_id" = m."id" AND jt."tag_id" = (SELECT x."id" FROM ` +
        `"tag" x WHERE x."slug" = $1::text))`,
      ['core'],
    ],
    my: [
      'EXISTS (SELECT 1 FROM `site_tags` jt WHERE jt.`obj_id` = m.`id` AND jt.`tag_id` = (SELECT x.`id` FROM ' +
        '`tag` x WHERE x.`slug` = ?))',
      ['core'],
    ],
  },
  {
    name: 'tag by id, else by slug',
    resource: 'prefix',
    plan: N.tag(REGION),
    pg: [
      `EXISTS (SELECT 1 FROM "prefix_tags" jt WHERE jt."obj_id" = m."id" AND jt."tag_id" = COALESCE((SELECT ` +
        `x."id" FROM "tag" x WHERE x."id" = $1::uuid), (SELECT x."id" FROM "tag" x WHERE x."slug" = $2::text)))`,
      [REGION, REGION],
    ],
    my: [
      'EXISTS (SELECT 1 FROM `prefix_tags` jt WHERE jt.`obj_id` = m.`id` AND jt.`tag_id` = COALESCE((SELECT ' +
        'x.`id` FROM `tag` x WHERE x.`id` = ?), (SELECT x.`id` FROM `tag` x WHERE x.`slug` = ?)))',
      [REGION, REGION],
    ],
  },
  {
    name: 'net_contained on prefixes: inet operator / address range',
    resource: 'prefix',
    plan: netPlan('network', 'net_contained', '10.0.0.0/8'),
    pg: [`(m."family" = 4 AND m."net_block" << $1::cidr)`, ['10.0.0.0/8']],
    my: ['(m.`family` = ? AND m.`net_lo` BETWEEN ? AND ? AND m.`prefix_length` > ?)', [4, '0a000000', '0affffff', 8]],
  },
  {
    name: 'net_host on prefixes: one probe per length',
    resource: 'prefix',
    plan: netPlan('network', 'net_host', '10.1.2.3'),
    pg: [
      `m."net_block" = ANY($1::cidr[])`,
      [Array.from({ length: 33 }, (_, l) => `${formatAddress({ family: 4, hex: networkOf(4, '0a010203', l) })}/${l}`)],
    ],
    my: [
      `(m.\`family\` = ? AND (m.\`net_lo\`, m.\`prefix_length\`) IN ` +
        `(${Array.from({ length: 33 }, () => '(?, ?)').join(', ')}))`,
      [4, ...Array.from({ length: 33 }, (_, l) => [networkOf(4, '0a010203', l), l]).flat()],
    ],
  },
  {
    name: "blocks containing an IP address's block: inet operator / probes",
    resource: 'ip_address',
    plan: netPlan('host', 'net_contains_or_equals', '10.1.2.0/31'),
    pg: [`(m."family" = 4 AND m."net_block" >>= $1::cidr)`, ['10.1.2.0/31']],
    my: [
      `(m.\`family\` = ? AND (m.\`net_lo\`, m.\`prefix_length\`) IN ` +
        `(${Array.from({ length: 32 }, () => '(?, ?)').join(', ')}))`,
      [4, ...Array.from({ length: 32 }, (_, l) => [networkOf(4, '0a010200', l), l]).flat()],
    ],
  },
  {
    name: 'address lookup of IP addresses: host equality',
    resource: 'ip_address',
    plan: netPlan('host', 'net_host', '192.0.2.1'),
    pg: [`m."net_host" = $1::inet`, ['192.0.2.1/32']],
    my: ['(m.`family` = ? AND m.`net_host` = ?)', [4, 'c0000201']],
  },
  {
    name: 'parent of IP addresses: host range',
    resource: 'ip_address',
    plan: netPlan('host', 'net_host_contained', '192.0.2.0/24'),
    pg: [`m."net_host" BETWEEN $1::inet AND $2::inet`, ['192.0.2.0/32', '192.0.2.255/32']],
    my: ['(m.`family` = ? AND m.`net_host` BETWEEN ? AND ?)', [4, 'c0000200', 'c00002ff']],
  },
  {
    name: 'custom field list membership',
    resource: 'site',
    plan: N.cf('features', 'list', 'has', false, ['bgp']),
    pg: [
      `CASE WHEN json_typeof((m."custom_fields" -> $1::text)) = 'array' THEN ((m."custom_fields" -> ` +
        `$2::text))::jsonb @> $3::jsonb ELSE FALSE END`,
      ['features', 'features', '["bgp"]'],
    ],
    my: [
      "CASE WHEN JSON_TYPE(JSON_EXTRACT(m.`custom_fields`, ?)) = 'ARRAY' THEN " +
        'JSON_CONTAINS(JSON_EXTRACT(m.`custom_fields`, ?), ?) ELSE FALSE END',
      ['$."features"', '$."features"', '"bgp"'],
    ],
  },
  {
    name: 'custom field integer comparison',
    resource: 'site',
    plan: N.cf('rack_count', 'number', 'gt', false, [3]),
    pg: [
      `CASE WHEN json_typeof((m."custom_fields" -> $1::text)) = 'number' THEN ((m."custom_fields" -> $2::text) ` +
        `#>> '{}')::numeric > $3::numeric ELSE FALSE END`,
      ['rack_count', 'rack_count', 3],
    ],
    my: [
      "CASE WHEN JSON_TYPE(JSON_EXTRACT(m.`custom_fields`, ?)) IN ('INTEGER', 'DOUBLE', 'DECIMAL', 'UNSIGNED " +
        "INTEGER') THEN CAST(JSON_UNQUOTE(JSON_EXTRACT(m.`custom_fields`, ?)) AS DOUBLE) > ? ELSE FALSE END",
      ['$."rack_count"', '$."rack_count"', 3],
    ],
  },
  {
    name: 'case-insensitive regex, respelled per engine',
    resource: 'site',
    plan: N.cmp('name', 'string', 'regex', true, ['^ams.$']),
    pg: [`(m."name") COLLATE "und-x-icu" ~* $1::text`, ['^ams[^\\n]$']],
    my: ['m.`name` REGEXP ?', ['(?i)^ams.\\z']],
  },
  {
    name: 'datetime as instants',
    resource: 'site',
    plan: N.cmp('created', 'datetime', 'gte', false, ['2024-01-01T00:00:00.000Z']),
    pg: [`m."created" >= $1::timestamptz`, ['2024-01-01T00:00:00.000Z']],
    my: ['m.`created` >= ?', ['2024-01-01 00:00:00.000']],
  },
  {
    name: 'is null, and/or, constants',
    resource: 'prefix',
    plan: N.or([N.isNull('site'), N.and([N.cmp('status', 'string', 'eq', false, ['active']), N.isNull('prefix')])]),
    pg: [`(m."site" IS NULL OR (m."status" = $1::text AND FALSE))`, ['active']],
    my: ['(m.`site` IS NULL OR (m.`status` = ? AND FALSE))', ['active']],
  },
  {
    name: 'fields a resource lacks: null is true, anything else false',
    resource: 'site',
    plan: N.and([
      N.isNull('nope'),
      N.not(N.cmp('nope', 'string', 'eq', false, ['x'])),
      N.not(N.net('network', 'equal', 4, '0a000000', '0affffff', 8)),
    ]),
    pg: ['(TRUE AND NOT (FALSE) AND NOT (FALSE))', []],
    my: ['(TRUE AND NOT (FALSE) AND NOT (FALSE))', []],
  },
];

describe('sql/compile golden WHERE clauses', () => {
  for (const g of GOLDEN) {
    it(`postgres: ${g.name}`, () => {
      const w = where(pg, g.resource, g.plan);
      expect(w.sql).to.equal(g.pg[0]);
      expect(w.params).to.deep.equal(g.pg[1]);
    });
    it(`mysql: ${g.name}`, () => {
      const w = where(my, g.resource, g.plan);
      expect(w.sql).to.equal(g.my[0]);
      expect(w.params.map(hex)).to.deep.equal(g.my[1]);
    });
  }
});

describe('sql/compile find statements', () => {
  const page = {
    limit: 50,
    offset: 100,
    ordering: [
      { field: 'network', desc: false },
      { field: 'prefix_length', desc: false },
    ],
  };
  const plan = netPlan('network', 'net_host', '10.1.2.3');

  it('postgres: COUNT and page with address ordering (matching the B-tree), limit and offset bound', () => {
    const st = new SqlCompiler(pg).find('prefix', plan, page);
    expect(st.count.sql).to.equal(`SELECT count(*) AS n FROM "prefix" m WHERE m."net_block" = ANY($1::cidr[])`);
    expect(st.page.sql).to.match(
      new RegExp(
        String.raw`^SELECT m\."id", m\."created", .* FROM "prefix" m WHERE m\."net_block" = ANY\(\$1::cidr\[\]\) ` +
          String.raw`ORDER BY m\."net_block" ASC, m\."id" ASC LIMIT \$2::bigint OFFSET \$3::bigint$`,
      ),
    );
    expect(st.page.params.slice(1)).to.deep.equal([50, 100]);
  });

  it('mysql: nulls last ascending / first descending, addresses by (family, address, length)', () => {
    const c = new SqlCompiler(my, String);
    expect(c.orderBy('prefix', page.ordering)).to.equal(
      ' ORDER BY m.`family` ASC, m.`net_lo` ASC, m.`prefix_length` ASC, m.`id` ASC',
    );
    expect(
      c.orderBy('site', [
        { field: 'region', desc: false },
        { field: 'asn', desc: true },
        { field: 'name', desc: true },
      ]),
    ).to.equal(
      ' ORDER BY (m.`region` IS NULL) ASC, m.`region` ASC, (m.`asn` IS NULL) DESC, m.`asn` DESC, m.`name` ' +
        'DESC, m.`id` ASC',
    );
    expect(c.orderBy('ip_address', [{ field: 'address', desc: true }])).to.equal(
      ' ORDER BY m.`family` DESC, m.`net_host` DESC, m.`prefix_length` DESC, m.`id` ASC',
    );
    const st = c.find('site', N.TRUE, { limit: 5, offset: 0, ordering: [] });
    expect(st.page.params).to.deep.equal(['5', '0']);
  });

  it('postgres: ip addresses order by host, broadcast by block network', () => {
    const c = new SqlCompiler(pg);
    expect(c.orderBy('ip_address', [{ field: 'host', desc: false }])).to.equal(
      ' ORDER BY m."net_host" ASC, m."prefix_length" ASC, m."id" ASC',
    );
    expect(c.orderBy('ip_address', [{ field: 'broadcast', desc: true }])).to.equal(
      ' ORDER BY network(m."net_block") DESC, m."id" ASC',
    );
  });

  it(
    'postgres: family=4/6 also bounds the ordered network column (index scan starts at that family); MySQL ' +
      'needs no bound',
    () => {
      const pc = new SqlCompiler(pg);
      const fam = (v: number) => N.cmp('family', 'number', 'eq', false, [v]);
      expect(pc.where('prefix', fam(6)).sql).to.equal(`(m."family" = $1::bigint AND m."net_block" >= '::/0'::cidr)`);
      expect(pc.where('prefix', fam(4)).sql).to.equal(`(m."family" = $1::bigint AND m."net_block" < '::/0'::cidr)`);
      expect(pc.where('ip_address', fam(6)).sql).to.contain(`m."net_host" >= '::'::inet`);
      expect(pc.where('prefix', N.cmp('family', 'number', 'eq', false, [4, 6])).sql).to.not.contain('::/0');
      expect(new SqlCompiler(my).where('prefix', fam(6)).sql).to.not.contain('::');
    },
  );

  it('drops ordering keys an earlier key decides; id last unless ordered by', () => {
    const c = new SqlCompiler(pg);
    expect(
      c.orderBy('prefix', [
        { field: 'prefix', desc: true },
        { field: 'network', desc: false },
        { field: 'family', desc: false },
        { field: 'status', desc: false },
      ]),
    ).to.equal(' ORDER BY m."net_block" DESC, m."status" ASC, m."id" ASC');
    expect(
      c.orderBy('site', [
        { field: 'id', desc: true },
        { field: 'name', desc: false },
      ]),
    ).to.equal(' ORDER BY m."id" DESC, m."name" ASC');
    expect(
      c.orderBy('site', [
        { field: 'name', desc: false },
        { field: 'name', desc: true },
      ]),
    ).to.equal(' ORDER BY m."name" ASC, m."id" ASC');
  });

  it('caches the WHERE of a plan object and rejects unknown ordering fields', () => {
    const c = new SqlCompiler(pg);
    expect(c.where('prefix', plan)).to.equal(c.where('prefix', plan));
    expect(() => c.orderBy('site', [{ field: 'nope', desc: false }])).to.throw(/unknown field nope/);
  });
});

describe('sql/compile values are always bound parameters', () => {
  const MARK = 'zqx'; // never part of the SQL the compiler writes
  const text = fc
    .string({
      unit: fc.constantFrom('a', "'", '"', '`', '\\', '%', '_', '!', ';', '-', ' ', '$', '?', 'é'),
      maxLength: 8,
    })
    .map((s) => MARK + s);
  const fields = ['name', 'slug', 'description', 'asn', 'created', 'region', 'id', 'custom_fields', 'nope'];
  const ops = ['eq', 'lt', 'lte', 'gt', 'gte', 'contains', 'startswith', 'endswith', 'regex'] as const;
  const leaf: fc.Arbitrary<Plan> = fc.oneof(
    fc
      .record({
        f: fc.constantFrom(...fields),
        op: fc.constantFrom(...ops),
        ci: fc.boolean(),
        v: fc.array(text, { minLength: 1, maxLength: 3 }),
      })
      .map(({ f, op, ci, v }) => N.cmp(f, 'string', op, ci, v)),
    fc
      .record({
        op: fc.constantFrom(...ops, 'has' as const),
        ci: fc.boolean(),
        v: fc.array(text, { minLength: 1, maxLength: 3 }),
        name: text,
      })
      .map(({ op, ci, v, name }) => N.cf(name, 'string', op, ci, v)),
    fc.array(text, { minLength: 1, maxLength: 3 }).map((refs) => N.fk('region', 'region', refs, true)),
    text.map((r) => N.tag(r)),
  );
  const plan = fc
    .array(leaf, { minLength: 1, maxLength: 4 })
    .chain((ls) => fc.constantFrom(N.and(ls), N.or(ls), N.not(N.and(ls))));

  for (const d of [pg, my, mysql8]) {
    it(
      `${d.name}${d === mysql8 ? ' (MySQL 8)' : ''}: user text never appears in the SQL; one placeholder per ` +
        `parameter`,
      () => {
        fc.assert(
          fc.property(plan, (p) => {
            const w = where(d, 'site', p);
            expect(w.sql).not.to.include(MARK);
            const placeholders =
              d.name === 'postgres' ? new Set(w.sql.match(/\$\d+/g) ?? []).size : (w.sql.match(/\?/g) ?? []).length;
            expect(placeholders).to.equal(w.params.length);
          }),
          { numRuns: 300 },
        );
      },
    );
  }
});

describe('sql/like and regex helpers', () => {
  it('escapes LIKE metacharacters and the escape character', () => {
    expect(escapeLike('50%_off!')).to.equal('50!%!_off!!');
    expect(escapeLike('a\\b')).to.equal('a\\b');
    expect(likePattern('contains', '%')).to.equal('%!%%');
    expect(likePattern('startswith', '_x')).to.equal('!_x%');
    expect(likePattern('endswith', 'x!')).to.equal('%x!!');
  });

  it('respells RE2 for PostgreSQL ARE', () => {
    // \b and \B over RE2's ASCII word characters (\y is Unicode-aware in the ICU collation of ~*).
    const w = '[0-9A-Z_a-z]';
    expect(re2ToPostgres('\\bab\\B\\z')).to.equal(
      `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))ab(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))\\Z`,
    );
    expect(re2ToPostgres('a.b[.]')).to.equal('a[^\\n]b[.]');
    expect(re2ToPostgres('(?s)a.b')).to.equal('(?s)a.b');
    expect(re2ToPostgres('(?P<x>a)(?<y>b)')).to.equal('(a)(b)');
    expect(re2ToPostgres('\\Qa.b\\E.')).to.equal('a\\.b[^\\n]');
    expect(re2ToPostgres('[]\\b]')).to.equal('[]\\b]');
  });

  it('writes out RE2 classes as RE2 reads them, for every database', () => {
    // Negated classes outside a bracket expression stay negated brackets (folded, then complemented).
    expect(re2ToPostgres('\\d\\W')).to.equal('[0-9][^0-9A-Z_a-z]');
    expect(re2ToMysql('\\d\\W')).to.equal('[0-9][^0-9A-Z_a-z]');
    // Inside one: \s and [:upper:] spliced, a '-' after a class a literal, as in RE2.
    expect(re2ToPostgres('[\\s[:upper:]-]')).to.equal('[\\u0009\\u000A\\u000C\\u000D\\u0020A-Z\\-]');
    expect(re2ToMysql('[^\\s[:upper:]-]')).to.equal('[^\\x{9}\\x{A}\\x{C}\\x{D}\\x{20}A-Z\\-]');
    // Unicode classes from RE2's own tables; \P and \p{^…} negate, \P{^…} does not.
    expect(re2ToPostgres('\\p{Greek}')).to.match(/^\[\\u0370-\\u0373\\u0375-\\u0377/);
    expect(re2ToMysql('\\pL'))
      .to.equal(re2ToMysql('\\p{L}'))
      .and.match(/^\[A-Za-z\\x\{AA\}/);
    for (const neg of ['\\PL', '\\P{L}', '\\p{^L}'])
      expect(re2ToMysql(neg), neg).to.equal(`[^${re2ToMysql('\\pL').slice(1)}`);
    expect(re2ToMysql('\\P{^L}')).to.equal(re2ToMysql('\\pL'));
    // \v is a vertical tab in RE2 and PostgreSQL, any vertical space in PCRE2 and ICU.
    expect(re2ToMysql('\\v[\\v]')).to.equal('\\x{B}[\\x{B}]');
    expect(re2ToPostgres('\\v')).to.equal('\\v');
    // Quoted text and escaped backslashes are no classes.
    expect(re2ToMysql('\\Q\\d\\E\\\\d')).to.equal('\\Q\\d\\E\\\\d');
  });

  it('respells RE2 for MySQL / MariaDB', () => {
    expect(re2ToMysql('(?P<x>a)$')).to.equal('(?<x>a)\\z');
    expect(re2ToMysql('\\$[$]\\Q$\\E')).to.equal('\\$[$]\\Q$\\E');
    expect(re2ToMysql('(?m)^a$')).to.equal('(?m)^a$');
    expect(re2ToMysql('a{2,3}x{y}[{}]9}')).to.equal('a{2,3}x\\{y\\}[{}]9\\}');
  });

  it('finds the shortest length at which an address is a network', () => {
    expect(minAlignedLength(4, '0a000000')).to.equal(7);
    expect(minAlignedLength(4, '00000000')).to.equal(0);
    expect(minAlignedLength(4, '0a010203')).to.equal(32);
    expect(minAlignedLength(6, '20010db8' + '0'.repeat(24))).to.equal(29);
  });
});

describe('sql/ddl', () => {
  it('postgres: cidr/inet network columns with an SP-GiST index, unique and foreign keys named', () => {
    const sql = ddlStatements(pg).join(';\n');
    expect(sql).to.include(`"net_block" cidr NOT NULL`);
    // One SP-GiST index per family (one over both returned wrong answers on PostgreSQL 15.20).
    for (const f of [4, 6])
      expect(sql).to.include(
        `CREATE INDEX IF NOT EXISTS "ix_prefix_net_spgist${f}" ON "prefix" USING spgist ("net_block" inet_ops) ` +
          `WHERE "family" = ${f}`,
      );
    expect(sql).to.include(`CONSTRAINT "uq_device_site_name" UNIQUE ("site", "name")`);
    expect(sql).to.include(`CONSTRAINT "fk_site_region" FOREIGN KEY ("region") REFERENCES "region" ("id")`);
    expect(sql).to.include(
      `CONSTRAINT "fk_site_tags_obj" FOREIGN KEY ("obj_id") REFERENCES "site" ("id") ON DELETE CASCADE`,
    );
    expect(sql).to.include(`"custom_fields" json NOT NULL`);
  });

  it('mysql: varbinary network columns, indexes led by family, binary NO PAD collation per flavour', () => {
    const maria = ddlStatements(my).join(';\n');
    expect(maria).to.include('`net_lo` varbinary(16) NOT NULL');
    expect(maria).to.include('KEY `ix_prefix_net_lo` (`family`, `net_lo`, `prefix_length`)');
    expect(maria).to.include('KEY `ix_ip_address_net_host` (`family`, `net_host`, `prefix_length`)');
    expect(maria).to.include('COLLATE=utf8mb4_nopad_bin');
    expect(maria).to.include('`custom_fields` longtext NOT NULL');
    expect(maria).to.include('CONSTRAINT `ck_site_custom_fields` CHECK (json_valid(`custom_fields`))');
    expect(ddlStatements(mysql8).join(';\n')).to.include('COLLATE=utf8mb4_0900_bin');
  });
});

describe('sql compile: tags looked up before compiling', () => {
  const CORE = '00000000-0000-4000-8100-000000000000';
  const plan = N.and([N.tag('core'), N.not(N.tag('nosuch'))]);

  it('names the tag id as a value and an unknown tag as false, on both dialects', () => {
    const ids = new Map<string, string | null>([
      ['core', CORE],
      ['nosuch', null],
    ]);
    const p = compileWhere(pg, tableModel('prefix'), plan, ids);
    expect(p.sql).to.equal(
      `(EXISTS (SELECT 1 FROM "prefix_tags" jt WHERE jt."obj_id" = m."id" AND jt."tag_id" = $1::uuid) AND NOT ` +
        `(${pg.FALSE}))`,
    );
    expect(p.params).to.deep.equal([CORE]);
    const m = compileWhere(my, tableModel('prefix'), plan, ids);
    expect(m.sql).to.equal(
      `(EXISTS (SELECT 1 FROM \`prefix_tags\` jt WHERE jt.\`obj_id\` = m.\`id\` AND jt.\`tag_id\` = ?) ` +
        `AND NOT (${my.FALSE}))`,
    );
    expect(m.params).to.deep.equal([CORE]);
  });

  it('lists each reference once and caches a clause per lookup result', () => {
    expect([...N.tagRefs(N.or([plan, N.tag('core')]))]).to.deep.equal(['core', 'nosuch']);
    const c = new SqlCompiler(pg);
    const a = c.where(
      'prefix',
      plan,
      new Map([
        ['core', CORE],
        ['nosuch', null],
      ]),
    );
    const b = c.where(
      'prefix',
      plan,
      new Map([
        ['core', null],
        ['nosuch', null],
      ]),
    );
    expect(a.params).to.deep.equal([CORE]);
    expect(b.params).to.deep.equal([]);
    expect(
      c.where(
        'prefix',
        plan,
        new Map([
          ['core', CORE],
          ['nosuch', null],
        ]),
      ),
    ).to.equal(a);
    expect(c.where('prefix', plan).sql).to.include('SELECT x."id" FROM "tag" x WHERE x."slug"');
  });

  it('looks tags up by slug, and by id for references shaped as ids', () => {
    const q = new SqlCompiler(pg).tagLookup(['core', CORE]);
    expect(q.sql).to.equal(
      'SELECT "id" AS id, "slug" AS slug FROM "tag" WHERE "slug" IN ($1::text, $2::text) OR "id" IN ($3::uuid)',
    );
    expect(q.params).to.deep.equal(['core', CORE, CORE]);
  });
});

describe('sql/dialects: one base, overrides where an engine differs', () => {
  it('each dialect is frozen and shares the base members it does not override', () => {
    for (const d of [pg, my, mysql8]) expect(Object.isFrozen(d), d.label).to.equal(true);
    expect(pg.like).to.equal(my.like);
    expect(my.like).to.equal(mysql8.like);
    expect(pg.encode).to.not.equal(my.encode); // MySQL binds booleans as 1/0 and DATETIME text
    expect([pg.TRUE, pg.FALSE, pg.jsonNumberType]).to.deep.equal([my.TRUE, my.FALSE, my.jsonNumberType]);
  });

  it('MariaDB and MySQL differ only in their name and the binary collation they write', () => {
    const differing = Object.keys(my).filter((k) => {
      const a = (my as unknown as Record<string, unknown>)[k],
        b = (mysql8 as unknown as Record<string, unknown>)[k];
      return typeof a === 'function' ? false : a !== b;
    });
    expect(differing.sort()).to.deep.equal(['label', 'tableSuffix']);
    expect(my.tableSuffix).to.contain('utf8mb4_nopad_bin');
    expect(mysql8.tableSuffix).to.contain('utf8mb4_0900_bin');
    expect(mysql8.textOf('x', 'uuid')).to.contain('utf8mb4_0900_bin');
    expect(my.textOf('x', 'uuid')).to.contain('utf8mb4_nopad_bin');
  });
});
