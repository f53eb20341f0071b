import { linearReplace } from '../../linear-replace.js';

/** A line break that is not CRLF: a CR alone, or an LF alone. */
const BARE = /\r(?!\n)|(?<!\r)\n/g;

/** Every line break (CRLF, CR or LF) written as CRLF, as MIME has them. */
export const toCrlf = (text: string): string => linearReplace(text, BARE, () => '\r\n');
