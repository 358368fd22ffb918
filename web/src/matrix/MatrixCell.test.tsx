import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { GridCell } from './grid';
import { MatrixCell, MatrixLegend } from './MatrixCell';

const wl = { trafficLightOk: '#48bb78', trafficLightWarning: '#ffbf00', trafficLightDanger: '#e53e3e' };
const cell = (c: Partial<GridCell>): GridCell => ({
  status: 'in_date',
  type: 'primary',
  completed: '2026-03-12',
  expires: '2027-03-12',
  resultId: 1,
  resultCount: 1,
  dueBy: null,
  ...c,
});

describe('MatrixCell', () => {
  it('an exemption says Exempt, to the eye and to a screen reader, on its own colour', () => {
    render(<MatrixCell courseTitle="Fire safety" cell={cell({ status: 'exempt', expires: null })} wl={wl} />);
    const gridcell = screen.getByRole('gridcell', { name: 'Fire safety: Exempt, since 12/03/2026' });
    expect(gridcell).toHaveTextContent('Exempt');
    expect(gridcell).toHaveAttribute('data-status', 'exempt');
    expect(gridcell).toHaveStyle({ background: '#93c5fd' });
  });

  it('an in-date cell shows its expiry date at a readable size and names its status', () => {
    render(<MatrixCell courseTitle="Fire safety" cell={cell({})} wl={wl} />);
    const gridcell = screen.getByRole('gridcell', {
      name: 'Fire safety: In date, completed 12/03/2026, expires 12/03/2027',
    });
    expect(gridcell).toHaveTextContent('12/03/2027');
    expect(gridcell).not.toHaveTextContent('Exempt');
    // 12 px (Tailwind text-xs), never the 9 px it was.
    expect(gridcell.className).toContain('text-xs');
    expect(gridcell.className).not.toMatch(/text-\[\d+px\]/);
  });

  it('a missing cell says Missing in words', () => {
    render(
      <MatrixCell
        courseTitle="Fire safety"
        cell={cell({ status: 'missing', completed: null, expires: null })}
        wl={wl}
      />,
    );
    expect(screen.getByRole('gridcell', { name: 'Fire safety: Missing' })).toHaveTextContent('Missing');
  });

  it('a never-done course due by a date ahead says Due by that date (issue 33 §4), not Missing', () => {
    render(
      <MatrixCell
        courseTitle="Fire safety"
        cell={cell({ status: 'missing', completed: null, expires: null, dueBy: '2027-01-05' })}
        wl={wl}
      />,
    );
    const gridcell = screen.getByRole('gridcell', { name: 'Fire safety: Due by 05/01/2027 (not done yet)' });
    expect(gridcell).toHaveTextContent('Due by05/01/2027');
    expect(gridcell).not.toHaveTextContent('Missing');
  });

  it('is a focus stop of the grid: Enter, Space and a click open the record; only the active cell is tabbable', () => {
    const onOpen = vi.fn();
    const { rerender } = render(
      <MatrixCell
        courseTitle="Fire safety"
        cell={cell({})}
        wl={wl}
        position="2:3"
        tabIndex={0}
        onOpen={onOpen}
      />,
    );
    const gridcell = screen.getByRole('gridcell');
    expect(gridcell).toHaveAttribute('tabindex', '0');
    expect(gridcell).toHaveAttribute('data-cell', '2:3');
    gridcell.focus();
    expect(gridcell).toHaveFocus();
    fireEvent.keyDown(gridcell, { key: 'Enter' });
    fireEvent.keyDown(gridcell, { key: ' ' });
    fireEvent.click(gridcell);
    fireEvent.keyDown(gridcell, { key: 'a' });
    expect(onOpen).toHaveBeenCalledTimes(3);
    rerender(<MatrixCell courseTitle="Fire safety" cell={cell({})} wl={wl} position="2:3" onOpen={onOpen} />);
    expect(screen.getByRole('gridcell')).toHaveAttribute('tabindex', '-1');
  });
});

describe('MatrixLegend', () => {
  it('says in words what every status and the blank cell mean, exempt included', () => {
    render(<MatrixLegend wl={wl} />);
    const items = within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'In date: done; the date is when it expires',
      'Expiring soon: still in date, expires within the warning period',
      'Expired: the date shown has passed',
      'Missing: required but not done',
      'Due by (date): required, not done yet; not out of date until then',
      'Exempt: excused; counts as compliant',
      'Blank: not required for their role',
    ]);
    expect(items.map((li) => li.getAttribute('data-status'))).toEqual([
      'in_date',
      'expiring',
      'expired',
      'missing',
      'missing',
      'exempt',
      'blank',
    ]);
  });
});
