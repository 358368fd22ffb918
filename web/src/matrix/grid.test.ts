import {
  type CellsWire,
  decodeCells,
  decodeUsers,
  isoToDayNumber,
  MATRIX_STATUS_FILTERS,
  matrixViewFilters,
  matrixViewMatches,
  type UsersWire,
} from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { cellText, cellTitle, DEFAULT_VIEW, MatrixGrid, statusColour, viewRows } from './grid';

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
      due_by: null,
      counted: true,
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

  it('a due cell says Due by its date; one inside its requirement’s grace period is left out of the score and the Show filter', () => {
    const g = new MatrixGrid();
    g.addCourses([
      { id: 100, title: 'A course' },
      { id: 200, title: 'B course' },
    ]);
    const due = isoToDayNumber('2027-01-05');
    // Ann: course 100 in date, course 200 never done and due by 05/01/2027 inside its grace period (left out).
    // Bob: course 100 never done, due by 05/01/2027 as a new starter (counted, as the compliance figures count it).
    g.addBlock(users, [
      [7, 7, 9],
      [100, 200, 100],
      [1, 1, 1],
      [0, 3, 3],
      [55, null, null],
      [day - 365, null, null],
      [day, null, null],
      [1, 0, 0],
      [7, 9],
      [200, 100],
      [due, due],
      [1, 0],
    ]);
    expect(g.cell(0, 200)).toMatchObject({ status: 'missing', dueBy: '2027-01-05' });
    expect(cellText(g.cell(0, 200)!)).toBe('Due by 05/01/2027');
    expect(g.cell(0, 100)?.dueBy).toBeNull();
    // Ann's grace cell is not counted: 1 of 1; Bob's new-starter cell is: 0 of 1.
    expect(g.score(0)).toBe(100);
    expect(g.score(1)).toBe(0);
    const gaps = viewRows(g, { ...DEFAULT_VIEW, status: 'gaps' });
    expect(Array.from(gaps)).toEqual([1]);
    const c = decodeCells(
      [[7], [200], [1], [3], [null], [null], [null], [0], [7], [200], [due], [1]],
      new Map(decodeUsers(users).map((x) => [x.id, x])),
    );
    expect(c[0]).toMatchObject({
      status: 'missing',
      due_by: '2027-01-05',
      counted: false,
      in_date_passed: false,
    });
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
    // Other cells say their expiry date in the one date format, Missing, or No expiry.
    expect(cellText({ ...fire, status: 'in_date', expires: '2027-03-12' })).toBe('12/03/2027');
    expect(cellText({ ...fire, status: 'missing', completed: null, expires: null })).toBe('Missing');
    expect(cellText({ ...fire, status: 'in_date', completed: '2026-01-02', expires: null })).toBe(
      'No expiry',
    );
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

describe('viewRows (search, status filter, sort)', () => {
  // Four people, two courses (100 and 200, both required): their statuses make the scores 100, 50, 0 and 50.
  const people: UsersWire = [
    [1, 2, 3, 4],
    ['zoe Adams', 'Ben Carter', 'amy Brown', 'Carl Dean'],
    [3, 3, 3, 3],
    [11, 11, 11, 11],
    [0, 0, 0, 0],
  ];
  const statuses: Record<number, [number, number]> = { 1: [0, 4], 2: [1, 2], 3: [3, 2], 4: [0, 3] };
  const grid = () => {
    const g = new MatrixGrid();
    g.addCourses([
      { id: 100, title: 'Fire safety' },
      { id: 200, title: 'Food hygiene' },
    ]);
    const ids = [1, 1, 2, 2, 3, 3, 4, 4];
    const codes = ids.map((id, k) => statuses[id]?.[k % 2] ?? 3);
    const n = ids.length;
    g.addBlock(people, [
      ids,
      ids.map((_, k) => (k % 2 ? 200 : 100)),
      ids.map(() => 1),
      codes,
      ids.map(() => null),
      ids.map(() => null),
      ids.map(() => null),
      new Array(n).fill(0),
    ]);
    return g;
  };
  const names = (g: MatrixGrid, rows: Int32Array) => [...rows].map((r) => g.users[r]?.name);

  it('sorts by name (any case) by default, and backwards', () => {
    const g = grid();
    expect(names(g, viewRows(g, DEFAULT_VIEW))).toEqual([
      'amy Brown',
      'Ben Carter',
      'Carl Dean',
      'zoe Adams',
    ]);
    expect(names(g, viewRows(g, { ...DEFAULT_VIEW, sort: 'name_desc' }))).toEqual([
      'zoe Adams',
      'Carl Dean',
      'Ben Carter',
      'amy Brown',
    ]);
  });

  it('sorts by score, lowest or highest first, ties by name', () => {
    const g = grid();
    expect([0, 1, 2, 3].map((r) => g.score(r))).toEqual([100, 50, 0, 50]);
    expect(names(g, viewRows(g, { ...DEFAULT_VIEW, sort: 'score_asc' }))).toEqual([
      'amy Brown',
      'Ben Carter',
      'Carl Dean',
      'zoe Adams',
    ]);
    expect(names(g, viewRows(g, { ...DEFAULT_VIEW, sort: 'score_desc' }))).toEqual([
      'zoe Adams',
      'Ben Carter',
      'Carl Dean',
      'amy Brown',
    ]);
  });

  it('searches names, any case, anywhere in the name', () => {
    const g = grid();
    expect(names(g, viewRows(g, { ...DEFAULT_VIEW, search: 'AR' }))).toEqual(['Ben Carter', 'Carl Dean']);
    expect(names(g, viewRows(g, { ...DEFAULT_VIEW, search: '  brown ' }))).toEqual(['amy Brown']);
    expect(viewRows(g, { ...DEFAULT_VIEW, search: 'nobody' }).length).toBe(0);
  });

  it('filters by the statuses of required cells: expired or missing only, expiring, exempt, fully in date', () => {
    const g = grid();
    const only = (status: (typeof DEFAULT_VIEW)['status']) =>
      names(g, viewRows(g, { ...DEFAULT_VIEW, status }));
    expect(only('gaps')).toEqual(['amy Brown', 'Ben Carter', 'Carl Dean']);
    expect(only('expired')).toEqual(['amy Brown', 'Ben Carter']);
    expect(only('missing')).toEqual(['amy Brown', 'Carl Dean']);
    expect(only('expiring')).toEqual(['Ben Carter']);
    expect(only('exempt')).toEqual(['zoe Adams']);
    expect(only('complete')).toEqual(['zoe Adams']);
    expect(only('all')).toHaveLength(4);
    // Search and filter together.
    expect(names(g, viewRows(g, { ...DEFAULT_VIEW, status: 'gaps', search: 'dean' }))).toEqual(['Carl Dean']);
  });

  it("keeps, through matrixViewMatches (an export's per-block filter), the people viewRows lists, in load order", () => {
    const g = grid();
    const source = {
      count: g.users.length,
      name: (i: number) => g.users[i]?.name ?? '',
      statusBits: (i: number) => g.statusBits[i] ?? 0,
      score: (i: number) => g.score(i),
    };
    for (const status of MATRIX_STATUS_FILTERS.map((f) => f.value))
      for (const search of ['', 'ar', 'DEAN', 'nobody']) {
        const view = { ...DEFAULT_VIEW, status, search, sort: 'score_desc' as const };
        const kept = [...matrixViewMatches(source, view)];
        expect(kept).toEqual([...kept].sort((a, b) => a - b));
        expect(kept).toEqual([...viewRows(g, view)].sort((a, b) => a - b));
        expect(matrixViewFilters(view)).toBe(status !== 'all' || search !== '');
      }
  });
});
