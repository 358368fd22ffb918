import { DataProtectionMessages, type UserDataProtection } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import { PersonalDataCard } from './PersonalDataCard';

/**
 * Issue 35 §4: the person's "Personal data" card. Erasure asks for the person's name typed: a mismatch stays in the
 * dialog (no request), the name as shown sends POST /users/{id}/erase; without a leaving date the button waits.
 */

const LEAVER: UserDataProtection = {
  left_on: '2026-01-31',
  erased_at: null,
  retention_years: 6,
  records_removed_on: '2032-01-31',
  may_export: true,
  may_set_leaving_date: true,
  may_erase: true,
};
let state: UserDataProtection = LEAVER;
let calls: ApiCall[] = [];

beforeEach(() => {
  state = LEAVER;
  calls = stubApi(({ route: path }) => {
    if (path === '/users/7/data-protection') return json(200, { data: state });
    if (path === '/users/7/erase') {
      state = {
        ...state,
        erased_at: '2026-02-01T10:00:00.000Z',
        may_erase: false,
        may_set_leaving_date: false,
      };
      return json(200, { data: state, message: DataProtectionMessages.erased });
    }
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PersonalDataCard userId={7} name="Alex Lee" self={false} />
    </QueryClientProvider>,
  );
}

describe('PersonalDataCard', () => {
  it('erases only once the name is typed as shown', async () => {
    const user = userEvent.setup();
    renderCard();
    expect(await screen.findByRole('button', { name: 'Download their data' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Erase personal details' }));
    const field = await screen.findByLabelText('Type their name to confirm');
    await user.type(field, 'Alex');
    const dialog = screen.getByRole('alertdialog');
    const confirm = [...dialog.querySelectorAll('button')].find(
      (b) => b.textContent === 'Erase personal details',
    );
    await user.click(confirm as HTMLButtonElement);
    expect(await screen.findByText(DataProtectionMessages.confirmName)).toBeTruthy();
    expect(calls.some((c) => c.path === '/users/7/erase')).toBe(false);

    await user.type(field, ' Lee');
    await user.click(confirm as HTMLButtonElement);
    expect(await screen.findByText(/Personal details erased on/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/users/7/erase')).toMatchObject({
      method: 'POST',
      body: { confirm_name: 'Alex Lee' },
    });
  });

  it('waits for a leaving date before erasure', async () => {
    state = { ...LEAVER, left_on: null, records_removed_on: null };
    renderCard();
    const erase = await screen.findByRole('button', { name: 'Erase personal details' });
    expect((erase as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/Save the date they left first/)).toBeTruthy();
  });
});
