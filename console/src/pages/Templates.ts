// What the Templates pages share: the API's Template and the cache keys of a project's templates.
export type TemplateType = 'TRANSACTIONAL' | 'MARKETING' | 'HEADLESS';

export const TEMPLATE_TYPES: TemplateType[] = ['TRANSACTIONAL', 'MARKETING', 'HEADLESS'];

export interface Template {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  type: TemplateType;
  updatedAt: string;
}

export interface TemplatePage {
  data: Template[];
  page: number;
  totalPages: number;
  total: number;
}

/** Every query about the project's templates starts with this key: a change invalidates them all. */
export const templatesKey = (projectId: string | undefined) => ['templates', projectId] as const;
