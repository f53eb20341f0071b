// A loopback SMTP sink in a process of its own (benchmarks: its CPU is neither the daemon's nor
// the load generator's). Sends {port} when listening; answers 'count' with messages received per
// recipient domain.
import { startSmtpSink } from '../helpers/smtp-sink.js';

const sink = await startSmtpSink();
const counted = new Map<string, number>();
let seen = 0;
process.on('message', (msg) => {
  if (msg !== 'count') return;
  // messages are counted, then dropped: a long benchmark does not keep them all
  for (const m of sink.messages.splice(0)) {
    const domain = m.rcptTo[0]!.slice(m.rcptTo[0]!.lastIndexOf('@') + 1);
    counted.set(domain, (counted.get(domain) ?? 0) + 1);
    seen++;
  }
  process.send?.({ total: seen, byDomain: Object.fromEntries(counted) });
});
process.on('disconnect', () => void sink.close().then(() => process.exit(0)));
process.send?.({ port: sink.port });
