import { mergeData, type ContactData } from '../contacts/data.js';

/**
 * What a tracked event carries: the data passed with it under the data rules (reserved keys
 * dropped, nulls and empty strings left out), one-off values included.
 */
export function eventData(input: ContactData | undefined): Record<string, unknown> {
  const { data, oneOff } = mergeData({}, input);
  return { ...data, ...oneOff };
}
