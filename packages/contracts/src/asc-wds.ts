import { z } from 'zod';

/**
 * The ASC-WDS training export (issue 37 §1; server/src/reports/asc-wds-export.ts, docs/asc-wds-export.md): the bulk
 * upload training file of Skills for Care's Adult Social Care Workforce Data Set, written per home.
 *
 * Source for the file's columns, codes and rules: the ASC-WDS service's own code, github.com/NMDSdevopsServiceAdm/
 * SopraSteria-SFC (the repository the importer's csv.ts cites):
 * - backend/server/routes/establishments/bulkUpload/data/trainingHeaders.js: the header line, compared exactly;
 * - lambdas/bulkUpload/classes/trainingCSVValidator.js: LOCALESTID and UNIQUEWORKERID required (≤ 50 characters),
 *   TRAININGNAME required (≤ 120), CATEGORY a bulk upload code, ACCREDITED 0/1/999, dates DD/MM/YYYY, completed not in
 *   the future, expiry after completion, NOTES ≤ 1,000;
 * - backend/reference/trainingCategory.js (the bulk upload code of each category) and
 *   backend/migrations/20260610161424-updateAnalysisFileCodeForTrainingCategoryTable.js (each code's category name).
 * - backend/server/models/classes/worker.js saveAssociatedEntities: a worker named in the training file has ALL their
 *   training records replaced by the file's rows. So "changes since the last export" sends every record of each person
 *   with a change, never a lone record (the others would be deleted).
 */

export const ASC_WDS_TRAINING_HEADERS = [
  'LOCALESTID',
  'UNIQUEWORKERID',
  'CATEGORY',
  'TRAININGNAME',
  'ACCREDITED',
  'WHODELIVERED',
  'PROVIDERNAME',
  'HOWDELIVERED',
  'VALIDITY',
  'DATECOMPLETED',
  'EXPIRYDATE',
  'NOTES',
] as const;

/** Lengths ASC-WDS refuses above. */
export const ASC_WDS_MAX = { localId: 50, workerId: 50, trainingName: 120, notes: 1000 } as const;

/** The ASC-WDS training categories with their bulk upload codes (the CATEGORY column). */
export const ASC_WDS_CATEGORIES: readonly { code: number; name: string }[] = [
  { code: 39, name: 'Activity provision, wellbeing' },
  { code: 46, name: 'Assisted digital and accessibility' },
  { code: 15, name: 'Assisting and moving people' },
  { code: 32, name: 'Autism' },
  { code: 7, name: 'Basic life support and first aid' },
  { code: 25, name: "Children's, young people's related training" },
  { code: 28, name: 'Communication' },
  { code: 37, name: 'Complaints handling, conflict resolution' },
  { code: 33, name: 'Continence care' },
  { code: 1, name: 'Control and restraint' },
  { code: 30, name: 'COSHH' },
  { code: 26, name: 'Data management and GDPR' },
  { code: 2, name: 'Dementia care' },
  { code: 29, name: 'Diabetes' },
  { code: 47, name: 'Digital leadership skills' },
  { code: 22, name: 'Dignity, respect, person-centered care' },
  { code: 34, name: 'Duty of care' },
  { code: 5, name: 'Emergency aid awareness' },
  { code: 27, name: 'Epilepsy' },
  { code: 23, name: 'Equality and diversity' },
  { code: 6, name: 'Fire safety' },
  { code: 8, name: 'Food hygiene' },
  { code: 9, name: 'Health and safety awareness' },
  { code: 10, name: 'Infection prevention and control' },
  { code: 48, name: 'In-house systems and applications' },
  { code: 11, name: 'Leadership and management' },
  { code: 12, name: 'Learning disability' },
  { code: 13, name: 'Medication management' },
  { code: 14, name: 'Mental capacity and liberty safeguards' },
  { code: 31, name: 'Mental health' },
  { code: 45, name: 'Moving and handling objects' },
  { code: 16, name: 'Nutrition and hydration' },
  { code: 41, name: 'Oliver McGowan Mandatory Training (elearning)' },
  { code: 42, name: 'Oliver McGowan Mandatory Training (Tier 1)' },
  { code: 43, name: 'Oliver McGowan Mandatory Training (Tier 2)' },
  { code: 49, name: 'Online safety and security' },
  { code: 44, name: 'Oral health' },
  { code: 17, name: 'Palliative, end of life care' },
  { code: 38, name: 'Personal care' },
  { code: 18, name: 'Physical disability' },
  { code: 19, name: 'Positive behaviour support and non-restrictive practice' },
  { code: 20, name: 'Safeguarding adults' },
  { code: 40, name: 'Sensory disability' },
  { code: 50, name: 'Social media and communications' },
  { code: 36, name: 'Stroke' },
  { code: 35, name: 'Supervision, performance management' },
  { code: 51, name: 'Working with digital technology' },
  { code: 21, name: 'Other' },
];

export const ASC_WDS_CATEGORY_CODES: ReadonlySet<number> = new Set(ASC_WDS_CATEGORIES.map((c) => c.code));
export const ascWdsCategoryName = (code: number | null | undefined) =>
  ASC_WDS_CATEGORIES.find((c) => c.code === code)?.name ?? null;

/**
 * Words in a course title that point to a category (first match wins, so the more specific come first). A
 * suggestion only: the manager chooses.
 */
const SUGGESTIONS: [RegExp, number][] = [
  [/oliver mcgowan.*tier ?2/i, 43],
  [/oliver mcgowan.*tier ?1/i, 42],
  [/oliver mcgowan/i, 41],
  [/safeguard/i, 20],
  [/mental capacity|\bmca\b|dols|liberty/i, 14],
  [/fire/i, 6],
  [/infection|\bipc\b|hand hygiene|ppe|donning|doffing/i, 10],
  [/food|kitchen|allergen/i, 8],
  [/\bcoshh\b|hazardous substance/i, 30],
  [/first aid|life support|\bbls\b|resuscitation|\bcpr\b/i, 7],
  [/emergency aid/i, 5],
  [/moving (and|&) handling (of )?(objects|loads)|manual handling/i, 45],
  [/moving (and|&) handling|moving (and|&) positioning|moving people/i, 15],
  [/medic(ation|ine)/i, 13],
  [/dementia/i, 2],
  [/autis/i, 32],
  [/learning disabilit/i, 12],
  [/epilep/i, 27],
  [/diabet/i, 29],
  [/stroke/i, 36],
  [/mental health/i, 31],
  [/end of life|palliative/i, 17],
  [/nutrition|hydration|fluid|dysphagia/i, 16],
  [/continence|catheter/i, 33],
  [/oral (health|care)/i, 44],
  [/equality|diversity|inclusion/i, 23],
  [/gdpr|data protection|confidential|information governance|record keeping/i, 26],
  [/dignity|person[- ]cent(red|ered)|privacy/i, 22],
  [/duty of care/i, 34],
  [/communicat/i, 28],
  [/complaint|conflict/i, 37],
  [/restraint|breakaway|disengagement/i, 1],
  [/positive behaviour|\bpbs\b|restrictive/i, 19],
  [/supervis|appraisal|performance/i, 35],
  [/leader|manag(er|ement)/i, 11],
  [/personal care|continence/i, 38],
  [/activit|well-?being/i, 39],
  [/sensory|sight|hearing/i, 40],
  [/physical disabilit/i, 18],
  [/child/i, 25],
  [/cyber|online safety|phishing/i, 49],
  [/social media/i, 50],
  [/health (and|&) safety|risk assessment|lone working/i, 9],
];

/** The category a course's title suggests, or null when none fits. */
export function suggestAscWdsCategory(title: string): number | null {
  for (const [pattern, code] of SUGGESTIONS) if (pattern.test(title)) return code;
  return null;
}

export const AscWdsMessages = {
  settingsSaved: 'The ASC-WDS workplace ID has been saved.',
  categorySaved: 'The ASC-WDS category has been saved.',
  noLocalId: 'Enter this home’s ASC-WDS workplace ID (LOCALESTID) before exporting.',
  nothingToSend: 'There is nothing to send: no training records changed since the last export.',
} as const;

/** GET /entities/{slug}/asc-wds/training?since=last|all: since the last export (default), or everything. */
export const AscWdsSince = z.enum(['last', 'all']);
export type AscWdsSince = z.infer<typeof AscWdsSince>;
export const AscWdsQuery = z.object({ since: AscWdsSince.default('last') });
export type AscWdsQuery = z.infer<typeof AscWdsQuery>;

/** PUT /entities/{slug}/asc-wds: the home's workplace ID in ASC-WDS ("Workplace ID" / LOCALESTID), or null. */
export const AscWdsSettingsBody = z.object({
  local_establishment_id: z
    .string()
    .trim()
    .max(ASC_WDS_MAX.localId, `The workplace ID must be at most ${ASC_WDS_MAX.localId} characters.`)
    .refine((s) => !/^[=+\-@]/.test(s), 'The workplace ID cannot start with =, +, - or @.')
    .refine((s) => !/[,"\r\n]/.test(s), 'The workplace ID cannot hold commas, quotes or line breaks.')
    .transform((s) => s || null)
    .nullable(),
});
export type AscWdsSettingsBody = z.infer<typeof AscWdsSettingsBody>;

export const AscWdsCategoryParams = z.object({
  slug: z.string().min(1).max(120),
  courseId: z.coerce.number().int().positive().max(2147483647),
});
/** PUT /entities/{slug}/asc-wds/categories/{courseId}: the course's ASC-WDS category (a bulk upload code), or null. */
export const AscWdsCategoryBody = z.object({
  category: z
    .number({ message: 'Choose an ASC-WDS training category.' })
    .int()
    .refine((c) => ASC_WDS_CATEGORY_CODES.has(c), 'Choose an ASC-WDS training category.')
    .nullable(),
});
export type AscWdsCategoryBody = z.infer<typeof AscWdsCategoryBody>;

export interface AscWdsRow {
  person: { uuid: string; name: string; employee_number: string };
  course: { id: number; title: string };
  category: number;
  completed_on: string;
  expires_on: string | null;
  accredited: '0' | '1' | '999' | null;
}

export interface AscWdsCourse {
  id: number;
  title: string;
  category: number | null;
  suggestion: number | null;
  /** Records of this course in the export (missing: records left out for want of a category). */
  records: number;
}

/** GET /entities/{slug}/asc-wds/training: what the file will hold, and what is left out and why. */
export interface AscWdsPreview {
  home: { id: number; slug: string; name: string; local_establishment_id: string | null };
  since: AscWdsSince;
  last_export: { at: string; by: string | null; since: AscWdsSince; rows: number } | null;
  rows: AscWdsRow[];
  courses: AscWdsCourse[];
  /**
   * People with records to send but no employee number (UNIQUEWORKERID). An employee number is set by a people import
   * (the importer), so the page offers these as a people file to fill in.
   */
  missing_id: { uuid: string; name: string; email: string; records: number }[];
  /** Rows the importer's rules refuse (they are left out of the file). */
  invalid: { person: string; course: string; column: string; message: string }[];
  may_map: boolean;
  may_set_id: boolean;
}
