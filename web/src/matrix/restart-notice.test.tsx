import { MatrixMessages } from '@cc/contracts';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { FakeSocket } from '../test/fake-socket';
import { useMatrix } from './MatrixPage';
import { RestartNotice } from './RestartNotice';

/** issue 12 §3: the matrix page says the server is restarting while it reconnects, then shows a whole new matrix. */

function Probe() {
  const { grid, notice, progress } = useMatrix({});
  return (
    <>
      <RestartNotice notice={notice} />
      <span data-testid="rows">{`${grid.users.length} rows, progress ${progress}`}</span>
    </>
  );
}

const block = (id: string, userIds: number[]) => {
  const users = [
    userIds,
    userIds.map((u) => `User ${u}`),
    userIds.map(() => 1),
    userIds.map(() => null),
    userIds.map(() => 0),
  ];
  const cells = [
    userIds,
    userIds.map(() => 100),
    userIds.map(() => 1),
    userIds.map(() => 1),
    userIds.map(() => 0),
    userIds.map(() => null),
    userIds.map(() => null),
    userIds.map(() => 1),
  ];
  FakeSocket.last.receive({
    type: 'fetch_data',
    id,
    kind: 'courses',
    data: [{ id: 100, title: 'Fire safety' }],
  });
  FakeSocket.last.receive({ type: 'fetch_data', id, kind: 'users', block: 0, data: users });
  FakeSocket.last.receive({ type: 'fetch_data', id, kind: 'matrix_cells', block: 0, data: cells });
};

beforeEach(() => {
  FakeSocket.all = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

it('shows "The server is restarting — reconnecting…" in a status region, then a fresh matrix, never the cut half', () => {
  render(<Probe />);
  const status = screen.getByRole('status');
  expect(status.textContent).toBe('');
  let id = '';
  act(() => {
    id = FakeSocket.last.openAndAck();
    FakeSocket.last.receive({ type: 'progress', id, progress: 0 });
    block(id, [1, 2]);
    FakeSocket.last.receive({ type: 'progress', id, progress: 0.5 });
    vi.advanceTimersByTime(20);
  });
  expect(screen.getByTestId('rows')).toHaveTextContent('2 rows, progress 0.5');

  act(() => FakeSocket.last.closeWith(1012));
  expect(status).toHaveTextContent(MatrixMessages.restarting);
  expect(status).toHaveTextContent('The server is restarting — reconnecting…');

  act(() => {
    vi.advanceTimersByTime(500);
    FakeSocket.last.openAndAck();
  });
  // The new stream starts from nothing: the two rows of the cut stream are gone, the notice too.
  expect(status.textContent).toBe('');
  expect(screen.getByTestId('rows')).toHaveTextContent('0 rows, progress 0');
  act(() => {
    block(id, [1, 2, 3]);
    FakeSocket.last.receive({ type: 'progress', id, progress: 1 });
    vi.advanceTimersByTime(20);
  });
  expect(screen.getByTestId('rows')).toHaveTextContent('3 rows, progress 1');
});
