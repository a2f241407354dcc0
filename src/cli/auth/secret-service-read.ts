/**
 * Reads one secret from the Secret Service (GNOME Keyring, KWallet) on Linux,
 * in this process, over the session D-Bus: connect, authenticate as this user,
 * open a session, find the item the keychain module wrote (attributes `service`
 * and `username`), and get its secret. Two round trips and no native code,
 * where the keychain module costs a second Node (keychain-store.ts explains
 * why it cannot run in this one): the difference is most of a command's
 * start-up (docs/architecture.md, "Start-up notes").
 *
 * Nothing here can block: it is sockets and timers, so the deadline is a plain
 * timer and a hung bus is just a socket that never answers. Whatever this does
 * not answer for certain (no bus address it understands, a refused
 * connection, an error reply, a locked item whose unlocking may need a prompt,
 * more than one match) is handed to the keychain module, which answers it as
 * before, messages included.
 *
 * The session uses the "plain" algorithm: the secret comes over the user's own
 * session bus socket unencrypted, as libsecret and the keychain module allow;
 * only this user (and root) can connect to that bus (docs/security.md).
 */
import { connect, type Socket } from 'node:net';
import { DirectReadTimeout, type DirectAnswer } from './keychain-read.js';
import { decodeMessage, encodeCall, messageLength, MessageType, type Message, type MethodCall } from './dbus-wire.js';

type Env = Record<string, string | undefined>;

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const SERVICE_IFACE = 'org.freedesktop.Secret.Service';

/**
 * The socket of the session bus named by DBUS_SESSION_BUS_ADDRESS (`unix:path=…`
 * or `unix:abstract=…`; the first such of a `;` list), or undefined for anything
 * else, including no address at all: libdbus then looks in more places, so the
 * keychain module answers.
 */
export function sessionBusSocket(env: Env): string | undefined {
  for (const address of (env.DBUS_SESSION_BUS_ADDRESS ?? '').split(';')) {
    const colon = address.indexOf(':');
    if (address.slice(0, colon) !== 'unix') continue;
    const keys = new Map<string, string>();
    for (const pair of address.slice(colon + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq > 0) keys.set(pair.slice(0, eq), unescapeValue(pair.slice(eq + 1)));
    }
    const path = keys.get('path');
    if (path) return path;
    const abstract = keys.get('abstract');
    if (abstract) return `\0${abstract}`;
  }
  return undefined;
}

function unescapeValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The secret of service/account, read within `timeoutMs` (then DirectReadTimeout), or
 * `handOver` when the keychain module should answer instead.
 */
export async function readSecretServiceDirect(env: Env, service: string, account: string, timeoutMs: number): Promise<DirectAnswer> {
  const path = sessionBusSocket(env);
  if (path === undefined) return { handOver: 'no unix: session bus address' };
  const uid = process.getuid?.();
  if (uid === undefined) return { handOver: 'no user id' };
  const bus = new BusConnection(path, uid);
  const timer = setTimeout(() => bus.fail(new DirectReadTimeout()), timeoutMs);
  try {
    return await lookUp(bus, service, account);
  } catch (err) {
    if (err instanceof DirectReadTimeout) throw err;
    return { handOver: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
    bus.close();
  }
}

async function lookUp(bus: BusConnection, service: string, account: string): Promise<DirectAnswer> {
  await bus.authenticate();
  // Sent together, in one write: the bus answers in order, and none needs another's answer.
  const [, opened, found] = await bus.together(() => [
    bus.call({ destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member: 'Hello' }),
    bus.call({ destination: SECRETS, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'OpenSession', args: [{ type: 's', value: 'plain' }, { type: 'v', value: { type: 's', value: '' } }] }),
    bus.call({ destination: SECRETS, path: SERVICE_PATH, interface: SERVICE_IFACE, member: 'SearchItems', args: [{ type: 'a{ss}', value: { service, username: account } }] }),
  ]);
  const session = opened?.[1];
  const [unlocked, locked] = (found ?? []) as [unknown, unknown];
  if (typeof session !== 'string' || !isStringList(unlocked) || !isStringList(locked)) return { handOver: 'an unexpected answer from the Secret Service' };
  const item = chooseItem(unlocked, locked);
  if (typeof item !== 'string') return item;
  const [secret] = await bus.call({ destination: SECRETS, path: item, interface: 'org.freedesktop.Secret.Item', member: 'GetSecret', args: [{ type: 'o', value: session }] });
  const value = Array.isArray(secret) ? secret[2] : undefined;
  if (!Buffer.isBuffer(value)) return { handOver: 'an unexpected secret from the Secret Service' };
  try {
    return { secret: new TextDecoder('utf-8', { fatal: true }).decode(value) };
  } catch {
    return { handOver: 'the secret is not UTF-8 text' };
  }
}

/**
 * What SearchItems found decides: nothing is "no such entry"; one unlocked item is the one
 * to read. A locked item (unlocking may need a prompt) and several items (the module calls
 * that ambiguous) are the module's to answer.
 */
export function chooseItem(unlocked: string[], locked: string[]): string | DirectAnswer {
  if (unlocked.length === 0 && locked.length === 0) return { secret: null };
  if (locked.length > 0) return { handOver: 'the item is locked' };
  if (unlocked.length > 1) return { handOver: 'more than one item matches' };
  return unlocked[0]!;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** One connection to the bus: authentication, then method calls matched to their replies. */
class BusConnection {
  private readonly socket: Socket;
  private received: Buffer = Buffer.alloc(0);
  private authenticated = false;
  private serial = 0;
  private readonly pending = new Map<number, { resolve: (body: unknown[]) => void; reject: (err: Error) => void }>();
  private onAuthLine?: (line: string) => void;
  private failure?: Error;
  private readonly failed: Promise<never>;
  private rejectFailed!: (err: Error) => void;

  constructor(path: string, private readonly uid: number) {
    this.failed = new Promise<never>((_, reject) => (this.rejectFailed = reject));
    this.failed.catch(() => undefined);
    this.socket = connect({ path });
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (err) => this.fail(new Error(`the session bus: ${err.message}`)));
    this.socket.on('close', () => this.fail(new Error('the session bus closed the connection')));
  }

  fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    this.rejectFailed(err);
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
    this.socket.destroy();
  }

  close(): void {
    this.failure ??= new Error('closed');
    this.socket.destroy();
  }

  /** SASL EXTERNAL: the bus checks the socket's peer credentials against this uid. */
  async authenticate(): Promise<void> {
    const line = new Promise<string>((resolve) => (this.onAuthLine = resolve));
    this.socket.write(`\0AUTH EXTERNAL ${Buffer.from(String(this.uid)).toString('hex')}\r\n`);
    const answer = await Promise.race([line, this.failed]);
    if (!answer.startsWith('OK ')) throw new Error(`the session bus refused to authenticate (${answer.split(' ')[0]})`);
    this.authenticated = true;
  }

  /** BEGIN (the end of authentication) and the calls `send` makes, as one write; their replies. */
  together(send: () => Promise<unknown[]>[]): Promise<unknown[][]> {
    this.socket.cork();
    this.socket.write('BEGIN\r\n');
    const replies = send();
    this.socket.uncork();
    return Promise.all(replies);
  }

  call(call: Omit<MethodCall, 'serial'>): Promise<unknown[]> {
    if (this.failure) return Promise.reject(this.failure);
    const serial = ++this.serial;
    const reply = new Promise<unknown[]>((resolve, reject) => this.pending.set(serial, { resolve, reject }));
    this.socket.write(encodeCall({ ...call, serial }));
    return reply;
  }

  private receive(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    try {
      if (!this.authenticated) {
        const end = this.received.indexOf('\r\n');
        if (end < 0) return;
        const line = this.received.toString('latin1', 0, end);
        this.received = this.received.subarray(end + 2);
        this.onAuthLine?.(line);
        return;
      }
      for (;;) {
        const length = messageLength(this.received);
        if (length === undefined || this.received.length < length) return;
        const message = decodeMessage(this.received.subarray(0, length));
        this.received = this.received.subarray(length);
        this.settle(message);
      }
    } catch (err) {
      this.fail(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private settle(message: Message): void {
    if (message.type !== MessageType.MethodReturn && message.type !== MessageType.Error) return; // signals (NameAcquired)
    const waiting = message.replySerial === undefined ? undefined : this.pending.get(message.replySerial);
    if (!waiting) return;
    this.pending.delete(message.replySerial!);
    if (message.type === MessageType.MethodReturn) waiting.resolve(message.body);
    else waiting.reject(new Error(`${message.errorName ?? 'D-Bus error'}: ${String(message.body[0] ?? '')}`));
  }
}
