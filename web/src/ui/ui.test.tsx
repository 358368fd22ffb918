import { MODAL_DEFAULTS } from '@cc/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from '../app/Modal';
import { hideModal, modalStore, showModal } from '../app/modal';
import { Button } from './Button';
import { TextField } from './Field';
import { CardPagination, Pagination, pageWindow } from './Pagination';
import { TOGGLE_DEFAULTS, Toggle } from './Toggle';

function Harness({ disabled = false }: { disabled?: boolean }) {
  const [on, setOn] = useState(false);
  return (
    <Toggle
      checked={on}
      onChange={setOn}
      label="E-mail reminders"
      labels={{ checked: 'on', unchecked: 'off' }}
      disabled={disabled}
    />
  );
}

describe('Toggle (spec 1 §3)', () => {
  it('is a keyboard-operable switch with the spec defaults', async () => {
    render(<Harness />);
    const toggle = screen.getByRole('switch', { name: 'E-mail reminders' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(toggle).toHaveStyle({ width: '50px', height: '20px' });
    expect(TOGGLE_DEFAULTS.fontSize).toBe(10);
    await userEvent.tab();
    expect(toggle).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    expect(toggle).toHaveStyle({ backgroundColor: TOGGLE_DEFAULTS.checkedColour });
    await userEvent.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-checked', 'false');
  });

  it('does nothing when disabled', async () => {
    render(<Harness disabled />);
    const toggle = screen.getByRole('switch');
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-checked', 'false');
  });
});

describe('fields', () => {
  it('wires hint and error to the input with aria-describedby', () => {
    render(<TextField label="Name" hint="As on the certificate" error={['The name field is required.']} />);
    const input = screen.getByLabelText('Name');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('As on the certificate The name field is required.');
  });
});

describe('Button', () => {
  it('is disabled and busy while loading', () => {
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });
});

describe('Pagination', () => {
  it('shows a window of pages and moves by keyboard', async () => {
    const onPage = vi.fn();
    render(<Pagination meta={{ current_page: 5, last_page: 20, total: 300 }} onPageChange={onPage} />);
    expect(pageWindow(5, 20)).toEqual([1, null, 4, 5, 6, null, 20]);
    expect(screen.getByRole('button', { name: 'Page 5' })).toHaveAttribute('aria-current', 'page');
    screen.getByRole('button', { name: 'Next' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(onPage).toHaveBeenCalledWith(6);
  });

  it('CardPagination shows nothing until the list has rows', () => {
    const { container, rerender } = render(
      <CardPagination meta={undefined} onPageChange={() => {}} label="User pages" />,
    );
    expect(container).toBeEmptyDOMElement();
    rerender(
      <CardPagination
        meta={{ current_page: 1, last_page: 1, total: 0 }}
        onPageChange={() => {}}
        label="User pages"
      />,
    );
    expect(container).toBeEmptyDOMElement();
    rerender(
      <CardPagination
        meta={{ current_page: 1, last_page: 2, total: 30 }}
        onPageChange={() => {}}
        label="User pages"
      />,
    );
    expect(screen.getByRole('navigation', { name: 'User pages' })).toBeInTheDocument();
  });

  it('disables Previous on the first page', () => {
    render(<Pagination meta={{ current_page: 1, last_page: 3, total: 40 }} onPageChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });
});

describe('Modal (spec 1 §2)', () => {
  it('renders into #container when shown by name, with data, default width and stacking', async () => {
    const container = document.createElement('div');
    container.id = 'container';
    document.body.appendChild(container);
    render(
      <Modal<{ who: string }> name="hello" title="Hello">
        {(data) => <p>Hi {data?.who}</p>}
      </Modal>,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => showModal('hello', { who: 'Ann' }));
    const dialog = await screen.findByRole('dialog');
    expect(container.contains(dialog)).toBe(true);
    expect(within(dialog).getByText('Hi Ann')).toBeInTheDocument();
    expect(dialog.style.width).toBe(MODAL_DEFAULTS.width);
    expect((dialog.closest('[data-modal]') as HTMLElement).style.zIndex).toBe('99');
    expect(dialog).toHaveAccessibleName('Hello');
    await vi.waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await userEvent.keyboard('{Escape}');
    expect(modalStore.get().hello.visible).toBe(false);
    container.remove();
  });

  it('closes from the close button', async () => {
    render(
      <Modal name="bye" title="Bye">
        content
      </Modal>,
    );
    act(() => showModal('bye'));
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(modalStore.get().bye.visible).toBe(false);
    act(() => hideModal('bye'));
  });

  it('closes on a click on the backdrop', async () => {
    render(
      <Modal name="backdrop" title="Backdrop">
        content
      </Modal>,
    );
    act(() => showModal('backdrop'));
    await userEvent.click(await screen.findByTestId('modal-backdrop'));
    expect(modalStore.get().backdrop.visible).toBe(false);
  });
});
