import { MODAL_DEFAULTS } from '@cc/contracts';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button } from './Button';
import { FormError } from './FormError';

/**
 * A dialog holding a small form (cancel a session, order places, add delegates, save a library, an endpoint or a
 * token): Escape and Cancel close it unless busy; the submit button shows progress. Focus is trapped and restored by
 * Headless UI. `refusal`: a failure that is no field's (entities/shared useFormSave), shown above the fields.
 */
export function FormDialog({
  open,
  title,
  description,
  submitLabel,
  tone = 'primary',
  busy,
  refusal,
  onSubmit,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  submitLabel: string;
  tone?: 'primary' | 'danger';
  busy: boolean;
  refusal?: string | null;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog
      open={open}
      onClose={() => (busy ? undefined : onClose())}
      className="relative"
      style={{ zIndex: MODAL_DEFAULTS.zIndexStart + 40 }}
    >
      <div className="fixed inset-0 bg-slate-900/60" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto p-4">
        <div className="flex min-h-full items-center justify-center">
          <DialogPanel className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl">
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
            <form
              noValidate
              className="mt-4 space-y-4"
              onSubmit={(e) => {
                e.preventDefault();
                onSubmit();
              }}
            >
              {refusal ? <FormError error={{ message: refusal }} /> : null}
              {children}
              <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
                <Button variant="secondary" onClick={onClose} disabled={busy}>
                  Cancel
                </Button>
                <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} loading={busy}>
                  {submitLabel}
                </Button>
              </div>
            </form>
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
