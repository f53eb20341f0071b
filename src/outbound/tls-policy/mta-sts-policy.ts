// MTA-STS (RFC 8461) as text: the `_mta-sts` TXT record, the policy file, and the MX patterns it names.
// Pure: parsing is strict, so that a policy this module accepts means what the domain wrote.

export type StsMode = 'enforce' | 'testing' | 'none';

export interface StsPolicy {
  mode: StsMode;
  /** MX patterns, lower case: `mx.example.com` or `*.example.com` (one leftmost label). */
  mx: string[];
  /** Seconds the policy may be cached (RFC 8461 3.2: at most 31557600). */
  maxAge: number;
}

/** RFC 8461 3.2: max_age is at most 31557600 seconds (about a year). */
export const MAX_MAX_AGE = 31_557_600;
/** RFC 8461 3.1: id is 1 to 32 letters and digits. */
const ID = /^[A-Za-z0-9]{1,32}$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The id of an `_mta-sts` TXT answer, or null when there is no usable record: RFC 8461 3.1 wants
 * exactly one record starting `v=STSv1`; several, or one without a valid id, count as none.
 */
export function stsRecordId(records: string[]): string | null {
  const sts = records.filter((record) => /^v=STSv1\s*(;|$)/.test(record));
  if (sts.length !== 1) return null;
  const fields = new Map<string, string>();
  for (const field of sts[0]!.split(';')) {
    const eq = field.indexOf('=');
    if (eq < 0) continue;
    fields.set(field.slice(0, eq).trim(), field.slice(eq + 1).trim());
  }
  const id = fields.get('id');
  return id !== undefined && ID.test(id) ? id : null;
}

function isHostPattern(value: string): boolean {
  const labels = (value.startsWith('*.') ? value.slice(2) : value).split('.');
  return labels.length >= 2 && labels.every((label) => LABEL.test(label));
}

/** Parses the policy file (RFC 8461 3.2); throws with the reason when it is not a valid policy. */
export function parseStsPolicy(text: string): StsPolicy {
  const fields = new Map<string, string[]>();
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '') continue;
    const colon = raw.indexOf(':');
    if (colon < 0) throw new Error(`line without a key: ${JSON.stringify(raw.slice(0, 80))}`);
    const key = raw.slice(0, colon).trim();
    const value = raw.slice(colon + 1).trim();
    fields.set(key, [...(fields.get(key) ?? []), value]);
  }
  const one = (key: string): string => {
    const values = fields.get(key);
    if (!values) throw new Error(`no ${key}`);
    // RFC 8461 3.2: for a repeated key other than mx, only the first is read
    return values[0]!;
  };
  if (one('version') !== 'STSv1') throw new Error(`version ${JSON.stringify(one('version'))} is not STSv1`);
  const mode = one('mode');
  if (mode !== 'enforce' && mode !== 'testing' && mode !== 'none') throw new Error(`mode ${JSON.stringify(mode)} is not enforce, testing or none`);
  const maxAgeText = one('max_age');
  if (!/^\d{1,10}$/.test(maxAgeText)) throw new Error(`max_age ${JSON.stringify(maxAgeText)} is not a number of seconds`);
  const maxAge = Math.min(Number(maxAgeText), MAX_MAX_AGE);
  const mx = (fields.get('mx') ?? []).map((value) => value.toLowerCase().replace(/\.$/, ''));
  const bad = mx.find((pattern) => !isHostPattern(pattern));
  if (bad !== undefined) throw new Error(`mx ${JSON.stringify(bad)} is not a host name or *.domain pattern`);
  if (mode !== 'none' && mx.length === 0) throw new Error(`mode ${mode} names no mx`);
  return { mode, mx, maxAge };
}

/**
 * Whether an MX host name matches a policy pattern (RFC 8461 4.1): exactly, or `*.example.com`
 * standing for one leftmost label (`mx.example.com`, not `example.com` nor `a.b.example.com`).
 */
export function mxMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (!pattern.startsWith('*.')) return name === pattern;
  const dot = name.indexOf('.');
  return dot > 0 && name.slice(dot + 1) === pattern.slice(2);
}

export const policyAllows = (policy: StsPolicy, host: string): boolean => policy.mx.some((pattern) => mxMatches(pattern, host));
