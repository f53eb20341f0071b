// The root node of an alternative message: nodemailer's MimeNode, with its header keys normalised once.
import MimeNode from 'nodemailer/lib/mime-node';
import { memoized } from '../../memo.js';

/** MimeNode's own key normaliser: internal, so not in its types. */
const normalize = (MimeNode.prototype as unknown as { _normalizeHeaderKey(this: MimeNode, key: string): string })._normalizeHeaderKey;
/** Header names seen at once stay few (ours and a send's own); the bound only stops endless growth. */
const normalizedKey = memoized(256, (key: string) => normalize.call(MimeNode.prototype, key));

/**
 * MimeNode normalises a header key (three regexps) each time it sets, reads or encodes a header,
 * some forty times per message for the same dozen keys: a tenth of a campaign's compose time.
 * The answers are nodemailer's own, remembered.
 */
export class RootNode extends MimeNode {
  _normalizeHeaderKey(key: string): string {
    return normalizedKey(key);
  }
}
