import { RE2JS } from 're2js';
import { z } from 'zod';
import { updateSchemaOf } from './common';

/**
 * Help (spec 1 §1 "a chat-style help widget is always enabled", §2 help-widget layout and "the current route pattern,
 * with params replaced by a star, is stored to choose help articles", §4 identification; spec 2 §3 "Help article:
 * title, url_regex, link_suffix", GraphQL `helpArticles`). The spec names the fields; the rest is ours:
 *
 * - Articles are global (platform help, the same for every organisation) and managed by super admins only.
 * - `url_regex` is matched against the route PATTERN (e.g. `/users/*`), never against a full URL or user text, and
 *   only in the browser's own matching and the server's `route` filter: both cap the pattern's and the regex's length,
 *   and the regex must compile as RE2 (422 otherwise; see helpArticleMatches). An empty match (`^$`-like regexes) is
 *   allowed but matches nothing real.
 * - `link_suffix` (the spec leaves it open): what is appended to the current page's address to link to the article's
 *   place on that page, e.g. `#matrix-filters` (an anchor) or `?help=matrix` (a query the page understands). The
 *   widget shows the link as "Open on this page"; without a suffix there is no link.
 * - `body` is plain text with a small markdown subset (paragraphs, `- ` lists, `1. ` lists, `**bold**`, `## `
 *   headings, `[text](https://…)` links); it is always rendered as text nodes, never as HTML.
 */

export const HELP_TITLE_MAX = 150;
export const HELP_REGEX_MAX = 200;
export const HELP_SUFFIX_MAX = 200;
export const HELP_BODY_MAX = 10_000;
/** A route pattern is a path: anything longer is not one of ours, and bounds the work any regex can do on it. */
export const HELP_ROUTE_MAX = 300;
/** "Contact support" questions. */
export const HELP_QUESTION_MAX = 5000;
/** Contact requests a user may send in an hour (the rest get 429). */
export const HELP_CONTACTS_PER_HOUR = 10;

export const HelpMessages = {
  created: 'Help article has been created.',
  updated: 'Help article has been updated.',
  deleted: 'Help article has been deleted.',
  sent: 'Your question has been sent to support. We will reply by e-mail.',
  regexInvalid: 'The URL pattern is not a valid regular expression.',
  suffixInvalid: 'The link suffix must start with #, ? or & and contain no spaces.',
  customerNotFound: 'No user has this e-mail address.',
} as const;

/**
 * Help patterns are matched by RE2 (re2js, a pure-JS port: no native build, the same code in the browser and on the
 * server), never by JavaScript's backtracking RegExp. RE2 matches in time linear in the route's length whatever the
 * pattern, so no pattern can stall the server's `route` filter or a user's browser (issue 29 §11: `^[a-z/*]*…X$`
 * took 2 s on an 80-character route with RegExp, about an hour at HELP_ROUTE_MAX). One matcher on both sides is
 * simpler and safer than checking patterns for "catastrophic" shapes, which no short check does reliably. The price:
 * RE2 has no lookarounds or back-references, so a pattern using them is refused when written (regexCompiles).
 */
const compiled = new Map<string, RE2JS | null>();
const COMPILED_MAX = 500;

function compile(source: string): RE2JS | null {
  let re = compiled.get(source);
  if (re !== undefined) return re;
  try {
    re = RE2JS.compile(source);
  } catch {
    re = null;
  }
  // A small bound: there are a few dozen articles; a flood of distinct patterns only costs recompiling.
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(source, re);
  return re;
}

/** True when `source` compiles as an RE2 regular expression (the one dialect both sides run). */
export function regexCompiles(source: string): boolean {
  return compile(source) !== null;
}

/**
 * Does an article's url_regex match a route pattern (anywhere in it, as RegExp.test does)? A pattern longer than
 * HELP_ROUTE_MAX, or a regex that does not compile, matches nothing (the page still works; the article just does not
 * show).
 */
export function helpArticleMatches(urlRegex: string, routePattern: string): boolean {
  if (routePattern.length > HELP_ROUTE_MAX) return false;
  return compile(urlRegex)?.matcher(routePattern).find() ?? false;
}

const urlRegex = z
  .string({ error: 'The URL pattern field is required.' })
  .trim()
  .min(1, 'The URL pattern field is required.')
  .max(HELP_REGEX_MAX, `The URL pattern may not be longer than ${HELP_REGEX_MAX} characters.`)
  .refine(regexCompiles, HelpMessages.regexInvalid);

export const HelpArticleBody = z.object({
  title: z
    .string({ error: 'The title field is required.' })
    .trim()
    .min(1, 'The title field is required.')
    .max(HELP_TITLE_MAX, `The title may not be longer than ${HELP_TITLE_MAX} characters.`),
  url_regex: urlRegex,
  link_suffix: z
    .string()
    .trim()
    .max(HELP_SUFFIX_MAX, `The link suffix may not be longer than ${HELP_SUFFIX_MAX} characters.`)
    .refine((v) => v === '' || /^[#?&][^\s]*$/.test(v), HelpMessages.suffixInvalid)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  body: z
    .string({ error: 'The body field is required.' })
    .trim()
    .min(1, 'The body field is required.')
    .max(HELP_BODY_MAX, `The body may not be longer than ${HELP_BODY_MAX} characters.`),
});
export type HelpArticleBody = z.infer<typeof HelpArticleBody>;
export const UpdateHelpArticleBody = updateSchemaOf(HelpArticleBody);
export type UpdateHelpArticleBody = z.infer<typeof UpdateHelpArticleBody>;

export const HelpArticleParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });
export const HelpArticleListQuery = z.object({
  /** A route pattern (e.g. /users/*): only the articles whose url_regex matches it. */
  route: z.string().max(HELP_ROUTE_MAX).optional(),
});
export type HelpArticleListQuery = z.infer<typeof HelpArticleListQuery>;

export const HelpArticle = z.object({
  id: z.number(),
  title: z.string(),
  url_regex: z.string(),
  link_suffix: z.string().nullable(),
  body: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type HelpArticle = z.infer<typeof HelpArticle>;

/** Spec 1 §1: the session data fed to the widget. */
export const HelpSession = z.object({
  app_release: z.string().trim().max(50),
  environment: z.string().trim().max(50),
  mode: z.enum(['web', 'mobile']),
  /** Good when navigator.connection.downlink is at least 10 Mbps; unknown where the browser does not say. */
  connection: z.enum(['good', 'poor', 'unknown']),
  api_release: z.string().trim().max(50),
});
export type HelpSession = z.infer<typeof HelpSession>;

/**
 * POST /help/contact: the user's question, the page they asked from and the session data. The identification
 * (name, e-mail, role, type, profile link) is taken from the signed-in user on the server, not from the body.
 */
export const HelpContactBody = z.object({
  question: z
    .string({ error: 'Write your question.' })
    .trim()
    .min(1, 'Write your question.')
    .max(HELP_QUESTION_MAX, `A question can be at most ${HELP_QUESTION_MAX} characters.`),
  page: z.string().trim().max(2000).optional(),
  session: HelpSession,
});
export type HelpContactBody = z.infer<typeof HelpContactBody>;

/** Spec 1 §4 "help widget identification": the profile details the widget is identified with. */
export const HelpIdentity = z.object({
  name: z.string(),
  email: z.string(),
  role: z.object({ id: z.number(), name: z.string() }).nullable(),
  type: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** `<current host>/users/{uuid}` */
  profile_url: z.string(),
});
export type HelpIdentity = z.infer<typeof HelpIdentity>;

export const HelpContactResult = z.object({
  /** Who it went to, in words ("Meadowbrook Care Group support" or "the platform's support team"), never addresses. */
  delivered_to: z.string(),
});
export type HelpContactResult = z.infer<typeof HelpContactResult>;

export const HelpCustomerQuery = z.object({
  email: z.string().trim().min(1, 'The email field is required.').max(255),
});

/** GET /help/customers?email=: what a support agent sees about a customer (help-desk layout, /helpscout-app). */
export const HelpCustomer = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  email: z.string(),
  profile_url: z.string(),
  organisation: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  a_entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  role: z.object({ id: z.number(), name: z.string() }).nullable(),
  type: z.object({ id: z.number(), name: z.string() }).nullable(),
  email_verified: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
  recent_sign_ins: z.array(
    z.object({
      event: z.string(),
      created_at: z.string(),
      ip: z.string().nullable(),
      user_agent: z.string().nullable(),
    }),
  ),
  compliance: z.object({
    required: z.number(),
    compliant: z.number(),
    /** Percentage 0-100, or null with no required courses. */
    score: z.number().nullable(),
    by_status: z.record(z.string(), z.number()),
  }),
});
export type HelpCustomer = z.infer<typeof HelpCustomer>;
