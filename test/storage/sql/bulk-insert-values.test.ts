// A bulk create stores every value as sent, whatever characters it holds: PostgreSQL's multi-row
// INSERT binds each column as one text made by the store (an array literal, or a JSON array for
// JSON columns), so quotes, backslashes, commas, braces, the word NULL, an empty text and JSON
// values with all of these must come back as written, in the rows and in their change records.
// MySQL and MariaDB: the values are written into the INSERT's text (mysqlLiteral, tested last here
// against both servers).
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../../e2e/conformance/backends.js';
import { serverOn } from '../../support/backend-server.js';
import mysql from 'mysql2/promise';
import { mysqlLiteral } from '../../../engine/sql/dialects/mysql-literal.js';
import { freshDatabase } from '../../../storage/test-db.js';

const AWKWARD = [
  'a"b',
  'back\\slash',
  '\\"both\\"',
  'comma, {brace}',
  'NULL',
  'null',
  '',
  ' lead and trail ',
  'ünï\u00e7ødé ✓',
  'new\nline\ttab',
  '{"json":"text"}',
  '\\\\',
  // MySQL: values are written into the statement's text (engine/sql/dialects/mysql-literal.ts)
  "it's",
  "'",
  "\\'",
  "'\\",
  "'); DELETE FROM dcim_site; -- ",
  '\\Z',
  '\u001a',
  '\\0',
  '4-byte 😀 𝄞',
  '? ?? :x $1',
  '`id`',
];
/** A custom field's text far longer than one network packet, with every character the escaping cares about. */
const LONG = `${"quote ' backslash \\ emoji 😀 ".repeat(3000)}end`;

for (const backend of BACKENDS) {
  describe(`bulk create values on ${backend.name}`, function () {
    this.timeout(60000);
    const h = serverOn(backend);

    it(
      'text and JSON with quotes, backslashes, braces and ' + 'NULL come back as sent, in rows and change records',
      async () => {
        const cf = await h.srv.req('POST', '/api/extras/custom-fields/', {
          name: 'note',
          type: 'text',
          content_types: ['dcim.site', 'ipam.prefix'],
        });
        expect(cf.status, JSON.stringify(cf.body)).to.equal(201);
        for (const [path, body] of [
          [
            '/api/dcim/sites/',
            AWKWARD.map((t, i) => ({ name: `s${i}`, slug: `s${i}`, description: t, custom_fields: { note: t } })),
          ],
          [
            '/api/ipam/prefixes/',
            AWKWARD.map((t, i) => ({
              prefix: `10.9.${i}.0/24`,
              status: 'active',
              description: t,
              custom_fields: { note: t },
            })),
          ],
        ] as const) {
          const made = await h.srv.req('POST', path, body);
          expect(made.status, JSON.stringify(made.body)).to.equal(201);
          const ids = (made.body as { id: string }[]).map((o) => o.id);
          for (let i = 0; i < ids.length; i++) {
            const got = (await h.srv.req('GET', `${path}${ids[i]}/`)).body;
            expect([got.description, got.custom_fields.note], `${path} ${JSON.stringify(AWKWARD[i])}`).to.deep.equal([
              AWKWARD[i],
              AWKWARD[i],
            ]);
          }
          const changes = (
            await h.srv.req(
              'GET',
              `/api/extras/object-changes/?limit=0&request_id=` +
                encodeURIComponent(
                  (await h.srv.req('GET', `/api/extras/object-changes/?limit=1&changed_object_id=${ids[0]}`)).body
                    .results[0].request_id,
                ),
            )
          ).body.results as Record<string, any>[];
          expect(changes).to.have.length(AWKWARD.length);
          for (const c of changes) {
            const i = ids.indexOf(c.changed_object_id);
            expect(c.prechange_data, 'a create has no data before it').to.equal(null);
            expect([c.object_data.description, c.object_data.custom_fields.note]).to.deep.equal([
              AWKWARD[i],
              AWKWARD[i],
            ]);
          }
        }
      },
    );

    it(
      'a text far longer than a network packet and a description of 200 quotes and backslashes come back as ' + 'sent',
      async () => {
        const edge = "'\\".repeat(100);
        const made = await h.srv.req('POST', '/api/dcim/sites/', [
          { name: 'long1', slug: 'long1', description: edge, custom_fields: { note: LONG } },
          { name: 'long2', slug: 'long2', description: 'plain', custom_fields: { note: LONG.toUpperCase() } },
        ]);
        expect(made.status, JSON.stringify(made.body).slice(0, 500)).to.equal(201);
        const [a, b] = await Promise.all(
          (made.body as { id: string }[]).map(async (o) => (await h.srv.req('GET', `/api/dcim/sites/${o.id}/`)).body),
        );
        expect([
          a.description,
          a.custom_fields.note === LONG,
          b.custom_fields.note === LONG.toUpperCase(),
        ]).to.deep.equal([edge, true, true]);
      },
    );
  });
}

// The literal writer itself, on each MySQL-family server and under the sql_modes that change what
// a literal means (NO_BACKSLASH_ESCAPES: a backslash is a character; ANSI_QUOTES: " quotes names):
// every text comes back byte for byte (HEX of what is stored), no text ends its literal early (the
// row count and a sentinel table say so), numbers keep their value to the last digit.
const TEXTS = [
  '',
  'plain',
  "'",
  "''",
  '\\',
  "\\'",
  "'\\",
  "it's",
  '\\Z',
  '\u001a',
  '\0',
  'a\0b',
  '\\0',
  '\\n',
  '\n\r\t\b',
  '"',
  '""',
  '`',
  '4-byte 😀 𝄞 ü ✓',
  "'; DROP TABLE sentinel; -- ",
  "\\'; DROP TABLE sentinel; -- ",
  "' OR '1'='1",
  '? ??',
  '%_',
  '¥\\',
  '\ufeff',
  'NULL',
  LONG,
  `${LONG}\0'`,
];
const NUMBERS = [0, -0, 1, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2n ** 63n - 1n, -(2n ** 63n)];
const BYTES = [
  Buffer.alloc(0),
  Buffer.from([0]),
  Buffer.from([0x27, 0x5c, 0x22, 0x00, 0x1a]),
  Buffer.from('ffffffffffffffffffffffffffffffff', 'hex'),
];

for (const kind of ['mysql', 'mysql9'] as const) {
  describe(`MySQL literals on ${kind}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let c: mysql.Connection;
    before(async function () {
      db = await freshDatabase(kind);
      if (!db) {
        this.skip();
        return;
      }
      c = await mysql.createConnection({ uri: db.url, charset: 'utf8mb4' });
      await c.query('CREATE TABLE sentinel (i int)');
      await c.query(
        'CREATE TABLE t (i int PRIMARY KEY, s varchar(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, l ' +
          'longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, n bigint, b varbinary(16))',
      );
    });
    after(async () => {
      await c?.end();
      await db?.drop();
    });

    for (const mode of ['', 'NO_BACKSLASH_ESCAPES', 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES', 'ANSI,STRICT_ALL_TABLES']) {
      it(`texts, numbers and bytes come back as written with sql_mode '${mode}'`, async () => {
        await c.query(`SET SESSION sql_mode = '${mode}'`);
        await c.query('DELETE FROM t');
        const tuples = TEXTS.map(
          (v, i) =>
            `(${i}, ${mysqlLiteral(v.length <= 300 ? v : null)}, ${mysqlLiteral(v)}, ` +
            `${mysqlLiteral(NUMBERS[i % NUMBERS.length])}, ${mysqlLiteral(BYTES[i % BYTES.length])})`,
        );
        await c.query(`INSERT INTO t (i, s, l, n, b) VALUES ${tuples.join(', ')}`);
        const [rows] = await c.execute(
          'SELECT i, HEX(s) AS s, HEX(l) AS l, CAST(n AS CHAR) AS n, HEX(b) AS b FROM t ORDER BY i',
        );
        const hex = (v: string | Buffer) =>
          (typeof v === 'string' ? Buffer.from(v, 'utf8') : v).toString('hex').toUpperCase();
        expect(rows).to.deep.equal(
          TEXTS.map((v, i) => ({
            i,
            s: v.length <= 300 ? hex(v) : null,
            l: hex(v),
            n: String(NUMBERS[i % NUMBERS.length]),
            b: hex(BYTES[i % BYTES.length]),
          })),
        );
        const [tables] = await c.query(
          'SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME ' +
            "= 'sentinel'",
        );
        expect(Number((tables as { n: number }[])[0].n)).to.equal(1);
      });
    }

    it('NULL, booleans, and no literal for what is not a value', () => {
      expect([null, undefined, true, false].map(mysqlLiteral)).to.deep.equal(['NULL', 'NULL', '1', '0']);
      for (const bad of [NaN, Infinity, -Infinity, {}, [], new Date(0), Symbol('x')])
        expect(() => mysqlLiteral(bad)).to.throw();
    });
  });
}
