// What is known about a mail domain without asking DNS: disposable, free-mail, forwarding.
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
// JSON imports (not a require at run time) so the single executable's bundle carries the lists.
import allProviders from 'email-providers/all.json' with { type: 'json' };
import commonProviders from 'email-providers/common.json' with { type: 'json' };

/** Disposable-address services: the community list (disposable-email-domains), kept by its package. */
const DISPOSABLE = disposableEmailBlocklistSet();

/** Free-mail providers (the email-providers package, goware's list); disposable ones are not counted as personal. */
const FREE_MAIL = new Set((allProviders as string[]).filter((d) => !DISPOSABLE.has(d)));
/** The popular ones (Majestic rank under 100,000): real names, unlike some typo domains the full list holds. */
const POPULAR_MAIL = new Set(commonProviders as string[]);

/**
 * Forwarding (alias) services: the address hides a mailbox elsewhere. No maintained package lists
 * these, and they are few: Apple Hide My Email, Firefox Relay, DuckDuckGo, SimpleLogin, addy.io,
 * Proton Pass, 33mail.
 */
const FORWARDING = new Set([
  'privaterelay.appleid.com',
  'mozmail.com',
  'relay.firefox.com',
  'duck.com',
  'simplelogin.com',
  'simplelogin.co',
  'simplelogin.fr',
  'slmail.me',
  'aleeas.com',
  '8alias.com',
  '8shield.net',
  'dralias.com',
  'silomails.com',
  'anonaddy.com',
  'anonaddy.me',
  'addymail.com',
  'passmail.net',
  'passmail.com',
  'passinbox.com',
  '33mail.com',
]);

/** The domain or one of its parents is in the list (`x.anonaddy.com` is anonaddy.com's). */
function inList(list: Set<string>, domain: string): boolean {
  for (let name = domain; ; ) {
    if (list.has(name)) return true;
    const dot = name.indexOf('.');
    if (dot < 0) return false;
    name = name.slice(dot + 1);
  }
}

export const isDisposableDomain = (domain: string) => inList(DISPOSABLE, domain);
export const isFreeMailDomain = (domain: string) => FREE_MAIL.has(domain);
export const isForwardingDomain = (domain: string) => inList(FORWARDING, domain);
/** A popular provider's domain, never reported as a typo of another (mail.com is not a typo of gmail.com). */
export const isKnownDomain = (domain: string) => POPULAR_MAIL.has(domain) || FORWARDING.has(domain);
