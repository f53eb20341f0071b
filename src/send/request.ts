import type { ContactData } from '../contacts/data.js';

/** An address as /v1/send takes it: bare, or with a display name. */
export type AddressInput = string | { name?: string; email: string };

export interface AttachmentInput {
  filename: string;
  /** Base64. */
  content: string;
  contentType: string;
  contentId?: string;
  disposition?: 'attachment' | 'inline';
}

/** The body of POST /v1/send once it satisfies schema/send.json. */
export interface SendRequest {
  to: AddressInput | AddressInput[];
  subject?: string;
  body?: string;
  /** What `body` is written in; markdown is rendered to HTML once the request is checked. */
  type?: 'html' | 'markdown';
  template?: string;
  from?: AddressInput;
  /** Deprecated: the sender's display name when `from` is a bare address. */
  name?: string;
  subscribed?: boolean;
  data?: ContactData;
  headers?: Record<string, string>;
  reply?: string;
  attachments?: AttachmentInput[];
}
