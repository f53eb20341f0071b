export const STEP_TYPES = ['TRIGGER', 'SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT'] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** Step types a caller adds; the TRIGGER step comes with the workflow. */
export type AddableStepType = Exclude<StepType, 'TRIGGER'>;

/** The branches a step's outgoing transitions may name; a step without any has one plain transition at most. */
export const BRANCHES: Partial<Record<StepType, readonly string[]>> = {
  CONDITION: ['yes', 'no'],
  WAIT_FOR_EVENT: ['event', 'timeout'],
};

/** Branches that must each have a transition before the workflow can be enabled. */
export const REQUIRED_BRANCHES: Partial<Record<StepType, readonly string[]>> = {
  CONDITION: ['yes', 'no'],
};

/** DELAY units in milliseconds. */
export const DELAY_UNITS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;
export const MAX_DELAY_MS = 365 * DELAY_UNITS.days;
