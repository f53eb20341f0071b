/** A DKIM-Signature header field's tags (unfolded, whitespace inside values dropped). */
export function dkimSignatureTags(raw: Buffer): Map<string, string> {
  const header = raw.toString('latin1').split('\r\n\r\n')[0]!.replace(/\r\n[ \t]/g, ' ');
  const field = header.split('\r\n').find((line) => /^dkim-signature:/i.test(line));
  const tags = new Map<string, string>();
  for (const part of (field ?? '').slice('dkim-signature:'.length).split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}

/** The TXT record the doctor's "tls-rpt signing key" check says to publish (its fix), or null. */
export function reportKeyRecordIn(fix: string | null): { name: string; value: string } | null {
  const found = /^Publish TXT (\S+) = (v=DKIM1; k=rsa; s=tlsrpt; p=[A-Za-z0-9+/]+=*) /.exec(fix ?? '');
  return found ? { name: found[1]!, value: found[2]! } : null;
}
