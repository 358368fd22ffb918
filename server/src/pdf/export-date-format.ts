import { type DateFormat, DEFAULT_DATE_FORMAT } from '@cc/contracts';
import type { Ctx } from '../http/context';

/**
 * The date format of the files a caller exports (matrix PDF and XLSX, the inspection pack): the one date format of
 * issue 13. The organisation's own setting (H5) plugs in here; until then, the default (DD/MM/YYYY).
 */
export async function exportDateFormat(_ctx: Pick<Ctx, 'db' | 'actor'>): Promise<DateFormat> {
  return DEFAULT_DATE_FORMAT;
}
