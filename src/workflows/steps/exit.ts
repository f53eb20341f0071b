import type { StepHandler } from './step.js';

/** EXIT: the execution ends here, EXITED, with its reason. */
export const exitStep: StepHandler = ({ step }) => ({ kind: 'exit', output: { reason: (step.config as { reason?: string }).reason ?? null } });
