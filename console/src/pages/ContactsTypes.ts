// What the contact routes answer.
import type { KnownField } from '../ui/filterModel';

export interface Contact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface ContactPage {
  data: Contact[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

/** GET /contacts/fields: the standard fields and each data key as `data.<key>`, with its inferred type and coverage. */
export interface ContactFields {
  fields: KnownField[];
}
