import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import {
  errorEnvelope,
  isNotFound,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
} from '../entities/shared';
import { Button, ButtonLink, ConfirmDialog, PageHeader } from '../ui';
import { type DtoOf, KINDS, type Kind, useItem } from './api';

/**
 * Create and update screens of the content creator share this: load the item (update), keep a form state,
 * POST or PATCH, toast the server's message (the spec's texts), go to the update screen after a create, and
 * delete behind a confirm, back to the list (spec 2 §2).
 */
export function useEditor<K extends Kind, F>({
  kind,
  id,
  toForm,
  listPath,
  updatePath,
  created,
  updated,
}: {
  kind: K;
  id: number | null;
  toForm: (dto: DtoOf[K] | null) => F;
  listPath: string;
  updatePath: (dto: DtoOf[K]) => string;
  created: string;
  updated: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // After a delete the item is gone: stop asking for it (no 404 redirect while leaving for the list).
  const [deleted, setDeleted] = useState(false);
  const query = useItem(kind, deleted ? null : id);
  const [form, setForm] = useState<F | null>(() => (id === null ? toForm(null) : null));
  // The same page component serves /create and /update/{id}: when the id changes (after a create), start again
  // from the item (React's "adjust state when a prop changes" pattern).
  const [formFor, setFormFor] = useState(id);
  if (formFor !== id) {
    setFormFor(id);
    const cached =
      id === null ? null : queryClient.getQueryData<DtoOf[K]>(['content-creator', kind, 'one', id]);
    setForm(id === null ? toForm(null) : cached ? toForm(cached) : null);
  }
  useEffect(() => {
    if (query.data && form === null) setForm(toForm(query.data));
  }, [query.data, form, toForm]);
  const notFound = isNotFound(query.error);
  useEffect(() => {
    if (notFound) navigate(`/404?resource=${kind}`, { replace: true });
  }, [notFound, navigate, kind]);

  const save = useMutation({
    mutationFn: async (body: unknown) =>
      id === null
        ? (await api.post<Envelope<DtoOf[K]>>(`/${kind}`, body)).data
        : (await api.patch<Envelope<DtoOf[K]>>(`/${kind}/${id}`, body)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? (id === null ? created : updated));
      void queryClient.invalidateQueries({ queryKey: ['content-creator', kind] });
      queryClient.setQueryData(['content-creator', kind, 'one', res.data.id], res.data);
      if (id === null) navigate(updatePath(res.data));
      else setForm(toForm(res.data));
    },
  });
  const remove = async () => {
    try {
      const res = await api.delete<{ message?: string }>(`/${kind}/${id}`);
      setDeleted(true);
      notifySuccess(res.data?.message ?? KINDS[kind].deleted);
      queryClient.removeQueries({ queryKey: ['content-creator', kind, 'one', id] });
      void queryClient.invalidateQueries({ queryKey: ['content-creator', kind, 'list'] });
      void queryClient.invalidateQueries({ queryKey: ['content-creator', kind, 'options'] });
      navigate(listPath);
    } catch (error) {
      notifyError(errorEnvelope(error, KINDS[kind].loadError), KINDS[kind].loadError);
      throw error;
    }
  };
  /** The item after a link change (add/remove/order) answered with the new list. */
  const patchItem = (patch: Partial<DtoOf[K]>) =>
    queryClient.setQueryData(['content-creator', kind, 'one', id], (old: DtoOf[K] | undefined) =>
      old ? { ...old, ...patch } : old,
    );
  return {
    creating: id === null,
    query,
    item: query.data ?? null,
    form,
    setForm,
    save,
    fieldErrors: serverFieldErrors(save.error),
    remove,
    patchItem,
  };
}

/** What the frame reads from useEditor: loading and error states, the item's title and delete. */
interface EditorFrameState {
  creating: boolean;
  query: { isLoading: boolean; error: unknown; refetch: () => unknown };
  item: { title: string } | null;
  form: unknown;
  save: { error: unknown };
  remove: () => Promise<void>;
}

/** The frame of an editor: header with breadcrumbs, loading/error states, the form and a delete button. */
export function EditorFrame({
  kind,
  editor,
  title,
  listLabel,
  listPath,
  clientErrors = {},
  children,
}: {
  kind: Kind;
  editor: EditorFrameState;
  title: string;
  listLabel: string;
  listPath: string;
  clientErrors?: Record<string, string[]>;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const { creating, query, item } = editor;
  // An update screen waits for the item and for the form made from it.
  const loading = !creating && (query.isLoading || (item !== null && !editor.form));
  const onDelete = creating ? undefined : editor.remove;
  const singular = KINDS[kind].singular;
  return (
    <div>
      <PageHeader
        title={title}
        breadcrumbs={[
          { label: 'Content creator', to: '/content-creator' },
          { label: listLabel, to: listPath },
          { label: title },
        ]}
        actions={
          onDelete ? (
            <Button variant="danger" onClick={() => setConfirming(true)}>
              Delete {singular}
            </Button>
          ) : undefined
        }
      />
      {loading ? (
        <LoadingCard lines={7} />
      ) : query.error ? (
        <LoadError
          error={query.error}
          fallback={KINDS[kind].loadError}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <div className="space-y-5">
          <SaveErrors error={editor.save.error} clientErrors={clientErrors} />
          {children}
        </div>
      )}
      {onDelete ? (
        <ConfirmDialog
          open={confirming}
          title={`Delete this ${singular}?`}
          message={
            <p>
              <strong className="break-words">{item?.title}</strong> will be deleted. This cannot be undone.
            </p>
          }
          onConfirm={onDelete}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </div>
  );
}

/** Cancel and save buttons under a form. */
export function FormFooter({
  cancelTo,
  saving,
  creating,
}: {
  cancelTo: string;
  saving: boolean;
  creating: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <ButtonLink to={cancelTo} variant="secondary">
        {creating ? 'Cancel' : 'Back to the list'}
      </ButtonLink>
      <Button type="submit" loading={saving}>
        {creating ? 'Create' : 'Save changes'}
      </Button>
    </div>
  );
}

/** A form that never reloads the page. */
export function EditorForm({
  onSubmit,
  children,
  label,
}: {
  onSubmit: () => void;
  children: ReactNode;
  label: string;
}) {
  return (
    <form
      aria-label={label}
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
