// What one uvu run printed, read back: its closing Total / Passed / Skipped lines.

const ANSI = /\x1b\[[0-9;]*m/g;

/**
 * The counts of uvu's closing summary in `output`, or null when it never printed one (the file
 * crashed before its tests ran, or was stopped). Failed is what was neither passed nor skipped.
 */
export function uvuCounts(output) {
  const plain = output.replace(ANSI, '');
  const count = (label) => {
    const all = [...plain.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)\\s*$`, 'gm'))];
    return all.length === 0 ? null : Number(all[all.length - 1][1]);
  };
  const total = count('Total');
  const passed = count('Passed');
  if (total === null || passed === null) return null;
  const skipped = count('Skipped') ?? 0;
  return { passed, skipped, failed: total - passed - skipped };
}
