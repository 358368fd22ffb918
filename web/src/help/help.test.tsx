import type { HelpArticle } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../app/auth';
import { routePattern, routePatternStore } from '../app/route-meta';
import { HelpBody } from './HelpBody';
import { HelpWidget } from './HelpWidget';
import { articleLink, articlesForRoute, connectionStrength } from './help';

const article = (id: number, url_regex: string, link_suffix: string | null = null): HelpArticle => ({
  id,
  title: `Article ${id}`,
  url_regex,
  link_suffix,
  body: 'Body',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('choosing help articles by route pattern (spec 1 §2)', () => {
  const articles = [
    article(1, '^/users/\\*$'),
    article(2, '^/reports/matrix$'),
    article(3, '^/entities/\\*/role/\\*/courses$'),
    article(4, '('), // does not compile: matches nothing, breaks nothing
  ];

  it('matches the pattern with params as stars, not the address', () => {
    const pattern = routePattern('/users/2f6c1e9a-0000-4000-8000-000000000001', {
      uuid: '2f6c1e9a-0000-4000-8000-000000000001',
    });
    expect(pattern).toBe('/users/*');
    expect(articlesForRoute(articles, pattern).map((a) => a.id)).toEqual([1]);
    const nested = routePattern('/entities/oakfield-house/role/12/courses', {
      slug: 'oakfield-house',
      role: '12',
    });
    expect(articlesForRoute(articles, nested).map((a) => a.id)).toEqual([3]);
    expect(articlesForRoute(articles, '/reports/matrix').map((a) => a.id)).toEqual([2]);
  });

  it('shows nothing unrelated: a fixed route is not a param route', () => {
    expect(articlesForRoute(articles, '/users/create')).toEqual([]);
    expect(articlesForRoute(articles, '/reports/matrix-legacy')).toEqual([]);
  });
});

describe('article links (link_suffix)', () => {
  it('an anchor replaces the hash, a query joins the page query', () => {
    expect(articleLink('https://app.test/reports/matrix?x=1#old', '#filters')).toBe(
      'https://app.test/reports/matrix?x=1#filters',
    );
    expect(articleLink('https://app.test/reports/matrix?x=1#top', '?help=matrix')).toBe(
      'https://app.test/reports/matrix?x=1&help=matrix#top',
    );
    expect(articleLink('https://app.test/users', '&tab=help')).toBe('https://app.test/users?tab=help');
    expect(articleLink('https://app.test/users', null)).toBeNull();
  });
});

describe('connection strength (spec 1 §1)', () => {
  it('is good from 10 Mbps, poor below, unknown when the browser does not say', () => {
    expect(connectionStrength({ downlink: 10 })).toBe('good');
    expect(connectionStrength({ downlink: 9.9 })).toBe('poor');
    expect(connectionStrength({})).toBe('unknown');
    expect(connectionStrength(undefined)).toBe('unknown');
  });
});

describe('HelpBody', () => {
  it('renders the markdown subset as elements and any HTML as text', () => {
    const { container } = render(
      <HelpBody
        body={
          '## Steps\n\n1. Open **Training records**\n2. Save\n\n<img src=x onerror=alert(1)> see [the guide](https://example.com/g) or [bad](javascript:alert(1))'
        }
      />,
    );
    expect(screen.getByRole('heading', { name: 'Steps' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByText('Training records').tagName).toBe('STRONG');
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(screen.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://example.com/g');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
  });
});

describe('the widget signed out (sign-in and error pages, issue 38 §3)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the route's articles from GET /api/help-articles, and no Contact support", async () => {
    authStore.set({ user: null, message: null, loading: false, error: null, token: null });
    routePatternStore.set('/login');
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        const url = new URL(input, 'http://localhost');
        calls.push(`${init?.method ?? 'GET'} ${url.pathname}`);
        const data = [
          { ...article(1, '^/login$'), title: 'Signing in' },
          { ...article(2, '^/reports/matrix$'), title: 'The matrix' },
        ];
        return new Response(JSON.stringify({ data }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <HelpWidget />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByTestId('help-button'));
    const forPage = await screen.findByRole('list', { name: 'Help for this page' });
    expect(forPage).toHaveTextContent('Signing in');
    expect(forPage).not.toHaveTextContent('The matrix');
    expect(screen.getByText(/^How can we help\?/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Contact support' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Signing in' }));
    await screen.findByTestId('help-article');
    expect(screen.queryByRole('button', { name: 'Contact support' })).toBeNull();
    expect(calls).toEqual(['GET /api/help-articles']);
  });
});
