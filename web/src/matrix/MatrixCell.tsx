// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid positions divs absolutely; ARIA grid roles describe them
import { formatDate } from '@cc/contracts';
import type { CSSProperties } from 'react';
import { cellText, cellTitle, type GridCell, LEGEND, statusColour, type TrafficLights, textOn } from './grid';

/**
 * One cell of the matrix grid: coloured by status and never by colour alone (STYLE.md): the cell says its expiry date,
 * Exempt or Missing; the full status and dates are its accessible name and tooltip. It is a stop of the grid's roving
 * focus (tabIndex 0 on the active cell, -1 on the others): a click, Enter or Space opens the person's record at that
 * course.
 */
export function MatrixCell({
  courseTitle,
  cell,
  wl,
  style,
  tabIndex = -1,
  position,
  onOpen,
}: {
  courseTitle: string;
  cell: GridCell;
  wl: TrafficLights;
  style?: CSSProperties;
  tabIndex?: number;
  /** "row:column" of the grid's roving focus. */
  position?: string;
  onOpen?: () => void;
}) {
  const label = cellTitle(courseTitle, cell);
  const background = statusColour(cell.status, wl);
  return (
    <div
      role="gridcell"
      aria-label={label}
      title={label}
      data-status={cell.status}
      data-cell={position}
      tabIndex={tabIndex}
      onClick={onOpen}
      onKeyDown={(e) => {
        if (onOpen && (e.key === 'Enter' || e.key === ' ')) {
          e.preventDefault();
          onOpen();
        }
      }}
      className="absolute top-1 cursor-pointer overflow-hidden rounded-sm text-center text-xs leading-7 whitespace-nowrap tabular-nums outline-offset-1 hover:ring-2 hover:ring-slate-500 focus-visible:outline-3 focus-visible:outline-slate-900"
      style={{ ...style, background, color: textOn(background) }}
    >
      {cell.dueBy ? (
        // Two short lines fit the cell: "Due by" over the date (the whole words are its label).
        <span className="block leading-[14px]">
          Due by
          <br />
          {formatDate(cell.dueBy)}
        </span>
      ) : (
        cellText(cell)
      )}
    </div>
  );
}

/** The legend of the matrix in words: every status (exempt included) with its colour and meaning, and the blank cell. */
export function MatrixLegend({ wl }: { wl: TrafficLights }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-700" aria-label="Legend">
      {LEGEND.map((l) => (
        <li key={l.label} className="flex items-center gap-1" data-status={l.status}>
          <span
            aria-hidden="true"
            className="inline-block h-3 w-3 rounded-sm border border-black/20"
            style={{ background: l.status === 'blank' ? '#ffffff' : statusColour(l.status, wl) }}
          />
          <span>
            <strong className="font-semibold">{l.label}</strong>: {l.meaning}
          </span>
        </li>
      ))}
    </ul>
  );
}
