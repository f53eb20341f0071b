// The compose threads' entry: every op a compose thread answers, from the modules that own them.
import { loadSchemas } from '../http/validate.js';
import { composeHandlers, type ComposeOps } from '../compose/compose-ops.js';
import { sendParseHandlers, type SendParseOps } from '../send/parse.js';
import { submissionParseHandlers, type SubmissionParseOps } from '../submission/parse.js';
import { serveOps } from '../threads/serve.js';
import { testHandlers, type TestOps } from './test-ops.js';

export type WorkerOps = ComposeOps & SendParseOps & SubmissionParseOps & TestOps;

loadSchemas();
serveOps<WorkerOps>({ ...composeHandlers, ...sendParseHandlers, ...submissionParseHandlers, ...testHandlers });
