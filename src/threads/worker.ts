// The compose threads' entry: every op a compose thread answers, from the modules that own them.
import { loadSchemas } from '../http/validate.js';
import { composeHandlers, type ComposeOps } from '../messages/compose-ops.js';
import { sendParseHandlers, type SendParseOps } from '../send/parse.js';
import { serveOps } from './serve.js';

export type WorkerOps = ComposeOps & SendParseOps;

loadSchemas();
serveOps<WorkerOps>({ ...composeHandlers, ...sendParseHandlers });
