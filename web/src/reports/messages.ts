import { ReportsMessages } from '@cc/contracts';

/** The reports' client messages (spec 2 §8), with the 300 notice of spec 2 §4. */
export const ReportMessages = {
  ...ReportsMessages,
  tooLarge: (expected: string) => `This report is large; it will take about ${expected}.`,
  emptyExport: 'There is nothing to download for this selection.',
} as const;
