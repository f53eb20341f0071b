// The simulator's recipients, as hosted platforms have test addresses: each plays one outcome, in
// every delivery mode, and never reaches the network (the domain is under .invalid, RFC 2606).
// A `+label` is allowed (`bounce+signup@...`), so one address serves many tests.

export const SIMULATOR_DOMAIN = 'simulator.postmill.invalid';

/** delivered: accepted; bounce: accepted, then a DSN comes back; complaint: accepted, then an ARF report; delay: deferred once, then delivered. */
export const SIMULATED_OUTCOMES = ['delivered', 'bounce', 'complaint', 'delay'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

export const isSimulatorAddress = (address: string): boolean => address.toLowerCase().endsWith(`@${SIMULATOR_DOMAIN}`);

/** The outcome an address of the simulator plays; null for another domain or a local part the simulator does not know. */
export function simulatedOutcome(address: string): SimulatedOutcome | null {
  if (!isSimulatorAddress(address)) return null;
  const local = address.slice(0, address.lastIndexOf('@')).toLowerCase().split('+')[0]!;
  return (SIMULATED_OUTCOMES as readonly string[]).includes(local) ? (local as SimulatedOutcome) : null;
}
