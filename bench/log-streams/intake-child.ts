// The SIEM intakes of the log-streams bench in a process of their own, as a real intake is never in
// Tessera's process: the Splunk HEC-shaped receiver of the tests (it checks the token and parses every
// event), on the certificate the parent made (INTAKE_TLS_KEY / INTAKE_TLS_CERT, files). Commands arrive
// on the IPC channel: {kind:'token', token} accepts a HEC token; {kind:'until', token, n} answers
// {kind:'reached', token} once that token's events number at least n. Its port is the first message.
import { readFileSync } from 'node:fs';
import { SiemReceivers } from '../../packages/server/test/log-streams/support/siem-receivers.js';

const send = (message: object) => process.send?.(message);
const tls = {
  key: readFileSync(process.env.INTAKE_TLS_KEY as string, 'utf8'),
  cert: readFileSync(process.env.INTAKE_TLS_CERT as string, 'utf8'),
  certPath: process.env.INTAKE_TLS_CERT as string,
};
const siem = await SiemReceivers.start(tls);

process.on('message', (m: { kind: string; token: string; n?: number }) => {
  if (m.kind === 'token') {
    siem.splunkTokens.add(m.token);
    send({ kind: 'token' });
  } else if (m.kind === 'until') {
    const n = m.n as number;
    void siem
      .until(() => siem.countVia(m.token) >= n, 300_000, 'the batches')
      .then(
        () => {
          // Only this round's entries are kept: the next round starts from none.
          siem.got.length = 0;
          send({ kind: 'reached', token: m.token });
        },
        (error: Error) => send({ kind: 'failed', message: error.message }),
      );
  }
});
process.on('SIGTERM', () => {
  void siem.close().finally(() => process.exit(0));
});
send({ kind: 'port', port: siem.port });
