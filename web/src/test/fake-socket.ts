/** A WebSocket stand-in the test drives from the server's side (matrix socket tests). */
export class FakeSocket {
  static last: FakeSocket;
  static all: FakeSocket[] = [];
  OPEN = 1;
  readyState = 1;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(public url: string) {
    FakeSocket.last = this;
    FakeSocket.all.push(this);
  }
  /** The server's side: a message, or the socket closing with a code. */
  receive(message: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  closeWith(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  /** Opens and acknowledges the subscription it was sent; answers its id. */
  openAndAck(): string {
    this.onopen?.();
    const { id } = JSON.parse(this.sent.at(-1) as string);
    this.receive({ type: 'subscribed', id });
    return id;
  }
  send(s: string) {
    this.sent.push(s);
  }
  close() {}
}
