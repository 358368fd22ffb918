// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid positions divs absolutely; ARIA grid roles describe them
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid's scroll region is the focus stop (tabIndex 0); cells are read, not operated
import { MATRIX_STATUSES } from '@cc/contracts';
import type { CSSProperties } from 'react';
import {
  cellText,
  cellTitle,
  type GridCell,
  STATUS_LABEL,
  statusColour,
  type TrafficLights,
  textOn,
} from './grid';

/**
 * One cell of the matrix grid: coloured by status and never by colour alone (STYLE.md): an exemption says Exempt,
 * others their expiry month; the full status and dates are its accessible name and tooltip.
 */
export function MatrixCell({
  courseTitle,
  cell,
  wl,
  style,
}: {
  courseTitle: string;
  cell: GridCell;
  wl: TrafficLights;
  style?: CSSProperties;
}) {
  const label = cellTitle(courseTitle, cell);
  const background = statusColour(cell.status, wl);
  return (
    <div
      role="gridcell"
      aria-label={label}
      title={label}
      data-status={cell.status}
      className="absolute top-1 overflow-hidden rounded-sm text-center text-[9px] leading-7"
      style={{ ...style, background, color: textOn(background) }}
    >
      {cellText(cell)}
    </div>
  );
}

/** The legend of the matrix: every status (contracts CELL_STATUSES, exempt included) with its colour and its words. */
export function MatrixLegend({ wl }: { wl: TrafficLights }) {
  return (
    <ul className="flex flex-wrap gap-3 text-xs text-gray-700" aria-label="Legend">
      {MATRIX_STATUSES.map((s) => (
        <li key={s} className="flex items-center gap-1" data-status={s}>
          <span
            aria-hidden="true"
            className="inline-block h-3 w-3 rounded-sm border border-black/10"
            style={{ background: statusColour(s, wl) }}
          />
          {STATUS_LABEL[s]}
        </li>
      ))}
    </ul>
  );
}
