// What the compose threads do: build MIME for one prepared input, or personalise and build every
// recipient of one content (large sends: the content crosses once, nothing of its size runs on the main thread).
import { bodiesOf, composeMessage, type ComposeAttachment, type ComposeInput } from './mime.js';
import { forStore, type StoredComposition } from './mime/stored.js';
import { worthCollecting } from '../threads/collect.js';
import { asBuffer, ownBuffer, TaskFailure, type Answer, type Handlers } from '../threads/serve.js';
import type { ComposableContent } from './content.js';
import type { Scope } from '../render/render.js';
import { composeInputFor, renderContent, type ComposeEnv, type Personalization } from './personalize.js';

/** A stored composition as it crosses threads: the bytes move, they are not copied. */
export interface WireComposition {
  bytes: ArrayBuffer;
  deflated: boolean;
  size: number;
  messageId: string;
  subject: string;
}

export interface ComposeAllInput {
  content: ComposableContent;
  env: ComposeEnv;
  recipients: Personalization[];
  /** Stop as soon as the messages together are larger: the caller refuses the send anyway. */
  maxTotalBytes: number;
}

/** A message's subject, HTML body and text part exactly as a composed message carries them (line breaks as written). */
export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

export interface RenderInput {
  content: Pick<ComposableContent, 'subject' | 'html'>;
  scope: Scope;
}

export type ComposeOps = {
  compose: { input: ComposeInput; output: WireComposition };
  composeAll: { input: ComposeAllInput; output: WireComposition[] };
  render: { input: RenderInput; output: RenderedMessage };
};

/** The detail of a composeAll stopped by its size bound. */
export interface TooLargeDetail {
  tooLarge: number;
}

// Buffers arrive as plain Uint8Arrays after the structured clone.
const withBuffers = (attachments: ComposeAttachment[]): ComposeAttachment[] => attachments.map((a) => ({ ...a, content: asBuffer(a.content) }));

function wire(composed: StoredComposition, subject: string): WireComposition {
  return { bytes: ownBuffer(composed.message.bytes), deflated: composed.message.deflated, size: composed.size, messageId: composed.messageId, subject };
}

function composeOne(input: ComposeInput): WireComposition {
  return wire(forStore(composeMessage(input)), input.subject);
}

export const composeHandlers: Handlers<ComposeOps> = {
  compose: (input) => {
    const out = composeOne({ ...input, attachments: withBuffers(input.attachments) });
    return { output: out, transfer: [out.bytes], collect: worthCollecting(out.size) };
  },
  composeAll: (input): Answer<WireComposition[]> => {
    const content = { ...input.content, attachments: withBuffers(input.content.attachments) };
    const env = { ...input.env, signer: { ...input.env.signer, secret: asBuffer(input.env.signer.secret) } };
    const out: WireComposition[] = [];
    let total = 0;
    for (const recipient of input.recipients) {
      const composed = composeOne(composeInputFor(content, recipient, env));
      total += composed.size;
      if (total > input.maxTotalBytes) throw new TaskFailure('messages too large', { tooLarge: total } satisfies TooLargeDetail);
      out.push(composed);
    }
    return { output: out, transfer: out.map((c) => c.bytes), collect: worthCollecting(total) };
  },
  // untracked: what the recipient reads, through the render and text-part steps of a send
  render: ({ content, scope }) => {
    const rendered = renderContent(content, scope, null);
    const bodies = bodiesOf(rendered);
    return { output: { subject: rendered.subject, ...bodies }, collect: worthCollecting(bodies.html.length + bodies.text.length) };
  },
};

/** Back on the main thread: the composition as the store takes it. */
export const fromWire = (w: WireComposition): StoredComposition & { subject: string } => ({
  message: { bytes: Buffer.from(w.bytes), deflated: w.deflated },
  size: w.size,
  messageId: w.messageId,
  subject: w.subject,
});
