import type { Dns } from '../dns/resolver.js';
import { checkHostname } from '../domains/hostname.js';
import { failed, passed, warned, type Check } from './check.js';

export const HOSTNAME_CHECK = 'hostname';

/**
 * `hostname` is a fully qualified name resolving to this machine. Resolving to another address is a
 * warning, not a failure: behind NAT the public address is on no interface of the machine.
 */
export async function checkHostnameName(dns: Dns, hostname: string): Promise<Check> {
  const found = await checkHostname(dns, hostname);
  if (found.problem === null || found.fix === null) return passed(HOSTNAME_CHECK, `${found.name} resolves to ${found.addresses.join(', ')}, an address of this machine`);
  return (found.verdict === 'elsewhere' ? warned : failed)(HOSTNAME_CHECK, found.problem, found.fix);
}
