import { z } from 'zod';
import { EntityRef, PersonRef } from './bookings';
import { PageQuery } from './common';

/**
 * The content designer (issue 17; spec 2 §2): e-learning built visually from blocks, then published as an
 * ordinary e-learning content item with its lessons and topics, so the player, results and compliance work
 * unchanged.
 *
 * Model: a **design** has pages; each page has blocks. Publishing makes (first time) or updates (later) one
 * e-learning content item of a course: one lesson per design, one topic per page (the page's blocks rendered to
 * sanitised HTML, the same sanitiser as every other user HTML; an H5P block links the page's topic to that H5P
 * item); question blocks become the content's quiz (single-choice questions; pass mark `pass_mark`). A design's
 * `revision` counts saves; `published_revision` shows whether the published content is up to date.
 *
 * Who may do what: content creator (63) or add content (29) for designs of organisations in scope (a super admin
 * everywhere); publishing also needs edit content (30) when it updates an existing content item.
 */
export const DesignerPerm = { use: [29, 63], publish: [29, 63], updatePublished: 30 } as const;

export const DESIGN_BLOCK_TYPES = [
  'heading',
  'text',
  'image',
  'video',
  'callout',
  'accordion',
  'h5p',
  'question',
] as const;
export type DesignBlockType = (typeof DESIGN_BLOCK_TYPES)[number];
export const CALLOUT_TONES = ['info', 'tip', 'warning'] as const;

export const DesignerMessages = {
  created: 'Design created.',
  saved: 'Design saved.',
  deleted: 'Design deleted.',
  published: 'Published: learners can now take it.',
  // Refusals.
  nothingToPublish: 'Add at least one page with a block before publishing.',
  videoHost: 'Link a video on YouTube or Vimeo.',
  staleRevision: 'This design was changed elsewhere: reload it to see the latest version.',
} as const;

const text = (max: number) => z.string().max(max);
const blockId = z.string().min(1).max(64);

export const DesignBlock = z.discriminatedUnion('type', [
  z.object({
    id: blockId,
    type: z.literal('heading'),
    text: text(200).min(1, 'Enter the heading.'),
    level: z.union([z.literal(2), z.literal(3)]).default(2),
  }),
  /** Rich text as HTML: sanitised on save and on publish. */
  z.object({ id: blockId, type: z.literal('text'), html: text(50_000) }),
  /** An image uploaded through POST /content/images: its URL as that call returns it. */
  z.object({
    id: blockId,
    type: z.literal('image'),
    url: text(2000).min(1, 'Upload an image.'),
    alt: text(300).min(1, 'Describe the image for people who cannot see it.'),
  }),
  z.object({
    id: blockId,
    type: z.literal('video'),
    url: z.url({ error: 'Enter the video’s link.' }).max(2000),
    title: text(200).default(''),
  }),
  z.object({
    id: blockId,
    type: z.literal('callout'),
    tone: z.enum(CALLOUT_TONES).default('info'),
    html: text(10_000),
  }),
  z.object({
    id: blockId,
    type: z.literal('accordion'),
    items: z
      .array(z.object({ title: text(200).min(1, 'Enter a title.'), html: text(20_000) }))
      .min(1)
      .max(30),
  }),
  z.object({ id: blockId, type: z.literal('h5p'), h5p_id: z.number().int().positive() }),
  z.object({
    id: blockId,
    type: z.literal('question'),
    question: text(1000).min(1, 'Enter the question.'),
    options: z.array(text(300).min(1, 'Enter the answer.')).min(2, 'Give at least two answers.').max(8),
    correct: z.number().int().min(0),
    feedback: text(1000).default(''),
  }),
]);
export type DesignBlock = z.infer<typeof DesignBlock>;

export const DesignPage = z.object({
  id: blockId,
  title: text(200).min(1, 'Give the page a title.'),
  blocks: z.array(DesignBlock).max(200),
});
export type DesignPage = z.infer<typeof DesignPage>;

export const CreateDesignBody = z.object({
  entity: z.string().max(120).optional(),
  title: text(200).trim().min(1, 'Enter a title.'),
  pages: z.array(DesignPage).max(100).default([]),
});
/** PATCH: only the fields sent change; `revision` is the one the editor loaded (409 when it is stale). */
export const UpdateDesignBody = z.object({
  title: text(200).trim().min(1, 'Enter a title.').optional(),
  pages: z.array(DesignPage).max(100).optional(),
  revision: z.number().int().positive(),
});
export const PublishDesignBody = z.object({
  /** The course the content belongs to (first publish only; later publishes update the same content). */
  course_id: z.number().int().positive().optional(),
  /** Or a new course of this title (first publish only). */
  new_course_title: text(200).trim().min(1).optional(),
  /** Pass mark of the quiz made from question blocks, in percent. */
  pass_mark: z.number().int().min(0).max(100).default(80),
});
export const DesignListQuery = PageQuery.extend({});

export const DESIGN_STATES = ['draft', 'published', 'changed'] as const;
export const DesignSummary = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  entity: EntityRef,
  page_count: z.number(),
  revision: z.number(),
  /** draft: never published; published: up to date; changed: saved since the last publish. */
  state: z.enum(DESIGN_STATES),
  published_at: z.string().nullable(),
  content: z.object({ id: z.number(), title: z.string(), course_id: z.number() }).nullable(),
  updated_at: z.string(),
  created_by: PersonRef.nullable(),
});
export type DesignSummary = z.infer<typeof DesignSummary>;
export const DesignView = DesignSummary.extend({ pages: z.array(DesignPage) });
export type DesignView = z.infer<typeof DesignView>;

/**
 * POST /designs/preview: the pages as the learner will see them, rendered and sanitised by the server exactly as
 * publishing does (so the editor's preview is the published HTML, not an imitation of it). Nothing is stored.
 */
export const PreviewDesignBody = z.object({ pages: z.array(DesignPage).max(100) });
export const DesignPreviewPage = z.object({
  id: z.string(),
  title: z.string(),
  /** Sanitised topic HTML, exactly what the published topic's body_html will be. */
  body_html: z.string(),
  h5p: z.object({ id: z.number(), title: z.string() }).nullable(),
});
export const DesignPreview = z.object({
  pages: z.array(DesignPreviewPage),
  /** The quiz made from the question blocks, in page then block order (empty: no quiz). */
  questions: z.array(z.object({ text: z.string(), answers: z.array(z.string()) })),
});
export type DesignPreview = z.infer<typeof DesignPreview>;

/** The hosts a video block may link (privacy: no other site's player is ever linked from learning). */
const VIDEO_HOSTS: Record<string, 'YouTube' | 'Vimeo'> = {
  'youtube.com': 'YouTube',
  'www.youtube.com': 'YouTube',
  'm.youtube.com': 'YouTube',
  'youtu.be': 'YouTube',
  'www.youtube-nocookie.com': 'YouTube',
  'vimeo.com': 'Vimeo',
  'www.vimeo.com': 'Vimeo',
  'player.vimeo.com': 'Vimeo',
};

/** 'YouTube' or 'Vimeo' for an https link to one of them, else null (the save answers 422 videoHost). */
export function videoHostOf(url: string): 'YouTube' | 'Vimeo' | null {
  // The contracts build has no URL global (no DOM or Node library): the host is read by pattern.
  const match = /^https:\/\/([^/?#:@\s]+)(?:[/?#]|$)/i.exec(url.trim());
  return match?.[1] ? (VIDEO_HOSTS[match[1].toLowerCase()] ?? null) : null;
}
