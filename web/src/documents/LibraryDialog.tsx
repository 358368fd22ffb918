import { CreateLibraryBody, type LibraryView, UpdateLibraryBody } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useWhitelabel } from '../app/whitelabel';
import { useEntityOptions } from '../entities/queries';
import { useFormSave } from '../entities/shared';
import { FormDialog, Select, TextArea, TextField } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { createLibrary, DocumentMessages, docAction, updateLibrary } from './api';

/** `library`: undefined = closed, null = create, a library = rename it. */
export function LibraryDialog({
  library,
  onClose,
}: {
  library: LibraryView | null | undefined;
  onClose: () => void;
}) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const creating = library === null;
  const entities = useEntityOptions(creating);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [entity, setEntity] = useState('');
  const save = useFormSave('The library could not be saved.');
  const { errors, reset } = save;
  useEffect(() => {
    if (library === undefined) return;
    setName(library?.name ?? '');
    setDescription(library?.description ?? '');
    setEntity('');
    reset();
  }, [library, reset]);

  const submit = () => {
    if (library === undefined) return;
    const body = { name, description: description.trim() || null, entity: entity || undefined };
    if (!save.check(creating ? CreateLibraryBody.safeParse(body) : UpdateLibraryBody.safeParse(body))) return;
    void save.run(
      () =>
        docAction(
          queryClient,
          () =>
            library
              ? updateLibrary(library.id, { name: body.name, description: body.description })
              : createLibrary(body),
          library ? DocumentMessages.libraryUpdated : DocumentMessages.libraryCreated,
          { quietErrors: true },
        ),
      onClose,
    );
  };

  return (
    <FormDialog
      open={library !== undefined}
      title={creating ? 'Add a library' : 'Rename library'}
      description={
        creating
          ? `A library holds policies and procedures for a ${organisationWord(wl).toLowerCase()} and everyone below it.`
          : undefined
      }
      submitLabel={creating ? 'Add library' : 'Save'}
      busy={save.busy}
      refusal={save.refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Name"
        required
        value={name}
        maxLength={200}
        onChange={(e) => setName(e.target.value)}
        error={errors.name}
      />
      <TextArea
        label="Description"
        hint="Optional: what staff will find here."
        value={description}
        maxLength={2000}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
      />
      {creating && (entities.data?.length ?? 0) > 1 ? (
        <Select
          label={organisationWord(wl)}
          hint={`Staff of this ${organisationWord(wl).toLowerCase()} and those below it see the library.`}
          placeholder={`Your own ${organisationWord(wl).toLowerCase()}`}
          value={entity}
          onChange={(e) => setEntity(e.target.value)}
          options={(entities.data ?? []).map((e) => ({
            value: e.slug,
            label: e.parent ? `${e.name} (${e.parent})` : e.name,
          }))}
          error={errors.entity}
        />
      ) : null}
    </FormDialog>
  );
}
