import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Card } from '../ui';

/** Where the QR code leads: the learner's bookings page opens the check-in for this session with the code filled. */
export function checkInUrl(origin: string, sessionId: number, code: string): string {
  return `${origin}/your-bookings?check_in=${sessionId}&code=${encodeURIComponent(code)}`;
}

/**
 * The session's check-in code, large enough to read across a room, with a QR code of the check-in address for
 * delegates to scan on the day (shown to the trainer and to those who may mark delegates).
 */
export function CheckInCode({ sessionId, code }: { sessionId: number; code: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(checkInUrl(window.location.origin, sessionId, code), { margin: 1, width: 240 })
      .then((url) => {
        if (live) setSrc(url);
      })
      .catch(() => setSrc(null));
    return () => {
      live = false;
    };
  }, [sessionId, code]);
  return (
    <Card title="Check-in code">
      <div className="flex flex-col items-center gap-4 text-center">
        {src ? (
          <img
            src={src}
            width={160}
            height={160}
            className="h-40 w-40 rounded ring-1 ring-slate-200"
            alt={`QR code: scan to check in with the code ${code}`}
          />
        ) : null}
        <div>
          <p
            className="font-mono text-4xl font-bold tracking-[0.2em] break-all text-slate-900"
            data-testid="check-in-code"
          >
            {code}
          </p>
          <p className="mt-2 max-w-sm text-sm text-slate-600">
            On the day, delegates check in under Your bookings with this code, or by scanning the QR code.
          </p>
        </div>
      </div>
    </Card>
  );
}
