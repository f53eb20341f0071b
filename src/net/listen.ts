import type { AddressInfo, Server } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { environmentVariableOf, settingFailed } from '../config.js';

/** What a failed bind means for the operator, by the setting to change (`<listener>.host` or `.port`). */
function bindFailure(err: NodeJS.ErrnoException, listener: string, host: string, port: number): Error {
  switch (err.code) {
    case 'EADDRINUSE': {
      // a newcomer's first start meets this one: say what to change, not only what failed
      const key = `${listener}.port`;
      const fix = `stop it, or choose another port with ${environmentVariableOf(key)}=<port> (or "${key}" in the configuration file; 0 picks a free one)`;
      return settingFailed(key, `${host}:${port} is already in use by another program; ${fix}`);
    }
    case 'EACCES':
      return settingFailed(`${listener}.port`, `port ${port} needs root or the CAP_NET_BIND_SERVICE capability (the systemd unit grants it)`);
    case 'EADDRNOTAVAIL':
      return settingFailed(`${listener}.host`, `${host} is not an address of this machine`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return settingFailed(`${listener}.host`, `cannot resolve the host name ${host}`);
    default:
      return settingFailed(`${listener}.host`, `cannot listen on ${host}:${port} (${err.code ?? err.message})`);
  }
}

/** Binds `server`; a failure is a one-line error naming the setting of `listener` (http, smtp, submission). */
export function listenOn(server: Server, port: number, host: string, listener: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(bindFailure(err, listener, host, port));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Binds an smtp-server listener. It repeats its socket's errors as its own events: a failed bind
 * is reported once, by listenOn, and only later errors go to `onError`.
 */
export async function listenSmtp(server: SMTPServer, port: number, host: string, listener: string, onError: (err: Error) => void): Promise<AddressInfo> {
  const quiet = () => {};
  server.on('error', quiet);
  try {
    return await listenOn(server.server, port, host, listener);
  } finally {
    server.off('error', quiet);
    server.on('error', onError);
  }
}
