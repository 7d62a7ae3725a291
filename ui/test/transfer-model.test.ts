// The UI's side of export and import, in Node: the export's path from the page's query, the file name, the
// format of a file, the errors and summary of an answer, and a background job read defensively (its progress
// fields may be named either way; a job without them still has a status).
import { expect } from 'chai';
import { detectFormat, exportPath, fileNameOf, rowErrors, summaryOf } from '../lib/transfer.js';
import { jobState } from '../lib/job.js';

describe('UI export and import model', () => {
  it("exports the page's filters and ordering without its paging", () => {
    const pairs = [
      ['status', 'active'],
      ['status', 'planned'],
      ['ordering', '-name'],
      ['limit', '50'],
      ['offset', '100'],
    ] as const;
    expect(exportPath('/api/dcim/sites/', pairs, 'csv')).to.equal(
      '/api/dcim/sites/?status=active&status=planned&ordering=-name&format=csv',
    );
    expect(exportPath('/api/dcim/sites/', [], 'yaml')).to.equal('/api/dcim/sites/?format=yaml');
  });

  it("names the file as the server's Content-Disposition does", () => {
    expect(fileNameOf('attachment; filename="ip-addresses.csv"', 'x.csv')).to.equal('ip-addresses.csv');
    expect(fileNameOf(null, 'sites.yaml')).to.equal('sites.yaml');
  });

  it("tells CSV from YAML by the file's name, else its first line", () => {
    expect(detectFormat('a.CSV', '- a: 1')).to.equal('csv');
    expect(detectFormat('a.yml', 'name,slug')).to.equal('yaml');
    expect(detectFormat('', '\uFEFF---\n- name: x')).to.equal('yaml');
    expect(detectFormat('', '# devices\n- name: x')).to.equal('yaml');
    expect(detectFormat('data.txt', 'name,slug\nx,y')).to.equal('csv');
    expect(detectFormat('', '-1,x')).to.equal('csv');
  });

  it("reads a 400's errors by row and field, and a success's counts", () => {
    const body = {
      errors: [
        { row: 2, field: 'site', detail: 'No single site' },
        { row: 0, field: null, detail: 'Unknown column' },
      ],
      count: 2,
    };
    expect(rowErrors(body)).to.deep.equal(body.errors);
    expect(rowErrors({ detail: 'nope' })).to.deep.equal([]);
    expect(summaryOf({ created: 2, updated: 1, unchanged: 0 })).to.equal('Created 2, updated 1, unchanged 0.');
    expect(summaryOf(body)).to.equal(null);
  });

  it('reads a job whatever its progress fields are called', () => {
    const running = jobState({ status: { value: 'running', label: 'Running' }, progress: { done: 5, total: 20 } });
    expect([running.status, running.label, running.done, running.total, running.finished]).to.deep.equal([
      'running',
      'Running',
      5,
      20,
      false,
    ]);
    const flat = jobState({ status: { value: 'running', label: 'Running' }, rows_done: 7, rows_total: 9 });
    expect([flat.done, flat.total]).to.deep.equal([7, 9]);
    const bare = jobState({ status: 'pending' });
    expect([bare.status, bare.label, bare.done, bare.total]).to.deep.equal(['pending', 'pending', null, null]);
    const done = jobState({ status: { value: 'completed', label: 'Completed' }, data: { created: 3 } });
    expect([done.finished, done.ok, done.outcome]).to.deep.equal([true, true, { created: 3 }]);
    const failed = jobState({ status: { value: 'failed', label: 'Failed' }, errors: [{ row: 1, field: 'x' }] });
    expect([failed.finished, failed.ok]).to.deep.equal([true, false]);
    expect(rowErrors(failed.outcome)).to.have.length(1);
  });
});
