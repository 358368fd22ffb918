import { Messages } from '@cc/contracts';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { FormSection } from '../entities/shared';
import { TextField } from '../ui';
import { type H5pDto, KINDS, routeId } from './api';
import { EditorForm, EditorFrame, FormFooter, useEditor } from './editor';
import { PackageUpload } from './PackageUpload';

interface H5pForm {
  title: string;
  video_id: string;
}
const toForm = (h: H5pDto | null): H5pForm => ({ title: h?.title ?? '', video_id: h?.video_id ?? '' });

/** `/content-creator/h5ps/create` and `/update/{id}` (spec 2 §3 H5P: title, video_id). */
export default function H5pFormPage() {
  const id = routeId(useParams().id);
  const k = KINDS.h5ps;
  const ed = useEditor({
    kind: 'h5ps',
    id,
    toForm: useCallback(toForm, []),
    listPath: k.base,
    updatePath: (h) => `${k.base}/update/${h.id}`,
    created: Messages.h5pCreated,
    updated: Messages.h5pUpdated,
  });
  const { form, setForm, item } = ed;
  const creating = id === null;
  return (
    <EditorFrame
      editor={ed}
      kind="h5ps"
      title={creating ? 'Add an H5P item' : (item?.title ?? 'Edit H5P item')}
      listLabel={k.plural}
      listPath={k.base}
    >
      {form ? (
        <EditorForm
          label="H5P item"
          onSubmit={() => ed.save.mutate({ title: form.title, video_id: form.video_id.trim() || null })}
        >
          <FormSection title="H5P item">
            <TextField
              label="Title"
              required
              value={form.title}
              onChange={(e) => setForm({ ...form, title: e.target.value })}
              error={ed.fieldErrors.title}
            />
            <TextField
              label="Video id"
              hint="Optional: the id of a video this item plays."
              value={form.video_id}
              onChange={(e) => setForm({ ...form, video_id: e.target.value })}
              error={ed.fieldErrors.video_id}
            />
          </FormSection>
          <FormFooter cancelTo={k.base} saving={ed.save.isPending} creating={creating} />
        </EditorForm>
      ) : null}
      {item ? (
        <PackageUpload
          title={item.library ? `H5P package (${item.library})` : 'H5P package'}
          endpoint={`/h5ps/${item.id}/package`}
          accept=".h5p"
          hint="An .h5p file. Uploading again replaces the package."
          invalidate={['content-creator', 'h5ps', 'one', item.id]}
        />
      ) : null}
    </EditorFrame>
  );
}
