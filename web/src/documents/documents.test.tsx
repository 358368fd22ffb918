import { type Course, DOCUMENT_MAX_BYTES, DocumentMessages, type DocumentVersionView } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { courseKindLink } from '../content/CoursesPage';
import { makeUser } from '../test/factories';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import { AcknowledgePanel } from './AcknowledgePanel';
import type { DocumentPageView } from './api';
import { checkDocumentFile, EMPTY_QUESTION, kindOfBytes, questionOf } from './checks';
import DocumentPage from './DocumentPage';
import { PoliciesToRead } from './PoliciesToRead';
import { UploadDocumentDialog } from './UploadDocumentDialog';

// --- Harness -------------------------------------------------------------------------------------------------

type Call = ApiCall;
let calls: Call[] = [];
let handler: (call: Call) => Response | undefined = () => undefined;
const writes = () => calls.filter((c) => c.method !== 'GET');

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
  setUser(makeUser({ id: 7, name: 'Lee Learner' }));
  calls = stubApi((c) => handler(c));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
});

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const PDF_BYTES = '%PDF-1.4\n%âãÏÓ\n';
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const pdfFile = (name = 'policy.pdf') => new File([PDF_BYTES], name, { type: 'application/pdf' });

const version = (number: number, o: Partial<DocumentVersionView> = {}): DocumentVersionView => ({
  id: number,
  number,
  change_note: number > 1 ? 'Section 3 rewritten.' : null,
  file_name: 'policy.pdf',
  mime_type: 'application/pdf',
  size_bytes: 2048,
  display: 'inline',
  file_url: `/api/documents/5/versions/${number}/file`,
  created_by: { id: 1, uuid: 'u-1', name: 'Mia Manager' },
  created_at: '2026-11-01T10:00:00.000Z',
  ...o,
});

function makeDoc(o: Partial<DocumentPageView> = {}): DocumentPageView {
  const current = o.current ?? version(1);
  return {
    id: 5,
    uuid: 'd-5',
    title: 'Safeguarding policy',
    description: null,
    library: { id: 2, name: 'Policies' },
    entity: { id: 3, slug: 'oakfield-house', name: 'Oakfield House' },
    course_id: 40,
    version: current.number,
    updated_at: current.created_at,
    my_status: 'to_read',
    current,
    versions: [current],
    check_question: null,
    my_acknowledgement: null,
    required_for: [],
    can: { manage: false, acknowledgements: false },
    ...o,
  };
}

// --- The upload checks ---------------------------------------------------------------------------------------

describe('upload checks', () => {
  it('knows a file by its first bytes', () => {
    expect(kindOfBytes(new TextEncoder().encode(PDF_BYTES))).toBe('pdf');
    expect(kindOfBytes(PNG_BYTES)).toBe('png');
    expect(kindOfBytes(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(kindOfBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBe('zip-office');
    expect(kindOfBytes(new TextEncoder().encode('<html><script>'))).toBeNull();
  });

  it('refuses a missing file, a file over 25 MB, an unknown type and a renamed file; takes a real PDF', async () => {
    expect(await checkDocumentFile(null)).toBe(DocumentMessages.fileMissing);
    const big = pdfFile();
    Object.defineProperty(big, 'size', { value: DOCUMENT_MAX_BYTES + 1 });
    expect(await checkDocumentFile(big)).toBe(DocumentMessages.fileTooLarge);
    expect(await checkDocumentFile(new File(['MZ'], 'setup.exe'))).toBe(DocumentMessages.fileType);
    // An HTML page renamed .pdf is refused by its bytes.
    expect(await checkDocumentFile(new File(['<html>'], 'policy.pdf', { type: 'application/pdf' }))).toBe(
      DocumentMessages.fileType,
    );
    // A PNG renamed .pdf: the name and the bytes disagree.
    expect(await checkDocumentFile(new File([PNG_BYTES], 'policy.pdf'))).toBe(DocumentMessages.fileType);
    expect(await checkDocumentFile(new File([PNG_BYTES], 'rota.png'))).toBeNull();
    expect(await checkDocumentFile(pdfFile())).toBeNull();
  });

  it('checks the check question: off is none; a question, 2–6 answers, one right', () => {
    expect(questionOf(EMPTY_QUESTION)).toEqual({ ok: true, value: null });
    const draft = {
      enabled: true,
      question: 'Who do you tell?',
      options: ['Your manager', ''],
      correct: null,
    };
    const refused = questionOf(draft);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.errors['options.1']).toEqual(['Enter the answer.']);
      expect(refused.errors.correct).toEqual(['Choose the right answer.']);
    }
    expect(questionOf({ ...draft, question: '  ', options: ['A', 'B'], correct: 0 })).toMatchObject({
      ok: false,
      errors: { question: ['Enter the question.'] },
    });
    expect(questionOf({ ...draft, options: ['Your manager', 'Nobody'], correct: 0 })).toEqual({
      ok: true,
      value: { question: 'Who do you tell?', options: ['Your manager', 'Nobody'], correct: 0 },
    });
  });
});

// --- The upload form -----------------------------------------------------------------------------------------

describe('upload a document', () => {
  it('shows a wrong file at once and sends nothing until the form is right', async () => {
    const user = userEvent.setup({ applyAccept: false });
    wrap(<UploadDocumentDialog libraryId={2} open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Upload a document' });
    await user.upload(within(dialog).getByLabelText(/^File/), new File(['<html>'], 'notes.html'));
    expect(await within(dialog).findByText(DocumentMessages.fileType)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByText('Enter a title.')).toBeInTheDocument();
    expect(writes()).toEqual([]);
  });

  it('asks for the right answer of the check question, then sends the fields and the file', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    handler = (c) =>
      c.method === 'POST' && c.path === '/libraries/2/documents'
        ? json(201, { message: DocumentMessages.documentCreated, data: makeDoc() })
        : undefined;
    wrap(<UploadDocumentDialog libraryId={2} open onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Upload a document' });
    await user.type(within(dialog).getByLabelText(/^Title/), 'Safeguarding policy');
    await user.upload(within(dialog).getByLabelText(/^File/), pdfFile());
    await user.click(within(dialog).getByLabelText(/Ask a short question/));
    await user.type(within(dialog).getByLabelText(/^Question/), 'Who do you tell first?');
    await user.type(within(dialog).getByLabelText('Answer 1'), 'The person in charge');
    await user.type(within(dialog).getByLabelText('Answer 2'), 'Nobody');
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(within(dialog).getByText('Choose the right answer.')).toBeInTheDocument();
    expect(writes()).toEqual([]);

    await user.click(within(dialog).getByLabelText('Answer 1 is the right answer'));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [post] = writes();
    const form = post.body as FormData;
    expect(form.get('title')).toBe('Safeguarding policy');
    expect(JSON.parse(String(form.get('check_question')))).toEqual({
      question: 'Who do you tell first?',
      options: ['The person in charge', 'Nobody'],
      correct: 0,
    });
    expect((form.get('file') as File).name).toBe('policy.pdf');
    expect(notificationsStore.get().map((n) => n.message)).toContain(DocumentMessages.documentCreated);
  });
});

// --- The acknowledgement panel -------------------------------------------------------------------------------

describe('acknowledgement panel', () => {
  it('shows the receipt once the current version is acknowledged', () => {
    wrap(
      <AcknowledgePanel
        doc={makeDoc({
          my_status: 'acknowledged',
          my_acknowledgement: {
            version: 1,
            typed_name: 'Lee Learner',
            acknowledged_at: '2026-11-02T09:30:00.000Z',
          },
        })}
        opened
      />,
    );
    const receipt = screen.getByTestId('ack-receipt');
    expect(receipt).toHaveTextContent('You have read and understood version 1.');
    expect(receipt).toHaveTextContent('Lee Learner');
    expect(receipt).toHaveTextContent('02/11/2026');
    expect(screen.queryByRole('button', { name: /I have read and understood/ })).not.toBeInTheDocument();
  });

  it('asks again for a new version after an earlier acknowledgement', () => {
    wrap(
      <AcknowledgePanel
        doc={makeDoc({
          current: version(2),
          versions: [version(1), version(2)],
          my_status: 'new_version',
          my_acknowledgement: {
            version: 1,
            typed_name: 'Lee Learner',
            acknowledged_at: '2026-11-02T09:30:00.000Z',
          },
        })}
        opened
      />,
    );
    expect(screen.queryByTestId('ack-receipt')).not.toBeInTheDocument();
    expect(screen.getByTestId('earlier-ack')).toHaveTextContent(
      'You acknowledged version 1 on 02/11/2026. Version 2 is new',
    );
    expect(screen.getByRole('button', { name: 'I have read and understood version 2' })).toBeInTheDocument();
  });

  it('says to read it first until it is opened', () => {
    wrap(<AcknowledgePanel doc={makeDoc()} opened={false} />);
    expect(screen.getByTestId('open-first')).toHaveTextContent('Read the document first.');
  });

  it('needs the name and an answer, shows a wrong answer and records a right one', async () => {
    const user = userEvent.setup();
    const doc = makeDoc({
      check_question: { question: 'Who do you tell first?', options: ['Nobody', 'The person in charge'] },
    });
    handler = (c) => {
      if (c.method !== 'POST' || c.path !== '/documents/5/acknowledge') return undefined;
      const body = c.body as { answer: number };
      return body.answer === 1
        ? json(200, { message: DocumentMessages.acknowledged, data: doc })
        : json(422, {
            message: DocumentMessages.wrongAnswer,
            errors: { answer: [DocumentMessages.wrongAnswer] },
          });
    };
    wrap(<AcknowledgePanel doc={doc} opened />);
    const submit = screen.getByRole('button', { name: 'I have read and understood version 1' });
    await user.click(submit);
    expect(screen.getByText('Type your name.')).toBeInTheDocument();
    expect(screen.getByText('Choose an answer.')).toBeInTheDocument();
    expect(writes()).toEqual([]);

    await user.type(screen.getByLabelText(/^Your name/), 'Lee Learner');
    await user.click(screen.getByLabelText('Nobody'));
    await user.click(submit);
    expect(await screen.findByText(DocumentMessages.wrongAnswer)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Your name/)).toHaveValue('Lee Learner');

    await user.click(screen.getByLabelText('The person in charge'));
    await user.click(submit);
    await waitFor(() =>
      expect(notificationsStore.get().map((n) => n.message)).toContain(DocumentMessages.acknowledged),
    );
    expect(writes().map((w) => w.body)).toEqual([
      { typed_name: 'Lee Learner', answer: 0, version: 1 },
      { typed_name: 'Lee Learner', answer: 1, version: 1 },
    ]);
  });
});

// --- The learner's policies to read ----------------------------------------------------------------------------

describe('policies to read again', () => {
  it('lists the documents asked again with what changed, not those read or only to read (the to-do has them)', async () => {
    handler = (c) =>
      c.path === '/documents/mine'
        ? json(200, {
            data: [
              {
                id: 5,
                title: 'Safeguarding policy',
                version: 2,
                status: 'new_version',
                change_note: 'Section 3 rewritten.',
                type: 'primary',
              },
              {
                id: 6,
                title: 'Fire procedure',
                version: 1,
                status: 'to_read',
                change_note: null,
                type: 'secondary',
              },
              {
                id: 7,
                title: 'Uniform policy',
                version: 1,
                status: 'acknowledged',
                change_note: null,
                type: 'primary',
              },
            ],
          })
        : undefined;
    wrap(<PoliciesToRead />);
    const card = await screen.findByTestId('policies-to-read');
    expect(within(card).getAllByRole('listitem')).toHaveLength(1);
    expect(within(card).getByRole('link', { name: 'Read Safeguarding policy' })).toHaveAttribute(
      'href',
      '/document/5',
    );
    expect(card).toHaveTextContent('What changed in version 2: Section 3 rewritten.');
    expect(card).not.toHaveTextContent('Uniform policy');
    expect(card).not.toHaveTextContent('Fire procedure');
  });
});

// --- Courses backed by a document or a pathway ------------------------------------------------------------------

describe('course lists', () => {
  it('open a document- or pathway-backed course on its own page, other courses in the editor', () => {
    const course = { id: 40, title: 'Safeguarding policy' } as Course;
    expect(courseKindLink({ ...course, kind: 'document', document_id: 5 } as Course)).toEqual({
      to: '/document/5',
      label: 'Open',
    });
    expect(courseKindLink({ ...course, kind: 'pathway', pathway_id: 3 } as Course)).toEqual({
      to: '/pathways/3',
      label: 'Open',
    });
    expect(courseKindLink({ ...course, kind: 'course' } as Course)).toBeNull();
    expect(courseKindLink(course)).toBeNull();
  });
});

// --- The document page -----------------------------------------------------------------------------------------

function renderDocumentPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/document/:id', Component: DocumentPage },
      { path: '*', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/document/5'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('document page', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:image');
    URL.revokeObjectURL = vi.fn();
  });

  it('shows the image of the current version (fetching it records the opening), what changed, and the history', async () => {
    const image = version(2, { file_name: 'rota.png', mime_type: 'image/png' });
    handler = (c) => {
      if (c.path === '/documents/5')
        return json(200, {
          data: makeDoc({ current: image, versions: [version(1), image], my_status: 'new_version' }),
        });
      if (c.path === '/documents/5/versions/2/file')
        return new Response(PNG_BYTES, { status: 200, headers: { 'content-type': 'image/png' } });
      return undefined;
    };
    renderDocumentPage();
    expect(await screen.findByRole('img', { name: 'Safeguarding policy' })).toHaveAttribute(
      'src',
      'blob:image',
    );
    expect(calls.filter((c) => c.path === '/documents/5/versions/2/file')).toHaveLength(1);
    expect(screen.getByTestId('what-changed')).toHaveTextContent(
      'Version 2 is new: please read it again.Section 3 rewritten.',
    );
    await waitFor(() => expect(screen.queryByTestId('open-first')).not.toBeInTheDocument());
    const history = within(screen.getByTestId('history')).getAllByRole('listitem');
    expect(history.map((li) => li.querySelector('p')?.textContent)).toEqual([
      'Version 2 (current)',
      'Version 1',
    ]);
    expect(history[0]).toHaveTextContent('by Mia Manager');
    // A learner sees no manager tools.
    expect(screen.queryByRole('button', { name: 'Upload a new version' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('requirements')).not.toBeInTheDocument();
    expect(screen.queryByTestId('acknowledgements')).not.toBeInTheDocument();
  });

  it('offers an office file as a download: the person is asked to download it first', async () => {
    handler = (c) =>
      c.path === '/documents/5'
        ? json(200, {
            data: makeDoc({
              current: version(1, {
                file_name: 'rota.docx',
                display: 'download',
                mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
              }),
            }),
          })
        : undefined;
    renderDocumentPage();
    expect(await screen.findByRole('button', { name: 'Download to read' })).toBeInTheDocument();
    expect(screen.getByTestId('open-first')).toHaveTextContent('Download the document and read it first.');
    expect(calls.some((c) => c.path.includes('/file'))).toBe(false);
  });

  it('sends a missing or out-of-scope document to the not-found page', async () => {
    const router = renderDocumentPage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(router.state.location.search).toBe('?resource=document');
  });
});
