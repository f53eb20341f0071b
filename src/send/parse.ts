// A /v1/send body from bytes to a checked request: JSON, the schema, then the rules the schema
// cannot express. Small bodies are parsed on the main thread, large ones on the heavy compose thread.
import type { Pools } from '../threads/pool.js';
import { parseJsonBytes } from '../http/json-body.js';
import { validate } from '../http/validate.js';
import type { ComposeAttachment } from '../compose/mime.js';
import { markdownToHtml } from '../render/markdown.js';
import { asBuffer, handedOver, ownBuffer, type Answer, type Handlers } from '../threads/serve.js';
import type { SendRequest } from './request.js';
import { checkSendRules } from './rules.js';

export interface ParsedSend {
  /** Attachment contents are left out here: `attachments` holds them decoded. */
  request: SendRequest;
  attachments: ComposeAttachment[];
}

/** The schema and the send rules, over a parsed body. Throws the API's 422. A Markdown body stays Markdown (see withHtmlBody). */
export function checkSend(body: unknown): ParsedSend {
  const request = validate<SendRequest>('send', body);
  const attachments = checkSendRules(request);
  const light = request.attachments ? { ...request, attachments: request.attachments.map((a) => ({ ...a, content: '' })) } : request;
  return { request: light, attachments };
}

export type SendParseOps = {
  parseSend: { input: { bytes: Uint8Array }; output: ParsedSend };
  renderMarkdown: { input: { source: string }; output: string };
};

/** The Markdown body of a request (`type: "markdown"`), or null for an HTML one. */
const markdownOf = ({ request }: ParsedSend): string | null => (request.type === 'markdown' ? (request.body ?? null) : null);

const withBody = (parsed: ParsedSend, html: string): ParsedSend => ({ ...parsed, request: { ...parsed.request, type: 'html', body: html } });

/**
 * A checked request with its body in HTML. Markdown costs about 0.3 ms per KB to render (ten times
 * what deriving the text part costs), so it is rendered on a compose thread, never on the main one.
 */
export async function withHtmlBody(threads: Pools<SendParseOps>, parsed: ParsedSend): Promise<ParsedSend> {
  const markdown = markdownOf(parsed);
  return markdown === null ? parsed : withBody(parsed, await threads.compose.run('renderMarkdown', { source: markdown }));
}

/** A checked request as a thread answers it: the attachment contents moved back, not copied. */
export function answerParsed(parsed: ParsedSend, collect: boolean): Answer<ParsedSend> {
  const attachments = parsed.attachments.map((a) => ({ ...a, content: Buffer.from(ownBuffer(a.content)) }));
  return { output: { ...parsed, attachments }, transfer: attachments.map((a) => a.content.buffer as ArrayBuffer), collect };
}

/** A checked request as it arrives from a thread: its attachment contents are Buffers again. */
export const receivedParsed = (parsed: ParsedSend): ParsedSend => ({ ...parsed, attachments: parsed.attachments.map((a) => ({ ...a, content: asBuffer(a.content) })) });

export const sendParseHandlers: Handlers<SendParseOps> = {
  // only bodies over 1 MB come here; their Markdown is rendered here too
  parseSend: ({ bytes }) => {
    const parsed = checkSend(parseJsonBytes(asBuffer(bytes)));
    const markdown = markdownOf(parsed);
    return answerParsed(markdown === null ? parsed : withBody(parsed, markdownToHtml(markdown)), true);
  },
  renderMarkdown: ({ source }) => ({ output: markdownToHtml(source) }),
};

/** A heavy body, parsed and checked on the heavy compose thread; the bytes move there, they are not copied. */
export async function parseHeavySend(threads: Pools<SendParseOps>, bytes: Buffer): Promise<ParsedSend> {
  const moved = handedOver(bytes);
  return receivedParsed(await threads.heavy.run('parseSend', { bytes: moved.bytes }, moved.transfer));
}
