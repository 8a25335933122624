// A private D-Bus session bus (a real dbus-daemon, started and stopped by the test) and a stand-in desktop notification
// service on it that owns org.freedesktop.Notifications and records every Notify call, speaking the wire protocol itself.

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { tempDir } from "./temp.js";
import { waitFor } from "./wait.js";

export interface SessionBus {
  address: string;
  /** DBUS_SESSION_BUS_ADDRESS for the processes under test. */
  env: Record<string, string>;
}

/** A dbus-daemon on a socket in a temp dir, killed when the test ends. */
export async function sessionBus(t: { after(fn: () => unknown): void }): Promise<SessionBus> {
  const dir = tempDir(t, "docket-dbus-");
  const socket = join(dir, "bus");
  const config = join(dir, "session.conf");
  writeFileSync(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${socket}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy></busconfig>\n`,
  );
  const daemon = spawn("dbus-daemon", ["--config-file", config, "--nofork", "--nopidfile", "--print-address"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  daemon.stdout.setEncoding("utf8").on("data", (s: string) => (printed += s));
  t.after(() => void daemon.kill("SIGTERM"));
  await waitFor("dbus-daemon to print its address", () => printed.includes("\n"), 10_000);
  const address = printed.trim().split("\n")[0]!;
  return { address, env: { DBUS_SESSION_BUS_ADDRESS: address } };
}

export interface NotifyCall {
  appName: string;
  summary: string;
  body: string;
  /** The id the service gave it. */
  id: number;
  /** Action keys and labels, in pairs as sent (`["default", "Open"]`). */
  actions: string[];
  /** Hints by name, each as [signature, value] (64-bit integers as numbers, so a call prints as JSON). */
  hints: Record<string, [string, unknown]>;
}

export interface NotificationService {
  calls: NotifyCall[];
  /** Acts as if the human clicked: ActionInvoked(id, action), then NotificationClosed(id, 2), to the caller of Notify. */
  invoke(id: number, action: string): void;
  stop(): void;
}

/** Owns org.freedesktop.Notifications on the bus and answers Notify (recording it), GetCapabilities and GetServerInformation. */
export async function notificationService(
  t: { after(fn: () => unknown): void },
  bus: SessionBus,
): Promise<NotificationService> {
  const path = /unix:path=([^,]+)/.exec(bus.address)?.[1];
  if (!path) throw new Error(`unexpected bus address ${bus.address}`);
  const sock = connect(path);
  const calls: NotifyCall[] = [];
  const callers = new Map<number, string>();
  const conn = new Connection(sock, (m) => {
    if (m.type !== 1 || m.fields[2] !== "org.freedesktop.Notifications") return;
    const reply = (signature: string, values: unknown[]) =>
      conn.send({ type: 2, fields: { 5: m.serial, 6: m.fields[7], 8: signature }, signature, values });
    if (m.fields[3] === "Notify") {
      const [appName, , , summary, body, actions, hints] = m.body as [
        string,
        number,
        string,
        string,
        string,
        string[],
        [string, [string, unknown]][],
      ];
      calls.push({
        appName,
        summary,
        body,
        id: calls.length + 1,
        actions,
        hints: Object.fromEntries(hints.map(([k, [sig, v]]) => [k, [sig, typeof v === "bigint" ? Number(v) : v]])),
      });
      callers.set(calls.length, m.fields[7] as string);
      reply("u", [calls.length]);
    } else if (m.fields[3] === "GetCapabilities") reply("as", [["body", "actions"]]);
    else if (m.fields[3] === "GetServerInformation") reply("ssss", ["docket-test", "docket", "1", "1.2"]);
    else
      conn.send({
        type: 3,
        fields: { 4: "org.freedesktop.DBus.Error.UnknownMethod", 5: m.serial, 6: m.fields[7], 8: "s" },
        signature: "s",
        values: ["unknown"],
      });
  });
  await conn.ready;
  await conn.call("Hello", "", []);
  const owned = await conn.call("RequestName", "su", ["org.freedesktop.Notifications", 4]);
  if (owned[0] !== 1)
    throw new Error(`could not own org.freedesktop.Notifications (RequestName answered ${String(owned[0])})`);
  const stop = () => sock.destroy();
  t.after(stop);
  const signal = (id: number, member: string, signature: string, values: unknown[]) =>
    conn.send({
      type: 4,
      fields: {
        1: ["o", "/org/freedesktop/Notifications"],
        2: "org.freedesktop.Notifications",
        3: member,
        6: callers.get(id) ?? "",
        8: signature,
      },
      signature,
      values,
    });
  const invoke = (id: number, action: string) => {
    signal(id, "ActionInvoked", "us", [id, action]);
    signal(id, "NotificationClosed", "uu", [id, 2]);
  };
  return { calls, invoke, stop };
}

interface Message {
  type: number;
  serial: number;
  fields: Record<number, unknown>;
  body: unknown[];
}

/** One D-Bus connection: EXTERNAL auth, then little-endian messages in and out. */
class Connection {
  ready: Promise<void>;
  private buffer = Buffer.alloc(0);
  private serial = 0;
  private authed = false;
  private waiting = new Map<number, (m: Message) => void>();

  constructor(
    private sock: Socket,
    private onCall: (m: Message) => void,
  ) {
    this.ready = new Promise((done, fail) => {
      sock.once("error", fail);
      sock.on("data", (chunk) => {
        this.buffer = Buffer.concat([this.buffer, chunk]);
        if (!this.authed) {
          const end = this.buffer.indexOf("\r\n");
          if (end === -1) return;
          const line = this.buffer.subarray(0, end).toString();
          this.buffer = this.buffer.subarray(end + 2);
          if (!line.startsWith("OK")) return fail(new Error(`D-Bus auth refused: ${line}`));
          this.authed = true;
          sock.write("BEGIN\r\n");
          done();
        }
        this.drain();
      });
      const uid = Buffer.from(String(process.getuid!())).toString("hex");
      sock.write(Buffer.concat([Buffer.from([0]), Buffer.from(`AUTH EXTERNAL ${uid}\r\n`)]));
    });
  }

  call(member: string, signature: string, values: unknown[]): Promise<unknown[]> {
    const serial = this.send({
      type: 1,
      fields: {
        1: ["o", "/org/freedesktop/DBus"],
        2: "org.freedesktop.DBus",
        3: member,
        6: "org.freedesktop.DBus",
        ...(signature ? { 8: signature } : {}),
      },
      signature,
      values,
    });
    return new Promise((done) => this.waiting.set(serial, (m) => done(m.body)));
  }

  send(m: { type: number; fields: Record<number, unknown>; signature: string; values: unknown[] }): number {
    const serial = ++this.serial;
    const body = new Writer();
    body.values(m.signature, m.values);
    const head = new Writer();
    head.raw([0x6c, m.type, 0, 1]);
    head.u32(body.length());
    head.u32(serial);
    const fields: [number, [string, unknown]][] = Object.entries(m.fields).map(([code, v]) => {
      const c = Number(code);
      if (Array.isArray(v)) return [c, v as [string, unknown]];
      return [c, [c === 5 ? "u" : c === 8 ? "g" : "s", v]];
    });
    head.value(
      "a(yv)",
      fields.map(([c, v]) => [c, v]),
    );
    head.pad(8);
    this.sock.write(Buffer.concat([head.bytes(), body.bytes()]));
    return serial;
  }

  private drain(): void {
    while (this.buffer.length >= 16) {
      const bodyLength = this.buffer.readUInt32LE(4);
      const fieldsLength = this.buffer.readUInt32LE(12);
      const headerEnd = 16 + fieldsLength + ((8 - ((16 + fieldsLength) % 8)) % 8);
      if (this.buffer.length < headerEnd + bodyLength) return;
      const bytes = this.buffer.subarray(0, headerEnd + bodyLength);
      this.buffer = this.buffer.subarray(headerEnd + bodyLength);
      const r = new Reader(bytes, 12);
      const fields: Record<number, unknown> = {};
      for (const [code, [, value]] of r.value("a(yv)") as [number, [string, unknown]][]) fields[code] = value;
      const signature = (fields[8] as string | undefined) ?? "";
      const body = signature ? new Reader(bytes, headerEnd).values(signature) : [];
      const m: Message = { type: bytes[1]!, serial: bytes.readUInt32LE(8), fields, body };
      if (m.type === 2 || m.type === 3) this.waiting.get(fields[5] as number)?.(m);
      else this.onCall(m);
    }
  }
}

/** Splits a signature into its complete types. */
function types(signature: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < signature.length) {
    const start = i;
    i = skipType(signature, i);
    out.push(signature.slice(start, i));
  }
  return out;
}

function skipType(s: string, i: number): number {
  const c = s[i]!;
  if (c === "a") return skipType(s, i + 1);
  if (c === "(" || c === "{") {
    const close = c === "(" ? ")" : "}";
    i++;
    while (s[i] !== close) i = skipType(s, i);
    return i + 1;
  }
  return i + 1;
}

const ALIGN: Record<string, number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  s: 4,
  o: 4,
  g: 1,
  a: 4,
  "(": 8,
  "{": 8,
  v: 1,
};

/** The fixed-size types past a byte: how many bytes each takes and how it reads (little-endian, as this bus speaks). */
const FIXED: Record<string, { size: number; read: (b: Buffer, at: number) => number | bigint }> = {
  b: { size: 4, read: (b, at) => b.readUInt32LE(at) },
  u: { size: 4, read: (b, at) => b.readUInt32LE(at) },
  i: { size: 4, read: (b, at) => b.readInt32LE(at) },
  n: { size: 2, read: (b, at) => b.readInt16LE(at) },
  q: { size: 2, read: (b, at) => b.readUInt16LE(at) },
  x: { size: 8, read: (b, at) => b.readBigInt64LE(at) },
  t: { size: 8, read: (b, at) => b.readBigUInt64LE(at) },
  d: { size: 8, read: (b, at) => b.readDoubleLE(at) },
};

class Reader {
  constructor(
    private buf: Buffer,
    private pos: number,
  ) {}

  values(signature: string): unknown[] {
    return types(signature).map((t) => this.value(t));
  }

  private align(n: number): void {
    this.pos += (n - (this.pos % n)) % n;
  }

  value(t: string): unknown {
    const c = t[0]!;
    this.align(ALIGN[c]!);
    const fixed = FIXED[c];
    if (fixed) {
      const v = fixed.read(this.buf, this.pos);
      this.pos += fixed.size;
      return v;
    }
    switch (c) {
      case "y":
        return this.buf[this.pos++];
      case "s":
      case "o": {
        const n = this.buf.readUInt32LE(this.pos);
        const v = this.buf.toString("utf8", this.pos + 4, this.pos + 4 + n);
        this.pos += 4 + n + 1;
        return v;
      }
      case "g": {
        const n = this.buf[this.pos]!;
        const v = this.buf.toString("utf8", this.pos + 1, this.pos + 1 + n);
        this.pos += 1 + n + 1;
        return v;
      }
      case "v": {
        const sig = this.value("g") as string;
        return [sig, this.value(sig)];
      }
      case "a": {
        const n = this.buf.readUInt32LE(this.pos);
        this.pos += 4;
        const element = t.slice(1);
        this.align(ALIGN[element[0]!]!);
        const end = this.pos + n;
        const out: unknown[] = [];
        while (this.pos < end) out.push(this.value(element));
        return out;
      }
      default: // struct or dict entry
        return types(t.slice(1, -1)).map((f) => this.value(f));
    }
  }
}

class Writer {
  private parts: number[] = [];

  length(): number {
    return this.parts.length;
  }

  bytes(): Buffer {
    return Buffer.from(this.parts);
  }

  raw(bytes: Iterable<number>): void {
    for (const b of bytes) this.parts.push(b);
  }

  pad(n: number): void {
    while (this.parts.length % n !== 0) this.parts.push(0);
  }

  u32(v: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.raw(b);
  }

  values(signature: string, values: unknown[]): void {
    types(signature).forEach((t, i) => this.value(t, values[i]));
  }

  value(t: string, v: unknown): void {
    const c = t[0]!;
    this.pad(ALIGN[c]!);
    if (c === "y") this.parts.push(v as number);
    else if (c === "u" || c === "b") this.u32(v as number);
    else if (c === "s" || c === "o") {
      const b = Buffer.from(v as string);
      this.u32(b.length);
      this.raw(b);
      this.parts.push(0);
    } else if (c === "g") {
      const b = Buffer.from(v as string);
      this.parts.push(b.length);
      this.raw(b);
      this.parts.push(0);
    } else if (c === "v") {
      const [sig, inner] = v as [string, unknown];
      this.value("g", sig);
      this.value(sig, inner);
    } else if (c === "a") {
      const at = this.parts.length;
      this.u32(0);
      const element = t.slice(1);
      this.pad(ALIGN[element[0]!]!);
      const start = this.parts.length;
      for (const e of v as unknown[]) this.value(element, e);
      const n = Buffer.alloc(4);
      n.writeUInt32LE(this.parts.length - start);
      this.parts.splice(at, 4, ...n);
    } else if (c === "(" || c === "{") {
      types(t.slice(1, -1)).forEach((f, i) => this.value(f, (v as unknown[])[i]));
    } else throw new Error(`the stand-in cannot write D-Bus type ${t}`);
  }
}
