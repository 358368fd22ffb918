import { MODAL_DEFAULTS } from '@cc/contracts';
import { FocusTrap, FocusTrapFeatures } from '@headlessui/react';
import { type ReactNode, useEffect, useId } from 'react';
import { createPortal } from 'react-dom';
import { useModal } from './modal';

function modalContainer(): HTMLElement {
  let el = document.getElementById('container');
  if (!el) {
    el = document.createElement('div');
    el.id = 'container';
    document.body.appendChild(el);
  }
  return el;
}

export interface ModalProps<T> {
  name: string;
  title: string;
  /** Default 600px, capped by maxWidth (default 1200px) and the screen. */
  width?: string;
  maxWidth?: string;
  height?: string;
  scrollable?: boolean;
  children: ReactNode | ((data: T | undefined) => ReactNode);
  footer?: ReactNode;
}

/**
 * The named modal of spec 1 §2, portalled into #container. Headless UI's FocusTrap keeps focus inside and
 * restores it on close. (Headless UI's Dialog always portals into its own root, so it cannot honour the
 * spec's #container; we use its focus trap and add Escape, the backdrop click and the scroll lock here.)
 */
export function Modal<T = unknown>({
  name,
  title,
  width = MODAL_DEFAULTS.width,
  maxWidth = MODAL_DEFAULTS.maxWidth,
  height,
  scrollable = false,
  children,
  footer,
}: ModalProps<T>) {
  const modal = useModal<T>(name);
  const titleId = useId();
  const { visible, hide } = modal;

  useEffect(() => {
    if (!visible) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        hide();
      }
    };
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    document.addEventListener('keydown', onKey);
    return () => {
      document.body.style.overflow = previous;
      document.removeEventListener('keydown', onKey);
    };
  }, [visible, hide]);

  if (!visible) return null;
  return createPortal(
    <div className="fixed inset-0" style={{ zIndex: modal.zIndex }} data-modal={name}>
      {/* The dark backdrop: a click on it closes the modal (spec 1 §2). */}
      <div
        className="fixed inset-0 bg-slate-900/60"
        aria-hidden="true"
        data-testid="modal-backdrop"
        onClick={hide}
      />
      <div className="pointer-events-none fixed inset-0 flex items-center justify-center p-3 sm:p-6">
        <FocusTrap
          features={
            FocusTrapFeatures.InitialFocus | FocusTrapFeatures.TabLock | FocusTrapFeatures.RestoreFocus
          }
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          className={`pointer-events-auto flex w-full flex-col rounded-xl bg-white shadow-xl ${scrollable ? 'overflow-hidden' : ''}`}
          style={{ width, maxWidth: `min(${maxWidth}, 100%)`, height, maxHeight: '100%' }}
        >
          <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-4">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            <button
              type="button"
              onClick={hide}
              className="focus-ring rounded-md p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              aria-label="Close"
            >
              <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
                <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <div className={`px-5 py-4 ${scrollable ? 'min-h-0 flex-1 overflow-y-auto' : ''}`}>
            {typeof children === 'function' ? children(modal.data) : children}
          </div>
          {footer ? (
            <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div>
          ) : null}
        </FocusTrap>
      </div>
    </div>,
    modalContainer(),
  );
}
