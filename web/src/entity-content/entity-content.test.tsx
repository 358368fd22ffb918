import { ContentPerm, LearningPerm, Messages } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../app/auth';
import { modalStore } from '../app/modal';
import { notificationsStore } from '../app/notifications';
import { makeUser } from '../test/factories';
import { type Answer, type ApiCall, json, paged, stubApi } from '../test/fake-api';
import CertificateBrandingPage from './CertificateBrandingPage';
import CourseCategoriesPage from './CourseCategoriesPage';
import EntityCoursesPage from './EntityCoursesPage';

type Call = ApiCall;
let calls: Call[] = [];
type Handler = Answer;
let handler: Handler = () => undefined;

const ENTITY = {
  id: 1,
  uuid: 'e-1',
  slug: 'meadowbrook',
  name: 'Meadowbrook Care Group',
  level: 'A',
  parent_id: null,
  parent: null,
  is_training_company: false,
};

function renderAt(path: string, pattern: string, Component: ComponentType) {
  const router = createMemoryRouter([{ path: pattern, Component }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const notices = () => notificationsStore.get().map((n) => n.message);
const withPerms = (ids: number[]) =>
  setUser(makeUser({ permissions: ids.map((id) => ({ id, slug: `p${id}` })) }));

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
  modalStore.set({});
  calls = stubApi(
    async (c) =>
      (await handler(c)) ??
      (c.method === 'GET' && c.url.pathname === '/api/entities/meadowbrook'
        ? json(200, { data: ENTITY })
        : undefined),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
});

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('entity courses and content (/entities/{slug}/courses)', () => {
  const courses = [
    { course_id: 11, title: 'Fire Safety', enabled: true },
    { course_id: 12, title: 'Moving and Handling', enabled: false },
    { course_id: 13, title: 'Safeguarding Adults', enabled: true },
  ];

  it('switches a row, applies one change to the selected rows, and removes after a confirm', async () => {
    withPerms([ContentPerm.entityCourses, ContentPerm.entityContent, ContentPerm.contentCreator]);
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/meadowbrook/courses'))
        return json(200, paged(courses));
      if (c.method === 'GET' && c.path.startsWith('/entities/meadowbrook/content'))
        return json(200, paged([]));
      if (c.method === 'PATCH' || c.method === 'DELETE')
        return json(200, { data: null, message: Messages.successfullyUpdated });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/entities/meadowbrook/courses', '/entities/:slug/courses', EntityCoursesPage);
    expect(await screen.findByText('Fire Safety')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Content' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add courses' })).toBeInTheDocument();

    await user.click(
      screen.getByRole('switch', { name: 'Moving and Handling available at Meadowbrook Care Group' }),
    );
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'PATCH',
      path: '/entities/meadowbrook/courses/12',
      body: { enabled: true },
    });
    await waitFor(() => expect(notices()).toContain(Messages.successfullyUpdated));

    await user.click(screen.getByRole('checkbox', { name: 'Select Fire Safety' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Safeguarding Adults' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Switch off' }));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toMatchObject({
      method: 'PATCH',
      path: '/entities/meadowbrook/courses/updateMultiple',
      body: {
        items: [
          { course_id: 11, enabled: false },
          { course_id: 13, enabled: false },
        ],
      },
    });
    await waitFor(() => expect(screen.queryByText('2 selected')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Remove Fire Safety' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(writes()).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()[2]).toMatchObject({ method: 'DELETE', path: '/entities/meadowbrook/courses/11' });
  });

  it("shows the server's message when a multi-update fails, else the spec's generic one", async () => {
    withPerms([ContentPerm.entityContent]);
    let fail: Response = json(422, { message: 'The selected content id is invalid.', errors: {} });
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/meadowbrook/content'))
        return json(
          200,
          paged([
            {
              content_id: 21,
              title: 'Fire Safety e-learning',
              type: 'elearning',
              enabled: true,
              admin_only_override: null,
            },
          ]),
        );
      if (c.method === 'PATCH') return fail;
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/entities/meadowbrook/courses', '/entities/:slug/courses', EntityCoursesPage);
    await screen.findByText('Fire Safety e-learning');
    // Only the content permission: no tabs, no courses list, and no catalogue (63) to add from.
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('button', { name: /Add content/ })).toBeNull();
    expect(calls.some((c) => c.path.startsWith('/entities/meadowbrook/courses'))).toBe(false);
    // Without 122 the admin-only override is not offered.
    expect(screen.queryByRole('combobox', { name: /Who sees/ })).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Select Fire Safety e-learning' }));
    await user.click(screen.getByRole('button', { name: 'Switch on' }));
    await waitFor(() => expect(notices()).toContain('The selected content id is invalid.'));
    fail = new Response('', { status: 500 });
    await user.click(screen.getByRole('button', { name: 'Switch on' }));
    await waitFor(() => expect(notices()).toContain(Messages.somethingWentWrong));
    expect(writes().map((w) => w.path)).toEqual([
      '/entities/meadowbrook/content/updateMultiple',
      '/entities/meadowbrook/content/updateMultiple',
    ]);
  });

  // Issue 38 §3: a home said "No courses yet" while its organisation made courses available to it.
  it('lists inherited courses marked Inherited, without Remove; switching one off writes the site’s own row', async () => {
    withPerms([ContentPerm.entityCourses]);
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/meadowbrook/courses'))
        return json(
          200,
          paged([
            { course_id: 11, title: 'Fire Safety', enabled: true, inherited: false },
            { course_id: 14, title: 'Infection Control', enabled: true, inherited: true },
          ]),
        );
      if (c.method === 'POST') return json(201, { data: {}, message: Messages.successfullyUpdated });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/entities/meadowbrook/courses', '/entities/:slug/courses', EntityCoursesPage);
    expect(await screen.findByText('Infection Control')).toBeInTheDocument();
    expect(screen.queryByText('No courses yet')).toBeNull();
    const inheritedRow = screen.getByText('Infection Control').closest('tr') as HTMLElement;
    expect(within(inheritedRow).getByText('Inherited')).toBeInTheDocument();
    expect(within(inheritedRow).getByText('From the parent organisation')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove Infection Control' })).toBeNull();
    const ownRow = screen.getByText('Fire Safety').closest('tr') as HTMLElement;
    expect(within(ownRow).queryByText('Inherited')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Fire Safety' })).toBeInTheDocument();

    await user.click(
      screen.getByRole('switch', { name: 'Infection Control available at Meadowbrook Care Group' }),
    );
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/entities/meadowbrook/courses',
      body: { course_id: 14, enabled: false },
    });
  });

  it('adds courses picked from the catalogue', async () => {
    withPerms([ContentPerm.entityCourses, ContentPerm.contentCreator]);
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/meadowbrook/courses'))
        return json(200, paged([]));
      if (c.method === 'GET' && c.path.startsWith('/courses'))
        return json(200, {
          ...paged([
            { id: 31, title: 'Dementia Awareness', published: true, platform: true },
            { id: 32, title: 'Medication', published: false, platform: false },
          ]),
          message: Messages.coursesFetched,
        });
      if (c.method === 'POST') return json(201, { data: {}, message: Messages.successfullyUpdated });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt('/entities/meadowbrook/courses', '/entities/:slug/courses', EntityCoursesPage);
    expect(await screen.findByText('No courses yet')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Add courses' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('checkbox', { name: /Dementia Awareness/ }));
    expect(within(dialog).getByText(Messages.coursesFetched)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add courses' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/entities/meadowbrook/courses',
      body: { course_id: 31, enabled: true },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('course categories (/entities/{slug}/course-categories)', () => {
  it('lists own and inherited categories, creates as the page entity, renames, and deletes after a confirm', async () => {
    withPerms([ContentPerm.contentCreator, ContentPerm.addCourses, ContentPerm.editCourses]);
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/course-categories'))
        return json(
          200,
          paged([
            { id: 5, entity_id: 1, name: 'Mandatory training' },
            { id: 6, entity_id: null, name: 'Catalogue extras' },
          ]),
        );
      if (c.method === 'POST')
        return json(201, {
          data: { id: 7, entity_id: 1, name: 'Clinical' },
          message: 'Category has been created.',
        });
      if (c.method === 'PATCH') return json(200, { data: {}, message: 'Category has been updated.' });
      if (c.method === 'DELETE') return json(200, { data: null, message: 'Category has been deleted.' });
      return undefined;
    };
    const user = userEvent.setup();
    renderAt(
      '/entities/meadowbrook/course-categories',
      '/entities/:slug/course-categories',
      CourseCategoriesPage,
    );
    expect(await screen.findByText('Mandatory training')).toBeInTheDocument();
    expect(calls.find((c) => c.path.startsWith('/course-categories'))?.path).toContain(
      'actingAs=meadowbrook',
    );
    expect(screen.getByText('Platform')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename Catalogue extras' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add category' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Add category' }));
    expect(await within(dialog).findByText('The name field is required.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Name/), 'Clinical');
    await user.click(within(dialog).getByRole('button', { name: 'Add category' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/course-categories',
      body: { name: 'Clinical' },
    });
    expect(writes()[0]?.headers['x-acting-as']).toBe('meadowbrook');
    await waitFor(() => expect(notices()).toContain('Category has been created.'));

    await user.click(screen.getByRole('button', { name: 'Rename Mandatory training' }));
    const rename = await screen.findByRole('dialog');
    const input = within(rename).getByLabelText(/Name/);
    await user.clear(input);
    await user.type(input, 'Mandatory');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toMatchObject({
      method: 'PATCH',
      path: '/course-categories/5',
      body: { name: 'Mandatory' },
    });

    await user.click(screen.getByRole('button', { name: 'Delete Mandatory training' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()[2]).toMatchObject({ method: 'DELETE', path: '/course-categories/5' });
  });
});

describe('certificate branding (/entities/{slug}/certificate-branding)', () => {
  it('previews changes live, shows 422 field errors beside the fields, and saves', async () => {
    withPerms([LearningPerm.whiteLabel]);
    let answer: Response = json(422, {
      message: 'The given data was invalid.',
      errors: { signatory_name: ['The signatory name is not acceptable.'] },
    });
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/meadowbrook/certificate-branding'))
        return json(200, {
          data: {
            title: 'Certificate of Completion',
            signatory_name: null,
            signatory_role: null,
            accent_colour: '#1f2937',
            logo_file_id: null,
            logo_url: null,
          },
        });
      if (c.method === 'PATCH') return answer;
      return undefined;
    };
    const user = userEvent.setup();
    renderAt(
      '/entities/meadowbrook/certificate-branding',
      '/entities/:slug/certificate-branding',
      CertificateBrandingPage,
    );
    const title = await screen.findByLabelText(/Certificate title/);
    // No 63/29: no upload, the white-label logo is explained instead.
    expect(screen.queryByText('Upload logo')).toBeNull();
    await user.clear(title);
    await user.type(title, 'Certificate of Achievement');
    expect(screen.getByTestId('preview-title')).toHaveTextContent('Certificate of Achievement');
    const accent = screen.getByLabelText(/^Accent colour/, {
      selector: 'input[type=text], input:not([type])',
    });
    await user.clear(accent);
    await user.type(accent, 'teal');
    await user.click(screen.getByRole('button', { name: 'Save certificate branding' }));
    expect(await screen.findByText('The colour must be a hex colour like #1f2937.')).toBeInTheDocument();
    expect(writes()).toHaveLength(0);

    await user.clear(accent);
    await user.type(accent, '#0f766e');
    expect(screen.getByTestId('preview-title')).toHaveStyle({ color: '#0f766e' });
    await user.type(screen.getByLabelText(/Signatory name/), 'Dr Ada Lovelace');
    await user.click(screen.getByRole('button', { name: 'Save certificate branding' }));
    expect(await screen.findByText('The signatory name is not acceptable.')).toBeInTheDocument();

    answer = json(200, {
      data: {
        title: 'Certificate of Achievement',
        signatory_name: 'Dr Ada Lovelace',
        signatory_role: null,
        accent_colour: '#0f766e',
        logo_file_id: null,
        logo_url: null,
      },
      message: 'Certificate branding has been updated.',
    });
    await user.click(screen.getByRole('button', { name: 'Save certificate branding' }));
    await waitFor(() => expect(notices()).toContain('Certificate branding has been updated.'));
    expect(writes().at(-1)?.body).toEqual({
      title: 'Certificate of Achievement',
      signatory_name: 'Dr Ada Lovelace',
      signatory_role: null,
      accent_colour: '#0f766e',
      logo_file_id: null,
    });
  });
});
