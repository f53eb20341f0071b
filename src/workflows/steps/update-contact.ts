// UPDATE_CONTACT: the API's data rules (null deletes, empty strings skipped), subscription actions emit their events.
import { mergeData, type ContactData } from '../../contacts/data.js';
import { itemFailure } from '../../contacts/jobs/service.js';
import { patchContact } from '../../contacts/service.js';
import type { StepHandler } from './step.js';

interface UpdateContactConfig {
  updates?: ContactData;
  subscriptionAction?: 'none' | 'subscribe' | 'unsubscribe';
}

export const updateContactStep: StepHandler = ({ core, execution, step, contact }) => {
  const { updates, subscriptionAction = 'none' } = step.config as UpdateContactConfig;
  const subscribed = subscriptionAction === 'none' ? undefined : subscriptionAction === 'subscribe';
  try {
    // the contact rules' limits (a contact full of keys) fail the step with their reason, not a retry
    mergeData(contact.data, updates);
  } catch (err) {
    return { kind: 'fail', error: `The contact cannot take these updates: ${itemFailure(err)}` };
  }
  return {
    kind: 'next',
    output: { updated: Object.keys(updates ?? {}), subscriptionAction },
    effect: () => void patchContact(core, execution.projectId, contact.id, { ...(updates ? { data: updates } : {}), ...(subscribed === undefined ? {} : { subscribed }) }),
  };
};
