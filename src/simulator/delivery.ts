// The simulator's recipients (src/addresses/simulator.ts) in front of whatever delivers: their mail
// never reaches the network, in any delivery mode, and each plays its outcome through the paths real
// mail takes. A hard bounce and a complaint come back as reports through the inbound path.
import type { Core } from '../core.js';
import { isSimulatorAddress, simulatedOutcome, SIMULATOR_DOMAIN, type SimulatedOutcome } from '../addresses/simulator.js';
import { wasDeferred } from '../emails/log-store.js';
import { acceptInbound } from '../inbound/accept.js';
import { routeRecipient } from '../inbound/route.js';
import type { Delivery, DeliveryResult, OutboundMessage } from '../outbound/engine/deliver.js';
import { bounceReport, complaintReport, headerSection } from './reports.js';

/** How attempts name the simulator. */
export const SIMULATOR_HOST = 'simulator';

/** A report comes back this long after the 250, as late as a real one, after the delivery was written. */
export const REPORT_DELAY_MS = 1000;

const accepted = (reply: string): DeliveryResult => ({ status: 'delivered', response: `250 2.0.0 ${reply}`, host: SIMULATOR_HOST, tls: null });

/** Sends the report back to the email's return path, as a receiving system would; it lands with the project that sent the email. */
function reportBack(core: Core, message: OutboundMessage, make: typeof bounceReport): void {
  const route = routeRecipient(core.db, message.from);
  if (!route) {
    core.log.warn('simulator report not sent: its return path routes to no project', { emailId: message.emailId });
    return;
  }
  const raw = make({ returnPath: message.from, recipient: message.to, headers: headerSection(message.head ?? null, message.raw), at: new Date(core.clock.now()) });
  acceptInbound(core, { projectId: route.projectId, mailFrom: '', rcptTo: [message.from], remoteIp: '127.0.0.1', helo: SIMULATOR_DOMAIN, raw }, core.clock.now() + REPORT_DELAY_MS);
}

function play(core: Core, message: OutboundMessage, outcome: SimulatedOutcome | null): DeliveryResult {
  switch (outcome) {
    case 'delivered':
      return accepted('Simulated delivery');
    case 'delay':
      if (wasDeferred(core.db, message.emailId)) return accepted('Simulated delivery after a deferral');
      return { status: 'deferred', code: 451, response: '451 4.3.0 Simulated deferral: try again later', host: SIMULATOR_HOST, tls: null };
    case 'bounce':
      reportBack(core, message, bounceReport);
      return accepted('Simulated delivery; a hard bounce report follows');
    case 'complaint':
      reportBack(core, message, complaintReport);
      return accepted('Simulated delivery; a complaint report follows');
    case null:
      return {
        status: 'bounced',
        code: 550,
        enhancedCode: '5.1.1',
        response: '550 5.1.1 The simulator has no such address: use delivered@, bounce@, complaint@ or delay@',
        host: SIMULATOR_HOST,
        tls: null,
      };
  }
}

export function simulatorDelivery(core: Core, next: Delivery): Delivery {
  return {
    async deliver(message) {
      if (!isSimulatorAddress(message.to)) return next.deliver(message);
      if (message.stillWanted?.() === false) return { status: 'withdrawn', host: null };
      return play(core, message, simulatedOutcome(message.to));
    },
    close: () => next.close(),
  };
}
