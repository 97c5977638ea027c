/** A minimal SMTP server on loopback that records the messages it receives (no TLS, no auth). */
export interface FakeSmtp {
  url: string;
  messages: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}

/** Starts the fake server on a free port. */
export function startFakeSmtp(): FakeSmtp {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const messages: FakeSmtp["messages"] = [];
  const conns = new Set<Deno.Conn>();
  const encoder = new TextEncoder();

  async function serve(conn: Deno.Conn) {
    conns.add(conn);
    const write = (line: string) => conn.write(encoder.encode(`${line}\r\n`));
    await write("220 fake.smtp ESMTP ready");
    const decoder = new TextDecoder();
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    const bytes = new Uint8Array(64 * 1024);
    try {
      while (true) {
        const n = await conn.read(bytes);
        if (n === null) break;
        buffer += decoder.decode(bytes.subarray(0, n));
        let index;
        while ((index = buffer.indexOf("\r\n")) >= 0) {
          const line = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          if (inData) {
            if (line === ".") {
              inData = false;
              messages.push(current);
              current = { from: "", to: [], data: "" };
              await write("250 2.0.0 queued");
            } else current.data += `${line.startsWith("..") ? line.slice(1) : line}\n`;
            continue;
          }
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === "EHLO" || verb === "HELO") await write("250 fake.smtp");
          else if (verb === "MAIL") {
            current.from = line.slice(10);
            await write("250 2.1.0 ok");
          } else if (verb === "RCPT") {
            current.to.push(line.slice(8));
            await write("250 2.1.5 ok");
          } else if (verb === "DATA") {
            inData = true;
            await write("354 go ahead");
          } else if (verb === "QUIT") {
            await write("221 bye");
            break;
          } else await write("250 ok");
        }
      }
    } catch { /* client went away */ }
    conns.delete(conn);
    try {
      conn.close();
    } catch { /* closed */ }
  }

  (async () => {
    try {
      for await (const conn of listener) serve(conn);
    } catch { /* listener closed */ }
  })();

  const { port } = listener.addr as Deno.NetAddr;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      return Promise.resolve();
    },
  };
}
