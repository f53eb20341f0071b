import { ConfigError } from '../../config.js';

/** How much mail one mailbox provider takes from us: the same budget for every domain it hosts. */
export interface ProviderLimits {
  /** Deliveries in progress at once (each holds one SMTP session). */
  connections: number;
  /** Messages sent over one session before a fresh one is opened. */
  perConnection: number;
  /** Deliveries started per minute; 0 is no rate. */
  perMinute: number;
}

export interface ProviderRule extends ProviderLimits {
  name: string;
  /** MX host name suffixes that name the provider (`google.com` matches `aspmx.l.google.com`). */
  suffixes: string[];
}

/** A configured provider (`delivery.providers.<name>`): a built-in one's fields to change, or a new one with its suffixes. */
export type ProviderOverride = Partial<Omit<ProviderRule, 'name'>>;

/**
 * The large mailbox providers, by the MX hosts of the domains they host (Google Workspace and
 * Microsoft 365 customers' domains included). Their published guidance asks for few sessions and
 * a steady rate from a sender without history; these limits keep well inside it. Documented in
 * docs/operations.md (Shaping).
 */
export const BUILT_IN_PROVIDERS: Record<string, Omit<ProviderRule, 'name'>> = {
  google: { suffixes: ['google.com', 'googlemail.com'], connections: 20, perConnection: 50, perMinute: 3000 },
  yahoo: { suffixes: ['yahoodns.net'], connections: 10, perConnection: 20, perMinute: 1200 },
  microsoft: { suffixes: ['outlook.com', 'hotmail.com'], connections: 10, perConnection: 100, perMinute: 1200 },
  apple: { suffixes: ['icloud.com', 'me.com'], connections: 5, perConnection: 20, perMinute: 600 },
  gmx: { suffixes: ['gmx.net', 'web.de'], connections: 5, perConnection: 20, perMinute: 600 },
  mailru: { suffixes: ['mail.ru'], connections: 5, perConnection: 20, perMinute: 600 },
  yandex: { suffixes: ['yandex.ru', 'yandex.net'], connections: 5, perConnection: 20, perMinute: 600 },
};

const normalise = (host: string) => host.toLowerCase().replace(/\.$/, '');

/** The built-in rules with the configured ones over them (field by field); a configured name that is new needs its suffixes. */
export function providerRules(overrides: Record<string, ProviderOverride>): ProviderRule[] {
  const names = new Set([...Object.keys(BUILT_IN_PROVIDERS), ...Object.keys(overrides)]);
  return [...names].map((name) => {
    const rule = { ...BUILT_IN_PROVIDERS[name], ...overrides[name] };
    if (!rule.suffixes || rule.suffixes.length === 0) throw new ConfigError(`invalid configuration key "delivery.providers.${name}": a provider that is not built in needs its suffixes`);
    return {
      name,
      suffixes: rule.suffixes.map(normalise),
      connections: rule.connections ?? 10,
      perConnection: rule.perConnection ?? 20,
      perMinute: rule.perMinute ?? 0,
    };
  });
}

/** Whether `host` is `suffix` or a name under it (label by label: `notgoogle.com` is not under `google.com`). */
const under = (host: string, suffix: string) => host === suffix || host.endsWith(`.${suffix}`);

/**
 * The provider that runs a domain's mail, from its MX host names in preference order: the first
 * host any rule names decides, the longest matching suffix among the rules winning.
 */
export function providerOf(rules: readonly ProviderRule[], mxHosts: readonly string[]): ProviderRule | null {
  for (const raw of mxHosts) {
    const host = normalise(raw);
    let best: { rule: ProviderRule; length: number } | null = null;
    for (const rule of rules) {
      for (const suffix of rule.suffixes) {
        if (under(host, suffix) && (!best || suffix.length > best.length)) best = { rule, length: suffix.length };
      }
    }
    if (best) return best.rule;
  }
  return null;
}
