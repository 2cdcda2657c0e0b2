import dgram from 'node:dgram';
import net from 'node:net';

/**
 * A DNS server of the test's own on 127.0.0.1 (UDP and TCP on one free port), answering TXT
 * queries from `records` (names in lower case): NXDOMAIN for a name it has no record of, an empty
 * answer for a query of another type. `silent` makes it read queries and never answer (a server
 * that is down but does not refuse). An answer too long for UDP's 512 bytes is truncated (TC) so
 * the resolver asks again over TCP, as real servers make it; TCP answers stop at 64 KiB.
 * Tessera is pointed at it with TESSERA_DNS_SERVERS=127.0.0.1:<port>: no query leaves the machine.
 */
export class TxtDnsServer {
  readonly records = new Map<string, string[]>();
  silent = false;
  /** The names asked, in order (lower case). */
  readonly asked: string[] = [];
  #udp: dgram.Socket | null = null;
  #tcp: net.Server | null = null;
  port = 0;

  async start(): Promise<this> {
    // One port for both: the TCP server takes a free one, the UDP socket binds the same number.
    for (let attempt = 0; attempt < 20; attempt++) {
      const tcp = net.createServer((socket) => this.#serveTcp(socket));
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(0, '127.0.0.1', () => resolve());
      });
      const port = (tcp.address() as net.AddressInfo).port;
      const udp = dgram.createSocket('udp4');
      const bound = await new Promise<boolean>((resolve) => {
        udp.once('error', () => resolve(false));
        udp.bind(port, '127.0.0.1', () => resolve(true));
      });
      if (!bound) {
        udp.close();
        await new Promise<void>((r) => tcp.close(() => r()));
        continue;
      }
      udp.on('message', (message, from) => {
        const answer = this.#answer(message, 512);
        if (answer) udp.send(answer, from.port, from.address);
      });
      this.#udp = udp;
      this.#tcp = tcp;
      this.port = port;
      return this;
    }
    throw new Error('no free port for the test DNS server');
  }

  /** `127.0.0.1:<port>`, for TESSERA_DNS_SERVERS. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.#udp?.close();
    await new Promise<void>((r) => (this.#tcp ? this.#tcp.close(() => r()) : r()));
  }

  #serveTcp(socket: net.Socket): void {
    let buffer = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 2) {
        const length = buffer.readUInt16BE(0);
        if (buffer.length < 2 + length) return;
        const message = buffer.subarray(2, 2 + length);
        buffer = buffer.subarray(2 + length);
        const answer = this.#answer(message, 65_535);
        if (answer) {
          const framed = Buffer.alloc(2 + answer.length);
          framed.writeUInt16BE(answer.length, 0);
          answer.copy(framed, 2);
          socket.write(framed);
        }
      }
    });
  }

  #answer(query: Buffer, limit: number): Buffer | null {
    if (query.length < 12) return null;
    const id = query.readUInt16BE(0);
    const flags = query.readUInt16BE(2);
    // The question: labels up to a zero byte, then type and class.
    let offset = 12;
    const labels: string[] = [];
    while (offset < query.length && query[offset] !== 0) {
      const length = query[offset] as number;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('latin1'));
      offset += 1 + length;
    }
    const questionEnd = offset + 5;
    if (questionEnd > query.length) return null;
    const type = query.readUInt16BE(offset + 1);
    const name = labels.join('.').toLowerCase();
    this.asked.push(name);
    if (this.silent) return null;
    const question = query.subarray(12, questionEnd);
    const values = this.records.get(name);
    const rcode = values === undefined ? 3 : 0;
    const answers: Buffer[] = [];
    let size = 12 + question.length;
    let truncated = false;
    for (const value of type === 16 ? (values ?? []) : []) {
      const bytes = Buffer.from(value, 'utf8');
      const strings: Buffer[] = [];
      for (let i = 0; i < bytes.length || i === 0; i += 255) {
        const part = bytes.subarray(i, i + 255);
        strings.push(Buffer.concat([Buffer.from([part.length]), part]));
        if (bytes.length === 0) break;
      }
      const rdata = Buffer.concat(strings);
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0);
      record.writeUInt16BE(16, 2);
      record.writeUInt16BE(1, 4);
      record.writeUInt32BE(60, 6);
      record.writeUInt16BE(rdata.length, 10);
      if (size + record.length + rdata.length > limit) {
        truncated = true;
        break;
      }
      size += record.length + rdata.length;
      answers.push(record, rdata);
    }
    const header = Buffer.alloc(12);
    header.writeUInt16BE(id, 0);
    // QR, the query's opcode and RD, AA, RA, TC when cut, the rcode.
    header.writeUInt16BE(0x8000 | (flags & 0x7900) | 0x0400 | 0x0080 | (truncated ? 0x0200 : 0) | rcode, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length / 2, 6);
    return Buffer.concat([header, question, ...answers]);
  }
}
