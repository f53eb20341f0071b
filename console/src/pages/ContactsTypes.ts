// What the contact routes answer.
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
