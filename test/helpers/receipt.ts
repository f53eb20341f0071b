import { composeMessage, type ComposedMessage } from '../../src/compose/mime.js';

/** A receipt from a shop to one customer, HTML only: the plain message unit tests compose. */
export const composeReceipt = (html: string, subject = 'Your receipt'): ComposedMessage =>
  composeMessage({
    emailId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    hostname: 'mta.postmill.test',
    date: new Date(0),
    from: { email: 'orders@shop.test', name: 'Shop' },
    to: { email: 'ann@customers.test', name: null },
    replyTo: null,
    subject,
    html,
    attachments: [],
    headers: {},
    unsubscribe: null,
  });
