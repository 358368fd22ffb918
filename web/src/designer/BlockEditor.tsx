import { CALLOUT_TONES, type DesignBlock, DesignerMessages, videoHostOf } from '@cc/contracts';
import { useId, useState } from 'react';
import { api, type Envelope } from '../app/api';
import { notifyError } from '../app/notifications';
import { useOptions } from '../content/api';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import { Button, Select, TextArea, TextField } from '../ui';
import { wrapSelection } from './model';

/**
 * The inline form of one block. Each type edits its own fields and hands the whole new block to `onChange`.
 * `errors`: the server's 422 messages for this block, keyed by field.
 */
export interface BlockEditorProps<B extends DesignBlock = DesignBlock> {
  block: B;
  onChange: (block: B) => void;
  errors: Record<string, string[]>;
}

export function BlockEditor({ block, onChange, errors }: BlockEditorProps) {
  switch (block.type) {
    case 'heading':
      return (
        <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
          <TextField
            label="Heading"
            value={block.text}
            maxLength={200}
            error={errors.text}
            onChange={(e) => onChange({ ...block, text: e.target.value })}
          />
          <Select
            label="Size"
            value={block.level}
            options={[
              { value: 2, label: 'Large' },
              { value: 3, label: 'Small' },
            ]}
            onChange={(e) => onChange({ ...block, level: Number(e.target.value) === 3 ? 3 : 2 })}
          />
        </div>
      );
    case 'text':
      return (
        <RichSource
          label="Text"
          value={block.html}
          error={errors.html}
          onChange={(html) => onChange({ ...block, html })}
        />
      );
    case 'callout':
      return (
        <div className="space-y-3">
          <Select
            label="Kind"
            value={block.tone}
            options={CALLOUT_TONES.map((t) => ({ value: t, label: TONE_LABELS[t] }))}
            onChange={(e) => onChange({ ...block, tone: e.target.value as (typeof CALLOUT_TONES)[number] })}
          />
          <RichSource
            label="Callout text"
            value={block.html}
            error={errors.html}
            onChange={(html) => onChange({ ...block, html })}
          />
        </div>
      );
    case 'accordion':
      return <AccordionEditor block={block} onChange={onChange} errors={errors} />;
    case 'image':
      return <ImageEditor block={block} onChange={onChange} errors={errors} />;
    case 'video':
      return <VideoEditor block={block} onChange={onChange} errors={errors} />;
    case 'h5p':
      return <H5pEditor block={block} onChange={onChange} errors={errors} />;
    case 'question':
      return <QuestionEditor block={block} onChange={onChange} errors={errors} />;
  }
}

const TONE_LABELS = { info: 'Note', tip: 'Tip', warning: 'Warning' } as const;

/**
 * A plain textarea for rich text with a small toolbar (bold, italic, list, link) that writes the tags around the
 * selection. Paragraphs are separated by a blank line. The server sanitises whatever arrives.
 */
function RichSource({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  const wrap = (before: string, after: string) => {
    // The ui TextArea takes no ref: its element is found by the id given to it.
    const el = document.getElementById(id) as HTMLTextAreaElement | null;
    if (!el) return;
    const next = wrapSelection(value, el.selectionStart, el.selectionEnd, before, after);
    onChange(next.value);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.start, next.end);
    });
  };
  const link = () => {
    const href = window.prompt('Link address (https://…)');
    if (href && /^(https?:\/\/|mailto:)/i.test(href.trim()))
      wrap(`<a href="${href.trim().replace(/"/g, '%22')}">`, '</a>');
  };
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap gap-1" role="toolbar" aria-label={`${label} formatting`}>
        <Button size="sm" variant="secondary" onClick={() => wrap('<strong>', '</strong>')}>
          <span className="font-bold">Bold</span>
        </Button>
        <Button size="sm" variant="secondary" onClick={() => wrap('<em>', '</em>')}>
          <span className="italic">Italic</span>
        </Button>
        <Button size="sm" variant="secondary" onClick={() => wrap('<ul>\n<li>', '</li>\n</ul>')}>
          List
        </Button>
        <Button size="sm" variant="secondary" onClick={link}>
          Link
        </Button>
      </div>
      <TextArea
        id={id}
        label={label}
        value={value}
        rows={5}
        error={error}
        hint="Leave a blank line between paragraphs. Select words, then use the buttons above to format them."
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function AccordionEditor({
  block,
  onChange,
  errors,
}: BlockEditorProps<Extract<DesignBlock, { type: 'accordion' }>>) {
  const setItem = (i: number, item: { title: string; html: string }) =>
    onChange({ ...block, items: block.items.map((x, j) => (j === i ? item : x)) });
  return (
    <div className="space-y-4">
      {block.items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: sections are positional (titles may repeat or be empty)
        <fieldset key={i} className="space-y-2 rounded-lg border border-slate-200 p-3">
          <legend className="px-1 text-sm font-medium text-slate-700">Section {i + 1}</legend>
          <TextField
            label="Section title"
            value={item.title}
            error={errors[`items.${i}.title`]}
            onChange={(e) => setItem(i, { ...item, title: e.target.value })}
          />
          <RichSource
            label="Section text"
            value={item.html}
            error={errors[`items.${i}.html`]}
            onChange={(html) => setItem(i, { ...item, html })}
          />
          {block.items.length > 1 ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onChange({ ...block, items: block.items.filter((_, j) => j !== i) })}
            >
              Remove section {i + 1}
            </Button>
          ) : null}
        </fieldset>
      ))}
      {block.items.length < 30 ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onChange({ ...block, items: [...block.items, { title: '', html: '' }] })}
        >
          Add a section
        </Button>
      ) : null}
    </div>
  );
}

function ImageEditor({ block, onChange, errors }: BlockEditorProps<Extract<DesignBlock, { type: 'image' }>>) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string[] | undefined>();
  const upload = async (file: File) => {
    setBusy(true);
    setUploadError(undefined);
    try {
      // The content creator's image upload: checked by its bytes on the server, served from /api/files/{uuid}.
      const res = await api.upload<Envelope<{ id: number; url: string }>>('/content/images', { image: file });
      onChange({ ...block, url: res.data.data.url });
    } catch (e) {
      const fields = serverFieldErrors(e);
      if (fields.image) setUploadError(fields.image);
      else notifyError(errorEnvelope(e, 'The image could not be uploaded.'), '');
    } finally {
      setBusy(false);
    }
  };
  const err = [...(uploadError ?? []), ...(errors.url ?? [])];
  return (
    <div className="space-y-3">
      {block.url ? (
        <img
          src={block.url}
          alt={block.alt}
          className="max-h-48 max-w-full rounded-lg border border-slate-200"
        />
      ) : null}
      <div className="space-y-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {block.url ? 'Replace the image' : 'Image file'}
        </label>
        <input
          id={id}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          disabled={busy}
          aria-invalid={err.length ? true : undefined}
          className="focus-ring block text-sm"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void upload(file);
            e.target.value = '';
          }}
        />
        {busy ? <p className="text-sm text-slate-600">Uploading…</p> : null}
        {err.length ? <p className="text-sm text-danger-700">{err.join(' ')}</p> : null}
      </div>
      <TextField
        label="Description for people who cannot see it"
        value={block.alt}
        maxLength={300}
        error={errors.alt}
        onChange={(e) => onChange({ ...block, alt: e.target.value })}
      />
    </div>
  );
}

function VideoEditor({ block, onChange, errors }: BlockEditorProps<Extract<DesignBlock, { type: 'video' }>>) {
  // Told at once, not only after a save: only YouTube and Vimeo links are accepted.
  const wrongHost =
    block.url.trim() !== '' && !videoHostOf(block.url) ? [DesignerMessages.videoHost] : undefined;
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <TextField
        label="Video link (YouTube or Vimeo)"
        type="url"
        inputMode="url"
        value={block.url}
        placeholder="https://www.youtube.com/watch?v=…"
        error={errors.url ?? wrongHost}
        onChange={(e) => onChange({ ...block, url: e.target.value })}
      />
      <TextField
        label="Video title"
        value={block.title}
        maxLength={200}
        error={errors.title}
        onChange={(e) => onChange({ ...block, title: e.target.value })}
      />
    </div>
  );
}

function H5pEditor({ block, onChange, errors }: BlockEditorProps<Extract<DesignBlock, { type: 'h5p' }>>) {
  const options = useOptions('h5ps');
  return (
    <Select
      label="H5P item"
      value={block.h5p_id || ''}
      placeholder={options.isLoading ? 'Loading H5P items…' : 'Choose an H5P item'}
      options={(options.data ?? []).map((o) => ({ value: o.id, label: o.title }))}
      error={errors.h5p_id}
      hint={options.data && !options.data.length ? 'Add H5P items in the content creator first.' : undefined}
      onChange={(e) => onChange({ ...block, h5p_id: Number(e.target.value) || 0 })}
    />
  );
}

function QuestionEditor({
  block,
  onChange,
  errors,
}: BlockEditorProps<Extract<DesignBlock, { type: 'question' }>>) {
  const name = useId();
  const setOption = (i: number, text: string) =>
    onChange({ ...block, options: block.options.map((o, j) => (j === i ? text : o)) });
  const removeOption = (i: number) =>
    onChange({
      ...block,
      options: block.options.filter((_, j) => j !== i),
      correct: block.correct === i ? 0 : block.correct > i ? block.correct - 1 : block.correct,
    });
  return (
    <div className="space-y-3">
      <TextField
        label="Question"
        value={block.question}
        maxLength={1000}
        error={errors.question}
        onChange={(e) => onChange({ ...block, question: e.target.value })}
      />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Answers (choose the right one)</legend>
        {block.options.map((option, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: answers are positional (the right one is an index)
          <div key={i} className="flex flex-wrap items-end gap-2">
            <label className="flex h-10 items-center gap-2 text-sm">
              <input
                type="radio"
                name={name}
                checked={block.correct === i}
                onChange={() => onChange({ ...block, correct: i })}
              />
              <span className="sr-only">Answer {i + 1} is right</span>
              <span aria-hidden="true">Right</span>
            </label>
            <div className="min-w-0 flex-1">
              <TextField
                label={`Answer ${i + 1}`}
                value={option}
                maxLength={300}
                error={errors[`options.${i}`]}
                onChange={(e) => setOption(i, e.target.value)}
              />
            </div>
            {block.options.length > 2 ? (
              <Button size="sm" variant="ghost" onClick={() => removeOption(i)}>
                Remove answer {i + 1}
              </Button>
            ) : null}
          </div>
        ))}
        {errors.options || errors.correct ? (
          <p className="text-sm text-danger-700">
            {[...(errors.options ?? []), ...(errors.correct ?? [])].join(' ')}
          </p>
        ) : null}
      </fieldset>
      {block.options.length < 8 ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onChange({ ...block, options: [...block.options, ''] })}
        >
          Add an answer
        </Button>
      ) : null}
      <p className="text-xs text-slate-600">
        Questions are not shown on the page: together they make the quiz at the end of the content.
      </p>
    </div>
  );
}
