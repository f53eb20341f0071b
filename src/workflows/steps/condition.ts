// CONDITION: one filter, decided for the contact in memory with the filter engine's semantics.
import { matchesContact } from '../../filters/engine.js';
import { singleFilter } from '../../segments/filters.js';
import type { StepHandler } from './step.js';

export const conditionStep: StepHandler = ({ core, execution, step, contact }) => {
  const filter = singleFilter(core, execution.projectId, step.config, 'config');
  const matched = matchesContact(core, filter, contact);
  return { kind: 'next', branch: matched ? 'yes' : 'no', output: { matched } };
};
