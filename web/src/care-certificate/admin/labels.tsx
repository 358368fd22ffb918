import { NMDS_LABELS, type NmdsStatus, type StandardStatus } from '@cc/contracts';
import { cx } from '../../ui';

/** How a standard's status reads and looks (colour plus a symbol and text, never colour alone). */
export const STANDARD_STATUS_LABELS: Record<StandardStatus, string> = {
  outstanding: 'Outstanding',
  working_towards: 'Working towards',
  awaiting_approval: 'Awaiting approval',
  approved: 'Approved',
};
const STATUS_LOOK: Record<StandardStatus, { symbol: string; className: string }> = {
  outstanding: { symbol: '○', className: 'bg-slate-100 text-slate-700 ring-slate-300' },
  working_towards: { symbol: '◐', className: 'bg-warning-100 text-warning-800 ring-warning-500/40' },
  awaiting_approval: { symbol: '…', className: 'bg-primary-100 text-primary-900 ring-primary-300' },
  approved: { symbol: '✓', className: 'bg-success-100 text-success-800 ring-success-500/40' },
};

/** One compact cell: the standard's number and its status symbol; the full words for screen readers and on hover. */
export function StandardCell({
  number,
  title,
  status,
}: {
  number: number | string;
  title?: string;
  status: StandardStatus;
}) {
  const look = STATUS_LOOK[status];
  const label = `Standard ${number}${title ? ` (${title})` : ''}: ${STANDARD_STATUS_LABELS[status]}`;
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      data-status={status}
      className={cx(
        'inline-flex h-8 w-8 flex-col items-center justify-center rounded text-[10px] leading-none font-semibold ring-1 ring-inset',
        look.className,
      )}
    >
      <span>{number}</span>
      <span aria-hidden="true">{look.symbol}</span>
    </span>
  );
}

export function StatusLegend() {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700" aria-label="Key">
      {(Object.keys(STANDARD_STATUS_LABELS) as StandardStatus[]).map((s) => (
        <li key={s} className="flex items-center gap-1.5">
          <span
            aria-hidden="true"
            className={cx(
              'inline-flex h-5 w-5 items-center justify-center rounded text-[10px] ring-1 ring-inset',
              STATUS_LOOK[s].className,
            )}
          >
            {STATUS_LOOK[s].symbol}
          </span>
          {STANDARD_STATUS_LABELS[s]}
        </li>
      ))}
    </ul>
  );
}

export const nmdsLabel = (v: NmdsStatus) => NMDS_LABELS[v];

/** "Care Certificate" → "Care Certificate report" etc.: the product's own name from the white-label. */
export const named = (product: string, what: string) => `${product} ${what}`.trim();
