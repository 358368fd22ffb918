import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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

  it('an in-date cell shows its expiry month and names its status', () => {
    render(<MatrixCell courseTitle="Fire safety" cell={cell({})} wl={wl} />);
    const gridcell = screen.getByRole('gridcell', {
      name: 'Fire safety: In date, completed 12/03/2026, expires 12/03/2027',
    });
    expect(gridcell).toHaveTextContent('03/2027');
    expect(gridcell).not.toHaveTextContent('Exempt');
  });
});

describe('MatrixLegend', () => {
  it('lists every status in words, exempt included', () => {
    render(<MatrixLegend wl={wl} />);
    const items = within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'In date',
      'Expiring',
      'Expired',
      'Missing',
      'Exempt',
    ]);
  });
});
