import { Messages } from '@cc/contracts';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { FormSection } from '../entities/shared';
import { Button, Checkbox, Select, TextArea, TextField } from '../ui';
import { KINDS, routeId, type TopicDto, useOptions } from './api';
import { EditorForm, EditorFrame, FormFooter, useEditor } from './editor';
import { RichPreview } from './RichPreview';

interface Resource {
  key: string;
  title: string;
  url: string;
}
interface TopicForm {
  title: string;
  body_html: string;
  hidden: boolean;
  skippable: boolean;
  is_child: boolean;
  h5p_id: string;
  resources: Resource[];
}
let resKey = 0;
const toForm = (t: TopicDto | null): TopicForm => ({
  title: t?.title ?? '',
  body_html: t?.body_html ?? '',
  hidden: t?.hidden ?? false,
  skippable: t?.skippable ?? false,
  is_child: t?.is_child ?? false,
  h5p_id: t?.h5p_id ? String(t.h5p_id) : '',
  resources: (t?.resources ?? []).map((r) => ({ key: `r-${++resKey}`, ...r })),
});

/** `/content-creator/topics/create` and `/update/{id}` (spec 2 §3 Topic; update sends h5p_id). */
export default function TopicFormPage() {
  const id = routeId(useParams().id);
  const k = KINDS.topics;
  const ed = useEditor({
    kind: 'topics',
    id,
    toForm: useCallback(toForm, []),
    listPath: k.base,
    updatePath: (t) => `${k.base}/update/${t.id}`,
    created: Messages.topicCreated,
    updated: Messages.topicUpdated,
  });
  const h5ps = useOptions('h5ps');
  const { form, setForm, item } = ed;
  const errors = ed.fieldErrors;
  const creating = id === null;
  const set = (patch: Partial<TopicForm>) => setForm((f) => (f ? { ...f, ...patch } : f));
  const setResource = (key: string, patch: Partial<Resource>) =>
    form && set({ resources: form.resources.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const submit = () => {
    if (!form) return;
    ed.save.mutate({
      title: form.title,
      body_html: form.body_html,
      hidden: form.hidden,
      skippable: form.skippable,
      is_child: form.is_child,
      h5p_id: form.h5p_id ? Number(form.h5p_id) : null,
      resources: form.resources.map(({ title, url }) => ({ title: title.trim(), url: url.trim() })),
    });
  };
  return (
    <EditorFrame
      editor={ed}
      kind="topics"
      title={creating ? 'Add a topic' : (item?.title ?? 'Edit topic')}
      listLabel={k.plural}
      listPath={k.base}
    >
      {form ? (
        <EditorForm label="Topic" onSubmit={submit}>
          <FormSection title="Topic details">
            <TextField
              label="Title"
              required
              value={form.title}
              onChange={(e) => set({ title: e.target.value })}
              error={errors.title}
            />
            <Select
              label="H5P item"
              value={form.h5p_id}
              onChange={(e) => set({ h5p_id: e.target.value })}
              error={errors.h5p_id}
              placeholder={h5ps.isLoading ? 'Loading…' : 'None'}
              options={(h5ps.data ?? []).map((h) => ({ value: h.id, label: h.title }))}
            />
          </FormSection>
          <FormSection
            title="Body"
            columns={2}
            description="Write HTML: paragraphs, headings, lists and links."
          >
            <TextArea
              label="Body (HTML)"
              className="min-h-56 font-mono"
              value={form.body_html}
              onChange={(e) => set({ body_html: e.target.value })}
              error={errors.body_html}
            />
            <div className="space-y-1.5">
              <span className="block text-sm font-medium text-slate-800">Preview</span>
              <RichPreview html={form.body_html} label="Body preview" />
            </div>
          </FormSection>
          <FormSection title="Behaviour" columns={1}>
            <Checkbox
              label="Hidden"
              hint="Learners do not see this topic."
              checked={form.hidden}
              onChange={(e) => set({ hidden: e.target.checked })}
            />
            <Checkbox
              label="Skippable"
              hint="Learners may move on without finishing it."
              checked={form.skippable}
              onChange={(e) => set({ skippable: e.target.checked })}
            />
            <Checkbox
              label="Child topic"
              hint="Shown nested under the topic before it."
              checked={form.is_child}
              onChange={(e) => set({ is_child: e.target.checked })}
            />
          </FormSection>
          <FormSection
            title="Resources"
            columns={1}
            description="Links learners can open alongside the topic."
          >
            {form.resources.map((r, i) => (
              <fieldset
                key={r.key}
                className="grid grid-cols-1 gap-3 rounded-lg p-3 ring-1 ring-slate-200 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
              >
                <legend className="sr-only">Resource {i + 1}</legend>
                <TextField
                  label={`Resource ${i + 1} title`}
                  value={r.title}
                  onChange={(e) => setResource(r.key, { title: e.target.value })}
                  error={errors[`resources.${i}.title`]}
                />
                <TextField
                  label={`Resource ${i + 1} address`}
                  type="url"
                  placeholder="https://"
                  value={r.url}
                  onChange={(e) => setResource(r.key, { url: e.target.value })}
                  error={errors[`resources.${i}.url`]}
                />
                <Button
                  variant="ghost"
                  onClick={() => set({ resources: form.resources.filter((x) => x.key !== r.key) })}
                >
                  Remove
                </Button>
              </fieldset>
            ))}
            <div>
              <Button
                variant="secondary"
                size="sm"
                onClick={() =>
                  set({ resources: [...form.resources, { key: `r-${++resKey}`, title: '', url: '' }] })
                }
              >
                Add a resource
              </Button>
            </div>
          </FormSection>
          <FormFooter cancelTo={k.base} saving={ed.save.isPending} creating={creating} />
        </EditorForm>
      ) : null}
    </EditorFrame>
  );
}
