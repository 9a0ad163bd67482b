/**
 * The memory benchmark in the report: heap retained per built instance, and the approximate
 * allocation per decision call. It has no target: the figures are there to compare with the peers.
 */
import type { MemoryResult } from './memory.bench.js';
import { formatBytes, table } from './report.js';

/**
 * The memory sections: heap per instance, then allocation per call.
 *
 * @example
 * ```ts
 * memorySections(results.memory)[0]; // 'Heap retained per built instance, 10× scenario (gc before and after): …'
 * ```
 */
export function memorySections(memory: MemoryResult): string[] {
  return [
    `Heap retained per built instance, ${memory.scale}× scenario (gc before and after):\n\n${table(
      ['instance', 'heap'],
      memory.heapPerInstance.map((h) => [h.implementation, formatBytes(h.bytes)]),
    )}`,
    `Approximate allocation per call (heap growth over a batch of calls between two collections):\n\n${table(
      ['call', 'bytes per call'],
      memory.allocationPerCall.map((a) => [a.implementation, a.bytes === undefined ? '—' : formatBytes(a.bytes)]),
    )}`,
  ];
}
