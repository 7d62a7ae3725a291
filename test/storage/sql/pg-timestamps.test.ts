// PostgreSQL timestamps read as ISO text (storage/postgres/pg-driver.ts isoOfTimestamptz): the UTC
// text PostgreSQL sends, with 0 to 6 fraction digits, gives what pg's Date parser and toISOString
// give (milliseconds cut, not rounded); other offsets, BC and infinity take the Date path.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import fc from 'fast-check';
import pg from 'pg';
import { isoOfTimestamptz } from '../../../storage/postgres/pg-driver.js';

const viaDate = (v: string): unknown => {
  const d = pg.types.getTypeParser(1184, 'text')(v) as unknown;
  return d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : d;
};

/** An instant as PostgreSQL writes a timestamptz in a UTC session: trailing fraction zeros dropped. */
function pgText(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  const frac = `${iso.slice(20, 23)}${String(micros).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''}+00`;
}

describe('PostgreSQL timestamptz text to ISO', () => {
  it('equals the Date path on UTC text, every fraction length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
        fc.integer({ min: 0, max: 999 }),
        (ms, micros) => {
          const text = pgText(ms, micros);
          expect(isoOfTimestamptz(text), text).to.equal(viaDate(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('takes the Date path for other offsets, BC and infinity', () => {
    for (const text of [
      '2026-01-01 01:00:00+01',
      '2026-06-30 23:59:59.5-07:30',
      '0044-03-15 12:00:00+00 BC',
      'infinity',
      '-infinity',
    ]) {
      expect(isoOfTimestamptz(text), text).to.deep.equal(viaDate(text));
    }
    expect(isoOfTimestamptz('2026-01-01 01:00:00+01')).to.equal('2026-01-01T00:00:00.000Z');
  });
});
