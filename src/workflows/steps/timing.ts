// DELAY and WAIT_FOR_EVENT: the execution waits; a durable job (the timer) or the awaited event resumes it.
import { DELAY_UNITS, MAX_DELAY_MS } from '../step-types.js';
import type { StepHandler } from './step.js';

export const delayStep: StepHandler = ({ core, step }) => {
  const { amount, unit } = step.config as { amount: number; unit: keyof typeof DELAY_UNITS };
  const until = core.clock.now() + Math.min(amount * DELAY_UNITS[unit], MAX_DELAY_MS);
  return { kind: 'wait', until, output: { until: new Date(until).toISOString() } };
};

export const waitForEventStep: StepHandler = ({ core, step }) => {
  const { eventName, timeout } = step.config as { eventName: string; timeout?: number | null };
  const until = timeout ? core.clock.now() + timeout * 1000 : null;
  return { kind: 'wait', until, eventName, output: { eventName, ...(until ? { timeoutAt: new Date(until).toISOString() } : {}) } };
};
