import { CreateLibraryBody, type WebhookEndpointView } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../app/api';
import { notificationsStore } from '../app/notifications';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import { FormDialog, TextField } from '../ui';
import { EndpointDialog } from '../webhooks/EndpointDialog';
import { useFormSave } from './shared';

/** A dialog built the way the library, document, endpoint and token dialogs are: FormDialog + useFormSave. */
function NameDialog({
  send,
  onClose,
  alwaysRefusal,
}: {
  send: (name: string) => Promise<string>;
  onClose: (saved?: string) => void;
  alwaysRefusal?: boolean;
}) {
  const [name, setName] = useState('');
  const save = useFormSave('The library could not be saved.', { alwaysRefusal });
  return (
    <FormDialog
      open
      title="Add a library"
      submitLabel="Add library"
      busy={save.busy}
      refusal={save.refusal}
      onSubmit={() => {
        if (!save.check(CreateLibraryBody.safeParse({ name }))) return;
        void save.run(() => send(name), onClose);
      }}
      onClose={() => onClose()}
    >
      <TextField
        label="Name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={save.errors.name}
      />
    </FormDialog>
  );
}

const refused = (status: number, data: object) => new ApiError({ status, data, headers: new Headers() });

describe('FormDialog + useFormSave (the shared dialog form)', () => {
  it('shows the contract’s own check beside the field and sends nothing', async () => {
    const send = vi.fn(async () => 'saved');
    render(<NameDialog send={send} onClose={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add library' }));
    expect(screen.getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(send).not.toHaveBeenCalled();
  });

  it('is busy while the save runs (Cancel disabled), then hands the result on', async () => {
    let finish: (v: string) => void = () => {};
    const send = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const onClose = vi.fn();
    render(<NameDialog send={send} onClose={onClose} />);
    await userEvent.type(screen.getByLabelText(/Name/), 'Policies');
    await userEvent.click(screen.getByRole('button', { name: 'Add library' }));
    expect(send).toHaveBeenCalledWith('Policies');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await userEvent.keyboard('{Escape}');
    expect(onClose).not.toHaveBeenCalled();
    finish('saved');
    await waitFor(() => expect(onClose).toHaveBeenCalledWith('saved'));
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('puts the server’s 422 errors beside their fields, with no message above them', async () => {
    const send = vi.fn(async () => {
      throw refused(422, {
        message: 'The given data was invalid.',
        errors: { name: ['That name is taken.'] },
      });
    });
    const onClose = vi.fn();
    render(<NameDialog send={send} onClose={onClose} />);
    await userEvent.type(screen.getByLabelText(/Name/), 'Policies');
    await userEvent.click(screen.getByRole('button', { name: 'Add library' }));
    expect(await screen.findByText('That name is taken.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('with alwaysRefusal (the account page’s forms), shows the server’s message above its field errors too', async () => {
    const send = vi.fn(async () => {
      throw refused(422, {
        message: 'The given data was invalid.',
        errors: { name: ['That name is taken.'] },
      });
    });
    render(<NameDialog send={send} onClose={() => {}} alwaysRefusal />);
    await userEvent.type(screen.getByLabelText(/Name/), 'Policies');
    await userEvent.click(screen.getByRole('button', { name: 'Add library' }));
    expect(await screen.findByText('That name is taken.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The given data was invalid.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('That name is taken.');
  });

  it('shows any other refusal above the fields (the server’s words, else the fallback) and clears it on the next try', async () => {
    const send = vi
      .fn<(name: string) => Promise<string>>()
      .mockRejectedValueOnce(refused(409, { message: 'A library is being moved; try again.' }))
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce('saved');
    const onClose = vi.fn();
    render(<NameDialog send={send} onClose={onClose} />);
    await userEvent.type(screen.getByLabelText(/Name/), 'Policies');
    const submit = screen.getByRole('button', { name: 'Add library' });
    await userEvent.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('A library is being moved; try again.');
    await userEvent.click(submit);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('The library could not be saved.'),
    );
    await userEvent.click(submit);
    await waitFor(() => expect(onClose).toHaveBeenCalledWith('saved'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('EndpointDialog on the shared dialog form', () => {
  let calls: ApiCall[] = [];
  let answer: (call: ApiCall) => Response | undefined = () => undefined;
  beforeEach(() => {
    notificationsStore.set([]);
    answer = () => undefined;
    calls = stubApi((c) => answer(c));
  });
  afterEach(() => vi.unstubAllGlobals());

  const wrap = (children: ReactNode) =>
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>,
    );

  it('shows a 422 on `event_types.0` under the events, then closes and hands on the saved endpoint', async () => {
    const onClose = vi.fn();
    const onSaved = vi.fn();
    wrap(<EndpointDialog endpoint={null} onClose={onClose} onSaved={onSaved} />);
    await userEvent.type(screen.getByLabelText(/Endpoint address/), 'https://example.com/hook');
    await userEvent.click(screen.getAllByRole('checkbox')[0] as HTMLElement);
    answer = (c) =>
      c.method === 'POST' && c.route === '/webhooks'
        ? json(422, {
            message: 'The given data was invalid.',
            errors: { 'event_types.0': ['Not an event we send.'] },
          })
        : undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('Not an event we send.')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();

    const saved = { id: 9, url: 'https://example.com/hook' } as WebhookEndpointView;
    answer = (c) =>
      c.method === 'POST' && c.route === '/webhooks'
        ? json(201, { message: 'Saved.', data: saved })
        : undefined;
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(onClose).toHaveBeenCalled();
    const posts = calls.filter((c) => c.method === 'POST' && c.route === '/webhooks');
    expect(posts).toHaveLength(2);
    expect(posts[1]?.body).toMatchObject({
      url: 'https://example.com/hook',
      enabled: true,
      description: null,
    });
  });
});
