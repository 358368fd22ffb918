/**
 * How a topic's body_html looks to the learner: the attempt player and the content designer's preview both use
 * this one class list, so the preview is the player's typography. Callouts are blockquotes and accordions are
 * <details> (content designer, issue 17), hence their styles here.
 */
export const TOPIC_BODY_CLASS = [
  'topic-body max-w-none break-words text-[0.95rem] leading-relaxed text-slate-800',
  '[&_a]:text-primary-700 [&_a]:underline [&_h2]:mt-4 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:font-semibold',
  '[&_img]:h-auto [&_img]:max-w-full [&_li]:ml-5 [&_ol]:list-decimal [&_p]:my-3 [&_ul]:list-disc',
  '[&_blockquote]:my-4 [&_blockquote]:rounded-lg [&_blockquote]:border-l-4 [&_blockquote]:border-primary-600 [&_blockquote]:bg-slate-50 [&_blockquote]:px-4 [&_blockquote]:py-1',
  '[&_details]:my-2 [&_details]:rounded-lg [&_details]:border [&_details]:border-slate-200 [&_details]:px-4 [&_details]:py-2',
  '[&_summary]:cursor-pointer [&_summary]:font-semibold',
].join(' ');
