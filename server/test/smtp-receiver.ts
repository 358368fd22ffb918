import { createServer, type Server, type Socket } from 'node:net';

/**
 * A real SMTP server on a local port for tests (issue 30 §4, §5): it can be silent (takes the connection, never
 * answers), refuse (drops each connection) or answer (a minimal SMTP dialogue, keeping each message it accepted).
 * `acceptDelayMs` holds each "250 queued" back that long, so deliveries are in flight long enough for a test to
 * kill the process sending them.
 */
export type SmtpMode = 'silent' | 'refuse' | 'answer';

export interface SmtpReceiver {
  server: Server;
  port: number;
  mode: SmtpMode;
  acceptDelayMs: number;
  /** Each accepted message, headers and body as sent. */
  received: string[];
}

/** The Message-ID header of a received message (null when it has none). */
export function messageIdOf(message: string): string | null {
  return /^Message-ID:\s*(\S+)/im.exec(message)?.[1] ?? null;
}

export async function startSmtpReceiver(mode: SmtpMode = 'silent'): Promise<SmtpReceiver> {
  const smtp = { mode, acceptDelayMs: 0, received: [] as string[] } as SmtpReceiver;
  const sockets = new Set<Socket>();
  smtp.server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (smtp.mode === 'refuse') return socket.destroy();
    if (smtp.mode === 'silent') return; // holds the connection, says nothing
    let buffer = '';
    let data: string | null = null;
    const accept = (message: string) => {
      // Kept once its data has ended, before the answer (RFC 1047): a sender killed before "250" never learns it was
      // taken and sends it again, as with a real server that had queued it.
      smtp.received.push(message);
      const reply = () => {
        if (!socket.destroyed) socket.write('250 2.0.0 queued\r\n');
      };
      if (smtp.acceptDelayMs > 0) setTimeout(reply, smtp.acceptDelayMs);
      else reply();
    };
    socket.write('220 fake.test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          accept(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = null;
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 fake.test\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
  smtp.port = (smtp.server.address() as { port: number }).port;
  const close = smtp.server.close.bind(smtp.server);
  smtp.server.close = ((cb?: (err?: Error) => void) => {
    for (const s of sockets) s.destroy();
    return close(cb);
  }) as typeof smtp.server.close;
  return smtp;
}
