import type { ComposeOps } from '../compose/compose-ops.js';
import { sendTestMessage } from '../compose/test-send.js';
import type { Core } from '../core.js';
import { getTemplate } from '../templates/service.js';
import type { Pools } from '../threads/pool.js';
import { resolveContent } from './content.js';

/** One test message of the saved template to `email` (see sendTestMessage): the content a `/v1/send` of it would have. */
export async function testTemplate(core: Core, threads: Pools<ComposeOps>, projectId: string, id: string, email: string): Promise<{ emailId: string; to: string }> {
  const template = getTemplate(core, projectId, id);
  return sendTestMessage(core, threads, resolveContent(core, projectId, { to: email, template: template.id }, []), email);
}
