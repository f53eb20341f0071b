// The compose threads' entry: every op a compose thread answers, from the modules that own them.
import { loadSchemas } from '../http/validate.js';
import { composeHandlers, type ComposeOps } from '../compose/compose-ops.js';
import { sendParseHandlers, type SendParseOps } from '../send/parse.js';
import { submissionParseHandlers, type SubmissionParseOps } from '../submission/parse.js';
import { inboundInspectHandlers, type InboundInspectOps } from '../inbound/inspect.js';
import { serveOps } from '../threads/serve.js';
import { testHandlers, type TestOps } from './test-ops.js';

export type WorkerOps = ComposeOps & SendParseOps & SubmissionParseOps & InboundInspectOps & TestOps;

loadSchemas();
serveOps<WorkerOps>({ ...composeHandlers, ...sendParseHandlers, ...submissionParseHandlers, ...inboundInspectHandlers, ...testHandlers });
