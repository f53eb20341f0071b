// The root node of an alternative message: nodemailer's MimeNode, with its header keys normalised once.
import MimeNode from 'nodemailer/lib/mime-node';

/** MimeNode's own key normaliser: internal, so not in its types. */
const normalize = (MimeNode.prototype as unknown as { _normalizeHeaderKey(this: MimeNode, key: string): string })._normalizeHeaderKey;
/** Header names seen at once stay few (ours and a send's own); the bound only stops endless growth. */
const KEYS_REMEMBERED = 256;
const normalizedKeys = new Map<string, string>();

/**
 * MimeNode normalises a header key (three regexps) each time it sets, reads or encodes a header,
 * some forty times per message for the same dozen keys: a tenth of a campaign's compose time.
 * The answers are nodemailer's own, remembered.
 */
export class RootNode extends MimeNode {
  _normalizeHeaderKey(key: string): string {
    let normalized = normalizedKeys.get(key);
    if (normalized === undefined) {
      if (normalizedKeys.size >= KEYS_REMEMBERED) normalizedKeys.clear();
      normalized = normalize.call(this, key);
      normalizedKeys.set(key, normalized);
    }
    return normalized;
  }
}
