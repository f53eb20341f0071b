"""Verifies each DKIM-Signature of the messages on stdin (a JSON list of base64 messages: one
interpreter start for several) with dkimpy (Debian's python3-dkim: an
implementation apart from Postmill's signer and from mailauth; it supports RFC 8463), reading the
keys from the DNS server named as host:port, at the time given in seconds since the epoch (the
daemon's clock, which tests move forward). Prints a JSON list per message: selector, algorithm, pass."""
import base64
import json
import sys
import time

import dkim
import dkim.util
import dns.resolver

host, port = sys.argv[1].rsplit(':', 1)
now = float(sys.argv[2])
# dkimpy refuses a signature whose t= is ahead of its clock: it judges the message at the daemon's time
time.time = lambda: now
resolver = dns.resolver.Resolver(configure=False)
resolver.nameservers = [host]
resolver.port = int(port)


def txt(name, timeout=5):
    """The TXT record at name, as dkimpy's own lookup answers it (None when there is none)."""
    name = name.decode() if isinstance(name, bytes) else name
    try:
        answer = resolver.resolve(name, 'TXT', lifetime=timeout)
    except (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer):
        return None
    return b''.join(answer[0].strings)


def verified(message):
    """Each signature of one message, top first."""
    verifier = dkim.DKIM(message)
    signatures = [value for name, value in verifier.headers if name.lower() == b'dkim-signature']
    results = []
    for index, value in enumerate(signatures):
        tags = dkim.util.parse_tag_value(value)
        results.append({
            'selector': tags[b's'].decode(),
            'algorithm': tags[b'a'].decode(),
            'pass': bool(verifier.verify(idx=index, dnsfunc=txt)),
        })
    return results


print(json.dumps([verified(base64.b64decode(m)) for m in json.load(sys.stdin)]))
