import { Messages, type OwnSession } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import SessionsPage from './SessionsPage';

/**
 * Issue 29 §6: the server answers 423 to "Sessions and devices" until the password is given again on this session;
 * the page asks for it, shows the server's refusal of a wrong one, and lists the sessions once it is right.
 */

const ROWS: OwnSession[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    kind: 'session',
    name: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36',
    ip: '192.0.2.1',
    created_at: '2026-11-26T10:00:00.000Z',
    last_active_at: '2026-11-26T10:00:00.000Z',
    expires_at: '2026-11-26T22:00:00.000Z',
    current: true,
  },
];

let confirmed = false;
let calls: ApiCall[] = [];

beforeEach(() => {
  confirmed = false;
  calls = stubApi(({ route: path, body }) => {
    if (path === '/auth/sessions')
      return confirmed
        ? json(200, { data: ROWS })
        : json(423, { message: Messages.passwordConfirmationRequired });
    if (path === '/auth/confirm-password') {
      if ((body as { password?: string } | undefined)?.password !== 'Correct-Horse-Battery-9')
        return json(422, {
          message: Messages.incorrectPassword,
          errors: { password: [Messages.incorrectPassword] },
        });
      confirmed = true;
      return json(200, { message: Messages.passwordConfirmed });
    }
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <SessionsPage /> }], { initialEntries: ['/'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('SessionsPage asks for the password again (issue 29 §6)', () => {
  it('asks on 423, shows a wrong password refused, and lists the sessions once confirmed', async () => {
    const user = userEvent.setup();
    renderPage();
    const password = await screen.findByLabelText(/^Password/);
    expect(screen.queryByTestId('session-list')).toBeNull();

    await user.type(password, 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(Messages.incorrectPassword)).toBeTruthy();
    expect(screen.queryByTestId('session-list')).toBeNull();

    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'Correct-Horse-Battery-9');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('session-list')).toBeTruthy();
    expect(screen.getByText('Chrome on Linux')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/auth/confirm-password').map((c) => c.method)).toEqual([
      'POST',
      'POST',
    ]);
  });
});
