import { Messages } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { authStore, permissionsStore, setUser } from '../app/auth';
import { deviceNameFrom } from '../app/env';
import { notificationsStore } from '../app/notifications';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import { splitErrors } from './shared';

type Handler = (url: URL, call: ApiCall) => Response | undefined;

let handler: Handler = () => undefined;
const calls: { method: string; path: string; body: unknown }[] = [];

function renderAtWithUnmount(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const { unmount } = render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, unmount };
}

function renderAt(path: string) {
  return renderAtWithUnmount(path).router;
}

beforeEach(() => {
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  notificationsStore.set([]);
  calls.length = 0;
  handler = () => undefined;
  stubApi((call) => {
    calls.push({ method: call.method, path: call.url.pathname, body: call.body });
    // Anything a test does not answer (white-label, entities) is a 404, like an empty server.
    return handler(call.url, call);
  });
});
afterEach(() => vi.unstubAllGlobals());

const RULES = [
  'The password must be at least 12 characters.',
  'The password must contain at least one symbol.',
  'This password has appeared in a data breach. Please choose a different password.',
];

describe('/reset-password/{token}', () => {
  it('prefills the e-mail and lists every failing password rule on its own line from a 422', async () => {
    handler = (url, call) =>
      url.pathname === '/api/auth/reset-password' && call.method === 'POST'
        ? json(422, { message: RULES[0], errors: { password: RULES } })
        : undefined;
    const user = userEvent.setup();
    renderAt('/reset-password/tok-123?email=ann%40example.test');
    const email = await screen.findByLabelText(/^E-mail address/);
    expect(email).toHaveValue('ann@example.test');
    await user.type(screen.getByLabelText(/^New password/), 'short');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));

    const alert = await screen.findByRole('alert');
    const lines = within(alert)
      .getAllByRole('listitem')
      .map((li) => li.textContent?.replace(/^–/, ''));
    expect(lines).toEqual(RULES);
    expect(alert).toHaveFocus();
    // The password field points at the rules for screen readers.
    expect(screen.getByLabelText(/^New password/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^New password/)).toHaveAccessibleDescription(
      expect.stringContaining(RULES[2]),
    );
    expect(calls.find((c) => c.path === '/api/auth/reset-password')?.body).toEqual({
      token: 'tok-123',
      email: 'ann@example.test',
      password: 'short',
      password_confirmation: 'short',
    });
  });

  it('a dead link shows the server message and a link to request a new one', async () => {
    handler = (url) =>
      url.pathname === '/api/auth/reset-password'
        ? json(422, {
            message: 'This password reset link is invalid or has expired.',
            errors: { token: ['This password reset link is invalid or has expired.'] },
          })
        : undefined;
    const user = userEvent.setup();
    renderAt('/reset-password/old?email=ann%40example.test');
    await user.type(await screen.findByLabelText(/^New password/), 'Good-Password-42');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'Good-Password-42');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This password reset link is invalid or has expired.');
    expect(within(alert).getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it('success shows the message and the way to sign in', async () => {
    handler = (url) =>
      url.pathname === '/api/auth/reset-password'
        ? json(200, { message: 'Your password has been reset.' })
        : undefined;
    const user = userEvent.setup();
    renderAt('/reset-password/ok?email=ann%40example.test');
    await user.type(await screen.findByLabelText(/^New password/), 'Good-Password-42');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'Good-Password-42');
    await user.click(screen.getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been reset.');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });
});

describe('/unlock-sign-in/{token} (issue 29 §8)', () => {
  it('follows the mailed link before entry and shows the way to sign in', async () => {
    handler = (url) =>
      url.pathname === '/api/auth/unlock-sign-in'
        ? json(200, { message: Messages.signInUnlocked })
        : undefined;
    renderAt('/unlock-sign-in/abc123');
    expect(await screen.findByRole('status')).toHaveTextContent(Messages.signInUnlocked);
    expect(calls.find((c) => c.path === '/api/auth/unlock-sign-in')).toMatchObject({
      method: 'POST',
      body: { token: 'abc123' },
    });
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it('a dead link shows the server message', async () => {
    handler = (url) =>
      url.pathname === '/api/auth/unlock-sign-in'
        ? json(422, {
            message: Messages.invalidUnlockToken,
            errors: { token: [Messages.invalidUnlockToken] },
          })
        : undefined;
    renderAt('/unlock-sign-in/used');
    expect(await screen.findByRole('alert')).toHaveTextContent(Messages.invalidUnlockToken);
  });
});

describe('/register/{plan}', () => {
  it('maps the server field errors to their fields and the password rules to the summary', async () => {
    handler = (url, call) =>
      url.pathname === '/register/standard' && call.method === 'POST'
        ? json(422, {
            message: 'The email has already been taken.',
            errors: {
              email: ['The email has already been taken.'],
              password: RULES.slice(1),
            },
          })
        : undefined;
    const user = userEvent.setup();
    renderAt('/register/standard');
    expect(await screen.findByText('Standard plan')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Your name/), 'Ann Owner');
    await user.type(screen.getByLabelText(/^Organisation name/), 'Rosewood Care');
    await user.type(screen.getByLabelText(/^E-mail address/), 'ann@example.test');
    await user.type(screen.getByLabelText(/^Password/), 'weakpass');
    await user.type(screen.getByLabelText(/^Confirm the password/), 'weakpass');
    await user.click(screen.getByRole('button', { name: 'Create the account' }));

    const email = screen.getByLabelText(/^E-mail address/);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('The email has already been taken.');
    expect(screen.getByLabelText(/^Your name/)).not.toHaveAttribute('aria-invalid');
    const alert = screen.getByRole('alert');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/^–/, '')),
    ).toEqual(RULES.slice(1));
    expect(calls.find((c) => c.path === '/register/standard')?.body).toEqual({
      name: 'Ann Owner',
      organisation: 'Rosewood Care',
      email: 'ann@example.test',
      password: 'weakpass',
      password_confirmation: 'weakpass',
    });
  });

  it('success signs nobody in: it shows the message to check the e-mail (the same for a taken address)', async () => {
    handler = (url) =>
      url.pathname === '/register/free' ? json(202, { message: Messages.registered }) : undefined;
    const user = userEvent.setup();
    const router = renderAt('/register/free');
    const password = await screen.findByLabelText(/^Password/);
    // The rule in plain words: twelve characters, no composition rule.
    expect(screen.getByText(/^At least 12 characters: a few unrelated words/)).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Your name/), 'Ann Owner');
    await user.type(screen.getByLabelText(/^Organisation name/), 'Rosewood Care');
    await user.type(screen.getByLabelText(/^E-mail address/), 'ann@example.test');
    await user.type(password, 'Good-Password-42');
    await user.type(screen.getByLabelText(/^Confirm the password/), 'Good-Password-42');
    await user.click(screen.getByRole('button', { name: 'Create the account' }));
    await screen.findByRole('heading', { name: 'Check your e-mail' });
    expect(screen.getByRole('status')).toHaveTextContent(Messages.registered);
    expect(router.state.location.pathname).toBe('/register/free');
    expect(authStore.get().user).toBeNull();
  });

  it('an unknown plan is a 404', async () => {
    const router = renderAt('/register/platinum');
    await screen.findByRole('heading', { name: "We couldn't find that plan" });
    expect(router.state.location.pathname).toBe('/404');
  });
});

describe('password change required', () => {
  it('sends the user from any protected page to /update-password, then back once changed', async () => {
    setUser(makeUser({ password_change_required: true }));
    handler = (url, call) => {
      if (url.pathname === '/api/auth/update-password' && call.method === 'POST')
        return json(200, { message: 'Your password has been updated.' });
      if (url.pathname === '/api/auth/user')
        return json(200, { data: makeUser({ password_change_required: false }) });
      return undefined;
    };
    const user = userEvent.setup();
    const router = renderAt('/users?page=2');
    await screen.findByRole('heading', { name: 'Change your password' });
    expect(router.state.location.pathname).toBe('/update-password');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/users?page=2');
    expect(screen.getByText(/Your password has expired or must be changed/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();

    // Another protected page still comes back here.
    await router.navigate('/entities');
    await waitFor(() => expect(router.state.location.pathname).toBe('/update-password'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/entities');

    await user.type(await screen.findByLabelText(/^Current password/), 'Old-Password-1');
    await user.type(screen.getByLabelText(/^New password/), 'New-Password-42');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'New-Password-42');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/entities'));
    expect(authStore.get().user?.password_change_required).toBe(false);
  });

  it('a user without the flag is not redirected, and /update-password offers Cancel instead of Sign out', async () => {
    setUser(makeUser());
    const router = renderAt('/users');
    await screen.findByRole('heading', { level: 1, name: 'Users' });
    expect(router.state.location.pathname).toBe('/users');
    expect(router.state.location.search).toBe('');
    await router.navigate('/update-password');
    await screen.findByRole('heading', { name: 'Change your password' });
    expect(screen.queryByText(/must be changed/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/');
  });

  it('the current-password error goes under its field', async () => {
    setUser(makeUser());
    handler = (url) =>
      url.pathname === '/api/auth/update-password'
        ? json(422, {
            message: 'The current password is incorrect.',
            errors: { current_password: ['The current password is incorrect.'] },
          })
        : undefined;
    const user = userEvent.setup();
    renderAt('/update-password');
    await user.type(await screen.findByLabelText(/^Current password/), 'wrong');
    await user.type(screen.getByLabelText(/^New password/), 'New-Password-42');
    await user.type(screen.getByLabelText(/^Confirm the new password/), 'New-Password-42');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const current = screen.getByLabelText(/^Current password/);
    await waitFor(() => expect(current).toHaveAccessibleDescription('The current password is incorrect.'));
    expect(screen.getByText('Please correct the highlighted fields.').closest('[role=alert]')).toHaveFocus();
  });
});

describe('the Help button signed out (issue 38 §3)', () => {
  it('is on the sign-in pages and the error pages', async () => {
    for (const path of [
      '/login',
      '/forgot-password',
      '/reset-password/tok-1',
      '/404?resource=page',
      '/403',
    ]) {
      const { unmount } = renderAtWithUnmount(path);
      expect(await screen.findByTestId('help-button'), path).toHaveTextContent('Help');
      unmount();
    }
  });
});

describe('splitErrors', () => {
  it('keeps the message when there are no field errors', () => {
    expect(splitErrors({ message: 'CSRF token mismatch.' }, ['email']).summary).toEqual([
      'CSRF token mismatch.',
    ]);
  });
});

describe('mobile device_name (spec 1 §7: manufacturer and model)', () => {
  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Apple iPhone (Safari)',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
      'Android SM-S918B (Chrome)',
    ],
    [
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
      'Android device (Chrome)',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0',
      'Windows PC (Edge)',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Linux PC (Firefox)'],
    ['', 'Unknown device'],
  ])('%s → %s', (ua, expected) => {
    expect(deviceNameFrom(ua)).toBe(expected);
  });
});
