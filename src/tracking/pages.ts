import { escapeHtml } from '../render/render.js';

/** `ann@example.com` -> `a**@example.com`: enough for people to recognise their address, nothing for a stranger. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  return `${local[0]}${'*'.repeat(Math.min(Math.max(local.length - 1, 2), 8))}${email.slice(at)}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f6f4;margin:0;padding:2rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #ddd;border-radius:8px;padding:2rem}
h1{font-size:1.4rem;margin-top:0}
button{font:inherit;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #1a1a1a;background:#1a1a1a;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1a1a1a}
button:focus-visible,a:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
a{color:#1d4ed8}
</style>
</head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>`;
}

const form = (action: string, label: string, cls = '', hidden = '') =>
  `<form method="post" action="${escapeHtml(action)}">${hidden}<button type="submit"${cls ? ` class="${cls}"` : ''}>${escapeHtml(label)}</button></form>`;

/** The pages name who sends and to whom: what a recipient must see to know what they leave (or join again). */
const strong = (text: string) => `<strong>${escapeHtml(text)}</strong>`;

export const confirmUnsubscribePage = (email: string, sender: string, action: string) =>
  page(`Unsubscribe from ${sender}`, `<p>Stop sending email from ${strong(sender)} to ${strong(maskEmail(email))}?</p>\n${form(action, 'Unsubscribe')}`);

export const unsubscribedPage = (email: string, sender: string, resubscribeUrl: string) =>
  page(
    'You are unsubscribed',
    `<p>${strong(maskEmail(email))} will no longer receive emails from ${strong(sender)}.</p>\n<p>Changed your mind? <a href="${escapeHtml(resubscribeUrl)}">Subscribe again</a>.</p>`,
  );

export const confirmSubscribePage = (email: string, sender: string, action: string) =>
  page(`Subscribe again to ${sender}`, `<p>Start sending email from ${strong(sender)} to ${strong(maskEmail(email))} again?</p>\n${form(action, 'Subscribe')}`);

export const subscribedPage = (email: string, sender: string) =>
  page('You are subscribed', `<p>${strong(maskEmail(email))} will receive emails from ${strong(sender)} again.</p>`);

export function managePage(email: string, sender: string, subscribed: boolean, action: string, saved: boolean): string {
  const state = subscribed ? 'subscribed' : 'unsubscribed';
  const toggle = subscribed
    ? form(action, 'Unsubscribe', 'secondary', '<input type="hidden" name="subscribed" value="false">')
    : form(action, 'Subscribe', '', '<input type="hidden" name="subscribed" value="true">');
  return page(
    `Email preferences for ${sender}`,
    `${saved ? '<p role="status">Your preferences are saved.</p>\n' : ''}<p>${strong(maskEmail(email))} is currently <strong>${state}</strong> to emails from ${strong(sender)}.</p>\n${toggle}`,
  );
}

export const invalidLinkPage = () =>
  page('This link is not valid', '<p>The link is incomplete or has been changed. Please use the link from the email you received.</p>');

export const tooManyRequestsPage = (retryAfterSeconds: number) =>
  page('Too many requests', `<p>Please try again in ${retryAfterSeconds} seconds.</p>`);
