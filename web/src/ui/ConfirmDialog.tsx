import { MODAL_DEFAULTS } from '@cc/contracts';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { type ReactNode, useState } from 'react';
import { Button } from './Button';

/**
 * Ask before a destructive action (deletes). `onConfirm` may be async: the button shows progress and the
 * dialog closes when it resolves; a rejection keeps it open (show the error with a notification).
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  tone = 'danger',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  onConfirm: () => void | Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch {
      // the caller reports the failure
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      role="alertdialog"
      onClose={() => (busy ? undefined : onClose())}
      className="relative"
      style={{ zIndex: MODAL_DEFAULTS.zIndexStart + 50 }}
    >
      <div className="fixed inset-0 bg-slate-900/60" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          <div className="mt-2 text-sm text-slate-700">{message}</div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {cancelLabel}
            </Button>
            <Button variant={tone === 'danger' ? 'danger' : 'primary'} onClick={confirm} loading={busy}>
              {confirmLabel}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
