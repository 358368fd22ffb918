import type { Readable } from 'node:stream';
import type { ExportFormat, ReportPreset, ReportType } from '@cc/contracts';
import type { Ctx } from '../http/context';

/**
 * The seam between schedules and the reports capability: the reports helper registers one renderer per report
 * type; a scheduled run calls it with a ctx of the schedule's owner (acting as the preset's entity), so the
 * renderer applies the same permission checks and tenant scope as a request would. Until a renderer is
 * registered, a scheduled run fails with a recorded error — never a made-up report.
 *
 * Name files with reportFileName() from @cc/contracts (spec 2 §9).
 */
export interface RenderedReport {
  filename: string;
  contentType: string;
  body: Buffer | Readable;
}
export type ReportRenderer = (
  ctx: Ctx,
  preset: ReportPreset,
  format: ExportFormat,
) => Promise<RenderedReport>;

const renderers = new Map<ReportType, ReportRenderer>();

export function registerReportRenderer(type: ReportType, renderer: ReportRenderer): void {
  renderers.set(type, renderer);
}

export function reportRenderer(type: ReportType): ReportRenderer | undefined {
  return renderers.get(type);
}

/** Tests only: forget a renderer. */
export function unregisterReportRenderer(type: ReportType): void {
  renderers.delete(type);
}

export async function toBuffer(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
