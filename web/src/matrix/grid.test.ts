import { type CellsWire, decodeCells, decodeUsers, isoToDayNumber, type UsersWire } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { cellText, cellTitle, MatrixGrid, statusColour } from './grid';

const users: UsersWire = [
  [7, 9],
  ['Ann', 'Bob'],
  [3, 4],
  [11, null],
  [0, 1],
];
const day = isoToDayNumber('2027-03-12');
const cells: CellsWire = [
  [7, 7, 9],
  [100, 200, 100],
  [1, 0, 2],
  [0, 2, 3],
  [55, 56, null],
  [day - 365, day - 900, null],
  [day, null, null],
  [2, 1, 0],
];

describe('decoder', () => {
  it('gives back the spec matrix cells', () => {
    const u = decodeUsers(users);
    expect(u[1]).toEqual({ id: 9, name: 'Bob', primary_entity_id: 4, role_id: null, new_starter: true });
    const c = decodeCells(cells, new Map(u.map((x) => [x.id, x])));
    expect(c[0]).toEqual({
      course_id: 100,
      in_date_passed: true,
      in_expiry_warning_period: false,
      latest_result_completed: '2026-03-12',
      latest_result_expires: '2027-03-12',
      latest_result_id: 55,
      primary_entity_id: 3,
      result_count: 2,
      role_id: 11,
      type: 'primary',
      user_id: 7,
      status: 'in_date',
    });
    expect(c[1]).toMatchObject({
      type: 'none',
      status: 'expired',
      in_date_passed: false,
      latest_result_expires: null,
    });
    expect(c[2]).toMatchObject({
      type: 'secondary',
      status: 'missing',
      latest_result_id: null,
      role_id: null,
    });
  });
});

describe('MatrixGrid', () => {
  it('looks cells up by row and course, and scores users on required cells only', () => {
    const g = new MatrixGrid();
    g.addCourses([
      { id: 200, title: 'B course' },
      { id: 100, title: 'A course' },
    ]);
    g.addBlock(users, cells);
    expect(g.orderedCourses().map((c) => c.id)).toEqual([100, 200]);
    expect(g.cell(0, 100)).toMatchObject({ status: 'in_date', expires: '2027-03-12', resultCount: 2 });
    expect(g.cell(0, 200)).toMatchObject({ status: 'expired', type: 'none' });
    expect(g.cell(1, 200)).toBeNull();
    expect(g.score(0)).toBe(100);
    expect(g.score(1)).toBe(0);
    expect(cellTitle('A course', g.cell(0, 100)!)).toBe(
      'A course: In date, completed 12/03/2026, expires 12/03/2027',
    );
  });

  it('keeps earlier blocks valid when later courses arrive', () => {
    const g = new MatrixGrid();
    g.addCourses([{ id: 100, title: 'A' }]);
    g.addBlock([[1], ['X'], [3], [null], [0]], [[1], [100], [1], [1], [5], [day], [day], [1]]);
    g.addCourses([{ id: 300, title: 'C' }]);
    g.addBlock(
      [[2], ['Y'], [3], [null], [0]],
      [
        [2, 2],
        [100, 300],
        [1, 0],
        [3, 0],
        [null, 6],
        [null, day],
        [null, null],
        [0, 1],
      ],
    );
    expect(g.cell(0, 300)).toBeNull();
    expect(g.cell(1, 300)).toMatchObject({ status: 'in_date', type: 'none' });
    expect(g.cell(1, 100)).toMatchObject({ status: 'missing' });
    expect(g.score(0)).toBe(100);
    expect(g.score(1)).toBe(0);
  });
});

describe('exempt cells (issue 10 §4)', () => {
  const wl = { trafficLightOk: '#48bb78', trafficLightWarning: '#ffbf00', trafficLightDanger: '#e53e3e' };
  // Ann: fire exempt without an end (code 4), food exempt until 2027-03-12; Bob: fire missing.
  const exemptCells: CellsWire = [
    [7, 7, 9],
    [100, 200, 100],
    [1, 1, 1],
    [4, 4, 3],
    [60, 61, null],
    [day - 30, day - 10, null],
    [null, day, null],
    [1, 1, 0],
  ];

  it('decodes code 4 as exempt, in date passed (compliant) but not expiring', () => {
    const u = decodeUsers(users);
    const c = decodeCells(exemptCells, new Map(u.map((x) => [x.id, x])));
    expect(c[0]).toMatchObject({ status: 'exempt', in_date_passed: true, in_expiry_warning_period: false });
  });

  it('counts exempt cells towards the score, says Exempt in the cell and names it in the title', () => {
    const g = new MatrixGrid();
    g.addCourses([
      { id: 100, title: 'Fire safety' },
      { id: 200, title: 'Food hygiene' },
    ]);
    g.addBlock(users, exemptCells);
    expect(g.score(0)).toBe(100);
    expect(g.score(1)).toBe(0);
    const fire = g.cell(0, 100)!;
    expect(fire.status).toBe('exempt');
    expect(cellText(fire)).toBe('Exempt');
    expect(cellTitle('Fire safety', fire)).toBe('Fire safety: Exempt, since 10/02/2027');
    expect(cellTitle('Food hygiene', g.cell(0, 200)!)).toBe(
      'Food hygiene: Exempt, since 02/03/2027, ends 12/03/2027',
    );
    // Its own colour, apart from the traffic lights and the grey of missing.
    const colours = new Set(
      (['in_date', 'expiring', 'expired', 'missing', 'exempt'] as const).map((s) => statusColour(s, wl)),
    );
    expect(colours.size).toBe(5);
    expect(statusColour('exempt', wl)).toBe('#93c5fd');
    // Other cells keep their expiry month.
    expect(cellText({ ...fire, status: 'in_date', expires: '2027-03-12' })).toBe('03/2027');
  });
});

describe('textOn', () => {
  it('picks the readable text colour for the traffic lights', async () => {
    const { textOn } = await import('./grid');
    expect(textOn('#e53e3e')).toBe('#000000');
    expect(textOn('#1f2937')).toBe('#ffffff');
    expect(textOn('#ffbf00')).toBe('#000000');
    expect(textOn('#48bb78')).toBe('#000000');
  });
});
