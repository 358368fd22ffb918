import {
  DESIGN_BLOCK_TYPES,
  type DesignBlock,
  type DesignBlockType,
  DesignerMessages,
  DesignerPerm,
  type DesignView,
  type ErrorEnvelope,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import { isApiError } from '../app/api';
import { usePermission } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { routeId } from '../content/api';
import {
  errorEnvelope,
  type FieldErrors,
  isNotFound,
  LoadingCard,
  serverFieldErrors,
} from '../entities/shared';
import { Badge, Button, Card, ConfirmDialog, FormError, PageHeader, TextField } from '../ui';
import { contentPath, createDesign, designerKeys, saveDesign, useDesign } from './api';
import { BlockEditor } from './BlockEditor';
import { DesignPreview, PREVIEW_WIDTHS, type PreviewWidth } from './DesignPreview';
import {
  addBlock,
  addPage,
  BLOCK_LABELS,
  blockErrors,
  type Draft,
  deleteBlock,
  deletePage,
  emptyDraft,
  fromDesign,
  isDirty,
  moveBlock,
  movePage,
  renamePage,
  toPayload,
  updateBlock,
} from './model';
import { PublishDialog } from './PublishDialog';

/**
 * /content-designer/create and /content-designer/{id}: the design's title, its pages (add, rename, reorder,
 * delete) and the selected page's blocks (add from the palette, edit inline, reorder by dragging the handle or with
 * Move up / Move down, delete). Saving keeps the revision it loaded; a 409 keeps every word in the form and offers
 * a reload. Leaving with unsaved changes asks first. Preview draws the pages as the learner sees them at 1280 or
 * 375 px; Publish makes or updates the e-learning content.
 */
export default function DesignEditorPage() {
  const id = routeId(useParams().id);
  const query = useDesign(id);
  const navigate = useNavigate();
  // A new design is drawn without a call to the server: refuse it here rather than at the first save, after the work.
  const mayDesign = usePermission([...DesignerPerm.use], 'any');
  useEffect(() => {
    if (isNotFound(query.error)) navigate('/404?resource=design', { replace: true });
    else if (id === null && !mayDesign) navigate('/403', { replace: true });
  }, [query.error, navigate, id, mayDesign]);
  if (id !== null && !query.data) return <LoadingCard label="Loading the design" />;
  // Keyed by id: after a create the page starts from the saved design the create left in the cache.
  return <Editor key={id ?? 'new'} design={query.data ?? null} reload={() => query.refetch()} />;
}

function Editor({ design: loaded, reload }: { design: DesignView | null; reload: () => Promise<unknown> }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [design, setDesign] = useState(loaded);
  const [draft, setDraft] = useState<Draft>(() => (loaded ? fromDesign(loaded) : emptyDraft()));
  const [saved, setSaved] = useState<Draft>(() => (loaded ? fromDesign(loaded) : { title: '', pages: [] }));
  const [pageId, setPageId] = useState(draft.pages[0]?.id ?? null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<Partial<ErrorEnvelope> | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<'edit' | PreviewWidth>('edit');
  const [publishing, setPublishing] = useState(false);
  const [doomedPage, setDoomedPage] = useState<string | null>(null);
  const [doomedBlock, setDoomedBlock] = useState<string | null>(null);
  const dirty = isDirty(draft, saved);
  const leaving = useRef(false);

  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    return dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname;
  });
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const pageIndex = draft.pages.findIndex((p) => p.id === pageId);
  const page = draft.pages[pageIndex];

  const save = async () => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    const sent = draft;
    try {
      const body = toPayload(sent);
      if (!design) {
        const res = await createDesign(body);
        queryClient.setQueryData(designerKeys.one(res.data.id), res.data);
        await queryClient.invalidateQueries({ queryKey: ['designer', 'list'] });
        notifySuccess(res.message ?? DesignerMessages.created);
        leaving.current = true;
        navigate(`/content-designer/${res.data.id}`, { replace: true });
        return;
      }
      const res = await saveDesign(design.id, { ...body, revision: design.revision });
      queryClient.setQueryData(designerKeys.one(res.data.id), res.data);
      await queryClient.invalidateQueries({ queryKey: ['designer', 'list'] });
      setDesign(res.data);
      setSaved(sent);
      notifySuccess(res.message ?? DesignerMessages.saved);
    } catch (e) {
      if (isApiError(e) && e.status === 409) setStale(true);
      setErrors(serverFieldErrors(e));
      setFailure(errorEnvelope(e, 'The design could not be saved.'));
    } finally {
      setBusy(false);
    }
  };

  /** After a 409: the latest version replaces the form (the person chose to; until then their text stays). */
  const reloadLatest = async () => {
    await queryClient.invalidateQueries({ queryKey: designerKeys.one(design?.id ?? 0) });
    await reload();
    const latest = queryClient.getQueryData<DesignView>(designerKeys.one(design?.id ?? 0));
    if (!latest) return;
    const fresh = fromDesign(latest);
    setDesign(latest);
    setDraft(fresh);
    setSaved(fresh);
    setPageId(fresh.pages[0]?.id ?? null);
    setStale(false);
    setFailure(null);
    setErrors({});
  };

  const change = (next: Draft) => setDraft(next);
  const addNewPage = () => {
    const next = addPage(draft);
    setDraft(next);
    setPageId(next.pages[next.pages.length - 1]?.id ?? null);
  };
  const removePage = (id: string) => {
    const next = deletePage(draft, id);
    setDraft(next);
    if (pageId === id) setPageId(next.pages[Math.max(0, pageIndex - 1)]?.id ?? null);
  };

  const title = design ? design.title : 'New design';
  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        breadcrumbs={[{ label: 'Content designer', to: '/content-designer' }, { label: title }]}
        description={
          design ? (
            <span className="flex flex-wrap items-center gap-2">
              <StateBadge design={design} dirty={dirty} />
              {design.content ? (
                <Link to={contentPath(design.content.id)} className="focus-ring text-primary-700 underline">
                  Open the published content
                </Link>
              ) : null}
            </span>
          ) : (
            'Give the design a title, fill its pages with blocks, then save.'
          )
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Button onClick={save} loading={busy} disabled={stale}>
              Save
            </Button>
            <Button
              variant="secondary"
              disabled={!design || dirty}
              title={dirty ? 'Save before publishing' : undefined}
              onClick={() => setPublishing(true)}
            >
              Publish
            </Button>
          </div>
        }
      />

      {stale ? (
        <div
          role="alert"
          className="space-y-2 rounded-lg border border-warning-200 bg-warning-50 px-4 py-3 text-sm"
        >
          <p className="font-medium">{DesignerMessages.staleRevision}</p>
          <p>Your changes are still here: copy anything you want to keep, then reload.</p>
          <Button size="sm" variant="secondary" onClick={reloadLatest}>
            Reload the latest version
          </Button>
        </div>
      ) : (
        <FormError error={failure} />
      )}
      {dirty ? (
        <p className="text-sm text-slate-600" role="status">
          Unsaved changes
        </p>
      ) : null}

      <Card>
        <TextField
          label="Design title"
          value={draft.title}
          maxLength={200}
          required
          error={errors.title}
          onChange={(e) => change({ ...draft, title: e.target.value })}
        />
      </Card>

      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">View</legend>
        <ViewButton pressed={view === 'edit'} onClick={() => setView('edit')}>
          Edit
        </ViewButton>
        {PREVIEW_WIDTHS.map((w) => (
          <ViewButton key={w} pressed={view === w} onClick={() => setView(w)}>
            Preview at {w} px
          </ViewButton>
        ))}
      </fieldset>

      {view !== 'edit' ? (
        <DesignPreview draft={draft} width={view} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <PagesPanel
            draft={draft}
            selected={pageId}
            errors={errors}
            onSelect={setPageId}
            onAdd={addNewPage}
            onMove={(id, by) => change(movePage(draft, id, by))}
          />
          {page ? (
            <Card
              title={`Page ${pageIndex + 1}`}
              actions={
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => (page.blocks.length ? setDoomedPage(page.id) : removePage(page.id))}
                >
                  Delete page
                </Button>
              }
            >
              <div className="space-y-5">
                <TextField
                  label="Page title"
                  value={page.title}
                  maxLength={200}
                  error={errors[`pages.${pageIndex}.title`]}
                  onChange={(e) => change(renamePage(draft, page.id, e.target.value))}
                />
                <BlockList
                  blocks={page.blocks}
                  errorsOf={(j) => blockErrors(errors, pageIndex, j)}
                  onChange={(block) => change(updateBlock(draft, page.id, block))}
                  onMove={(blockId, where) => change(moveBlock(draft, page.id, blockId, where))}
                  onDelete={setDoomedBlock}
                />
                <Palette
                  hasH5p={page.blocks.some((b) => b.type === 'h5p')}
                  onAdd={(type) => change(addBlock(draft, page.id, type))}
                />
              </div>
            </Card>
          ) : (
            <Card>
              <p className="text-sm text-slate-700">Add a page to start.</p>
            </Card>
          )}
        </div>
      )}

      {design ? (
        <PublishDialog
          design={design}
          open={publishing}
          onClose={() => setPublishing(false)}
          onPublished={(next) => {
            setDesign(next);
            queryClient.setQueryData(designerKeys.one(next.id), next);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={doomedPage !== null}
        title="Delete this page?"
        message="The page and its blocks leave the design when you save."
        onConfirm={() => {
          if (doomedPage) removePage(doomedPage);
        }}
        onClose={() => setDoomedPage(null)}
      />
      <ConfirmDialog
        open={doomedBlock !== null}
        title="Delete this block?"
        message="The block leaves the page when you save."
        onConfirm={() => {
          if (doomedBlock && page) change(deleteBlock(draft, page.id, doomedBlock));
        }}
        onClose={() => setDoomedBlock(null)}
      />
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        title="Leave without saving?"
        message="Your changes to this design have not been saved."
        confirmLabel="Leave"
        cancelLabel="Stay"
        onConfirm={() => blocker.proceed?.()}
        onClose={() => {
          if (blocker.state === 'blocked') blocker.reset();
        }}
      />
    </div>
  );
}

function StateBadge({ design, dirty }: { design: DesignView; dirty: boolean }) {
  if (design.state === 'draft') return <Badge>Draft</Badge>;
  if (design.state === 'changed' || dirty) return <Badge tone="warning">Changed since publishing</Badge>;
  return <Badge tone="success">Published</Badge>;
}

function ViewButton({
  pressed,
  onClick,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Button size="sm" variant={pressed ? 'primary' : 'secondary'} aria-pressed={pressed} onClick={onClick}>
      {children}
    </Button>
  );
}

function PagesPanel({
  draft,
  selected,
  errors,
  onSelect,
  onAdd,
  onMove,
}: {
  draft: Draft;
  selected: string | null;
  errors: FieldErrors;
  onSelect: (id: string) => void;
  onAdd: () => void;
  onMove: (id: string, by: number) => void;
}) {
  return (
    <Card title="Pages" padded={false}>
      <ol className="divide-y divide-slate-100" aria-label="Pages">
        {draft.pages.map((p, i) => {
          const hasErrors = Object.keys(errors).some((k) => k.startsWith(`pages.${i}.`));
          return (
            <li key={p.id} className="flex items-center gap-1 px-3 py-2">
              <button
                type="button"
                className={`focus-ring min-w-0 flex-1 truncate rounded px-2 py-1 text-left text-sm ${
                  p.id === selected ? 'bg-primary-50 font-semibold text-primary-800' : 'text-slate-800'
                }`}
                aria-current={p.id === selected ? 'true' : undefined}
                onClick={() => onSelect(p.id)}
              >
                {i + 1}. {p.title || 'Untitled page'}
                {hasErrors ? <span className="ml-1 text-danger-700">(check)</span> : null}
              </button>
              <Button size="sm" variant="ghost" disabled={i === 0} onClick={() => onMove(p.id, -1)}>
                <span aria-hidden="true">↑</span>
                <span className="sr-only">Move page {i + 1} up</span>
              </Button>
              <Button
                size="sm"
                variant="ghost"
                disabled={i === draft.pages.length - 1}
                onClick={() => onMove(p.id, 1)}
              >
                <span aria-hidden="true">↓</span>
                <span className="sr-only">Move page {i + 1} down</span>
              </Button>
            </li>
          );
        })}
      </ol>
      <div className="p-3">
        <Button size="sm" variant="secondary" onClick={onAdd} disabled={draft.pages.length >= 100}>
          Add a page
        </Button>
      </div>
    </Card>
  );
}

/**
 * The page's blocks in order. Reorder by keyboard (Move up / Move down) or by dragging a block's handle (native
 * HTML5 drag and drop: the block becomes draggable only while its handle is held, so text in its fields can still
 * be selected with the mouse).
 */
function BlockList({
  blocks,
  errorsOf,
  onChange,
  onMove,
  onDelete,
}: {
  blocks: DesignBlock[];
  errorsOf: (index: number) => Record<string, string[]>;
  onChange: (block: DesignBlock) => void;
  onMove: (blockId: string, where: { by: number } | { to: number }) => void;
  onDelete: (blockId: string) => void;
}) {
  const [armed, setArmed] = useState<string | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  if (!blocks.length)
    return <p className="text-sm text-slate-600">This page is empty: add a block from the list below.</p>;
  return (
    <ol className="space-y-3" aria-label="Blocks">
      {blocks.map((block, j) => (
        <li
          key={block.id}
          draggable={armed === block.id}
          onDragStart={(e) => {
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', block.id);
            setDragging(block.id);
          }}
          onDragOver={(e) => {
            if (!dragging) return;
            e.preventDefault();
            setOver(j);
          }}
          onDrop={(e) => {
            e.preventDefault();
            if (dragging) onMove(dragging, { to: j });
            setDragging(null);
            setOver(null);
          }}
          onDragEnd={() => {
            setArmed(null);
            setDragging(null);
            setOver(null);
          }}
          className={`rounded-lg border p-3 ${over === j && dragging ? 'border-primary-600 bg-primary-50' : 'border-slate-200'}`}
          data-testid="design-block"
        >
          <div className="mb-3 flex flex-wrap items-center gap-2">
            <span
              className="cursor-grab select-none rounded px-1 text-slate-500"
              title="Drag to move"
              aria-hidden="true"
              onMouseDown={() => setArmed(block.id)}
              onMouseUp={() => setArmed(null)}
            >
              ⠿
            </span>
            <h3 className="flex-1 text-sm font-semibold text-slate-800">
              {j + 1}. {BLOCK_LABELS[block.type]}
            </h3>
            <Button size="sm" variant="ghost" disabled={j === 0} onClick={() => onMove(block.id, { by: -1 })}>
              Move up<span className="sr-only"> block {j + 1}</span>
            </Button>
            <Button
              size="sm"
              variant="ghost"
              disabled={j === blocks.length - 1}
              onClick={() => onMove(block.id, { by: 1 })}
            >
              Move down<span className="sr-only"> block {j + 1}</span>
            </Button>
            <Button size="sm" variant="ghost" onClick={() => onDelete(block.id)}>
              Delete<span className="sr-only"> block {j + 1}</span>
            </Button>
          </div>
          <BlockEditor block={block} onChange={onChange} errors={errorsOf(j)} />
        </li>
      ))}
    </ol>
  );
}

function Palette({ hasH5p, onAdd }: { hasH5p: boolean; onAdd: (type: DesignBlockType) => void }) {
  return (
    <fieldset className="space-y-2 border-t border-slate-200 pt-4">
      <legend className="float-left mb-2 w-full text-sm font-medium text-slate-800">Add a block</legend>
      <div className="clear-left flex flex-wrap gap-2">
        {DESIGN_BLOCK_TYPES.map((type) => (
          <Button
            key={type}
            size="sm"
            variant="secondary"
            disabled={type === 'h5p' && hasH5p}
            title={type === 'h5p' && hasH5p ? 'A page holds one H5P item' : undefined}
            onClick={() => onAdd(type)}
          >
            {BLOCK_LABELS[type]}
          </Button>
        ))}
      </div>
    </fieldset>
  );
}
