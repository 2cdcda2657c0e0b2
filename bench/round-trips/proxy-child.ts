// A PostgreSQL wire-protocol proxy in a process of its own, for the round-trips bench: it counts round
// trips (one per simple query `Q` and one per extended-protocol `Sync` `S` a client sends: a
// Parse/Bind/Execute/Sync batch is one trip) and can hold every chunk, in each direction, for a set time
// before passing it on, as a network hop to another machine would. Commands arrive on the IPC channel:
// {kind:'count'} answers {kind:'count', trips}, {kind:'delay', ms} sets the one-way delay (from the next
// chunk on; set it only while no query is in flight). Its port is the first IPC message.
//
// A delay below a millisecond cannot be a timer (Node rounds timers up to 1 ms): chunks wait in a queue
// and a check on every turn of the event loop (setImmediate) passes on those whose time has come. That
// spins this process's core while data is in flight, which is why the proxy is not in the bench process.
//
// {kind:'trace', on} turns tracing on or off; turning it off answers {kind:'trace', lines}: each statement
// that passed meanwhile (a simple query's text, an extended batch's Parse texts, `--` at each Sync), to see
// what an operation's trips are.
import { createConnection, createServer, type Socket } from 'node:net';

const UPSTREAM_PORT = Number(process.env.PROXY_UPSTREAM_PORT);
const UPSTREAM_HOST = process.env.PROXY_UPSTREAM_HOST ?? '127.0.0.1';
let tracing = false;
let traced: string[] = [];
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

let trips = 0;
let delayNs = 0n;

interface Pending {
  due: bigint;
  to: Socket;
  chunk: Buffer;
}
const queue: Pending[] = [];
let draining = false;

function drain(): void {
  const now = process.hrtime.bigint();
  while (queue.length > 0 && (queue[0] as Pending).due <= now) {
    const next = queue.shift() as Pending;
    if (!next.to.destroyed) next.to.write(next.chunk);
  }
  if (queue.length > 0) setImmediate(drain);
  else draining = false;
}

function pass(to: Socket, chunk: Buffer): void {
  if (delayNs === 0n && queue.length === 0) {
    to.write(chunk);
    return;
  }
  queue.push({ due: process.hrtime.bigint() + delayNs, to, chunk });
  if (!draining) {
    draining = true;
    setImmediate(drain);
  }
}

/** Reads the client's side of the protocol as it streams by, counting the messages that end a trip. */
function counter(): (chunk: Buffer) => void {
  let buffered: Buffer = Buffer.alloc(0);
  let startup = true;
  return (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    for (;;) {
      if (startup) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (buffered.length < length) return;
        const code = buffered.readInt32BE(4);
        if (code !== SSL_REQUEST && code !== GSS_REQUEST) startup = false;
        buffered = buffered.subarray(length);
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1) + 1;
      if (buffered.length < length) return;
      const type = buffered[0];
      if (type === 0x51 || type === 0x53) trips++;
      if (tracing) trace(type, buffered.subarray(5, length));
      buffered = buffered.subarray(length);
    }
  };
}

/** A simple query's text (Q), a Parse's statement (P), a Sync's end of trip (S). */
function trace(type: number | undefined, body: Buffer): void {
  const text = (offset: number) => body.subarray(offset, body.indexOf(0, offset)).toString('utf8');
  if (type === 0x51) traced.push(`Q ${text(0)}`, '--');
  if (type === 0x50) traced.push(`P ${text(body.indexOf(0) + 1)}`);
  if (type === 0x53) traced.push('--');
}

// No Nagle on either side, as PostgreSQL and its driver have none: a reply the proxy passes on in two
// writes would otherwise wait for the driver's delayed ACK (~40 ms) before its second part left.
const server = createServer({ noDelay: true }, (client) => {
  const upstream = createConnection({ host: UPSTREAM_HOST, port: UPSTREAM_PORT, noDelay: true });
  const count = counter();
  client.on('data', (chunk) => {
    count(chunk);
    pass(upstream, chunk);
  });
  upstream.on('data', (chunk) => pass(client, chunk));
  const close = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
});

process.on('message', (message: { kind: string; ms?: number; on?: boolean }) => {
  if (message.kind === 'count') process.send?.({ kind: 'count', trips });
  if (message.kind === 'trace') {
    tracing = message.on === true;
    process.send?.({ kind: 'trace', lines: traced });
    traced = [];
  }
  if (message.kind === 'delay') {
    delayNs = BigInt(Math.round((message.ms ?? 0) * 1_000_000));
    process.send?.({ kind: 'delay', ms: message.ms });
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.send?.({ kind: 'port', port: address.port });
});
