/**
 * scripts/lib/peers-table.ts, the table of `npm run bench:peers`: medians over the rounds, every
 * figure as a ratio to bare node:http of the same request, the targets met or missed (a failed
 * answer misses), a peer not measured (WireMock without java) skipped, never counted as met.
 */
import { describe, expect, it } from 'vitest';
import { BARE, medianOf, type PeerMeasure, peerRows, ratioToBare, targetRows } from '../../scripts/lib/peers-table.ts';

const run = (requestsPerSecond: number, failures = 0) => ({
  requestsPerSecond,
  p50Ms: 1000 / requestsPerSecond,
  p99Ms: 5000 / requestsPerSecond,
  cpuPerRequest: 1_000_000 / requestsPerSecond,
  failures,
});
const LIST = 'GET /subscriptions/?status=active';
const measures: PeerMeasure[] = [
  { request: LIST, server: BARE, bytes: 22820, sameBytes: true, runs: [run(20000), run(10000), run(30000)] },
  { request: LIST, server: 'mock', bytes: 22820, sameBytes: true, runs: [run(9000), run(12000), run(1000)] },
  { request: LIST, server: 'Prism CLI', bytes: 2420, runs: [run(1800), run(2000), run(2200)] },
  { request: LIST, server: 'json-server', bytes: 31996, runs: [run(5000, 3), run(6000)] },
];

describe('the peers table', () => {
  it('takes the median of each figure over the rounds (an even count: the mean of the middle two), failures summed', () => {
    expect(medianOf(measures[1]?.runs ?? []).requestsPerSecond).toBe(9000);
    const even = medianOf(measures[3]?.runs ?? []);
    expect(even.requestsPerSecond).toBe(5500);
    expect(even.failures).toBe(3);
    expect(medianOf([]).requestsPerSecond).toBeNaN();
  });

  it('gives every server its throughput as a ratio to bare on the same request, bare as the ceiling', () => {
    expect(ratioToBare(measures, LIST, 'mock')).toBeCloseTo(0.45);
    expect(ratioToBare(measures, LIST, 'WireMock')).toBeNaN();
    const rows = peerRows(measures);
    expect(rows.map((r) => r.target)).toEqual(['1.00 (the ceiling)', '0.45 of bare', '0.10 of bare', '0.28 of bare']);
    expect(rows[1]?.measure).toBe("mock (22,820 B, the mock's bytes)");
    expect(rows[2]?.measure).toBe('Prism CLI (2,420 B)');
    expect(rows[1]?.value).toBe('9,000 req/s (p50 0.11 ms, p99 0.56 ms, CPU 111 µs/req)');
    expect(rows[3]?.value).toContain('3 FAILED');
  });

  it('reads each target from the same medians: met, missed, missed on a failed answer, skipped when not measured', () => {
    const rows = targetRows(measures, [
      { request: LIST, server: 'mock', peer: 'Prism CLI', times: 5 },
      { request: LIST, server: 'mock', peer: 'json-server', times: 1 },
      { request: LIST, server: 'json-server', peer: 'Prism CLI', times: 1 },
      { request: LIST, server: 'mock', peer: 'WireMock', times: 1 },
    ]);
    expect(rows.map((r) => [r.value, r.target])).toEqual([
      ['4.50x req/s (CPU/req: 4.50x)', '>= 5x Prism CLI: MISSED'],
      ['1.64x req/s (CPU/req: 1.65x)', '> 1 (ahead of json-server): met'],
      ['2.75x req/s (CPU/req: 2.73x)', '> 1 (ahead of Prism CLI): MISSED'],
      ['WireMock not measured', '> 1 (ahead of WireMock): skipped'],
    ]);
  });
});
