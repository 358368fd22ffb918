import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsStore, setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { stubResizeObserver } from '../test/dom';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import HistoricalFormPage from './HistoricalFormPage';

/**
 * Issue 13: a carer without add record (26) adds their own training record. The person is locked to them (no user
 * picker: GET /users needs 24), the courses come from GET /results/courses?self=1, and the saved result awaits
 * their manager's approval; the form then returns to `/`.
 */

let calls: ApiCall[] = [];

function renderForm(path = '/results/historical/create') {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/results/historical/create" element={<HistoricalFormPage />} />
          <Route path="/" element={<h1>Start page</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  permissionsStore.set(null);
  notificationsStore.set([]);
  stubResizeObserver();
  calls = stubApi(({ url }) => {
    if (url.pathname.endsWith('/results/courses'))
      return json(200, paged([{ id: 3, title: 'Fire safety', short_title: null }], { perPage: 10 }));
    if (url.pathname.endsWith('/results/historical/create'))
      return json(201, {
        message: 'Historical result has been submitted for approval.',
        data: {
          id: 40,
          status: 'pending',
          completed_at: '2024-05-07T00:00:00.000Z',
          course: { id: 3, title: 'Fire safety' },
          user: { id: 7, uuid: 'u-7', name: 'Sam Carer' },
        },
      });
    return json(404, { message: 'Not found' });
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('historical result form, self mode', () => {
  it('locks the person to the signed-in carer, lists their own courses, and says the record awaits approval', async () => {
    setUser(makeUser());
    const user = userEvent.setup();
    renderForm();
    expect(await screen.findByRole('heading', { name: 'Add training record' })).toBeInTheDocument();
    expect(screen.getByLabelText('Training record for')).toHaveValue('Sam Carer (you)');
    expect(screen.queryByRole('combobox', { name: /User/ })).toBeNull();

    await user.type(screen.getByRole('combobox', { name: /Course/ }), 'fire');
    await user.click(await screen.findByRole('option', { name: /Fire safety/ }));
    const courseCalls = calls.filter((c) => c.url.pathname.endsWith('/results/courses'));
    expect(courseCalls.length).toBeGreaterThan(0);
    for (const c of courseCalls) expect(c.url.searchParams.get('self')).toBe('1');
    expect(calls.some((c) => c.url.pathname.endsWith('/users'))).toBe(false);

    await user.type(screen.getByLabelText(/Completed date/), '2024-05-07');
    const file = new File(['%PDF-1.4'], 'certificate.pdf', { type: 'application/pdf' });
    await user.upload(screen.getByLabelText('Evidence file'), file);
    await user.click(screen.getByRole('button', { name: 'Send for approval' }));

    expect(await screen.findByRole('heading', { name: 'Start page' })).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST');
    const form = post?.body as FormData;
    expect(form.get('user_id')).toBe('7');
    expect(form.get('course_id')).toBe('3');
    expect(form.get('completed_at')).toBe('2024-05-07');
    expect((form.get('evidence') as File).name).toBe('certificate.pdf');
    expect(notificationsStore.get().map((n) => n.message)).toEqual([
      'Your training record for Fire safety (completed 07/05/2024) has been sent to your manager and awaits their approval. It will count once approved.',
    ]);
  });

  it('keeps the full form (user picker) for who holds add record (26) unless opened as ?self=1', async () => {
    setUser(makeUser({ permissions: [{ id: 26, slug: 'add-record' }] }));
    const { unmount } = renderForm();
    expect(await screen.findByRole('heading', { name: 'Add a historical result' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /User/ })).toBeInTheDocument();
    unmount();
    renderForm('/results/historical/create?self=1');
    expect(await screen.findByRole('heading', { name: 'Add training record' })).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /User/ })).toBeNull();
  });
});
