import type { DesignPreview as Preview } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorEnvelope } from '../entities/shared';
import { TOPIC_BODY_CLASS } from '../learning/topic-body';
import { Button, Card, EmptyState } from '../ui';
import { previewDesign } from './api';
import { type Draft, toPayload } from './model';

export const PREVIEW_WIDTHS = [1280, 375] as const;
export type PreviewWidth = (typeof PREVIEW_WIDTHS)[number];

/**
 * The design as the learner will see it: the server renders and sanitises the pages exactly as publishing does
 * (POST /designs/preview), and each page is drawn with the attempt player's topic styles (learning/topic-body.ts)
 * inside a frame of the chosen width (1280 px desktop, 375 px phone). H5P items show as the player's slot name;
 * the question blocks as the quiz that follows the pages.
 */
export function DesignPreview({ draft, width }: { draft: Draft; width: PreviewWidth }) {
  const payload = toPayload(draft);
  const preview = useQuery({
    queryKey: ['designer', 'preview', payload.pages],
    queryFn: () => previewDesign(payload.pages),
    retry: false,
  });
  const [pageIndex, setPageIndex] = useState(0);
  if (preview.isError)
    return (
      <Card>
        <EmptyState
          title="The preview could not be drawn"
          description={
            errorEnvelope(preview.error, 'Check the highlighted blocks, then try again.').message ?? ''
          }
        />
      </Card>
    );
  if (!preview.data) return <p role="status">Drawing the preview…</p>;
  return <PreviewFrame preview={preview.data} width={width} pageIndex={pageIndex} onPage={setPageIndex} />;
}

function PreviewFrame({
  preview,
  width,
  pageIndex,
  onPage,
}: {
  preview: Preview;
  width: PreviewWidth;
  pageIndex: number;
  onPage: (i: number) => void;
}) {
  const scale = useFitScale(width);
  const showQuiz = pageIndex >= preview.pages.length;
  const page = preview.pages[Math.min(pageIndex, preview.pages.length - 1)];
  const steps = preview.pages.length + (preview.questions.length ? 1 : 0);
  return (
    <div
      ref={scale.ref}
      className="overflow-x-auto rounded-xl border border-slate-300 bg-slate-100 p-2"
      data-testid="design-preview"
    >
      <section
        className="mx-auto bg-white p-4 shadow-sm"
        style={{ width: `${width}px`, zoom: scale.factor }}
        aria-label={`Preview at ${width} pixels wide`}
      >
        {!page && !showQuiz ? (
          <EmptyState title="Nothing to preview yet" description="Add a page with some blocks." />
        ) : showQuiz ? (
          <QuizPreview questions={preview.questions} />
        ) : page ? (
          <article className="space-y-4" aria-labelledby="preview-title">
            <h2 id="preview-title" className="text-xl font-semibold text-slate-900">
              {page.title}
            </h2>
            <div
              className={TOPIC_BODY_CLASS}
              // The server's sanitised HTML, the same string publishing writes into the topic.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (content/sanitize.ts)
              dangerouslySetInnerHTML={{ __html: page.body_html }}
            />
            {page.h5p ? (
              <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-700">
                H5P item “{page.h5p.title}” plays here.
              </p>
            ) : null}
          </article>
        ) : null}
        {steps > 1 ? (
          <div className="mt-6 flex flex-wrap justify-between gap-2 border-t border-slate-200 pt-4">
            <Button variant="secondary" disabled={pageIndex === 0} onClick={() => onPage(pageIndex - 1)}>
              Previous
            </Button>
            <span className="self-center text-sm text-slate-600">
              {Math.min(pageIndex, steps - 1) + 1} of {steps}
            </span>
            <Button disabled={pageIndex >= steps - 1} onClick={() => onPage(pageIndex + 1)}>
              Next
            </Button>
          </div>
        ) : null}
      </section>
    </div>
  );
}

/**
 * The frame keeps its width in CSS pixels (the learner's layout at that width) and is zoomed down to fit the space
 * the editor has (a 1280 px page inside a narrower column, or 375 px on a phone), never up.
 */
function useFitScale(width: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [available, setAvailable] = useState<number | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setAvailable(el.clientWidth - 16));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const factor = available && available < width ? available / width : 1;
  return { ref, factor };
}

function QuizPreview({ questions }: { questions: Preview['questions'] }) {
  return (
    <section className="space-y-4" aria-labelledby="preview-quiz">
      <h2 id="preview-quiz" className="text-xl font-semibold text-slate-900">
        Quiz
      </h2>
      <ol className="space-y-4">
        {questions.map((q, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: questions are positional in the preview
          <li key={i}>
            <fieldset className="space-y-2">
              <legend className="font-medium text-slate-900">
                {i + 1}. {q.text}
              </legend>
              {q.answers.map((a, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: answers are positional
                <label key={j} className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="radio" name={`preview-q${i}`} disabled />
                  {a}
                </label>
              ))}
            </fieldset>
          </li>
        ))}
      </ol>
    </section>
  );
}
