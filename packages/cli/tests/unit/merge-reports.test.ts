import { describe, expect, it } from 'vitest';
import { mergeReports } from '../../src/release/merge-reports.js';
import { parseReport, type ParsedReport } from '../../src/release/read-reports.js';
import { InputFileError } from '../../src/errors.js';

const report = (file: string, allocations: string, handles = '[]'): ParsedReport =>
  parseReport(`{"version":"0.1.0","clusterGUID":"g","allocations":${allocations},"leakedHandles":${handles}}`, file);

describe('parseReport', () => {
  it('keeps 19-digit sequence numbers exact', () => {
    const r = report('a', '{"10.0.0.1":[{"ip":"10.0.0.1","sequenceNumber":1735787045123456799,"inUse":false,"owners":null}]}');
    expect(r.allocations).toEqual([{ ip: '10.0.0.1', sequenceNumber: 1735787045123456799n, releasable: true }]);
  });

  it("falls back to calicoctl's rule without our verdict, never releasing Windows-reserved ordinals", () => {
    const r = report(
      'a',
      '{"10.0.0.1":[{"ip":"10.0.0.1","handle":"windows-reserved-ipam-handle","sequenceNumber":0,"inUse":false,"owners":null}],' +
        '"10.0.0.2":[{"ip":"10.0.0.2","sequenceNumber":0,"inUse":false,"coolingDown":true,"owners":null}],' +
        '"10.0.0.3":[{"ip":"10.0.0.3","sequenceNumber":0,"inUse":false,"owners":null}]}',
    );
    expect(r.allocations.map((a) => [a.ip, a.releasable])).toEqual([
      ['10.0.0.1', false],
      ['10.0.0.2', false],
      ['10.0.0.3', true],
    ]);
  });

  it.each([
    ['not json', 'a: is not valid JSON'],
    ['[]', 'a: must hold a JSON object'],
    ['{"version":"0.1.0","clusterGUID":"g","allocations":{"1.2.3.4":[{"ip":"1.2.3.4","inUse":false}]}}', 'a: allocations[1.2.3.4][0].sequenceNumber must be a non-negative integer'],
  ])('refuses %s', (text, message) => {
    expect(() => parseReport(text, 'a')).toThrow(new InputFileError('a', message.slice(3)));
  });
});

describe('mergeReports', () => {
  it('keeps addresses releasable in every report, with the latest sequence number, and handles at the same revision', () => {
    const first = report(
      'a',
      '{"10.0.0.1":[{"ip":"10.0.0.1","sequenceNumber":1,"inUse":false,"owners":null}],"10.0.0.2":[{"ip":"10.0.0.2","sequenceNumber":2,"inUse":false,"owners":null}]}',
      '[{"ID":"h1","UID":null,"Revision":"5"},{"ID":"h2","UID":null,"Revision":"6"}]',
    );
    const second = report(
      'b',
      '{"10.0.0.1":[{"ip":"10.0.0.1","sequenceNumber":9,"inUse":false,"owners":null}],"10.0.0.2":[{"ip":"10.0.0.2","sequenceNumber":2,"inUse":true,"owners":["x"]}]}',
      '[{"ID":"h1","UID":null,"Revision":"5"},{"ID":"h2","UID":null,"Revision":"7"}]',
    );
    expect(mergeReports([first, second])).toEqual({
      ips: [{ ip: '10.0.0.1', sequenceNumber: 9n, releasable: true }],
      handles: [{ id: 'h1', revision: '5' }],
    });
  });
});
