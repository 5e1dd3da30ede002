/**
 * Prints one benchmark result line: `<name>: <value> <unit> (target <op> <target>: PASS|MISS)`.
 * `higherIsBetter` decides the comparison (throughput: true; latency, bytes: false).
 */
export function report(name: string, value: number, unit: string, target?: { value: number; higherIsBetter: boolean }): void {
  const shown = value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(3);
  let line = `${name}: ${shown} ${unit}`;
  if (target) {
    const ok = target.higherIsBetter ? value >= target.value : value <= target.value;
    line += ` (target ${target.higherIsBetter ? '>=' : '<='} ${target.value}: ${ok ? 'PASS' : 'MISS'})`;
  }
  process.stdout.write(line + '\n');
}
